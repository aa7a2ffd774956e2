/// What a pitch estimator analyzes: the sample rate, the pitch range, the hop and the window.
///
/// Every estimator reports one ``PitchEstimate`` per hop, timed at the centre of its analysis
/// frame: estimate `k` is at `k · hopSize / sampleRate` seconds. The range bounds the period
/// search: a wider range costs more (the frame must hold two of the longest periods).
///
/// The estimators analyze the input at ten samples or more per period of the highest pitch.
/// Above 20 kHz (for the default range), a decimated copy (44.1 kHz → 22.05 kHz, 48 kHz → 24 kHz),
/// which halves the work without touching the pitch range; below, a copy resampled up (16 kHz →
/// 24 kHz, 8 kHz → 20 kHz), so that a high note's dip in the difference function does not fall
/// between two lags; see ``analysisSampleRate``.
public struct PitchConfiguration: Sendable, Hashable, Codable {
  /// The input sample rate, in Hz.
  public var sampleRate: Double
  /// The lowest pitch searched, in Hz (default 40 Hz, below a tuba's or a bass's lowest note).
  public var minimumFrequencyHz: Double
  /// The highest pitch searched, in Hz (default 2 kHz, above a piccolo trumpet's range).
  public var maximumFrequencyHz: Double
  /// Input frames between estimates (default 10 ms).
  public var hopSize: Int
  /// The shortest integration window, in seconds (default 35 ms); the window is at least one
  /// period of ``minimumFrequencyHz``. Longer windows resist noise better and smear fast pitch
  /// changes more.
  public var windowSeconds: Double
  /// How far below the recent peak level a frame may be and still be voiced, in dB (default
  /// 50; `infinity` turns the gate off). The recent peak follows each louder frame at once and
  /// falls ``peakDecayDecibelsPerSecond`` otherwise, so the fading tail of a note stops being
  /// reported once it is inaudible beside what was just played, and a quiet passage is voiced
  /// again soon after a loud one.
  public var voicingRangeDecibels: Double = 50
  /// How fast the recent peak level falls, in dB per second (default 3).
  public var peakDecayDecibelsPerSecond: Double = 3
  /// The decimator's filter (default ``Resampler/Quality/fast``), used when the input is
  /// decimated (from 40 kHz for the default range) or resampled up (below 20 kHz; see
  /// ``analysisSampleRate``). The filter also band-limits (unless
  /// ``limitsBandToPartials`` is off): its stop band starts at the Nyquist frequency of a whole
  /// decimation of the input with at least seven samples per period of ``maximumFrequencyHz``
  /// (7.35 kHz from 44.1 kHz) and it is flat to 0.8 of that (5.9 kHz), while the analysis runs
  /// at ten samples per period or more. The partials
  /// a period needs pass, and less broadband noise gets into the difference function: in
  /// `Evaluation/pitch`, against the band ending at the decimated Nyquist frequency (flat to
  /// 8.8 kHz), pYIN's raw pitch accuracy at 10 dB SNR rose by 46 / 31 / 43 / 23 frames of 13,921
  /// on the four soundfonts' renders (the live decoder's by 37 / 29 / 46 / 23) and at 0 dB by
  /// 256 / 179 / 114 / 133, with the clean and reverberant renders within 7 frames and 20 dB up
  /// to 12 frames lower; false alarms at 10 dB went from 0.020 to 0.023. It adds 28 input
  /// samples (0.6 ms) of delay at 44.1 kHz. Analyzing at seven samples per period instead did as
  /// well in noise, but YIN and MPM then read notes near 2 kHz an octave low (their dips fall
  /// between samples). The shorter `fast` filter costs half of
  /// ``Resampler/Quality/standard``'s and delays the estimates less (and, before the band limit,
  /// let less noise in: pYIN on the synthesized tones at 10 dB, 0.827 → 0.849).
  public var decimatorQuality: Resampler.Quality = .fast
  /// The share of the steady noise's contribution taken off the difference function (default
  /// 0.8; 0 turns it off; below 1). The noise is learned, per frequency bin, from the frames in
  /// which no period is found (the hiss or hum between and around the notes; see `NoiseFloor`),
  /// so a note under that noise dips as if the noise were five times weaker, while a clean or
  /// held note is left as it is; `d(τ)` is never cut by more than this share of itself. In
  /// `Evaluation/pitch`, pYIN's raw pitch accuracy at 10 dB SNR rose from 0.892 to 0.909 on the
  /// renders and from 0.849 to 0.888 on the synthesized tones (0 dB: 0.521 to 0.647), false
  /// alarms on unvoiced frames stayed at 0.005–0.029, clean and reverberant files were unchanged
  /// or better. MPM's normalized square difference takes the same discount: 0.828 to 0.901 at
  /// 10 dB on the renders, 0.737 to 0.896 on the synthesized tones.
  public var noiseCompensation: Double = 0.8
  /// Whether a frame under strong steady noise is denoised before its difference function is
  /// formed (default `true`; needs ``noiseCompensation`` above 0, which learns the noise). When
  /// the learned noise holds more than a tenth of the window's energy and is steady (no window of
  /// the last seconds much quieter than it), each bin of the frame's spectrum is scaled by
  /// `max(0.1, 1 − 1.5·N/|X|²)` (power spectral subtraction with Berouti's over-subtraction and a
  /// spectral floor) and the difference function is taken from what is left instead of
  /// discounting the noise's expected share: the discount leaves the noise's random part, which
  /// fills the dip of a note about as loud as the noise or quieter, while a note's partials stand
  /// far above the noise in their own bins. "Steady" is judged by the quietest window, which may
  /// rise by 6 dB a second: a file with digital silence between its notes (whose "noise" is
  /// learned from attacks and release tails) never qualifies, and after a lead-in of digital
  /// silence the subtraction starts once that has risen to the noise (about 10 s for noise at
  /// −60 dBFS). In `Evaluation/pitch`, pYIN's raw pitch accuracy on the renders rose from 0.935
  /// to 0.950 at 10 dB SNR (0.949 to 0.962 and 0.968 to 0.977 on the two holdout soundfonts),
  /// 0.961 to 0.965 at 20 dB and 0.734 to 0.853 at 0 dB (synthesized tones at 10 dB: 0.938 to
  /// 0.978), with false alarms on unvoiced frames 0.010 to 0.035 at 10 dB; clean and reverberant
  /// files unchanged. It costs two more transforms in the frames it runs in. A denoised frame that
  /// hardly rises over the noise (the noise 0.965 of its energy or more, fully from 0.995) gives
  /// pYIN's candidates down to a quarter of their weight, so that runs of phantom pitches do not
  /// start in noisy rests: false alarms at 10 dB 0.033–0.039 → 0.017–0.020 on the four sets,
  /// raw pitch accuracy on the renders at 10 dB 0 to −0.001, synthesized tones −0.005.
  public var subtractsNoise = true
  /// Whether the decimator's filter also keeps out what lies above the partials a period needs
  /// (default `true`; see ``decimatorQuality``). With `false` it passes everything under 0.8 of
  /// the decimated Nyquist frequency (8.8 kHz from 44.1 kHz), as before the band limit.
  public var limitsBandToPartials = true
  /// Whether a steady periodic sound under the music — mains hum, a fan's whine — is learned from
  /// the quietest frames and not reported as a pitch where the signal does not rise clearly over
  /// it (default `true`; see `PeriodicBackground`). It is learned once the recording has had a
  /// sound 15 dB louder and then a rest of 0.2 s over it, and mains hum (50 or 60 Hz or its
  /// second or third harmonic, within 0.5 %, under −30 dBFS) from the stream's first 0.05 s, even
  /// under noise as loud as the hum; the offline pYIN path also weighs the frames before, the live
  /// one the frames it has not decided yet. Notes at other pitches are never touched; notes at the
  /// background's pitch (or an octave or a twelfth of it) count only from 3 dB over its level,
  /// fully from 12 dB. A tone at a mains frequency under −30 dBFS from a stream's first sample is
  /// taken for hum. In `Evaluation/pitch`'s hum condition (50 or 60 Hz mains hum with eight
  /// harmonics, 25 dB under the notes), on the four soundfonts' sets, pYIN's false alarms on the
  /// unvoiced frames fell from 0.975–0.978 to 0.012–0.014 and its raw pitch accuracy on the
  /// renders rose by 0.003–0.006; the live decoder's to 0.013–0.014, YIN's and MPM's from
  /// 0.91–0.94 to 0.010–0.016; with white noise as loud as the hum, pYIN's 0.012–0.016, MPM's
  /// 0.020–0.028; every other condition was unchanged but for a few frames of reverb tails. Turn
  /// it off for a drone that is part of the music.
  public var ignoresPeriodicBackground = true
  /// Whether what lies below the pitch range — a DC offset, the rumble of handling, wind or
  /// traffic — is filtered out before the analysis (default `true`): a second-order Butterworth
  /// high-pass at 0.75 × ``minimumFrequencyHz`` (30 Hz for the default range; 1.2 dB lost at the
  /// lowest pitch, 16 dB taken off at 0.3 of it). Levels (``PitchEstimate/levelDBFS``) are then
  /// those of the filtered signal. With `Evaluation/pitch/inputs.py`'s rumble (FluidR3's clean
  /// renders with sines at 12 and 23 Hz, 6 and 12 dB under their peak), pYIN's raw pitch accuracy
  /// is 0.599 without it and 0.898 with it (the live decoder's 0.597 and 0.895, YIN's 0.488 and
  /// 0.807, MPM's 0.396 and 0.807). On `Evaluation/pitch`'s five sets it moved pYIN's correct
  /// frames by −8 to +2 per set on the clean renders and raised the noisy ones (0 to +33 at
  /// 10 dB, +83 to +98 at 0 dB; part of the added noise is pink), with false alarms at 10 dB
  /// 0.019 → 0.021 on FluidR3; with mains hum −38 to +12 (a bassoon note near a hum harmonic read
  /// at another partial). Turn it off to analyze the signal as it is.
  public var removesRumble = true

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - sampleRate: The input sample rate, in Hz (8 kHz...384 kHz).
  ///   - minimumFrequencyHz: The lowest pitch, in Hz.
  ///   - maximumFrequencyHz: The highest pitch, in Hz (below a quarter of the sample rate).
  ///   - hopSeconds: The time between estimates, in seconds (rounded to whole frames).
  ///   - windowSeconds: The shortest integration window, in seconds.
  public init(
    sampleRate: Double, minimumFrequencyHz: Double = 40, maximumFrequencyHz: Double = 2000, hopSeconds: Double = 0.01,
    windowSeconds: Double = 0.035
  ) {
    self.sampleRate = sampleRate
    self.minimumFrequencyHz = minimumFrequencyHz
    self.maximumFrequencyHz = maximumFrequencyHz
    self.hopSize = max(1, Int((hopSeconds * sampleRate).rounded()))
    self.windowSeconds = windowSeconds
  }

  private enum CodingKeys: String, CodingKey {
    case sampleRate, minimumFrequencyHz, maximumFrequencyHz, hopSize, windowSeconds
    case voicingRangeDecibels, peakDecayDecibelsPerSecond, decimatorQuality, noiseCompensation
    case subtractsNoise, limitsBandToPartials, ignoresPeriodicBackground, removesRumble
  }

  /// Decodes a configuration; the settings added after the first five (the voicing gate, the
  /// decimator, the noise compensation and subtraction, the band limit, the periodic background,
  /// the rumble filter) take their defaults when absent, so a configuration saved by an earlier
  /// version still reads.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    sampleRate = try container.decode(Double.self, forKey: .sampleRate)
    minimumFrequencyHz = try container.decode(Double.self, forKey: .minimumFrequencyHz)
    maximumFrequencyHz = try container.decode(Double.self, forKey: .maximumFrequencyHz)
    hopSize = try container.decode(Int.self, forKey: .hopSize)
    windowSeconds = try container.decode(Double.self, forKey: .windowSeconds)
    let defaults = PitchConfiguration(sampleRate: sampleRate)
    voicingRangeDecibels =
      try container.decodeIfPresent(Double.self, forKey: .voicingRangeDecibels) ?? defaults.voicingRangeDecibels
    peakDecayDecibelsPerSecond =
      try container.decodeIfPresent(Double.self, forKey: .peakDecayDecibelsPerSecond)
      ?? defaults.peakDecayDecibelsPerSecond
    decimatorQuality =
      try container.decodeIfPresent(Resampler.Quality.self, forKey: .decimatorQuality) ?? defaults.decimatorQuality
    noiseCompensation =
      try container.decodeIfPresent(Double.self, forKey: .noiseCompensation) ?? defaults.noiseCompensation
    subtractsNoise =
      try container.decodeIfPresent(Bool.self, forKey: .subtractsNoise) ?? defaults.subtractsNoise
    limitsBandToPartials =
      try container.decodeIfPresent(Bool.self, forKey: .limitsBandToPartials) ?? defaults.limitsBandToPartials
    ignoresPeriodicBackground =
      try container.decodeIfPresent(Bool.self, forKey: .ignoresPeriodicBackground)
      ?? defaults.ignoresPeriodicBackground
    removesRumble = try container.decodeIfPresent(Bool.self, forKey: .removesRumble) ?? defaults.removesRumble
  }

  /// Checks that the values can be analyzed.
  ///
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` naming the first value
  ///   out of range.
  public func validate() throws(PitchDSPError) {
    guard sampleRate.isFinite, (8000...384_000).contains(sampleRate) else {
      throw .invalidParameter(name: "sample rate", value: "\(sampleRate)", expected: "8000...384000 Hz")
    }
    guard minimumFrequencyHz.isFinite, minimumFrequencyHz >= 10 else {
      throw .invalidParameter(name: "minimum frequency", value: "\(minimumFrequencyHz)", expected: "at least 10 Hz")
    }
    guard maximumFrequencyHz.isFinite, maximumFrequencyHz > minimumFrequencyHz * 1.5, maximumFrequencyHz <= sampleRate / 4 else {
      throw .invalidParameter(
        name: "maximum frequency", value: "\(maximumFrequencyHz)",
        expected: "above 1.5 × the minimum and at most a quarter of the sample rate")
    }
    guard (1...Int(sampleRate)).contains(hopSize) else {
      throw .invalidParameter(name: "hop size", value: "\(hopSize)", expected: "1 frame...1 second")
    }
    guard voicingRangeDecibels > 0, peakDecayDecibelsPerSecond.isFinite, peakDecayDecibelsPerSecond >= 0 else {
      throw .invalidParameter(
        name: "voicing gate", value: "\(voicingRangeDecibels) dB, \(peakDecayDecibelsPerSecond) dB/s",
        expected: "a positive range and a non-negative decay")
    }
    guard noiseCompensation.isFinite, noiseCompensation >= 0, noiseCompensation < 1 else {
      throw .invalidParameter(name: "noise compensation", value: "\(noiseCompensation)", expected: "0 ≤ share < 1")
    }
    guard windowSeconds.isFinite, windowSeconds > 0, windowSeconds <= 1 else {
      throw .invalidParameter(name: "window", value: "\(windowSeconds)", expected: "0...1 s")
    }
    guard PeriodicityPlan(self).fftSize <= 1 << 16 else {
      throw .invalidParameter(
        name: "pitch range", value: "\(minimumFrequencyHz) Hz at \(sampleRate) Hz",
        expected: "a minimum frequency whose analysis frame fits a 65536-point FFT")
    }
  }

  /// The factor the input is decimated by before analysis (1 = none): the largest whole number
  /// that keeps at least ten samples per period of ``maximumFrequencyHz``; 1 also when the
  /// input is resampled up instead (see ``analysisSampleRate``).
  public var decimationFactor: Int {
    let plan = PeriodicityPlan(self)
    return plan.interpolation == 1 ? plan.decimation : 1
  }

  /// The rate the estimators analyze at, in Hz: the input's ``sampleRate`` divided by
  /// ``decimationFactor`` when that keeps ten samples per period of ``maximumFrequencyHz`` or
  /// more; otherwise the input resampled up by the smallest ratio in halves that does (× 3/2 from
  /// 16 kHz, × 2 from 11.025 kHz, × 5/2 from 8 kHz for the default 2 kHz). At fewer samples per
  /// period the dip of the difference function at a high note's period is narrower than a lag
  /// when its upper partials are strong, and falls between two lags: at 8 kHz, YIN and MPM read
  /// notes from 1.05 kHz an octave or more low, and at 16 kHz some from 1.5 kHz.
  public var analysisSampleRate: Double { PeriodicityPlan(self).analysisRate }

  /// The time between estimates, in seconds.
  public var hopSeconds: Double { Double(hopSize) / sampleRate }
}

/// The sizes a configuration implies: decimation, lag range, window, frame and FFT.
///
/// The frame is centred on the estimate's time: the window sits in its middle, with room for the
/// longest lag (plus one, for interpolation) on either side, so that the difference function
/// compares the window with the signal both before and after it (see ``PeriodicityAnalysis``).
struct PeriodicityPlan: Sendable, Hashable {
  /// Input frames per `interpolation` analysis frames: the analysis rate is the input's times
  /// `interpolation / decimation`, one of the two 1 except when resampling up by a half-integer.
  let decimation: Int
  let interpolation: Int
  /// The analysis sample rate, in Hz.
  let analysisRate: Double
  /// The rate whose Nyquist frequency the decimator's filter stops at: the rate a decimation to
  /// seven samples per period of the highest pitch would give, so that the partials that matter
  /// pass and less broadband noise does (see ``PitchConfiguration/decimatorQuality``); the
  /// analysis rate when ``PitchConfiguration/limitsBandToPartials`` is off.
  let bandRate: Double
  /// The shortest and longest lags searched, in analysis samples.
  let minimumLag: Int
  let maximumLag: Int
  /// The lags on each side of the window: the longest lag and one more.
  let lagMargin: Int
  /// The integration window, in analysis samples.
  let windowLength: Int
  /// The analysis frame: the window with a lag margin on each side.
  let frameLength: Int
  /// The frame sample the estimate is timed at: the window's centre.
  let centreOffset: Int
  /// The FFT size, a power of two at least `frameLength`.
  let fftSize: Int

  /// The largest whole factor `rate` can be decimated by and keep at least `samples` samples per
  /// period of `frequency` (1: none).
  static func wholeDecimation(
    of rate: Double, keeping samples: Double, samplesPerPeriodOf frequency: Double
  ) -> Int {
    max(1, Int(rate / (samples * frequency)))
  }

  init(_ configuration: PitchConfiguration) {
    let rate = configuration.sampleRate
    let highest = configuration.maximumFrequencyHz
    let samplesPerPeriod = 10.0
    if rate >= samplesPerPeriod * highest {
      decimation = Self.wholeDecimation(of: rate, keeping: samplesPerPeriod, samplesPerPeriodOf: highest)
      interpolation = 1
    } else {
      // Up by the smallest ratio in halves that reaches ten samples per period.
      let halves = Int((2 * samplesPerPeriod * highest / rate).rounded(.up))
      (interpolation, decimation) = halves % 2 == 0 ? (halves / 2, 1) : (halves, 2)
    }
    analysisRate = rate * Double(interpolation) / Double(decimation)
    bandRate =
      configuration.limitsBandToPartials
      ? rate / Double(Self.wholeDecimation(of: rate, keeping: 7, samplesPerPeriodOf: highest)) : analysisRate
    minimumLag = max(2, Int((analysisRate / configuration.maximumFrequencyHz).rounded(.down)))
    maximumLag = Int((analysisRate / configuration.minimumFrequencyHz).rounded(.up)) + 1
    lagMargin = maximumLag + 1
    windowLength = max(maximumLag, Int((configuration.windowSeconds * analysisRate).rounded()))
    frameLength = windowLength + 2 * lagMargin
    centreOffset = lagMargin + windowLength / 2
    var size = 2
    while size < frameLength { size <<= 1 }
    fftSize = size
  }
}
