import Foundation
import PerformanceAnalysis
import PerformanceTracking
import ScoreModel

/// The take `etude demo` grades: ``DemoEtude`` played on a synthesized brass-like tone, with
/// known mistakes among notes played as written with a player's small deviations.
///
/// How each note is played is listed in ``playing``, one entry per pitched note of the score in
/// order; ``extraSounds`` adds sounds the score does not ask for. The take is rendered from the
/// parsed score (its times, sounding pitches and articulations), so it follows the score the
/// grader reads. Everything is fixed: the same take, sample for sample, every run.
struct DemoTake {
  /// How one note is played.
  enum Playing: Equatable {
    /// As written, with a player's small deviations: the attack `jitterMs` off the beat, the
    /// pitch `cents` off (both well inside what a grader accepts).
    case asWritten(jitterMs: Double, cents: Double)
    /// Started `ms` late and released on time.
    case late(ms: Double)
    /// Played `cents` flat (a positive number) throughout.
    case flat(cents: Double)
    /// Another note, `semitones` from the written one (a key signature forgotten).
    case wrongNote(semitones: Int)
    /// The next higher partial of the note's standard fingering, at its natural-harmonic pitch.
    case upperPartial
    /// Not played at all.
    case missed
  }

  /// A short sound the score does not ask for, placed inside a rest.
  struct ExtraSound {
    /// The measure whose rest it falls in.
    var measure: Int
    /// How far into the rest it starts, in seconds.
    var offsetSeconds: Double
    /// How long it sounds, in seconds.
    var seconds: Double
    /// Its written pitch (MIDI).
    var writtenPitch: Int
  }

  /// How each pitched note of the score is played, in score order.
  var playing: [Playing]
  /// Sounds inside rests.
  var extraSounds: [ExtraSound]
  /// The instrument's partial table (for ``Playing/upperPartial``).
  var partials: PartialTable
  /// The tone: a trumpet-like spectrum (strong 2nd to 4th harmonics), a 25 ms attack, a slow
  /// decay, a 40 ms release, a 20 ms glide between slurred notes.
  var voice = HarmonicVoice(
    partials: [0.7, 1, 0.85, 0.65, 0.45, 0.3, 0.2, 0.12, 0.07, 0.04],
    attackSeconds: 0.025, decayPerSecond: 0.3, releaseSeconds: 0.04, glideSeconds: 0.02, peak: 0.45)
  /// Silence after the last note, in seconds.
  var tailSeconds = 0.6

  /// The demo's take of ``DemoEtude``: six mistakes (a late attack, an upper partial, a wrong
  /// note, a sound during the rest, a flat note, a missed note), every other note as written
  /// within 10 ms and 5 cents.
  static let demo = DemoTake(
    playing: [
      // Bar 2: G4, A4–B4–C5 slurred.
      .asWritten(jitterMs: 6, cents: 3), .asWritten(jitterMs: -4, cents: -2),
      .asWritten(jitterMs: 3, cents: 4), .asWritten(jitterMs: -7, cents: -3),
      // Bar 3: D5 (half), B4, G4.
      .late(ms: 120), .asWritten(jitterMs: 5, cents: 2), .asWritten(jitterMs: -3, cents: -4),
      // Bar 4: E5, D5, F♯5, rest.
      .upperPartial, .asWritten(jitterMs: 8, cents: 3), .wrongNote(semitones: -1),
      // Bar 5: G5 (staccato), E5, D5, B4.
      .asWritten(jitterMs: -5, cents: 5), .asWritten(jitterMs: 4, cents: -2), .flat(cents: 30),
      .asWritten(jitterMs: -6, cents: 2),
      // Bar 6: C5, A4, G4 (half).
      .asWritten(jitterMs: 7, cents: -3), .missed, .asWritten(jitterMs: -2, cents: 1),
    ],
    extraSounds: [ExtraSound(measure: 4, offsetSeconds: 0.15, seconds: 0.2, writtenPitch: 72)],
    partials: .trumpet)

  /// One note as played: when it starts and how long it sounds, on the score's time line.
  struct PlayedNote {
    /// The score note.
    var note: PerformanceNote
    /// How it is played.
    var playing: Playing
    /// The attack, in seconds.
    var startSeconds: Double
    /// How long it sounds, in seconds.
    var seconds: Double
    /// The fundamental, in Hz.
    var frequencyHz: Double
    /// Whether it runs into the next note without a new attack (under a slur).
    var slursIntoNext: Bool
  }

  /// The notes as played, one per pitched note (missed ones included, for their place).
  ///
  /// A note sounds for 90 % of its value (45 % staccato); under a slur it sounds to the next
  /// note, with no new attack, and the last note of a slur is released like a normal one.
  ///
  /// - Parameters:
  ///   - notes: The score's notes (``PerformanceNote/melody(of:)``), rests included.
  ///   - tuning: The tuning.
  func playedNotes(_ notes: [PerformanceNote], tuning: Tuning = .standard) -> [PlayedNote] {
    let pitched = notes.filter { !$0.isRest }
    precondition(pitched.count == playing.count, "one Playing per pitched note")
    var result: [PlayedNote] = []
    for (position, (note, playing)) in zip(pitched, self.playing).enumerated() {
      let next = position + 1 < pitched.count ? pitched[position + 1] : nil
      let slurs =
        note.articulation == .legato && next != nil
        && abs((next?.expectedStart ?? .infinity) - note.expectedEnd) < 1e-6
        && playing != .missed && self.playing[position + 1] != .missed
      let ratio = note.articulation == .staccato ? 0.45 : slurs ? 1 : 0.9
      var start = note.expectedStart
      var seconds = note.expectedDuration * ratio
      var midi = Double(note.soundingPitch?.rawValue ?? 0)
      switch playing {
      case .asWritten(let jitterMs, let cents):
        start += jitterMs / 1000
        midi += cents / 100
      case .late(let ms):
        start += ms / 1000
        seconds -= ms / 1000
      case .flat(let cents):
        midi -= cents / 100
      case .wrongNote(let semitones):
        midi += Double(semitones)
      case .upperPartial:
        midi = upperPartialMIDI(of: note) ?? midi
      case .missed:
        break
      }
      result.append(
        PlayedNote(
          note: note, playing: playing, startSeconds: start, seconds: seconds,
          frequencyHz: tuning.frequencyHz(midi: midi), slursIntoNext: slurs))
    }
    return result
  }

  /// The sounding pitch (fractional MIDI) of the partial above a note's on its standard
  /// fingering: `n + 1` halves of the frequency of the fingering's 2nd partial (taken in equal
  /// temperament), as the natural harmonic series has it.
  func upperPartialMIDI(of note: PerformanceNote) -> Double? {
    guard let written = note.writtenPitch, let sounding = note.soundingPitch,
      let (combination, n) = partials.fingering(written: written.rawValue),
      let second = combination.partials[2]
    else { return nil }
    return Double(second + sounding.rawValue - written.rawValue) + 12 * log2(Double(n + 1) / 2)
  }

  /// The take, mono, with the score's time line starting at sample 0.
  ///
  /// - Parameters:
  ///   - notes: The score's notes (``PerformanceNote/melody(of:)``), rests included.
  ///   - sampleRate: The sample rate, in Hz.
  ///   - tuning: The tuning.
  func render(_ notes: [PerformanceNote], sampleRate: Double, tuning: Tuning = .standard) -> [Float] {
    let played = playedNotes(notes, tuning: tuning)
    let end = (notes.map(\.expectedEnd).max() ?? 0) + tailSeconds
    var samples = [Float](repeating: 0, count: Int(end * sampleRate))
    var phrase: [HarmonicVoice.Note] = []
    var phraseStart = 0.0
    for (position, note) in played.enumerated() where note.playing != .missed {
      if phrase.isEmpty { phraseStart = note.startSeconds }
      // A slurred note sounds until the next one starts (the next one's jitter moves the change).
      let seconds = note.slursIntoNext ? played[position + 1].startSeconds - note.startSeconds : note.seconds
      phrase.append(HarmonicVoice.Note(frequencyHz: note.frequencyHz, seconds: seconds))
      if !note.slursIntoNext {
        voice.add(phrase, at: phraseStart, to: &samples, sampleRate: sampleRate)
        phrase = []
      }
    }
    // The transposition, from the first pitched note (written − sounding).
    let transpose =
      notes.first { !$0.isRest }.map { ($0.writtenPitch?.rawValue ?? 0) - ($0.soundingPitch?.rawValue ?? 0) }
      ?? 0
    for extra in extraSounds {
      guard let rest = notes.first(where: { $0.isRest && $0.measure == extra.measure }) else { continue }
      let frequencyHz = tuning.frequencyHz(midi: Double(extra.writtenPitch - transpose))
      let tone = HarmonicVoice.Note(frequencyHz: frequencyHz, seconds: extra.seconds)
      let start = rest.expectedStart + extra.offsetSeconds
      voice.add([tone], at: start, amplitude: 0.7, to: &samples, sampleRate: sampleRate)
    }
    return samples
  }
}
