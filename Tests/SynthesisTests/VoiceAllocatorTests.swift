import Testing

@testable import Synthesis

/// A voice that records what happened to it, to test the allocator's choices.
struct ProbeVoice: SynthVoice {
  let sampleRate: Double
  var isActive = false
  var isReleased = false
  var pitch = 0.0
  var starts = 0
  var framesLeftAfterRelease = 0
  /// Pitches 42 and 46 (closed and open hi-hat) share class 1, as in General MIDI drum kits.
  var exclusiveClass: Int { pitch == 42 || pitch == 46 ? 1 : 0 }

  mutating func start(pitch: Double, velocity: Int) {
    self.pitch = pitch
    isActive = true
    isReleased = false
    starts += 1
  }

  mutating func release() {
    isReleased = true
    framesLeftAfterRelease = 10
  }

  mutating func render(adding output: UnsafeMutableBufferPointer<Float>) {
    for i in output.indices { output[i] += Float(pitch) }
    if isReleased {
      framesLeftAfterRelease -= output.count
      if framesLeftAfterRelease <= 0 { isActive = false }
    }
  }
}

struct ProbeInstrument: Instrument {
  func makeVoice(sampleRate: Double) -> ProbeVoice { ProbeVoice(sampleRate: sampleRate) }
}

@Suite struct VoiceAllocatorTests {
  static func sum(_ allocator: inout VoiceAllocator<ProbeVoice>, frames: Int = 1) -> Float {
    var block = [Float](repeating: 0, count: frames)
    block.withUnsafeMutableBufferPointer { allocator.render(adding: $0) }
    return block[0]
  }

  @Test func aVoiceOfAnExclusiveClassCutsTheOthersOfItsClassOnly() {
    var voices = VoiceAllocator(instrument: ProbeInstrument(), polyphony: 4, sampleRate: 1000)
    voices.noteOn(pitch: 46, velocity: 100)  // open hi-hat
    voices.noteOn(pitch: 38, velocity: 100)  // snare, no class
    voices.noteOn(pitch: 42, velocity: 100)  // closed hi-hat: cuts the open one
    #expect(Self.sum(&voices, frames: 20) == 46 + 38 + 42)  // the cut voice's release still sounds
    #expect(voices.activeCount == 2)
    #expect(Self.sum(&voices) == 38 + 42)
  }

  @Test func freeVoicesFirstThenTheOldestReleasedThenTheOldest() {
    var voices = VoiceAllocator(instrument: ProbeInstrument(), polyphony: 3, sampleRate: 1000)
    voices.noteOn(pitch: 60, velocity: 100)
    voices.noteOn(pitch: 62, velocity: 100)
    voices.noteOn(pitch: 64, velocity: 100)
    #expect(voices.activeCount == 3)
    #expect(Self.sum(&voices) == 186)
    // Release 62 then 60: the oldest *released* voice (60) is stolen, not the oldest of all.
    voices.noteOff(pitch: 62)
    voices.noteOff(pitch: 60)
    voices.noteOn(pitch: 70, velocity: 100)
    #expect(Self.sum(&voices) == 62 + 64 + 70)
    // The other released voice (62) goes next.
    voices.noteOn(pitch: 72, velocity: 100)
    #expect(Self.sum(&voices) == 64 + 70 + 72)
    // None free and none released: the oldest (64) goes.
    voices.noteOn(pitch: 74, velocity: 100)
    #expect(voices.activeCount == 3)
    #expect(Self.sum(&voices) == 70 + 72 + 74)
  }

  @Test func noteOffReleasesTheOldestUnreleasedVoiceOfThatPitch() {
    var voices = VoiceAllocator(instrument: ProbeInstrument(), polyphony: 4, sampleRate: 1000)
    voices.noteOn(pitch: 60, velocity: 100)
    voices.noteOn(pitch: 60, velocity: 100)
    voices.noteOff(pitch: 60)
    voices.noteOff(pitch: 61)  // nothing at 61
    _ = Self.sum(&voices, frames: 20)  // the released one finishes
    #expect(voices.activeCount == 1)
    voices.noteOff(pitch: 60)
    _ = Self.sum(&voices, frames: 20)
    #expect(voices.activeCount == 0)
  }

  @Test func releaseAllAndPolyphonyAtLeastOne() {
    var voices = VoiceAllocator(instrument: ProbeInstrument(), polyphony: 0, sampleRate: 1000)
    #expect(voices.polyphony == 1)
    voices.noteOn(pitch: 60, velocity: 100)
    voices.noteOn(pitch: 61, velocity: 100)  // steals the only voice
    #expect(Self.sum(&voices) == 61)
    voices.releaseAll()
    _ = Self.sum(&voices, frames: 20)
    #expect(voices.activeCount == 0)
  }

  @Test func aCopyIsIndependent() {
    var a = VoiceAllocator(instrument: ProbeInstrument(), polyphony: 2, sampleRate: 1000)
    a.noteOn(pitch: 60, velocity: 100)
    var b = a
    b.noteOn(pitch: 62, velocity: 100)
    #expect(a.activeCount == 1)
    #expect(b.activeCount == 2)
  }

  @Test func stealingAPluckedStringDoesNotStep() {
    // One guitar voice, restarted mid-note: the output's largest jump stays near the pluck's own.
    var voices = VoiceAllocator(instrument: Guitar(), polyphony: 1, sampleRate: 44_100)
    voices.noteOn(pitch: 40, velocity: 127)
    var block = [Float](repeating: 0, count: 2205)
    block.withUnsafeMutableBufferPointer { voices.render(adding: $0) }
    let last = block.last!
    voices.noteOn(pitch: 76, velocity: 1)  // very quiet: any jump would be the old string's
    var next = [Float](repeating: 0, count: 1)
    next.withUnsafeMutableBufferPointer { voices.render(adding: $0) }
    #expect(abs(next[0] - last) < 0.05)
  }
}
