import Foundation
import Testing
import _TestSupport

@testable import PitchDSP

/// Cents between two frequencies.
func cents(_ a: Double, _ b: Double) -> Double { 1200 * log2(a / b) }

/// Builds each estimator for a configuration.
func makeEstimator(_ method: PitchMethod, _ configuration: PitchConfiguration) throws -> any PitchEstimator {
  switch method {
  case .yin: try YINEstimator(configuration: configuration)
  case .mpm: try MPMEstimator(configuration: configuration)
  case .pyin, .pyinLive: try ProbabilisticYINEstimator(configuration: configuration)
  }
}

/// The median absolute error in cents, and the fraction of frames voiced within 50 cents, over
/// the estimates between `from` and `to` seconds.
func accuracy(_ estimates: [PitchEstimate], truth: (Double) -> Double, from: Double, to: Double) -> (medianCents: Double, rawPitch: Double) {
  let frames = estimates.filter { $0.time >= from && $0.time <= to }
  let errors = frames.map { $0.isVoiced ? abs(cents($0.frequencyHz, truth($0.time))) : .infinity }
  let sorted = errors.sorted()
  let median = sorted.isEmpty ? .infinity : sorted[sorted.count / 2]
  return (median, Double(errors.filter { $0 <= 50 }.count) / Double(max(1, errors.count)))
}

/// The accuracy of `method` (offline for `.pyin`) on the test fixture `name` against one pitch
/// over `from...to` seconds.
func fixtureAccuracy(_ name: String, method: PitchMethod, truth: Double, from: Double, to: Double)
  throws -> (medianCents: Double, rawPitch: Double)
{
  let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: "wav"))
  let audio = try WAVReader.readAll(url: url)
  let configuration = PitchConfiguration(sampleRate: audio.sampleRate)
  let estimator =
    method == .pyin
    ? try ProbabilisticYINEstimator.offline(configuration: configuration, frameCount: audio.frameCount)
    : try makeEstimator(method, configuration)
  return accuracy(estimator.estimates(for: audio.mono), truth: { _ in truth }, from: from, to: to)
}

@Suite struct PitchEstimatorTests {
  static let methods: [PitchMethod] = [.yin, .mpm, .pyinLive]

  @Test(arguments: methods, [40.0, 55, 82.41, 110, 220, 440, 880, 1318.5, 1975.5])
  func steadyHarmonicTonesAreWithinTwoCents(method: PitchMethod, frequency: Double) throws {
    let rate = 44100.0
    let generator = SignalGenerator(sampleRate: rate)
    let tone = generator.harmonicTone(fundamentalHz: frequency, partialAmplitudes: [1, 0.6, 0.4, 0.25, 0.15], length: .seconds(1))
    let estimator = try makeEstimator(method, PitchConfiguration(sampleRate: rate))
    let estimates = estimator.estimates(for: Signal.scaled(tone, by: 0.3))
    let result = accuracy(estimates, truth: { _ in frequency }, from: 0.15, to: 0.85)
    #expect(result.rawPitch == 1, "\(method) at \(frequency) Hz: \(result)")
    #expect(result.medianCents <= 2, "\(method) at \(frequency) Hz: \(result)")
  }

  @Test(arguments: methods)
  func estimatesAreTimedOnTheHopGridWhateverTheBlockSize(method: PitchMethod) throws {
    let rate = 48000.0
    let tone = SignalGenerator(sampleRate: rate).harmonicTone(fundamentalHz: 196, partialAmplitudes: [1, 0.5, 0.3], length: .seconds(0.5))
    let configuration = PitchConfiguration(sampleRate: rate)
    let reference = try makeEstimator(method, configuration).estimates(for: tone)
    #expect(reference.count == Int((Double(tone.count) / Double(configuration.hopSize)).rounded(.up)))
    for (k, estimate) in reference.enumerated() {
      #expect(abs(estimate.time - Double(k) * 0.01) < 1e-12)
    }
    for block in [1, 7, 480, 8192] {
      let estimator = try makeEstimator(method, configuration)
      var out: [PitchEstimate] = []
      var scratch = [PitchEstimate](repeating: .init(time: 0, frequencyHz: 0, confidence: 0, levelDBFS: 0), count: estimator.maximumEstimates(forFrames: block))
      tone.withUnsafeBufferPointer { all in
        var start = 0
        while start < all.count {
          let chunk = UnsafeBufferPointer(rebasing: all[start..<min(all.count, start + block)])
          let n = scratch.withUnsafeMutableBufferPointer { estimator.process(chunk, into: $0) }
          out += scratch[0..<n]
          start += block
        }
      }
      var tail = [PitchEstimate](repeating: .init(time: 0, frequencyHz: 0, confidence: 0, levelDBFS: 0), count: estimator.maximumEstimates(forFrames: 0))
      let n = tail.withUnsafeMutableBufferPointer { estimator.finish(into: $0) }
      out += tail[0..<n]
      #expect(out == reference, "\(method), blocks of \(block)")
    }
  }

  /// The live decoder keeps no back-pointers: it finds those of its paths again from the scores
  /// of the frames it holds (``PitchHMM``). With a look-ahead longer than the signal it decides
  /// every frame at the end, from the best final state, as the offline decoder does with all its
  /// back-pointers: given the same leap probability, the two give the same estimates. A real
  /// legato step (FluidR3's English horn), and a phrase in noise: a note, a rest too short for
  /// the unvoiced states to follow the next note three octaves up (entered as after a rest, from
  /// any pitch), whose first 30 ms dip at twice its period, then a leap down a twelfth; and a
  /// legato step under the louder release of the note before (the newest note's entry).
  @Test(arguments: [0.0, 1e-8])
  func theLiveDecoderDecodesTheOfflinePathWhenItHoldsTheWholeSignal(leapProbability: Double) throws {
    let url = try #require(Bundle.module.url(forResource: "Fixtures/english-horn-legato-fluidr3", withExtension: "wav"))
    let horn = try WAVReader.readAll(url: url)
    let rate = 44100.0
    let generator = SignalGenerator(sampleRate: rate)
    let notes = Signal.concatenated([
      generator.silence(length: .seconds(0.05)),
      generator.harmonicTone(fundamentalHz: 110, partialAmplitudes: [1, 0.6, 0.4, 0.2], length: .seconds(0.12)),
      generator.silence(length: .seconds(0.03)),
      generator.harmonicTone(fundamentalHz: 440, partialAmplitudes: [0.3, 1, 0.2, 0.8], length: .seconds(0.03)),
      generator.harmonicTone(fundamentalHz: 880, partialAmplitudes: [1, 0.5, 0.3], length: .seconds(0.12)),
      generator.harmonicTone(fundamentalHz: 293.66, partialAmplitudes: [1, 0.5, 0.3], length: .seconds(0.12)),
    ])
    let phrase = Signal.mixed(
      Signal.scaled(notes, by: 0.3), noise: generator.whiteNoise(length: .frames(notes.count), seed: 11), snrDB: 25)
    // A legato step down a fourth under the old note's louder release, which the newest note's
    // candidate is entered for (``NewestNoteFinderTests``), cut to 0.6 s round the change.
    let legato = Array(
      NewestNoteFinderTests.legatoChange(from: 392, to: 293.66, newLevel: 0.7)[Int(0.4 * rate)..<Int(rate)])
    for (name, samples, sampleRate) in [
      ("horn", horn.mono, horn.sampleRate), ("phrase", phrase, rate), ("legato", legato, rate),
    ] {
      let configuration = PitchConfiguration(sampleRate: sampleRate)
      let live = try ProbabilisticYINEstimator(
        configuration: configuration, lagFrames: 64, harmonicLeapProbability: leapProbability)
      let offline = try ProbabilisticYINEstimator.offline(
        configuration: configuration, frameCount: samples.count, harmonicLeapProbability: leapProbability)
      let expected = offline.estimates(for: samples)
      #expect(expected.count < live.lagFrames, "\(name): the signal must fit in the look-ahead")
      #expect(expected.filter(\.isVoiced).count >= 30, "\(name)")
      #expect(live.estimates(for: samples) == expected, "\(name), leap probability \(leapProbability)")
    }
  }
}

@Suite struct PitchRobustnessTests {
  static let rate = 44100.0
  static let generator = SignalGenerator(sampleRate: rate)

  /// Runs the offline pYIN tracker (the CLI's default for files), or the other methods; the
  /// rumble filter as configured by default unless `removesRumble` says.
  func track(
    _ samples: [Float], method: PitchMethod = .pyin, subtractsNoise: Bool = true, removesRumble: Bool? = nil
  ) throws -> [PitchEstimate] {
    var configuration = PitchConfiguration(sampleRate: Self.rate)
    configuration.subtractsNoise = subtractsNoise
    if let removesRumble { configuration.removesRumble = removesRumble }
    let estimator: any PitchEstimator =
      method == .pyin
      ? try ProbabilisticYINEstimator.offline(configuration: configuration, frameCount: samples.count)
      : try makeEstimator(method, configuration)
    return estimator.estimates(for: samples)
  }

  @Test(arguments: [PitchMethod.pyin, .pyinLive, .yin, .mpm], [55.0, 233.08, 880, 1128.2, 2000])
  func strongUpperHarmonicsAndAMissingFundamental(method: PitchMethod, frequency: Double) throws {
    // Trumpet-like: the 2nd and 3rd partials stronger than the fundamental.
    let brass = Self.generator.harmonicTone(fundamentalHz: frequency, partialAmplitudes: [0.3, 1, 0.9, 0.6, 0.4, 0.25, 0.15], length: .seconds(0.6))
    // No fundamental at all.
    let missing = Self.generator.harmonicTone(fundamentalHz: frequency, partialAmplitudes: [0, 1, 0.8, 0.6, 0.4], length: .seconds(0.6))
    for (name, tone) in [("brass", brass), ("missing fundamental", missing)] {
      let result = accuracy(try track(Signal.scaled(tone, by: 0.2), method: method), truth: { _ in frequency }, from: 0.1, to: 0.5)
      #expect(result.rawPitch >= 0.99, "\(method) \(name) \(frequency) Hz: \(result)")
    }
  }

  /// Below 20 kHz the input is resampled up to ten samples per period of the highest pitch
  /// (``PitchConfiguration/analysisSampleRate``). Analyzed at the input's own rate, a high note
  /// whose second partial is strong has a dip of the difference function at its period narrower
  /// than a lag, which falls between two lags: YIN and MPM read these an octave low (pYIN too at
  /// 8 kHz).
  @Test(arguments: [PitchMethod.pyin, .pyinLive, .yin, .mpm], [8000.0, 11025, 16000])
  func highNotesAtLowSampleRatesAreReadAtTheirOctave(method: PitchMethod, rate: Double) throws {
    let frequency = [8000.0: 1075.0, 11025: 1300, 16000: 1875][rate]!
    let configuration = PitchConfiguration(sampleRate: rate)
    #expect(configuration.analysisSampleRate >= 10 * configuration.maximumFrequencyHz)
    let tone = SignalGenerator(sampleRate: rate).harmonicTone(
      fundamentalHz: frequency, partialAmplitudes: [0.3, 1], length: .seconds(0.5))
    let samples = Signal.scaled(tone, by: 0.3)
    let estimator: any PitchEstimator =
      method == .pyin
      ? try ProbabilisticYINEstimator.offline(configuration: configuration, frameCount: samples.count)
      : try makeEstimator(method, configuration)
    let result = accuracy(estimator.estimates(for: samples), truth: { _ in frequency }, from: 0.1, to: 0.4)
    #expect(result.rawPitch == 1, "\(method) at \(rate) Hz: \(result)")
    #expect(result.medianCents <= 2, "\(method) at \(rate) Hz: \(result)")
  }

  /// A real piano's low E (FluidR3_GM's, 82.08 Hz, from 0.14 s): its stretched partials leave
  /// ripples on the flank of the period's dip, and the first of them was under YIN's threshold
  /// (87–91 Hz, a semitone sharp, for 32 of the 48 frames); a trough with a deeper one within an
  /// eighth of its lag is not the period. MPM and pYIN read it right without this.
  @Test(arguments: [PitchMethod.yin, .mpm, .pyin, .pyinLive])
  func aPianosLowNoteIsNotReadOnARippleOfItsStretchedPartials(method: PitchMethod) throws {
    let result = try fixtureAccuracy("piano-e2-fluidr3", method: method, truth: 82.08, from: 0.17, to: 0.65)
    #expect(result.rawPitch >= 0.95, "\(method): \(result)")
  }

  @Test(arguments: [PitchMethod.pyin, .pyinLive, .yin, .mpm], [98.0, 207.65])
  func aWeakFundamentalUnderAStrongSecondHarmonicIsStillThePitch(method: PitchMethod, frequency: Double) throws {
    // A bassoon's low notes: the fundamental 20 dB under the 2nd harmonic, odd harmonics weak.
    let tone = Self.generator.harmonicTone(
      fundamentalHz: frequency, partialAmplitudes: [0.1, 1, 0.15, 0.5, 0.1, 0.25, 0.05, 0.1], length: .seconds(0.6))
    let result = accuracy(try track(Signal.scaled(tone, by: 0.2), method: method), truth: { _ in frequency }, from: 0.1, to: 0.5)
    #expect(result.rawPitch >= 0.99, "\(method) at \(frequency) Hz: \(result)")
  }

  /// Partials 1–8 of FluidR3's bassoon at E3, as measured there (amplitudes; in dB under the
  /// third: −30, −12, 0, −8, −31, −32, −32, −23).
  static let strongThirdHarmonic = [-30.0, -12, 0, -8, -31, -32, -32, -23].map { pow(10, $0 / 20) }

  /// A weak fundamental under a strong third harmonic (FluidR3's bassoon at E3: a formant near
  /// 500 Hz lifts the third partial 8–30 dB over the others). `d′` dips to about 0.25 at a
  /// third of the period and to nearly zero at the period; a YIN whose threshold takes the
  /// shallow dip (pYIN's higher thresholds do) read the note a twelfth high. The dip at a third
  /// hands over to the period as the one at a half does. (At the default threshold, under the
  /// shallow dip, the note was read right before too.)
  @Test(arguments: [0.35, YINEstimator.defaultThreshold], [110.0, 164.8, 220])
  func aWeakFundamentalUnderAStrongThirdHarmonicIsStillThePitch(threshold: Double, frequency: Double) throws {
    let tone = Self.generator.harmonicTone(
      fundamentalHz: frequency, partialAmplitudes: Self.strongThirdHarmonic, length: .seconds(0.6))
    let estimator = try YINEstimator(configuration: PitchConfiguration(sampleRate: Self.rate), threshold: threshold)
    let estimates = estimator.estimates(for: Signal.scaled(tone, by: 0.3))
    let result = accuracy(estimates, truth: { _ in frequency }, from: 0.1, to: 0.5)
    #expect(result.rawPitch >= 0.99, "threshold \(threshold) at \(frequency) Hz: \(result)")
  }

  /// The lag `PeriodicityAnalysis.periodLag(startingAt:)` hands the dip nearest `frequency`
  /// over to, in the frame centred nearest `time`, as a multiple of that dip's lag (1: kept).
  static func handOver(of frequency: Double, at time: Double, in samples: [Float]) throws -> Double {
    var analysis = try PeriodicityAnalysis(configuration: PitchConfiguration(sampleRate: rate))
    var offset = 0
    var ratio = 0.0
    samples.withUnsafeBufferPointer { buffer in
      while analysis.advance(buffer, offset: &offset) {
        let frameTime = Double(analysis.nextFrame - 1) * analysis.configuration.hopSeconds
        guard abs(frameTime - time) < analysis.configuration.hopSeconds / 2 else { continue }
        let d = analysis.normalizedDifference
        let target = Int((analysis.plan.analysisRate / frequency).rounded())
        var tau = target - 2
        for lag in (target - 2)...(target + 2) where d[lag] < d[tau] { tau = lag }
        ratio = Double(analysis.periodLag(startingAt: tau)) / Double(tau)
      }
    }
    return ratio
  }

  /// A legato step up a fifth (a violin's B♭4 to F5 in the project's renders): the new note
  /// rises under the old one's release, and the two share a period three times the new note's,
  /// where `d′` dips deep while the new note's own dip is still shallow. That is no weak
  /// fundamental under a third harmonic: the old note's dip at 1.5 periods shows it, and the
  /// dip is not handed over (the live grader's decoder, without leaps, locked such a note a
  /// twelfth low). The weak fundamental's dip at a third is.
  @Test func aLegatoStepUpAFifthIsNoWeakFundamental() throws {
    let rate = Self.rate
    let old = 466.16
    let new = 1.5 * old
    let samples = (0..<Int(0.7 * rate)).map { n -> Float in
      let t = Double(n) / rate
      let oldGain = t < 0.45 ? 1 : max(0, 1 - (t - 0.45) / 0.12)
      let newGain = t < 0.43 ? 0 : min(1, (t - 0.43) / 0.1)
      func tone(_ f: Double) -> Double { sin(2 * .pi * f * t) + 0.5 * sin(4 * .pi * f * t) + 0.3 * sin(6 * .pi * f * t) }
      return Float(0.15 * (oldGain * tone(old) + newGain * tone(new)))
    }
    // 0.48 s: the new note's own dip 0.8, its triple's 0.002, the old note's 0.46.
    let mixture = try Self.handOver(of: new, at: 0.48, in: samples)
    #expect(mixture == 1)
    let bassoon = Self.generator.harmonicTone(
      fundamentalHz: 164.8, partialAmplitudes: Self.strongThirdHarmonic, length: .seconds(0.5))
    let weak = try Self.handOver(of: 3 * 164.8, at: 0.3, in: Signal.scaled(bassoon, by: 0.3))
    #expect(abs(weak - 3) < 0.15, "\(weak)")
  }

  /// A high note straight after a note a twelfth below, with some of its octave below in it, as
  /// much as half its fundamental for its first 100 ms (as FluidR3's high guitar notes after a
  /// low one): the live decoder, deciding 80 ms after each frame, follows the pitch from the old
  /// note to the octave below the new one, and without a harmonic leap it stays there for most
  /// of the note (its pitch moves a few semitones per hop, and the note, voiced throughout,
  /// makes a way round through unvoiced frames dear). The octave blip is off: it reports such a
  /// note at its octave without the leap (the newest frames' candidates show it).
  @Test func theLiveDecoderLeapsOutOfAnOctaveItFollowedIntoANote() throws {
    let rate = Self.rate
    let frequency = 987.77
    let note = (0..<Int(0.7 * rate)).map { n -> Float in
      let t = Double(n) / rate
      guard t >= 0.15 else {
        // E4, a twelfth below.
        let f = frequency / 3
        return Float(0.2 * (sin(2 * Double.pi * f * t) + 0.5 * sin(4 * Double.pi * f * t)))
      }
      let octaveBelow = t < 0.25 ? 0.5 : 0.1
      return Float(
        0.2 * (sin(2 * Double.pi * frequency * t) + 0.3 * sin(4 * Double.pi * frequency * t)
          + octaveBelow * sin(Double.pi * frequency * t)))
    }
    func rawPitch(leap: Double, blip: Double = 0) throws -> Double {
      let estimator = try ProbabilisticYINEstimator(
        configuration: PitchConfiguration(sampleRate: rate), harmonicLeapProbability: leap, octaveBlipSeconds: blip)
      return accuracy(estimator.estimates(for: note), truth: { _ in frequency }, from: 0.35, to: 0.6).rawPitch
    }
    let leaping = try rawPitch(leap: 1e-8)
    let locked = try rawPitch(leap: 0)
    #expect(try rawPitch(leap: 0, blip: 0.06) >= 0.99)
    #expect(leaping >= 0.99, "with leaps: \(leaping) (without: \(locked))")
    // Without leaps the decoder stays an octave low for part of the note.
    #expect(leaping - locked >= 0.1, "with leaps \(leaping), without \(locked)")
  }

  /// A held note whose octave reads deeper for a moment (a few frames of a strong 2nd harmonic)
  /// does not leap: a leap must be worth far more than a few frames' evidence.
  @Test func theLiveDecoderDoesNotLeapOnAFewFramesOfTheOctave() throws {
    let rate = Self.rate
    let frequency = 220.0
    let note = (0..<Int(1.0 * rate)).map { n -> Float in
      let t = Double(n) / rate
      // 40 ms in the middle where the fundamental all but vanishes.
      let fundamental = (t > 0.5 && t < 0.54) ? 0.02 : 1.0
      return Float(0.2 * (fundamental * sin(2 * Double.pi * frequency * t) + 0.6 * sin(4 * Double.pi * frequency * t)))
    }
    let estimator = try ProbabilisticYINEstimator(configuration: PitchConfiguration(sampleRate: rate))
    let result = accuracy(estimator.estimates(for: note), truth: { _ in frequency }, from: 0.1, to: 0.9)
    #expect(result.rawPitch >= 0.98, "\(result)")
  }

  /// A note far above the one before, after a gap of a hop or two (a piano's C3 dying away,
  /// then its E6): the unvoiced states in between carry the old pitch and move no faster than a
  /// voiced one, so without a rest's free entry the offline path reached only E5 in time and kept
  /// it for the whole note (raw pitch 0 at each gap; the live decoder leaps out).
  @Test(arguments: [PitchMethod.pyin, .pyinLive], [0.0, 0.01, 0.02])
  func aNoteFarFromTheOneBeforeIsEnteredAfterAShortRest(method: PitchMethod, gapSeconds: Double) throws {
    let partials = [1, 0.5, 0.3]
    func decaying(_ frequency: Double, perSecond rate: Double) -> [Float] {
      let tone = Self.generator.harmonicTone(
        fundamentalHz: frequency, partialAmplitudes: partials, length: .seconds(0.5))
      return tone.enumerated().map { n, x in Float(0.2 * exp(-rate * Double(n) / Self.rate)) * x }
    }
    let samples = Signal.concatenated([
      decaying(130.81, perSecond: 8), Self.generator.silence(length: .seconds(gapSeconds)),
      decaying(1318.5, perSecond: 3),
    ])
    let start = 0.5 + gapSeconds
    let estimates = try track(samples, method: method)
    let result = accuracy(estimates, truth: { _ in 1318.5 }, from: start + 0.03, to: start + 0.45)
    #expect(result.rawPitch >= 0.99, "\(method) after \(gapSeconds) s: \(result)")
  }

  /// A note whose first 50 ms also repeat at twice its period (a sub-harmonic in the attack, as
  /// in some flute, saxophone and bassoon samples: partials of A3 3 dB under A4's, fading out):
  /// those frames' troughs all sit an octave low. Without the octave confusion the offline path
  /// read them at A3 and then jumped to A4 through an unvoiced frame; with it the note's later
  /// frames decide its octave for the attack too, and the attack reports A4.
  @Test func anAttackReadAnOctaveLowDoesNotSplitTheNote() throws {
    let (samples, onset, length) = Self.attackWithSubharmonic(gain: pow(10, -3.0 / 20), seconds: 0.05, decay: 0.01)
    let estimates = try track(samples)
    let result = accuracy(estimates, truth: { _ in 440 }, from: onset + 0.01, to: onset + length - 0.03)
    #expect(result.rawPitch >= 0.99, "\(result)")
  }

  /// A4 from 0.2 s for 0.5 s, its attack mixed with A3's odd partials at `gain` for `seconds`,
  /// then fading out with the time constant `decay`.
  static func attackWithSubharmonic(gain: Double, seconds: Double, decay: Double) -> (
    samples: [Float], onset: Double, length: Double
  ) {
    let (onset, length) = (0.2, 0.5)
    let tone = generator.harmonicTone(
      fundamentalHz: 440, partialAmplitudes: [1, 0.5, 0.3, 0.2], length: .seconds(length))
    let sub = generator.harmonicTone(
      fundamentalHz: 220, partialAmplitudes: [1, 0, 0.5, 0, 0.3], length: .seconds(length))
    var samples = [Float](repeating: 0, count: Int((onset + length + 0.2) * rate))
    for n in tone.indices {
      let t = Double(n) / rate
      let envelope = min(1, t / 0.005) * min(1, (length - t) / 0.02)
      let subEnvelope = t < seconds ? 1 : exp(-(t - seconds) / decay)
      let mixed = Double(tone[n]) + gain * subEnvelope * Double(sub[n])
      samples[Int(onset * rate) + n] = Float(0.3 * envelope * mixed)
    }
    return (samples, onset, length)
  }

  /// The attack of ``anAttackReadAnOctaveLowDoesNotSplitTheNote()``, its sub-harmonic louder, with
  /// the octave confusion off: the best path reads the attack at A3 and leaves it for A4
  /// through an unvoiced frame. The octave blip reports those frames at A4 (and only with it on).
  @Test func anOctaveBlipAtANotesStartReportsTheNotesOctave() throws {
    let (samples, onset, _) = Self.attackWithSubharmonic(gain: 1.5, seconds: 0.03, decay: 0.005)
    let rate = Self.rate
    func estimates(blip: Double) throws -> [PitchEstimate] {
      try ProbabilisticYINEstimator.offline(
        configuration: PitchConfiguration(sampleRate: rate), frameCount: samples.count,
        octaveConfusionProbability: 0, octaveBlipSeconds: blip
      ).estimates(for: samples)
    }
    func attack(_ estimates: [PitchEstimate]) -> [Double] {
      estimates.filter { $0.time > onset - 0.03 && $0.time < onset + 0.2 && $0.frequencyHz > 0 }.map(\.frequencyHz)
    }
    let plain = attack(try estimates(blip: 0))
    let corrected = attack(try estimates(blip: 0.06))
    #expect(plain.filter { abs(cents($0, 220)) < 50 }.count >= 3, "\(plain)")
    #expect(corrected.count == plain.count)
    #expect(corrected.allSatisfy { abs(cents($0, 440)) < 50 }, "\(corrected)")
  }

  /// The same attack for the live decoder (octave confusion on, as by default): with no octave
  /// blip it emits the attack at A3, 80 ms after each frame, before the note's frames have
  /// outweighed it, and then A4. With the blip, the newest frames' candidates at A4 move the
  /// attack's frames to A4 as they are emitted, and at the end of a stream cut inside the note
  /// the frames decided last too.
  @Test func theLiveDecoderReportsAnAttacksOctaveBlipAtTheNotesOctave() throws {
    let (samples, onset, _) = Self.attackWithSubharmonic(gain: 1.5, seconds: 0.03, decay: 0.005)
    func attack(blip: Double, of samples: [Float]) throws -> [Double] {
      try ProbabilisticYINEstimator(configuration: PitchConfiguration(sampleRate: Self.rate), octaveBlipSeconds: blip)
        .estimates(for: samples)
        .filter { $0.time > onset - 0.03 && $0.time < onset + 0.2 && $0.frequencyHz > 0 }.map(\.frequencyHz)
    }
    let plain = try attack(blip: 0, of: samples)
    let corrected = try attack(blip: 0.06, of: samples)
    #expect(plain.filter { abs(cents($0, 220)) < 50 }.count >= 3, "\(plain)")
    #expect(corrected.count == plain.count)
    #expect(corrected.allSatisfy { abs(cents($0, 440)) < 50 }, "\(corrected)")
    // A stream that ends while the attack is being moved: the frames decided at the end go on
    // being moved.
    let cut = Array(samples[..<Int((onset + 0.1) * Self.rate)])
    let ending = try attack(blip: 0.06, of: cut)
    #expect(ending.count >= 8)
    #expect(ending.allSatisfy { abs(cents($0, 440)) < 50 }, "\(ending)")
  }

  @Test(arguments: [-0.01, 1.01, .nan])
  func anOctaveBlipOutsideZeroToOneSecondIsRefused(seconds: Double) {
    #expect(throws: PitchDSPError.self) {
      try ProbabilisticYINEstimator.offline(
        configuration: PitchConfiguration(sampleRate: Self.rate), frameCount: 44_100, octaveBlipSeconds: seconds)
    }
    #expect(throws: PitchDSPError.self) {
      try ProbabilisticYINEstimator(configuration: PitchConfiguration(sampleRate: Self.rate), octaveBlipSeconds: seconds)
    }
  }

  @Test(arguments: [-0.01, 0.51, .nan])
  func anOctaveConfusionOutsideZeroToAHalfIsRefused(probability: Double) {
    let configuration = PitchConfiguration(sampleRate: Self.rate)
    #expect(throws: PitchDSPError.self) {
      try ProbabilisticYINEstimator(configuration: configuration, octaveConfusionProbability: probability)
    }
    #expect(throws: PitchDSPError.self) {
      try ProbabilisticYINEstimator.offline(
        configuration: configuration, frameCount: 44_100, octaveConfusionProbability: probability)
    }
  }

  @Test(arguments: [-0.01, 0.5, .nan])
  func aRestEntryOutsideZeroToAHalfIsRefused(probability: Double) {
    let configuration = PitchConfiguration(sampleRate: Self.rate)
    #expect(throws: PitchDSPError.self) {
      try ProbabilisticYINEstimator(configuration: configuration, restEntryProbability: probability)
    }
    #expect(throws: PitchDSPError.self) {
      try ProbabilisticYINEstimator.offline(
        configuration: configuration, frameCount: 44_100, restEntryProbability: probability)
    }
  }

  /// With the entry anywhere after a rest turned off (a log-probability of −∞ for that source),
  /// both decoders still follow a melody whose notes lie far apart, across its rests.
  @Test(arguments: [false, true])
  func noEntryAnywhereAfterARestStillFollowsAMelody(live: Bool) throws {
    let notes = [110.0, 659.26, 98.0, 880.0]
    let (rest, note) = (0.3, 0.5)
    let melody = Self.melody(notes, rest: rest, note: note)
    let configuration = PitchConfiguration(sampleRate: Self.rate)
    let estimator: any PitchEstimator =
      live
      ? try ProbabilisticYINEstimator(configuration: configuration, restEntryProbability: 0)
      : try ProbabilisticYINEstimator.offline(
        configuration: configuration, frameCount: melody.count, restEntryProbability: 0)
    var (right, noteFrames) = (0, 0)
    for estimate in estimator.estimates(for: melody) {
      #expect(estimate.frequencyHz.isFinite && estimate.confidence.isFinite)
      let index = Int(estimate.time / (rest + note))
      let within = estimate.time - Double(index) * (rest + note)
      guard index < notes.count, within > rest + 0.1, within < rest + note - 0.05 else { continue }
      noteFrames += 1
      if estimate.isVoiced, abs(cents(estimate.frequencyHz, notes[index])) < 50 { right += 1 }
    }
    #expect(noteFrames > 100 && Double(right) >= 0.95 * Double(noteFrames), "\(right) of \(noteFrames)")
  }

  // Not MPM: its key maximum is the common period on 20 % of these frames.
  @Test(arguments: [PitchMethod.pyin, .pyinLive, .yin])
  func aRoomsRingOfTheNoteBeforeDoesNotTurnTheNoteIntoTheirCommonPeriod(method: PitchMethod) throws {
    // A room's ring of the previous note (A3), 9 dB down and dying away, under the next (E3, a
    // fourth below): the two repeat together every third period of E3 (55 Hz), and a room's
    // modes hold the ring's partials a few cents off the harmonic series. By periodicity alone
    // this is a 55 Hz tone missing partials 1, 2 and 5, or a bassoon-like E3 under a strong
    // third partial; E3 is what sounds, so `d′`'s dip at three periods must not win.
    let sampleRate = Self.generator.sampleRate
    let partials = [1, 0.5, 0.3, 0.2]
    let note = Self.generator.harmonicTone(fundamentalHz: 164.8, partialAmplitudes: partials, length: .seconds(0.6))
    let detuneCents = [3.0, -4, 5, -2]
    let ring = (0..<note.count).map { n -> Float in
      let t = Double(n) / sampleRate
      var sum = 0.0
      for (k, cents) in detuneCents.enumerated() {
        let frequency = Double(k + 1) * 220 * pow(2, cents / 1200)
        sum += partials[k] * sin(2 * Double.pi * frequency * t)
      }
      return Float(0.35 * exp(-t / 0.4) * sum)  // −9 dB, falling 60 dB in 2.8 s
    }
    let mixed = zip(note, ring).map { 0.2 * ($0 + $1) }
    let estimates = try track(mixed, method: method)
    let result = accuracy(estimates, truth: { _ in 164.8 }, from: 0.1, to: 0.5)
    #expect(result.rawPitch >= 0.99, "\(method): \(result)")
  }

  @Test(arguments: [PitchMethod.pyin, .pyinLive], [20.0, 10, 0])
  func noiseDownToZeroDecibels(method: PitchMethod, snr: Double) throws {
    let frequency = 196.0
    let tone = Self.generator.harmonicTone(fundamentalHz: frequency, partialAmplitudes: [1, 0.7, 0.5, 0.3, 0.2], length: .seconds(1))
    let noise = Self.generator.whiteNoise(length: .seconds(1), seed: 42)
    let noisy = Signal.scaled(Signal.mixed(tone, noise: noise, snrDB: snr), by: 0.2)
    let result = accuracy(try track(noisy, method: method), truth: { _ in frequency }, from: 0.1, to: 0.9)
    #expect(result.rawPitch >= (snr >= 10 ? 0.95 : 0.8), "\(method) at \(snr) dB: \(result)")
  }

  /// Notes under steady hiss: after a second of the noise alone, the noise learned from it is
  /// discounted, and notes 2 dB under it are found where YIN's and MPM's frame-by-frame
  /// readings missed them without that (pYIN's decoding already finds these).
  @Test(arguments: [PitchMethod.yin, .mpm])
  func steadyNoiseLearnedBetweenNotesIsDiscounted(method: PitchMethod) throws {
    let rate = Self.rate
    let noise = Self.generator.whiteNoise(length: .seconds(3), seed: 7)
    var signal = noise.map { 0.05 * $0 }
    // Three 0.5 s notes from 1 s on, 0.25 s apart, 2 dB under the noise.
    let noiseRMS = Signal.rms(signal)
    let frequencies = [220.0, 330.0, 262.0]
    for (k, frequency) in frequencies.enumerated() {
      let tone = Self.generator.harmonicTone(fundamentalHz: frequency, partialAmplitudes: [1, 0.5, 0.3], length: .seconds(0.5))
      let gain = 0.8 * noiseRMS / Signal.rms(tone)
      let start = Int((1 + 0.75 * Double(k)) * rate)
      for i in tone.indices { signal[start + i] += Float(gain) * tone[i] }
    }
    func estimates(_ compensation: Double) throws -> [PitchEstimate] {
      var configuration = PitchConfiguration(sampleRate: rate)
      configuration.noiseCompensation = compensation
      let estimator: any PitchEstimator = method == .mpm
        ? try MPMEstimator(configuration: configuration) : try YINEstimator(configuration: configuration)
      return estimator.estimates(for: signal)
    }
    // Inside the notes, away from their edges.
    func rawPitch(_ estimates: [PitchEstimate]) -> Double {
      let inside = (0..<3).flatMap { k in
        estimates.filter { $0.time >= 1.1 + 0.75 * Double(k) && $0.time <= 1.4 + 0.75 * Double(k) }.map { ($0, frequencies[k]) }
      }
      let right = inside.filter { $0.0.isVoiced && abs(1200 * log2($0.0.frequencyHz / $0.1)) < 50 }
      return Double(right.count) / Double(inside.count)
    }
    let plain = rawPitch(try estimates(0))
    let discounted = try estimates(0.8)
    #expect(rawPitch(discounted) >= 0.75, "\(method): \(rawPitch(discounted)) (\(plain) without)")
    #expect(rawPitch(discounted) > plain + 0.3, "\(method): \(rawPitch(discounted)) against \(plain) without")
    // And the noise alone stays unvoiced while it is learned.
    let noiseFrames = discounted.filter { $0.time < 0.95 }
    #expect(noiseFrames.filter(\.isVoiced).count <= noiseFrames.count / 20, "noise voiced")
  }

  /// Notes 8 dB under steady hiss: once the hiss is learned, it is subtracted from each frame's
  /// spectrum (``PitchConfiguration/subtractsNoise``), and the notes' partials, far above the
  /// hiss in their own bins, are found where the discount alone leaves their dips filled (YIN's
  /// fixed threshold still misses most of them: 0.18, from 0).
  @Test(arguments: [PitchMethod.pyin, .pyinLive, .mpm])
  func notesUnderSteadyNoiseAreFoundWithTheNoiseSubtracted(method: PitchMethod) throws {
    let rate = Self.rate
    var signal = Self.generator.whiteNoise(length: .seconds(3), seed: 11).map { 0.1 * $0 }
    let noiseRMS = Signal.rms(signal)
    let frequencies = [196.0, 294.0, 147.0]
    for (k, frequency) in frequencies.enumerated() {
      let tone = Self.generator.harmonicTone(
        fundamentalHz: frequency, partialAmplitudes: [1, 0.6, 0.4, 0.25], length: .seconds(0.5))
      let gain = 0.4 * noiseRMS / Signal.rms(tone)
      let start = Int((1 + 0.75 * Double(k)) * rate)
      for i in tone.indices { signal[start + i] += Float(gain) * tone[i] }
    }
    func rawPitch(_ estimates: [PitchEstimate]) -> Double {
      let inside = (0..<3).flatMap { k in
        estimates.filter { $0.time >= 1.1 + 0.75 * Double(k) && $0.time <= 1.4 + 0.75 * Double(k) }
          .map { ($0, frequencies[k]) }
      }
      let right = inside.filter { $0.0.isVoiced && abs(1200 * log2($0.0.frequencyHz / $0.1)) < 50 }
      return Double(right.count) / Double(inside.count)
    }
    let discounted = rawPitch(try track(signal, method: method, subtractsNoise: false))
    let subtracted = try track(signal, method: method)
    #expect(rawPitch(subtracted) >= 0.9, "\(method): \(rawPitch(subtracted)) (\(discounted) without)")
    #expect(
      rawPitch(subtracted) > discounted + 0.2, "\(method): \(rawPitch(subtracted)) against \(discounted)")
    // The hiss alone stays unvoiced, before the notes and between them.
    let hiss = subtracted.filter { e in
      e.time < 0.95
        || (0..<2).contains { k in e.time > 1.55 + 0.75 * Double(k) && e.time < 1.7 + 0.75 * Double(k) }
    }
    #expect(hiss.filter(\.isVoiced).count <= hiss.count / 20, "\(method): hiss voiced")
  }

  /// Sound between digital silences is no steady noise: a noise burst learned as noise is not
  /// subtracted from the quieter note after the silence that follows it.
  @Test(arguments: [PitchMethod.pyin, .yin])
  func noiseIsSubtractedOnlyWhenItIsSteady(method: PitchMethod) throws {
    let rate = Self.rate
    let burst = Self.generator.whiteNoise(length: .seconds(0.4), seed: 5).map { 0.2 * $0 }
    let silence = [Float](repeating: 0, count: Int(0.3 * rate))
    let note = Signal.scaled(
      Self.generator.harmonicTone(
        fundamentalHz: 41, partialAmplitudes: [0.3, 1, 0.6, 0.4], length: .seconds(0.8)),
      by: 0.02)
    let signal = burst + silence + burst + silence + note + silence
    let with = try track(signal, method: method)
    let without = try track(signal, method: method, subtractsNoise: false)
    let differing = zip(with, without).filter { $0.frequencyHz != $1.frequencyHz }.count
    #expect(with.count == without.count && differing == 0, "\(method): \(differing) frames differ")
  }

  /// Digital silence before steady noise (a recorder's lead-in) holds the subtraction back only
  /// until the quietest window has risen to the noise at 6 dB/s: about 10 s for noise at
  /// −59 dBFS, after which a note 8 dB under it is found as without the silence.
  @Test func subtractionResumesAfterALeadInOfDigitalSilence() throws {
    let rate = Self.rate
    let lead = [Float](repeating: 0, count: Int(0.3 * rate))
    var noisy = Self.generator.whiteNoise(length: .seconds(12), seed: 3).map { 0.002 * $0 }
    let noiseRMS = Signal.rms(noisy)
    let tone = Self.generator.harmonicTone(
      fundamentalHz: 220, partialAmplitudes: [1, 0.6, 0.4, 0.25], length: .seconds(0.5))
    let gain = Float(0.4 * noiseRMS / Signal.rms(tone))
    let start = Int(11 * rate)
    for i in tone.indices { noisy[start + i] += gain * tone[i] }
    let signal = lead + noisy
    func rawPitch(_ estimates: [PitchEstimate]) -> Double {
      let inside = estimates.filter { $0.time >= 11.4 && $0.time <= 11.7 }
      let right = inside.filter { $0.isVoiced && abs(cents($0.frequencyHz, 220)) < 50 }
      return Double(right.count) / Double(inside.count)
    }
    let subtracted = rawPitch(try track(signal, method: .mpm))
    let discounted = rawPitch(try track(signal, method: .mpm, subtractsNoise: false))
    #expect(subtracted >= 0.9 && subtracted > discounted + 0.2, "\(subtracted) against \(discounted)")
  }

  /// A note held for seconds never teaches the noise floor (it is periodic in every frame), so
  /// it is read as finely at the end as at the start.
  @Test(arguments: [PitchMethod.pyin, .yin, .mpm])
  func aLongHeldNoteIsNotTakenForNoise(method: PitchMethod) throws {
    let tone = Signal.scaled(
      Self.generator.harmonicTone(fundamentalHz: 196, partialAmplitudes: (1...20).map { 1 / Double($0) }, length: .seconds(4)),
      by: 0.2)
    let estimates = try track(tone, method: method)
    let early = accuracy(estimates, truth: { _ in 196 }, from: 0.3, to: 1.2)
    let late = accuracy(estimates, truth: { _ in 196 }, from: 2.5, to: 3.8)
    #expect(late.rawPitch == 1 && late.medianCents < 0.5, "\(method): \(late), early \(early)")
  }

  @Test(arguments: [PitchMethod.pyin, .pyinLive, .yin, .mpm])
  func vibratoAndGlidesAreFollowed(method: PitchMethod) throws {
    let vibrato = Self.generator.vibrato(centerHz: 440, rateHz: 5.5, depthCents: 50, amplitude: 0.3, length: .seconds(1))
    let truth = { (t: Double) in 440 * pow(2, 50.0 / 1200 * sin(2 * Double.pi * 5.5 * t)) }
    let result = accuracy(try track(vibrato, method: method), truth: truth, from: 0.1, to: 0.9)
    #expect(result.rawPitch >= 0.98, "\(method) vibrato: \(result)")
    let glide = Self.generator.glide(fromHz: 220, toHz: 330, startSeconds: 0.3, glideSeconds: 0.3, amplitude: 0.3, length: .seconds(1))
    let glideTruth = { (t: Double) -> Double in
      t <= 0.3 ? 220 : t >= 0.6 ? 330 : 220 * pow(1.5, (t - 0.3) / 0.3)
    }
    let glideResult = accuracy(try track(glide, method: method), truth: glideTruth, from: 0.1, to: 0.9)
    #expect(glideResult.rawPitch >= 0.95, "\(method) glide: \(glideResult)")
  }

  @Test(arguments: [PitchMethod.pyin, .pyinLive, .yin, .mpm])
  func noiseAndSilenceAreUnvoiced(method: PitchMethod) throws {
    let white = Signal.scaled(Self.generator.whiteNoise(length: .seconds(0.5), seed: 1), by: 0.1)
    let pink = Self.generator.pinkNoise(rms: 0.05, length: .seconds(0.5), seed: 2)
    let silence = Self.generator.silence(length: .seconds(0.5))
    for (name, signal) in [("white noise", white), ("pink noise", pink), ("silence", silence)] {
      let estimates = try track(signal, method: method)
      let voiced = estimates.filter(\.isVoiced).count
      #expect(Double(voiced) <= 0.05 * Double(estimates.count), "\(method) \(name): \(voiced) of \(estimates.count) voiced")
    }
  }

  /// Rests in steady pink noise 10 dB under the notes are unvoiced: a frame that does not rise
  /// over the learned noise gives its periods a quarter of their weight, so a run of phantom
  /// pitches does not start there (before, the live decoder voiced runs of 3 to 10 frames at
  /// random pitches in these rests, 26 frames in all).
  /// Harmonic tones (five partials falling from 1 to 0.15) of `note` seconds at `notes`, each
  /// peaking at 0.2, with `rest` seconds of silence before each and after the last.
  static func melody(_ notes: [Double], rest: Double, note: Double) -> [Float] {
    var parts: [[Float]] = []
    for frequency in notes {
      let tone = generator.harmonicTone(
        fundamentalHz: frequency, partialAmplitudes: [1, 0.6, 0.4, 0.25, 0.15], length: .seconds(note))
      parts += [generator.silence(length: .seconds(rest)), Signal.scaled(tone, by: 0.2 / Signal.peak(tone))]
    }
    parts.append(generator.silence(length: .seconds(rest)))
    return Signal.concatenated(parts)
  }

  @Test func restsInSteadyNoiseAreUnvoiced() throws {
    let method = PitchMethod.pyinLive
    let notes = [220.0, 330, 262, 392, 196]
    let (rest, note) = (2.0, 0.5)
    var voiced = 0
    var frames = 0
    for seed in UInt64(2)...3 {
      let melody = Self.melody(notes, rest: rest, note: note)
      let noteRMS = Signal.rms(Array(melody[Int(rest * Self.rate)..<Int((rest + note) * Self.rate)]))
      let noise = Self.generator.pinkNoise(
        rms: noteRMS / 10.0.squareRoot(), length: .frames(melody.count), seed: seed)
      // The rests after the first note (the noise is learned and steady by then), 0.15 s clear of
      // every note.
      for estimate in try track(Signal.added(melody, noise), method: method) {
        let within = estimate.time.truncatingRemainder(dividingBy: rest + note)
        guard estimate.time > rest + note, within > 0.15, within < rest - 0.15 else { continue }
        frames += 1
        if estimate.isVoiced { voiced += 1 }
      }
    }
    #expect(Double(voiced) <= 0.005 * Double(frames), "\(method): \(voiced) of \(frames) rest frames voiced")
  }

  /// A constant offset under a melody with rests (a microphone's or an interface's DC) changes
  /// nothing: `d(τ)` ignores it, and the analysis window's mean comes off a frame where it holds a
  /// fifth of the window's energy, before the energies and the correlation `d(τ)` is computed
  /// from. Left in, the offset dominated both, and the rounding of their difference read the rests
  /// as periodic (every rest frame voiced for pYIN and YIN; MPM's notes wrong at one of the two
  /// offsets).
  @Test(arguments: [PitchMethod.pyin, .pyinLive, .yin, .mpm])
  func aDCOffsetChangesNothing(method: PitchMethod) throws {
    let notes = [110.0, 220, 330, 587.33]
    let (rest, note) = (0.4, 0.5)
    let melody = Self.melody(notes, rest: rest, note: note)
    func check(offset: Double) throws {
      var (voicedInRests, restFrames, right, noteFrames) = (0, 0, 0, 0)
      for estimate in try track(melody.map { $0 + Float(offset) }, method: method) {
        let index = Int(estimate.time / (rest + note))
        let within = estimate.time - Double(index) * (rest + note)
        if within > 0.05, within < rest - 0.05 {
          restFrames += 1
          if estimate.isVoiced { voicedInRests += 1 }
        } else if index < notes.count, within > rest + 0.05, within < rest + note - 0.05 {
          noteFrames += 1
          if estimate.isVoiced, abs(cents(estimate.frequencyHz, notes[index])) < 50 { right += 1 }
        }
      }
      #expect(
        voicedInRests == 0, "\(method), offset \(offset): \(voicedInRests) of \(restFrames) rest frames")
      #expect(right == noteFrames, "\(method), offset \(offset): \(right) of \(noteFrames) note frames right")
    }
    for offset in [0.0, 0.05, -0.3] { try check(offset: offset) }
  }

  /// Rumble below the range (sines at 12 and 23 Hz with the notes' peak amplitude and half of it:
  /// handling, wind, traffic) is filtered out before the analysis
  /// (``PitchConfiguration/removesRumble``, on by default), and low notes down to 41.2 Hz are
  /// found under it.
  /// Left in, it buried the dips of their periods: right on 0.78 of the note frames for pYIN
  /// (offline and live), 0.25 for YIN, 0.40 for MPM; filtered, 1.0, 0.91 and 0.99.
  @Test(arguments: [PitchMethod.pyin, .pyinLive, .yin, .mpm])
  func rumbleBelowTheRangeIsFilteredOut(method: PitchMethod) throws {
    let notes = [41.2, 55, 82.41, 110, 587.33]
    let (rest, note) = (0.4, 0.5)
    let melody = Self.melody(notes, rest: rest, note: note)
    let peak = melody.map { abs($0) }.max() ?? 0
    let rumbling = melody.enumerated().map { n, x in
      let t = Double(n) / Self.rate
      return x + peak * Float(sin(2 * .pi * 12 * t) + 0.5 * sin(2 * .pi * 23 * t + 1))
    }
    var (right, noteFrames) = (0, 0)
    for estimate in try track(rumbling, method: method) {
      let index = Int(estimate.time / (rest + note))
      let within = estimate.time - Double(index) * (rest + note)
      guard index < notes.count, within > rest + 0.05, within < rest + note - 0.05 else { continue }
      noteFrames += 1
      if estimate.isVoiced, abs(cents(estimate.frequencyHz, notes[index])) < 50 { right += 1 }
    }
    let share = Double(right) / Double(max(1, noteFrames))
    #expect(share >= (method == .yin ? 0.9 : 0.98), "\(method): \(share) of the note frames right")
  }

  /// The offline path stores its frames and decodes them at the end; fed more than the length it
  /// was made for, it decodes the rest as a fixed-lag decoder, and every frame is still right.
  @Test func anOfflineEstimatorFedPastItsLengthKeepsTracking() throws {
    let tone = Signal.scaled(
      Self.generator.harmonicTone(fundamentalHz: 262, partialAmplitudes: [1, 0.5, 0.3], length: .seconds(2)), by: 0.3)
    let estimator = try ProbabilisticYINEstimator.offline(
      configuration: PitchConfiguration(sampleRate: Self.rate), frameCount: tone.count / 3)
    let estimates = estimator.estimates(for: tone)
    #expect(estimates.count >= 195, "\(estimates.count) estimates")
    let result = accuracy(estimates, truth: { _ in 262 }, from: 0.1, to: 1.9)
    #expect(result.rawPitch == 1, "\(result)")
  }

  @Test(arguments: [PitchMethod.pyinLive, .yin, .mpm])
  func nonFiniteBurstsDoNotPoisonTheStream(method: PitchMethod) throws {
    let tone = Self.generator.harmonicTone(fundamentalHz: 330, partialAmplitudes: [1, 0.5, 0.3], length: .seconds(1))
    let broken = Signal.injecting(.nan, in: 20000..<20100, into: Signal.injecting(.infinity, at: [5000, 30000], into: Signal.scaled(tone, by: 0.3)))
    let estimates = try track(broken, method: method)
    #expect(estimates.allSatisfy { $0.frequencyHz.isFinite && $0.confidence.isFinite })
    // After the burst (and a frame's length), the pitch is right again.
    let result = accuracy(estimates, truth: { _ in 330 }, from: 0.6, to: 0.9)
    #expect(result.rawPitch == 1, "\(method): \(result)")
  }
}

@Suite struct PitchLatencyTests {
  /// Each estimate comes out exactly when the input `latencySeconds` past its time has arrived.
  @Test(arguments: [PitchMethod.yin, .mpm, .pyinLive], [16000.0, 44100, 48000])
  func estimatesArriveAtTheDocumentedLatency(method: PitchMethod, rate: Double) throws {
    let configuration = PitchConfiguration(sampleRate: rate)
    let estimator = try makeEstimator(method, configuration)
    let signal = SignalGenerator(sampleRate: rate).sine(frequencyHz: 300, amplitude: 0.3, length: .seconds(0.4))
    var scratch = [PitchEstimate](repeating: .init(time: 0, frequencyHz: 0, confidence: 0, levelDBFS: 0), count: estimator.maximumEstimates(forFrames: 1))
    // Push one frame at a time; note when each estimate appears.
    var delays: [Double] = []
    for (index, sample) in signal.enumerated() {
      let n = [sample].withUnsafeBufferPointer { one in scratch.withUnsafeMutableBufferPointer { estimator.process(one, into: $0) } }
      for estimate in scratch[0..<n] { delays.append(Double(index + 1) / rate - estimate.time) }
    }
    #expect(delays.count > 10)
    let decimation = Double(configuration.decimationFactor)
    for delay in delays.dropFirst(5) {
      #expect(abs(delay - estimator.latencySeconds) <= (decimation + 1) / rate, "\(method) at \(rate): \(delay) vs \(estimator.latencySeconds)")
    }
  }
}

/// `signal` convolved with `impulse` through the FFT.
func convolved(_ signal: [Float], _ impulse: [Float]) throws -> [Float] {
  let count = signal.count + impulse.count - 1
  var size = 2
  while size < count { size <<= 1 }
  let fft = try SwiftFFTBackend(size: size)
  let a = fft.forwardReal(signal + [Float](repeating: 0, count: size - signal.count))
  let b = fft.forwardReal(impulse + [Float](repeating: 0, count: size - impulse.count))
  var re = [Float](repeating: 0, count: size / 2 + 1)
  var im = re
  for k in re.indices {
    re[k] = a.real[k] * b.real[k] - a.imaginary[k] * b.imaginary[k]
    im[k] = a.real[k] * b.imaginary[k] + a.imaginary[k] * b.real[k]
  }
  var out = [Float](repeating: 0, count: size)
  re.withUnsafeBufferPointer { r in
    im.withUnsafeBufferPointer { i in out.withUnsafeMutableBufferPointer { fft.inverseReal(real: r, imaginary: i, output: $0) } }
  }
  return Array(out[0..<count])
}

@Suite struct PitchReverbTests {
  /// A dry melody in a reverberant room (exponentially decaying noise, RT60 0.6 s): the tail of
  /// each note overlaps the next, yet each note is tracked once its direct sound dominates.
  @Test func roomReverberation() throws {
    let rate = 22050.0
    let generator = SignalGenerator(sampleRate: rate)
    let notes = [220.0, 247.0, 262.0, 294.0, 330.0]
    let dry = Signal.concatenated(notes.map { generator.harmonicTone(fundamentalHz: $0, partialAmplitudes: [1, 0.6, 0.4, 0.2], length: .seconds(0.4)) })
    var random = SeededRandom(seed: 11)
    let rt60 = 0.6
    let impulse = (0..<Int(rt60 * rate)).map { i -> Float in
      let decay = exp(-6.91 * Double(i) / (rt60 * rate))  // −60 dB at RT60
      return i == 0 ? 1 : Float(random.nextGaussian() * decay * 0.08)
    }
    let wet = try convolved(dry, impulse)
    let peak = wet.map { abs($0) }.max() ?? 1
    let signal = wet.map { $0 / peak * 0.5 }
    let estimates = try ProbabilisticYINEstimator.offline(configuration: PitchConfiguration(sampleRate: rate), frameCount: signal.count).estimates(for: signal)
    for (index, frequency) in notes.enumerated() {
      let start = Double(index) * 0.4
      let result = accuracy(estimates, truth: { _ in frequency }, from: start + 0.1, to: start + 0.35)
      #expect(result.rawPitch >= 0.9, "note \(index) at \(frequency) Hz: \(result)")
    }
  }
}

@Suite struct PitchConfigurationCodingTests {
  @Test func aConfigurationRoundTripsThroughJSON() throws {
    var configuration = PitchConfiguration(sampleRate: 48_000, minimumFrequencyHz: 60, maximumFrequencyHz: 1500)
    configuration.noiseCompensation = 0.5
    configuration.decimatorQuality = .high
    configuration.voicingRangeDecibels = 40
    let data = try JSONEncoder().encode(configuration)
    #expect(try JSONDecoder().decode(PitchConfiguration.self, from: data) == configuration)
  }

  @Test func aConfigurationSavedBeforeTheLaterSettingsStillReads() throws {
    let json = #"{"sampleRate":44100,"minimumFrequencyHz":40,"maximumFrequencyHz":2000,"hopSize":441,"windowSeconds":0.035}"#
    let decoded = try JSONDecoder().decode(PitchConfiguration.self, from: Data(json.utf8))
    #expect(decoded == PitchConfiguration(sampleRate: 44_100))
  }

  /// The decimator's band limit is a setting: off, the filter stops at the decimated Nyquist
  /// frequency as before it (the grader's sounds keep it off), and it survives JSON.
  @Test func theBandLimitToThePartialsIsASetting() throws {
    var configuration = PitchConfiguration(sampleRate: 44_100)
    #expect(PeriodicityPlan(configuration).bandRate == 14_700)
    configuration.limitsBandToPartials = false
    #expect(PeriodicityPlan(configuration).bandRate == PeriodicityPlan(configuration).analysisRate)
    let data = try JSONEncoder().encode(configuration)
    #expect(try JSONDecoder().decode(PitchConfiguration.self, from: data) == configuration)
  }

  @Test func aMissingRequiredFieldIsAnError() {
    let json = #"{"sampleRate":44100,"minimumFrequencyHz":40,"hopSize":441,"windowSeconds":0.035}"#
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(PitchConfiguration.self, from: Data(json.utf8)) }
  }
}
