import Foundation
import PitchDSP
import Synthesis

/// The demo's synthesis part: the built-in tab tune (``Tab/demoTune``) played on the built-in
/// guitar, then measured with PitchDSP as a listener would check it: each single note's pitch
/// against its fret's equal-tempered pitch, and each attack against the tab's time.
extension DemoCommand {
  /// What the synthesis part reports.
  struct SynthesisReport: Encodable {
    var tune: String
    var instrument: String
    var notes: Int
    var audioSeconds: Double
    /// Audio seconds rendered per second of CPU (wall clock of the render call).
    var speedFactor: Double
    /// Single notes long enough to measure (chords are left out).
    var notesMeasured: Int
    var notesWithin2Cents: Int
    var meanAbsoluteCents: Double
    var maximumAbsoluteCents: Double
    /// Attacks found within 50 ms of their tab time, of all note starts (a chord counts once).
    var attacksFound: Int
    var attacks: Int
    var meanAbsoluteAttackMs: Double
  }

  /// Renders the tune and measures it.
  func synthesisReport() throws -> SynthesisReport {
    let tab = Tab.demoTune
    let song = Song(name: "Ode to Joy", notes: tab.notes())
    let clock = ContinuousClock()
    var samples: [Float] = []
    let elapsed = clock.measure {
      samples = SongRenderer(sampleRate: rate).render(song, instrument: Guitar(timbre: .plucked))
    }
    if let saveAudio {
      try WAVWriter.write(
        AudioBuffer(sampleRate: rate, mono: samples),
        to: URL(fileURLWithPath: Self.audioPath(besides: saveAudio, suffix: "tab")))
    }
    // Measured at 16 kHz, as the melody above (the tune's notes lie far below its Nyquist), so
    // that the check costs little even in a debug build.
    let heardRate = 16_000.0
    // A quarter second of silence before the tune, so that the onset detector has a spectrum
    // before the first attack to compare with (times are shifted back below).
    let lead = 0.25
    let padded = [Float](repeating: 0, count: Int(lead * rate)) + samples
    let heard = try Resampler.resample(
      AudioBuffer(sampleRate: rate, mono: padded), to: heardRate, quality: .fast
    )
    .channels[0]
    // Pitch: the median of the voiced estimates over each single note's steady part (the range
    // of the tune's melody, C4...G4, with room on both sides).
    let estimator = try ProbabilisticYINEstimator(
      configuration: PitchConfiguration(
        sampleRate: heardRate, minimumFrequencyHz: 100, maximumFrequencyHz: 1000))
    let estimates = estimator.estimates(for: heard).map { estimate in
      var shifted = estimate
      shifted.time -= lead
      return shifted
    }
    let starts = Dictionary(grouping: song.notes, by: \.startSeconds)
    var cents: [Double] = []
    for (start, group) in starts where group.count == 1 {
      let note = group[0]
      let window = (start + 0.06)...(start + note.durationSeconds - 0.02)
      let steady = estimates.filter { window.contains($0.time) && $0.frequencyHz > 0 }.map(\.frequencyHz)
        .sorted()
      guard steady.count >= 3 else { continue }
      let target = 440 * pow(2, (note.pitch - 69) / 12)
      cents.append(1200 * log2(steady[steady.count / 2] / target))
    }
    // Attacks: spectral-flux onsets matched to the tab's note starts.
    let detector = try SpectralFluxOnsetDetector(configuration: .init(sampleRate: heardRate))
    let onsets = detector.onsets(for: heard).map { $0.time - lead }
    var attackErrors: [Double] = []
    for start in starts.keys {
      if let nearest = onsets.min(by: { abs($0 - start) < abs($1 - start) }), abs(nearest - start) <= 0.05 {
        attackErrors.append(abs(nearest - start) * 1000)
      }
    }
    let absolute = cents.map(abs)
    let seconds = Double(samples.count) / rate
    let cpu = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    return SynthesisReport(
      tune: "Ode to Joy (Beethoven), opening, as guitar tab",
      instrument: "guitar (Karplus-Strong plucked string)",
      notes: song.notes.count, audioSeconds: (seconds * 100).rounded() / 100,
      speedFactor: (seconds / max(cpu, 1e-9)).rounded(),
      notesMeasured: cents.count, notesWithin2Cents: absolute.filter { $0 <= 2 }.count,
      meanAbsoluteCents: ((absolute.reduce(0, +) / Double(max(1, absolute.count))) * 100).rounded() / 100,
      maximumAbsoluteCents: ((absolute.max() ?? 0) * 100).rounded() / 100,
      attacksFound: attackErrors.count, attacks: starts.count,
      meanAbsoluteAttackMs: ((attackErrors.reduce(0, +) / Double(max(1, attackErrors.count))) * 10).rounded()
        / 10)
  }

  func printSynthesis(_ report: SynthesisReport) {
    print("")
    print("Synthesis: \(report.tune), \(report.notes) notes on the \(report.instrument)")
    print(
      String(
        format: "  %.2f s of audio rendered %.0fx faster than real time (debug builds are slower)",
        report.audioSeconds,
        report.speedFactor))
    print(
      "  pitch, measured back with probabilistic YIN: \(report.notesWithin2Cents)/\(report.notesMeasured) single notes within 2 cents "
        + String(
          format: "(mean |deviation| %.2f, worst %.2f cents)", report.meanAbsoluteCents,
          report.maximumAbsoluteCents))
    print(
      "  attacks, measured back with spectral flux: \(report.attacksFound)/\(report.attacks) within 50 ms of the tab "
        + String(format: "(mean |error| %.1f ms)", report.meanAbsoluteAttackMs))
  }
}
