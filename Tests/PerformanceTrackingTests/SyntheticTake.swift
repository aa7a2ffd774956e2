import Foundation
import ScoreModel

@testable import PerformanceTracking

/// Hand-built notes and the sounds of a take played against them, for the linkers and fits.
enum SyntheticTake {
  /// A melody that moves by steps and leaps, so neighbouring notes differ in pitch.
  static let pattern = [0, 2, 4, 5, 7, 9, 11, 12, 11, 9, 7, 5, 4, 2]

  /// The frequency of a MIDI note detuned by `cents`, at A4 = 440 Hz.
  static func hz(_ midi: Int, cents: Double = 0) -> Double {
    440 * pow(2, (Double(midi - 69) + cents / 100) / 12)
  }

  /// `count` notes from C4 along ``pattern``, one every `spacing` seconds, each lasting `length`.
  static func notes(count: Int, spacing: Double = 0.5, length: Double = 0.45) -> [PerformanceNote] {
    (0..<count).map { i in
      PerformanceNote(
        index: i, measure: 1 + i / 4, expectedStart: Double(i) * spacing, expectedDuration: length,
        writtenPitch: MIDINote(rawValue: 60 + pattern[i % pattern.count])!)
    }
  }

  /// The sound a note would make: at its expected time stretched by `stretch` (1.08: 8 % slower),
  /// plus `latency` and `delay`, lasting `seconds`, at its pitch plus `semitones` and `cents`.
  static func sound(
    for note: PerformanceNote, stretch: Double = 1, latency: Double = 0, delay: Double = 0,
    seconds: Double = 0.2,
    semitones: Int = 0, cents: Double = 0
  ) -> PerformanceSound {
    let start = note.expectedStart * stretch + latency + delay
    let midi = (note.soundingPitch?.rawValue ?? 60) + semitones
    return PerformanceSound(
      start: start, end: start + seconds, frequencyHz: hz(midi, cents: cents), peakLevelDBFS: -12)
  }

  /// One sound per pitched note, played as ``sound(for:stretch:latency:delay:seconds:semitones:cents:)``.
  static func sounds(for notes: [PerformanceNote], stretch: Double = 1, latency: Double = 0)
    -> [PerformanceSound]
  {
    notes.filter { !$0.isRest }.map { sound(for: $0, stretch: stretch, latency: latency) }
  }

  /// Whether links keep the sounds' time order and no sound is linked twice.
  static func isOrderedAndUnique(_ links: [Int?]) -> Bool {
    let linked = links.compactMap { $0 }
    return zip(linked, linked.dropFirst()).allSatisfy { $0 < $1 }
  }
}
