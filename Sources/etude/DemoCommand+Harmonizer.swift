import Foundation
import Harmonizer
import PitchDSP
import ScoreModel

/// The demo's harmonizer part: a sung-like phrase (a vowel's harmonics under vibrato) through
/// the Pocket Choir engine, measured back: one voice a diatonic third above in C major, and the
/// phrase sung 30 cents sharp through the auto-tuner.
extension DemoCommand {
  /// What the harmonizer part reports.
  struct HarmonizerReport: Encodable {
    var phrase: String
    /// The third each note should get in C major, and the interval the voice sang above the
    /// sung note (both measured the same way), in cents from the third's.
    var thirds: [Third]
    /// The phrase sung 30 cents sharp, auto-tuned at once: each note's median, in cents from its
    /// written pitch.
    var autoTunedCents: [Double]
    var latencySamples: Int
  }

  /// One note of the phrase and its third.
  struct Third: Encodable {
    var sung: String
    var expected: String
    var cents: Double
  }

  /// The phrase: C4 E4 G4 A4, half a second each.
  static let harmonizerPhrase = [60, 64, 67, 69]

  /// A sung-like rendition of `notes` at `offsetCents`: eight harmonics falling 3 dB each under a
  /// 5.5 Hz, ±20-cent vibrato, half a second per note.
  static func sungPhrase(_ notes: [Int], offsetCents: Double, sampleRate rate: Double) -> [Float] {
    var samples: [Float] = []
    var phase = 0.0
    let perNote = Int(0.5 * rate)
    for note in notes {
      let base = 440 * pow(2, (Double(note) - 69 + offsetCents / 100) / 12)
      for i in 0..<perNote {
        let t = Double(samples.count + i) / rate
        phase += 2 * Double.pi * base * pow(2, 0.2 / 12 * sin(2 * Double.pi * 5.5 * t)) / rate
        let x = (1...8).reduce(0.0) { $0 + pow(0.7, Double($1 - 1)) * sin(Double($1) * phase) }
        samples.append(Float(0.1 * x))
      }
    }
    return samples
  }

  /// The median pitch of each half-second note of `samples` (its middle 0.3 s), as MIDI.
  static func notePitches(_ samples: [Float], count: Int, sampleRate rate: Double) throws -> [Double] {
    let yin = try YINEstimator(configuration: PitchConfiguration(sampleRate: rate, minimumFrequencyHz: 100))
    let estimates = yin.estimates(for: samples)
    return (0..<count).map { k in
      let from = Double(k) * 0.5 + 0.1, to = Double(k) * 0.5 + 0.4
      let hz = estimates.filter { $0.isVoiced && $0.time >= from && $0.time <= to }.map(\.frequencyHz)
        .sorted()
      return hz.isEmpty ? .nan : 69 + 12 * log2(hz[hz.count / 2] / 440)
    }
  }

  /// Runs the phrase through the engine and takes out its latency: the left channel, and the
  /// latency taken out.
  static func harmonized(_ input: [Float], settings: HarmonizerSettings, sampleRate rate: Double) throws
    -> (samples: [Float], latency: Int)
  {
    let engine = try HarmonizerEngine(sampleRate: rate, settings: settings)
    let padded = input + [Float](repeating: 0, count: engine.latencySamples)
    var left = [Float](repeating: 0, count: padded.count)
    var right = left
    var start = 0
    while start < padded.count {
      let end = min(padded.count, start + 512)
      padded[start..<end].withUnsafeBufferPointer { i in
        left[start..<end].withUnsafeMutableBufferPointer { l in
          right[start..<end].withUnsafeMutableBufferPointer { engine.process(i, left: l, right: $0) }
        }
      }
      start = end
    }
    return (Array(left[engine.latencySamples...]), engine.latencySamples)
  }

  func harmonizerReport() throws -> HarmonizerReport {
    let rate = 22_050.0
    let notes = Self.harmonizerPhrase
    let key = Key.cMajor
    var third = HarmonizerSettings.diatonic([3], in: key)
    third.liveLevel = 0
    third.voices[0].level = 1
    let phrase = Self.sungPhrase(notes, offsetCents: 0, sampleRate: rate)
    let voice = try Self.harmonized(phrase, settings: third, sampleRate: rate).samples
    let heard = try Self.notePitches(voice, count: notes.count, sampleRate: rate)
    let sung = try Self.notePitches(phrase, count: notes.count, sampleRate: rate)
    let scale = PitchClassSet(key: key)
    let thirds = notes.indices.map { k in
      let expected = scale.member(from: notes[k], steps: 2)
      let interval = heard[k] - sung[k]
      return Third(
        sung: SpelledNote(midi: MIDINote(notes[k])!, in: key).description,
        expected: SpelledNote(midi: MIDINote(expected)!, in: key).description,
        cents: ((interval - Double(expected - notes[k])) * 1000).rounded() / 10)
    }
    let tuning = HarmonizerSettings(
      key: key, autoTune: AutoTuneSettings(isEnabled: true, key: key, retuneSeconds: 0))
    let tuned = try Self.harmonized(
      Self.sungPhrase(notes, offsetCents: 30, sampleRate: rate), settings: tuning, sampleRate: rate)
    let tunedPitches = try Self.notePitches(tuned.samples, count: notes.count, sampleRate: rate)
    return HarmonizerReport(
      phrase: "C4 E4 G4 A4, sung-like (vowel harmonics, vibrato), half a second each, at 22.05 kHz",
      thirds: thirds,
      autoTunedCents: zip(notes, tunedPitches).map { (($1 - Double($0)) * 1000).rounded() / 10 },
      latencySamples: tuned.latency)
  }

  func printHarmonizer(_ report: HarmonizerReport) {
    print("")
    print("Harmonizer: \(report.phrase)")
    let thirds = report.thirds.map { "\($0.sung)→\($0.expected) \(String(format: "%+.1f", $0.cents))¢" }
    print(
      "  a diatonic third above in C major (PSOLA voice; error of the interval sung): "
        + thirds.joined(separator: ", "))
    print(
      "  sung 30 cents sharp, auto-tuned at once: "
        + report.autoTunedCents.map { String(format: "%+.1f¢", $0) }.joined(separator: ", ")
        + " from the written notes (latency \(report.latencySamples) samples)")
  }
}
