import Foundation
import Testing

@testable import MIDIJSON

/// A small deterministic generator (SplitMix64), so that every run mutates the same way.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// One mutation of `bytes`: the kinds of damage real files and fuzzers produce.
func mutate(_ bytes: [UInt8], using random: inout SplitMix64) -> [UInt8] {
  var out = bytes
  for _ in 0..<Int.random(in: 1...4, using: &random) {
    let position = out.isEmpty ? 0 : Int.random(in: 0..<out.count, using: &random)
    switch Int.random(in: 0..<8, using: &random) {
    case 0 where !out.isEmpty:  // flip a bit
      out[position] ^= 1 << UInt8.random(in: 0...7, using: &random)
    case 1 where !out.isEmpty:  // an interesting byte
      out[position] = [0x00, 0x7F, 0x80, 0xF0, 0xF7, 0xFF, 0x2F, 0x51, 0x90, 0xFE].randomElement(using: &random)!
    case 2:  // insert random bytes
      out.insert(contentsOf: (0..<Int.random(in: 1...8, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }, at: position)
    case 3 where !out.isEmpty:  // delete a run
      out.removeSubrange(position..<min(out.count, position + Int.random(in: 1...16, using: &random)))
    case 4:  // truncate
      out.removeSubrange(position..<out.count)
    case 5 where out.count >= 4:  // a huge or zero 32-bit length somewhere
      let at = Int.random(in: 0...(out.count - 4), using: &random)
      let value: [UInt8] = Bool.random(using: &random) ? [0xFF, 0xFF, 0xFF, 0xF0] : [0, 0, 0, 0]
      out.replaceSubrange(at..<(at + 4), with: value)
    case 6 where !out.isEmpty:  // duplicate a slice
      let end = min(out.count, position + Int.random(in: 1...64, using: &random))
      out.insert(contentsOf: out[position..<end], at: Int.random(in: 0...out.count, using: &random))
    default:  // a long variable-length quantity
      out.insert(contentsOf: [0xFF, 0xFF, 0xFF, 0xFF, 0x7F], at: position)
    }
  }
  return out
}

@Suite struct MutationTests {
  /// 100,000 mutated MIDI files: each parses (leniently or strictly) or throws a typed error, and
  /// whatever parses converts to every JSON form and back without a crash, quickly.
  @Test func oneHundredThousandMutatedFilesNeverCrashOrHang() throws {
    let seeds = try edgeFiles.map { [UInt8](try fixture($0)) }
    var random = SplitMix64(state: 2026)
    var parsed = 0
    var rejected = 0
    var slowest = 0.0
    let clock = ContinuousClock()
    for i in 0..<100_000 {
      let input = Data(mutate(seeds[i % seeds.count], using: &random))
      let start = clock.now
      let file: MIDIFile
      do {
        file = try MIDIFile(data: input, options: MIDIReadOptions(strict: i % 4 == 0))
        parsed += 1
      } catch {
        rejected += 1
        #expect(!error.description.isEmpty)
        continue
      }
      // Every tenth parsed file goes through every conversion (the costly part); what our own
      // writers produce must read back.
      if parsed % 10 == 0 {
        do {
          let reread = try MIDIFile(data: file.encoded())
          // A gap of more than 2^28 - 1 ticks between two events cannot be written (see encoded()).
          let gaps = file.tracks.allSatisfy { track in
            zip([MIDITimedEvent(tick: 0, .meta(.endOfTrack))] + track.events, track.events).allSatisfy { $1.tick - $0.tick <= 0x0FFF_FFFF }
          }
          if gaps { #expect(reread.notes().notes == file.notes().notes) }
          _ = try MIDIFile(json: FullMIDIJSON(file).json())
          _ = try Composition(json: Composition(file).json())
        } catch {
          Issue.record("input \(i): our own output does not read back: \(error)")
        }
      } else {
        _ = file.notes()
      }
      let elapsed = clock.now - start
      slowest = max(slowest, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
    }
    #expect(parsed + rejected == 100_000)
    #expect(parsed > 10_000 && rejected > 10_000, "the mutations should exercise both outcomes: \(parsed) parsed")
    #expect(slowest < 1, "the slowest input took \(slowest) s")
  }

  /// Mutated compact MIDI JSON documents: each reads or throws a typed error.
  @Test func mutatedCompactJSONNeverCrashes() throws {
    let seeds = [try [UInt8](jsonFixture("seed-mary")), try [UInt8](jsonFixture("seed-my-first-song"))]
    var random = SplitMix64(state: 7)
    var read = 0
    for i in 0..<20_000 {
      let input = Data(mutate(seeds[i % 2], using: &random))
      do {
        let song = try Composition(json: input)
        read += 1
        _ = MIDIFile(song).encoded()
      } catch {
        #expect(!error.description.isEmpty)
      }
    }
    #expect(read > 100)
  }
}
