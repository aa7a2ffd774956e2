import Foundation
import Testing

@testable import Harmonizer

@Suite struct SamplePlayerTests {
  /// Renders `count` frames in blocks of the given sizes, cycled.
  static func render(_ player: inout SamplePlayer, count: Int, blocks: [Int], adding: Bool = false) -> [Float]
  {
    var out = [Float](repeating: adding ? 0.5 : 0, count: count)
    var offset = 0
    var b = 0
    out.withUnsafeMutableBufferPointer { all in
      while offset < count {
        let size = min(blocks[b % blocks.count], count - offset)
        let block = UnsafeMutableBufferPointer(rebasing: all[offset..<(offset + size)])
        if adding { player.render(adding: block) } else { player.render(into: block) }
        offset += size
        b += 1
      }
    }
    return out
  }

  static func sine(_ count: Int, hz: Double, rate: Double = 48000) -> [Float] {
    (0..<count).map { Float(0.8 * sin(2 * Double.pi * hz * Double($0) / rate)) }
  }

  @Test func playsTheTrimmedFramesOnceThenStops() throws {
    var sample = try Sample(name: "r", sampleRate: 48000, frames: (0..<100).map { Float($0) / 100 })
    try sample.trim(startFrame: 10, endFrame: 30)
    var player = SamplePlayer(sample: sample)
    #expect(Self.render(&player, count: 8, blocks: [8]) == Array(repeating: 0, count: 8))
    player.start()
    let out = Self.render(&player, count: 30, blocks: [7])
    #expect(Array(out[0..<20]) == (10..<30).map { Float($0) / 100 })
    #expect(Array(out[20...]) == Array(repeating: 0, count: 10))
    #expect(!player.isPlaying && player.endCount == 1)
    // render(adding:) mixes into what is there.
    player.start()
    let mixed = Self.render(&player, count: 22, blocks: [5], adding: true)
    #expect(mixed[0] == 0.5 + 0.1 && mixed[21] == 0.5)
  }

  @Test(arguments: [[1], [64], [3, 17, 128], [511, 2]])
  func outputDoesNotDependOnTheBlockSize(blocks: [Int]) throws {
    var sample = try Sample(name: "s", sampleRate: 48000, frames: Self.sine(3000, hz: 317))
    try sample.setLoop(SampleLoop(isEnabled: true, region: 500..<2500, crossfadeSeconds: 0.005))
    var reference = SamplePlayer(sample: sample)
    reference.start()
    reference.gainDB = -6
    let expected = Self.render(&reference, count: 9000, blocks: [9000])
    var player = SamplePlayer(sample: sample)
    player.start()
    player.gainDB = -6
    #expect(Self.render(&player, count: 9000, blocks: blocks) == expected)
    #expect(expected[8000] != 0)
  }

  /// The largest sample-to-sample step across each loop seam stays near the sine's own largest
  /// step, while a hard jump (no crossfade) at the same seam is many times larger.
  @Test(arguments: [0..<48000, 1000..<30000, 7..<9000])
  func loopSeamIsContinuous(region: Range<Int>) throws {
    let frames = Self.sine(48000, hz: 441.3)
    let naturalStep = Float(0.8 * 2 * Double.pi * 441.3 / 48000)
    func largestSeamStep(crossfade: Double) throws -> Float {
      var sample = try Sample(name: "s", sampleRate: 48000, frames: frames)
      try sample.setLoop(SampleLoop(isEnabled: true, region: region, crossfadeSeconds: crossfade))
      var player = SamplePlayer(sample: sample)
      player.start()
      let out = Self.render(&player, count: region.upperBound + 3 * region.count, blocks: [256])
      var largest: Float = 0
      for i in 1..<out.count { largest = max(largest, abs(out[i] - out[i - 1])) }
      #expect(player.isPlaying)
      return largest
    }
    let smooth = try largestSeamStep(crossfade: 0.01)
    #expect(smooth <= naturalStep * 1.05)
    let hard = try largestSeamStep(crossfade: 0)
    #expect(hard > naturalStep * 3)
  }

  @Test func stopFadesOutAndRetriggerRestarts() throws {
    let sample = try Sample(name: "dc", sampleRate: 48000, frames: Array(repeating: 0.5, count: 48000))
    var player = SamplePlayer(sample: sample)
    player.start()
    _ = Self.render(&player, count: 100, blocks: [100])
    player.stop()
    let fade = Self.render(&player, count: 400, blocks: [32])
    // 3 ms at 48 kHz: 144 frames of fade, each step at most 0.5/144, then silence.
    #expect(!player.isPlaying)
    #expect(fade[0] > 0.49 && fade[143] < 0.01 && fade[144...].allSatisfy { $0 == 0 })
    for i in 1..<fade.count { #expect(abs(fade[i] - fade[i - 1]) <= 0.5 / 144 + 1e-6) }

    player.start()
    _ = Self.render(&player, count: 1000, blocks: [128])
    #expect(player.positionFrames == 1000)
    player.retrigger()
    _ = Self.render(&player, count: 154, blocks: [128])
    #expect(player.isPlaying && player.positionFrames == 10)
  }

  @Test func gainGlidesWithoutAJump() throws {
    let sample = try Sample(name: "dc", sampleRate: 48000, frames: Array(repeating: 1, count: 4800))
    var player = SamplePlayer(sample: sample)
    player.start()
    _ = Self.render(&player, count: 10, blocks: [10])
    player.gain = 0
    let out = Self.render(&player, count: 1000, blocks: [64])
    #expect(out[0] > 0.99 && out[480] == 0 && out[999] == 0)
    for i in 1..<out.count { #expect(abs(out[i] - out[i - 1]) < 0.0022) }
    player.gainDB = -20
    _ = Self.render(&player, count: 1000, blocks: [64])
    #expect(abs(Self.render(&player, count: 1, blocks: [1])[0] - 0.1) < 1e-5)
    player.gain = .nan
    #expect(player.gain == 0)
  }
}
