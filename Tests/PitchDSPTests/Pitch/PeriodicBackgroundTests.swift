import Foundation
import Testing
import _TestSupport

@testable import PitchDSP

/// Mains hum under a melody: the rests are not a 50 Hz note.
@Suite struct PeriodicBackgroundTests {
  static let rate = 44100.0
  static let generator = SignalGenerator(sampleRate: rate)
  static let notes = [330.0, 440, 392, 523.25]
  /// Lead-in, each note, each rest (seconds).
  static let leadIn = 0.5
  static let noteSeconds = 0.5
  static let restSeconds = 0.4

  /// What `time` should read: the note sounding then (`.some(frequency)`), a rest (`.some(nil)`),
  /// or `nil` for a frame not scored (within 60 ms of a note's start or end).
  static func note(at time: Double) -> Double?? {
    let t = time - leadIn
    guard t >= 0 else { return .some(nil) }
    let slot = Int(t / (noteSeconds + restSeconds))
    let within = t - Double(slot) * (noteSeconds + restSeconds)
    guard slot < notes.count else { return .some(nil) }
    if within < -0.06 + noteSeconds, within > 0.06 { return .some(notes[slot]) }
    if within > noteSeconds + 0.06, within < noteSeconds + restSeconds - 0.06 { return .some(nil) }
    return .none
  }

  /// The melody (harmonic tones at 0.2 peak, gaps of silence) with 50 Hz hum of six harmonics
  /// `humDecibels` under the notes' RMS, over a lead-in of hum alone and a last rest; and, with
  /// `noiseDecibels`, seeded white noise that far under the notes' RMS too.
  static func hummedMelody(humDecibels: Double = -25, noiseDecibels: Double? = nil) -> [Float] {
    var parts = [generator.silence(length: .seconds(leadIn))]
    for frequency in notes {
      let tone = generator.harmonicTone(
        fundamentalHz: frequency, partialAmplitudes: [1, 0.6, 0.4, 0.25, 0.15], length: .seconds(noteSeconds))
      parts.append(Signal.scaled(tone, by: 0.2 / (Signal.peak(tone))))
      parts.append(generator.silence(length: .seconds(restSeconds)))
    }
    let melody = Signal.concatenated(parts)
    let hum = generator.harmonicTone(
      fundamentalHz: 50, partialAmplitudes: [1, 0.8, 0.5, 0.4, 0.25, 0.2], length: .frames(melody.count))
    let noteRMS = Signal.rms(Array(melody[Int(leadIn * rate)..<Int((leadIn + noteSeconds) * rate)]))
    let hummed = Signal.added(
      melody, Signal.scaled(hum, by: noteRMS * pow(10, humDecibels / 20) / Signal.rms(hum)))
    guard let noiseDecibels else { return hummed }
    let noise = generator.gaussianNoise(
      standardDeviation: noteRMS * pow(10, noiseDecibels / 20), length: .frames(melody.count), seed: 11)
    return Signal.added(hummed, noise)
  }

  static func estimator(_ method: PitchMethod, ignoresBackground: Bool = true, frames: Int) throws
    -> any PitchEstimator
  {
    var configuration = PitchConfiguration(sampleRate: rate)
    configuration.ignoresPeriodicBackground = ignoresBackground
    return method == .pyin
      ? try ProbabilisticYINEstimator.offline(configuration: configuration, frameCount: frames)
      : try makeEstimator(method, configuration)
  }

  /// The share of the rests' frames (after `from` seconds) read voiced, and of the notes' frames
  /// read within 50 cents.
  static func score(_ estimates: [PitchEstimate], from: Double = 0) -> (falseAlarms: Double, rawPitch: Double)
  {
    var rest = (voiced: 0, all: 0)
    var note = (right: 0, all: 0)
    for estimate in estimates where estimate.time >= from {
      guard let expected = Self.note(at: estimate.time) else { continue }
      if let expected {
        note.all += 1
        if estimate.isVoiced, abs(cents(estimate.frequencyHz, expected)) < 50 { note.right += 1 }
      } else {
        rest.all += 1
        if estimate.isVoiced { rest.voiced += 1 }
      }
    }
    return (Double(rest.voiced) / Double(max(1, rest.all)), Double(note.right) / Double(max(1, note.all)))
  }

  /// ``score(_:from:)`` of `method` on ``hummedMelody(humDecibels:)`` with the periodic
  /// background ignored and kept.
  static func scoresWithAndWithoutTheBackground(_ method: PitchMethod, from: Double = 0) throws -> (
    ignoring: (falseAlarms: Double, rawPitch: Double), keeping: (falseAlarms: Double, rawPitch: Double)
  ) {
    let signal = hummedMelody()
    let ignoring = score(try estimator(method, frames: signal.count).estimates(for: signal), from: from)
    let keeping = score(
      try estimator(method, ignoresBackground: false, frames: signal.count).estimates(for: signal), from: from
    )
    return (ignoring, keeping)
  }

  /// Offline, the whole file is decided knowing the background: the lead-in and the first rest
  /// too. Without it, nearly every rest frame was a 50 Hz note.
  @Test func theOfflinePathReadsNoRestAsTheHum() throws {
    let (ignoring, keeping) = try Self.scoresWithAndWithoutTheBackground(.pyin)
    #expect(ignoring.falseAlarms <= 0.02, "\(ignoring)")
    #expect(ignoring.rawPitch >= 0.99, "\(ignoring)")
    #expect(keeping.falseAlarms >= 0.9, "without: \(keeping)")
  }

  /// Live, the background is known after the first rest: from the second note on, the rests are
  /// unvoiced.
  @Test(arguments: [PitchMethod.pyinLive, .yin, .mpm])
  func liveTheRestsAfterTheFirstAreNotTheHum(method: PitchMethod) throws {
    let secondNote = Self.leadIn + Self.noteSeconds + Self.restSeconds
    let (ignoring, keeping) = try Self.scoresWithAndWithoutTheBackground(method, from: secondNote)
    #expect(ignoring.falseAlarms <= 0.05, "\(method): \(ignoring)")
    #expect(ignoring.rawPitch >= 0.98, "\(method): \(ignoring)")
    #expect(keeping.falseAlarms >= 0.5, "\(method) without: \(keeping)")
  }

  /// Mains hum is known before any note: live, the lead-in is unvoiced from its first 0.2 s on
  /// and the first rest with it. Without the mains rule, the whole lead-in and the first rest
  /// read 50 Hz (the quietest level was the hum's, with nothing louder heard yet).
  @Test(arguments: [PitchMethod.pyinLive, .yin, .mpm])
  func liveTheLeadInIsKnownForMainsHum(method: PitchMethod) throws {
    let signal = Self.hummedMelody()
    let result = Self.score(
      try Self.estimator(method, frames: signal.count).estimates(for: signal), from: 0.2)
    #expect(result.falseAlarms <= 0.05, "\(method): \(result)")
    #expect(result.rawPitch >= 0.98, "\(method): \(result)")
  }

  /// Before anything louder, mains hum is established on 0.05 s, and the live pYIN decoder weighs
  /// the frames it has not decided yet (80 ms) against a background as soon as it is established:
  /// its whole lead-in of hum is unvoiced. YIN and MPM decide each frame as it comes: from 0.1 s on.
  /// (Before: pYIN's first 0.12 s read 50 Hz, and YIN's and MPM's frames past 0.1 s too.)
  @Test(arguments: [(PitchMethod.pyinLive, 0.0), (.yin, 0.1), (.mpm, 0.1)])
  func liveTheLeadInIsUnvoicedFromItsStart(method: PitchMethod, from: Double) throws {
    let signal = Self.hummedMelody()
    let leadIn = try Self.estimator(method, frames: signal.count).estimates(for: signal).filter {
      $0.time >= from && $0.time < Self.leadIn - 0.06
    }
    #expect(leadIn.count >= Int((Self.leadIn - 0.06 - from) / 0.01) - 1)
    let voiced = leadIn.filter(\.isVoiced).map(\.time)
    #expect(voiced.isEmpty, "\(method): voiced at \(voiced)")
  }

  /// Hum with white noise as loud as it (a hiss and a hum, each 25 dB under the notes): `d′` dips
  /// to about 0.5 at the hum's period, never under 0.2, and the noise subtraction does not run
  /// (no frame is without a period). Before anything louder, the first dip under 0.5 at a mains
  /// period (past the ripples the noise puts on its flank) is a background frame, and once a
  /// mains background was established its trace brings it back after it is forgotten. Without
  /// these, pYIN and MPM voiced 0.55–0.75 of the unvoiced frames of `Evaluation/pitch`'s
  /// `hum-noise` files at 50 or 60 Hz. (YIN and MPM decide each frame as it comes: from 0.1 s.)
  @Test(arguments: [(PitchMethod.pyin, 0.0), (.pyinLive, 0), (.mpm, 0.1), (.yin, 0.1)])
  func mainsHumWithNoiseAsLoudIsNotANote(method: PitchMethod, from: Double) throws {
    let signal = Self.hummedMelody(noiseDecibels: -25)
    let estimates = try Self.estimator(method, frames: signal.count).estimates(for: signal)
    let result = Self.score(estimates, from: from)
    #expect(result.falseAlarms <= 0.02, "\(method): \(result)")
    #expect(result.rawPitch >= 0.98, "\(method): \(result)")
  }

  /// Hum with white noise 7 dB under it, rests of 2 s: the noise fills the hum's dip, and once the
  /// noise subtraction has learned both, the rests' frames show the hum's period only as a trace;
  /// an established mains background is kept by that trace. Without it the background was
  /// forgotten in each rest and both decoders voiced a third of the rests at 50 Hz.
  @Test(arguments: [PitchMethod.pyin, .pyinLive])
  func mainsHumUnderNoiseStaysKnownThroughLongRests(method: PitchMethod) throws {
    let (rest, note) = (2.0, 0.5)
    var parts = [Self.generator.silence(length: .seconds(Self.leadIn))]
    for frequency in Self.notes {
      let tone = Self.generator.harmonicTone(
        fundamentalHz: frequency, partialAmplitudes: [1, 0.6, 0.4, 0.25, 0.15], length: .seconds(note))
      parts += [
        Signal.scaled(tone, by: 0.2 / Signal.peak(tone)), Self.generator.silence(length: .seconds(rest)),
      ]
    }
    let melody = Signal.concatenated(parts)
    // Eight harmonics at fixed, uneven phases (in phase, the hum's level is steadier than mains
    // hum's and its dip deeper).
    let amplitudes = [1, 0.8, 0.5, 0.4, 0.25, 0.2, 0.12, 0.1]
    let phases = [3.79, 5.54, 1.49, 2.88, 5.13, 2.11, 5.2, 6.24]
    let hum = (0..<8).reduce([Float](repeating: 0, count: melody.count)) { sum, k in
      Signal.added(
        sum,
        Self.generator.sine(
          frequencyHz: 50 * Double(k + 1), amplitude: amplitudes[k], phase: phases[k],
          length: .frames(melody.count)))
    }
    let noteRMS = Signal.rms(
      Array(melody[Int(Self.leadIn * Self.rate)..<Int((Self.leadIn + note) * Self.rate)]))
    let noise = Self.generator.gaussianNoise(
      standardDeviation: noteRMS * pow(10, -32 / 20), length: .frames(melody.count), seed: 7)
    let signal = Signal.added(
      Signal.added(melody, Signal.scaled(hum, by: noteRMS * pow(10, -25 / 20) / Signal.rms(hum))), noise)
    var voiced = 0
    var frames = 0
    for estimate in try Self.estimator(method, frames: signal.count).estimates(for: signal) {
      let t = estimate.time - Self.leadIn
      let within = t.truncatingRemainder(dividingBy: rest + note)
      guard t > 0, t < 4 * (rest + note), within > note + 0.15, within < rest + note - 0.15 else { continue }
      frames += 1
      if estimate.isVoiced { voiced += 1 }
    }
    #expect(Double(voiced) <= 0.02 * Double(frames), "\(method): \(voiced) of \(frames) rest frames voiced")
  }

  /// A test tone at a mains frequency, played loud from the first sample, is a note: only a frame
  /// under ``PeriodicBackground/mainsCeilingDBFS`` is taken for hum before anything louder.
  @Test(arguments: [PitchMethod.pyin, .pyinLive, .yin, .mpm])
  func aLoudToneAtAMainsFrequencyIsANote(method: PitchMethod) throws {
    let tone = Self.generator.sine(frequencyHz: 100, amplitude: 0.5, length: .seconds(1))
    let estimates = try Self.estimator(method, frames: tone.count).estimates(for: tone)
    let inside = estimates.filter { $0.time > 0.05 && $0.time < 0.95 }
    let right = inside.filter { $0.isVoiced && abs(cents($0.frequencyHz, 100)) < 50 }
    #expect(
      Double(right.count) >= 0.98 * Double(inside.count), "\(method): \(right.count) of \(inside.count)")
  }

  /// A note at the hum's own pitch, played well over it, is still a note; one at another pitch
  /// barely over the hum is too.
  @Test func notesOverTheHumAreKept() throws {
    let hummed = Self.hummedMelody()
    let tail = Self.generator.silence(length: .seconds(0.3))
    let bass = Self.generator.harmonicTone(
      fundamentalHz: 100, partialAmplitudes: [1, 0.5, 0.3], length: .seconds(0.6))
    let soft = Self.generator.harmonicTone(
      fundamentalHz: 659.26, partialAmplitudes: [1, 0.5], length: .seconds(0.6))
    let humRMS = Signal.rms(Array(hummed[0..<Int(0.4 * Self.rate)]))
    let hum = Self.generator.harmonicTone(
      fundamentalHz: 50, partialAmplitudes: [1, 0.8, 0.5, 0.4, 0.25, 0.2], length: .seconds(1.5))
    let humAgain = Signal.scaled(hum, by: humRMS / Signal.rms(hum))
    // Bass at twice the hum's frequency 20 dB over it, then a rest, then a tone 6 dB over it.
    let added = Signal.concatenated([
      Signal.scaled(bass, by: 10 * humRMS / Signal.rms(bass)), tail,
      Signal.scaled(soft, by: 2 * humRMS / Signal.rms(soft)),
    ])
    let signal = hummed + Signal.added(added, humAgain)
    let start = Double(hummed.count) / Self.rate
    for method in [PitchMethod.pyin, .pyinLive] {
      let estimates = try Self.estimator(method, frames: signal.count).estimates(for: signal)
      let bassResult = accuracy(estimates, truth: { _ in 100 }, from: start + 0.1, to: start + 0.5)
      let softResult = accuracy(estimates, truth: { _ in 659.26 }, from: start + 1.0, to: start + 1.4)
      #expect(bassResult.rawPitch >= 0.95, "\(method) bass: \(bassResult)")
      #expect(softResult.rawPitch >= 0.95, "\(method) soft: \(softResult)")
    }
  }

  /// The learning itself, frame by frame: a steady periodic background is established after
  /// 0.2 s of rest once something 15 dB louder was heard; a release falling through the quietest
  /// level at the same period is not; the background is forgotten when the hum stops.
  @Test func aSteadyBackgroundIsLearnedAndAFallingTailIsNot() {
    let period = 882.0  // 50 Hz at 44.1 kHz
    var steady = PeriodicBackground(hopSeconds: 0.01, analysisRate: Self.rate)
    _ = steady.admits(levelDBFS: -10, peakDBFS: -10)
    var frames = 0
    while !steady.isEstablished, frames < 100 {
      let level = -40 + (frames.isMultiple(of: 2) ? 0.8 : -0.8)  // the window meeting the hum's phase
      if steady.admits(levelDBFS: level, peakDBFS: -10) { steady.observe(levelDBFS: level, period: period) }
      frames += 1
    }
    #expect(steady.isEstablished && frames <= 25, "\(frames) frames")
    let level = steady.levelDBFS
    #expect(abs(level + 40) < 1)
    #expect(steady.weight(period: period, levelDBFS: level) == 0)
    #expect(steady.weight(period: period / 2, levelDBFS: level + 2) == 0)
    #expect(steady.weight(period: period * 3, levelDBFS: level + 2) == 0)
    #expect(steady.weight(period: period, levelDBFS: level + 20) == 1)
    #expect(abs(steady.weight(period: period, levelDBFS: level + 7.5) - 0.5) < 1e-9)
    #expect(steady.weight(period: period * 0.8, levelDBFS: level) == 1)

    // The hum stops: noise alone, 10 dB quieter, has no period.
    var stopped = steady
    for _ in 0..<10 where stopped.admits(levelDBFS: -50, peakDBFS: -10) {
      stopped.observe(levelDBFS: -50, period: nil)
    }
    #expect(!stopped.isEstablished)
    // A mains hum once established is remembered (its trace brings it back in noise).
    #expect(abs(stopped.knownMainsPeriod - period) < 1, "\(stopped.knownMainsPeriod)")
    stopped.reset()
    #expect(stopped.knownMainsPeriod == 0)

    // Before anything louder: a steady mains period at a hum's level is a background within
    // 0.1 s; another period, or a mains period as loud as a test tone, never.
    for (period, level, learns) in [
      (882.0, -45.0, true), (735, -45, true), (802, -45, false), (441, -20, false),
    ] {
      var first = PeriodicBackground(hopSeconds: 0.01, analysisRate: Self.rate)
      var frames = 0
      while !first.isEstablished, frames < 100 {
        if first.admits(levelDBFS: level, peakDBFS: level) { first.observe(levelDBFS: level, period: period) }
        frames += 1
      }
      #expect(learns ? frames <= 12 : frames == 100, "period \(period) at \(level) dBFS: \(frames) frames")
    }

    var falling = PeriodicBackground(hopSeconds: 0.01, analysisRate: Self.rate)
    _ = falling.admits(levelDBFS: -10, peakDBFS: -10)
    for frame in 0..<60 {
      let level = -35 - 0.3 * Double(frame)  // 30 dB a second, a release tail
      if falling.admits(levelDBFS: level, peakDBFS: -10) { falling.observe(levelDBFS: level, period: 26.25) }
      #expect(!falling.isEstablished, "frame \(frame)")
    }
  }
}
