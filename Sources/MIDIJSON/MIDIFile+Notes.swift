/// A note of a MIDI file: a note-on paired with its note-off.
public struct MIDIFileNote: Sendable, Hashable, Codable {
  /// The track index.
  public var track: Int
  /// The channel, 0–15.
  public var channel: Int
  /// The MIDI note number, 0–127.
  public var midi: Int
  /// The note-on velocity, 1–127.
  public var velocity: Int
  /// The note-off velocity, 0–127 (64 when the note ended with a note-on of velocity 0).
  public var releaseVelocity: Int
  /// The tick of the note-on.
  public var ticks: Int
  /// The length in ticks (0 for a note-off at the same tick, which is kept).
  public var durationTicks: Int
}

/// Which note-on a note-off ends when the same pitch is held more than once on a channel.
public enum NotePairing: String, Sendable, Hashable, Codable, CaseIterable {
  /// The earliest held note-on (first in, first out): the default, as mido-based tools and most
  /// sequencers do.
  case firstInFirstOut
  /// The latest held note-on (last in, first out).
  case lastInFirstOut
}

extension MIDIFile {
  /// Pairs note-ons with note-offs (or note-ons of velocity 0) per track, channel and pitch.
  ///
  /// - Parameter pairing: Which held note a note-off ends; first in, first out by default.
  /// - Returns: The notes sorted by tick, track, channel and pitch, and the notes never released
  ///   (their `durationTicks` runs to the end of their track).
  public func notes(pairing: NotePairing = .firstInFirstOut) -> (notes: [MIDIFileNote], unreleased: [MIDIFileNote]) {
    var notes: [MIDIFileNote] = []
    var unreleased: [MIDIFileNote] = []
    for (index, track) in tracks.enumerated() {
      var held: [Int: [(tick: Int, velocity: Int)]] = [:]  // key: channel << 7 | note
      func release(_ channel: Int, _ note: Int, at tick: Int, velocity: Int) {
        let key = channel << 7 | note
        guard var queue = held[key], !queue.isEmpty else { return }
        let on = pairing == .firstInFirstOut ? queue.removeFirst() : queue.removeLast()
        held[key] = queue
        notes.append(
          MIDIFileNote(
            track: index, channel: channel, midi: note, velocity: on.velocity, releaseVelocity: velocity,
            ticks: on.tick, durationTicks: tick - on.tick))
      }
      for timed in track.events {
        switch timed.event {
        case .noteOn(let c, let n, let v) where v > 0:
          held[Int(c) << 7 | Int(n), default: []].append((timed.tick, Int(v)))
        case .noteOn(let c, let n, _):
          release(Int(c), Int(n), at: timed.tick, velocity: 64)
        case .noteOff(let c, let n, let v):
          release(Int(c), Int(n), at: timed.tick, velocity: Int(v))
        default:
          break
        }
      }
      for (key, queue) in held {
        for on in queue {
          unreleased.append(
            MIDIFileNote(
              track: index, channel: key >> 7, midi: key & 0x7F, velocity: on.velocity, releaseVelocity: 0,
              ticks: on.tick, durationTicks: track.endTick - on.tick))
        }
      }
    }
    let order: (MIDIFileNote, MIDIFileNote) -> Bool = {
      ($0.ticks, $0.track, $0.channel, $0.midi) < ($1.ticks, $1.track, $1.channel, $1.midi)
    }
    return (notes.sorted(by: order), unreleased.sorted(by: order))
  }
}
