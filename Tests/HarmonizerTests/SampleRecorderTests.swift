import Foundation
import Testing

@testable import Harmonizer

@Suite struct SampleRecorderTests {
  static func feed(_ recorder: SampleRecorder, _ input: [Float], block: Int) {
    var offset = 0
    input.withUnsafeBufferPointer { all in
      while offset < input.count {
        let size = min(block, input.count - offset)
        recorder.process(UnsafeBufferPointer(rebasing: all[offset..<(offset + size)]))
        offset += size
      }
    }
  }

  @Test(arguments: [1, 37, 512])
  func roundTripGivesBackTheInput(block: Int) throws {
    let recorder = try SampleRecorder(sampleRate: 8000, maximumSeconds: 1)
    let input = (0..<3000).map { Float(sin(Double($0) * 0.01)) }
    Self.feed(recorder, input, block: block)  // idle: ignored
    #expect(recorder.recordedFrames == 0)
    recorder.start()
    Self.feed(recorder, input, block: block)
    recorder.stop()
    Self.feed(recorder, input, block: block)  // stopped: ignored
    let sample = try recorder.finish(name: "take")
    #expect(sample.frames == input && sample.sampleRate == 8000 && sample.name == "take")
    #expect(recorder.state == .idle && recorder.recordedFrames == 0)
    #expect(throws: SampleError.self) { try recorder.finish(name: "again") }
  }

  @Test func stopsWhenTheBufferIsFull() throws {
    let recorder = try SampleRecorder(sampleRate: 1000, maximumSeconds: 0.5)
    recorder.start()
    Self.feed(recorder, (0..<2000).map { Float($0) }, block: 64)
    #expect(recorder.state == .full && recorder.recordedFrames == 500)
    let sample = try recorder.finish(name: "full")
    #expect(sample.frames == (0..<500).map { Float($0) })
  }

  @Test func nanAndInfinityAreRecordedAsSilence() throws {
    let recorder = try SampleRecorder(sampleRate: 1000, maximumSeconds: 1)
    recorder.start()
    Self.feed(recorder, [0.5, .nan, .infinity, -.infinity, -0.5], block: 2)
    #expect(try recorder.finish(name: "n").frames == [0.5, 0, 0, 0, -0.5])
  }

  @Test func aTriggerLevelStartsTheTakeWithItsPreRoll() throws {
    // −20 dBFS trigger (0.1), 5 ms pre-roll at 1 kHz = 5 frames.
    let recorder = try SampleRecorder(
      sampleRate: 1000, maximumSeconds: 1, triggerLevelDB: -20, preRollSeconds: 0.005)
    var input = (0..<100).map { Float($0) * 0.0001 }  // below the trigger
    input[50] = .nan
    input += [0.2, 0.3, 0.05]
    recorder.start()
    #expect(recorder.state == .armed)
    Self.feed(recorder, Array(input[0..<60]), block: 7)
    #expect(recorder.state == .armed && recorder.recordedFrames == 0)
    Self.feed(recorder, Array(input[60...]), block: 7)
    #expect(recorder.state == .recording)
    let take = try recorder.finish(name: "t").frames
    #expect(take == Array(input[95..<100]) + [0.2, 0.3, 0.05])

    // Never reaching the level records nothing.
    recorder.start()
    Self.feed(recorder, Array(repeating: 0.05, count: 100), block: 16)
    #expect(throws: SampleError.self) { try recorder.finish(name: "silence") }
    #expect(throws: SampleError.self) {
      try SampleRecorder(sampleRate: 1000, maximumSeconds: 1, triggerLevelDB: 3)
    }
    #expect(throws: SampleError.self) { try SampleRecorder(sampleRate: 1000, maximumSeconds: 0) }
  }
}
