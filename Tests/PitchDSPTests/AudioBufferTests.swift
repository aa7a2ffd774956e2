import Testing

@testable import PitchDSP

@Suite struct AudioBufferTests {
  @Test func mixdownAveragesChannels() {
    let buffer = AudioBuffer(sampleRate: 8000, channels: [[1, 0.5, -1], [0, 0.5, 1]])
    let mono = buffer.mixedToMono()
    #expect(mono.channelCount == 1)
    #expect(mono.mono == [0.5, 0.5, 0])
    #expect(buffer.durationSeconds == 3.0 / 8000)
  }
}
