import Foundation

/// Probabilistic YIN (Mauch and Dixon, 2014): several pitch candidates per frame, weighted over a
/// distribution of YIN thresholds, and a hidden Markov model over pitch and voicing that picks
/// the most likely path, so that a held note does not jump an octave and voicing does not
/// flicker.
///
/// Per frame, every trough of `d′(τ)` below each of 100 thresholds (weighted by a Beta(2, b)
/// distribution of mean ``thresholdMean``) earns probability, the first trough most (a Boltzmann prior over
/// the troughs below the threshold); when none is below, the deepest trough earns a little.
/// Troughs are compared by the vertex of their parabola (a period between samples otherwise
/// reads shallower than the octave below), and their probabilities fade to 0 over the 6 dB
/// below the voicing gate (``PitchConfiguration/voicingRangeDecibels``). A trough with a
/// deeper one within an eighth of its lag is a ripple on the flank of that dip (partials
/// around the `K`-th line up again at `(1 − 1/K)` of the period), not a period, and earns
/// nothing. A trough at a half or a third of a much deeper one's lag (a weak fundamental, or a
/// sub-harmonic in an attack) earns only a long shot, what a frame without troughs gives its
/// deepest, so that the frames around it decide. The model's states are pitch bins (25 cents
/// apart over the configured range), each voiced or unvoiced; a pitch moves at most
/// ``maximumTransitionOctavesPerSecond`` between hops, and voicing switches with probability
/// ``switchProbability``; a pitch that starts after unvoiced frames may also start anywhere in
/// the range (with probability 0.001, uniformly), so that a note after a short rest is not
/// held near the note before it (at an octave of its own that the pitch could reach in time).
/// Each candidate's probability also counts, a twentieth of it by default
/// (``octaveConfusionProbability``), for the pitch an octave above and below it: a trough an
/// octave off the period is the commonest error (a sub-harmonic in an attack, a weak
/// fundamental), and with the share the frames of a note decide its octave together instead of
/// the path following the attack's octave and jumping later.
/// The live decoder also lets a voiced pitch leap
/// an octave or a twelfth with the small probability ``harmonicLeapProbability``: it decides
/// each frame 80 ms after it, often inside an attack whose sub-harmonic or harmonic reads
/// deepest, and without the leap the rest of the note could only follow that octave (as a note
/// cannot be left without passing through unvoiced frames); the offline path weighs whole notes
/// and leaves leaps off by default.
///
/// A note that starts while the previous one still rings louder (a legato change under a bowed
/// string's or a voice's release, or in a room) leaves the mixture's troughs at the old period,
/// or at a period the two share. With ``findsNewestNote``, each frame whose likeliest trough is
/// shallow also has the pitch held so far cancelled, and a pitch the rest repeats at, new in the
/// last 0.6 s and rising, joins the candidates with 0.6 of the frame's probability; the model
/// may enter it from any pitch (probability 0.01), so that a leap wider than a hop's move is
/// followed at once.
///
/// Two variants share the code. The live (causal) one, ``init(configuration:lagFrames:maximumTransitionOctavesPerSecond:switchProbability:thresholdMean:harmonicLeapProbability:findsNewestNote:octaveConfusionProbability:restEntryProbability:octaveBlipSeconds:)``,
/// is a fixed-lag Viterbi decoder that, at each frame, emits the best path's state ``lagFrames``
/// hops back (an attack's octave blip, once the newest frames show the note's octave, at that
/// octave: ``octaveBlipSeconds``); its ``latencySeconds`` is the analysis frame's half length plus
/// the lag. The offline
/// one, ``offline(configuration:frameCount:maximumTransitionOctavesPerSecond:switchProbability:thresholdMean:harmonicLeapProbability:findsNewestNote:octaveConfusionProbability:restEntryProbability:octaveBlipSeconds:)``,
/// keeps every frame's candidates of a signal of known length, decodes them all in
/// ``finish(into:)`` and emits the single best path over them: better decisions at note
/// boundaries, and a periodic background (``PitchConfiguration/ignoresPeriodicBackground``)
/// learned in a later rest also discounts the lead-in and the rests before, at the price of
/// memory in proportion to the length (about 1.4 KB per hop with the default range) and no output
/// before the end. Its path's octave blips, a note's first few frames read an octave off the note
/// they run into, report the note's octave (``octaveBlipSeconds``).
///
/// The reported frequency is the candidate nearest the decoded pitch bin (YIN's interpolated
/// estimate, not the bin centre), or one an octave off taken to the decoded octave where that
/// one lies within 50 cents of the bin and the nearest does not (an attack whose own octave
/// holds only a stray trough); the confidence is the frame's voicing probability (the total
/// probability of its candidates).
///
/// - Note: ``process(_:into:)`` and ``finish(into:)`` are real-time safe.
public final class ProbabilisticYINEstimator: PitchEstimator {
  public let configuration: PitchConfiguration
  /// Hops between a frame and the moment its estimate is decided (default 8: 80 ms at a 10 ms hop).
  public let lagFrames: Int
  /// The largest pitch change between consecutive hops the model allows, in octaves per second.
  public let maximumTransitionOctavesPerSecond: Double
  /// The probability that voicing switches between consecutive hops.
  public let switchProbability: Double
  /// The probability per hop that a voiced pitch leaps an octave or a twelfth up or down (0: never).
  /// In `Evaluation/pitch`, 1e-8 for the live decoder raised its raw pitch accuracy on the clean
  /// renders from 0.954 to 0.963 and with reverb from 0.913 to 0.935, octave errors from 0.016
  /// to 0.008, and left the noisy files as they were; for the offline path it changed nothing
  /// overall and cost the choir 0.013, so it is off there by default.
  public let harmonicLeapProbability: Double
  /// The share of each candidate's probability that also counts for the pitch an octave above
  /// and below it (0: none). A trough an octave off the period is the estimator's commonest
  /// error, above all in an attack (a sub-harmonic in a flute's, a saxophone's or a bassoon's
  /// first frames, a weak fundamental); with this share the note's octave is not impossible in
  /// those frames, so the frames of a note decide its octave together rather than the path
  /// following the attack's octave and then jumping, or keeping it for the whole note. Where the
  /// decoded octave holds no candidate, the one an octave off is reported, taken to that octave.
  /// In `Evaluation/pitch` (stop 36), 0.05 took the held notes read at two octaves on the clean
  /// renders from 8 / 2 / 1 / 1 to 3 / 1 / 1 / 0 of 344 (FluidR3 / MuseScore / TimGM6mb /
  /// csound) and raised or kept the offline path's raw pitch accuracy on all four sets in every
  /// condition (most at 0 dB SNR: +27 to +70 frames of 13,921); the live decoder, whose octave
  /// leaps undo an attack's octave anyway, moved within ±25 frames.
  public let octaveConfusionProbability: Double
  /// The probability that a pitch starting after unvoiced frames may be any pitch of the range,
  /// uniformly, rather than one near the pitch the unvoiced states carried (default 0.001). Without
  /// it a note after a short rest far from the last one could only be entered where the unvoiced
  /// states' drift reached in time, often at its octave; in `Evaluation/pitch` (stop 35) it raised
  /// the clean renders' raw pitch accuracy by 0.002 on three sets. 0 turns it off, as the
  /// performance grader does (PerformanceTracking's `SoundTracker`, whose segmentation was
  /// measured without it).
  public let restEntryProbability: Double
  /// The mean of the threshold distribution (pYIN's choices: 0.10, 0.15, 0.20). Higher means
  /// find pitch in more noise; the default, 0.2, keeps voicing false alarms under 2 % in the
  /// project's evaluation.
  public let thresholdMean: Double
  /// Whether a note that starts while the previous one still rings louder is followed from its
  /// start (see the type's discussion). In `Evaluation/pitch` it raised the offline path's raw
  /// pitch accuracy on the clean renders from 0.970 to 0.974 (violin 0.963 → 0.976, cello 0.951 →
  /// 0.967, voice 0.950 → 0.964) and on all files with reverb from 0.946 to 0.950 (the live
  /// decoder's from 0.966 to 0.971 and 0.950 to 0.956), alike on the two holdout soundfonts, and
  /// left 10 dB as it was; its CPU cost did not show on the 30 s file. Following a new note's
  /// strong third partial, holding the cancelled pitch while a new note is found and measuring
  /// the rise over two frames then took the clean renders to 0.975 (horn 0.990, voice 0.975,
  /// violin 0.978) and the renders with reverb from 0.945 to 0.948.
  public let findsNewestNote: Bool
  /// The longest octave blip, in seconds (0: none; default 0.06 for both decoders): a note's first
  /// frames read an octave or two off the note are reported at the note's octave. An attack's
  /// sub-harmonic or strong second partial can win a note's first frames even with the octave
  /// confusion (``octaveConfusionProbability``); the path then leaps into the note, an octave jump
  /// inside a held note.
  ///
  /// The offline path moves frames that its best path reads an octave or two off the note they
  /// run into (within 100 cents of it, straight or through one unvoiced frame), for at most this
  /// long and before at least twice as many frames of the note. The default, 60 ms, is within the
  /// 30–110 ms such attacks last in `Evaluation/pitch` and shorter than a 16th note at 180 beats
  /// per minute, so that a quick note slurred into its octave mostly keeps its own (one shorter
  /// than this, before a note at least twice as long, is moved). Measured (stop 44, offline pyin,
  /// frames right / held notes with a jump): FluidR3 and TimGM6mb unchanged; MuseScore +8 / −3;
  /// csound +1 / −1; the 31 instruments of the extra set +17 / −13 (shakuhachi, saxophones, synth
  /// voice; a church organ −4, a short high note before the octave below that the path itself
  /// read low); grading figures unchanged on all three sets.
  ///
  /// The live decoder has emitted a frame before its note shows its octave to the whole path; it
  /// moves a frame in the first this-long of a piece of its path (a run of voiced frames within a
  /// hop's move of each other) when the path stays in that piece through the look-ahead while the
  /// newest two frames' most probable candidates (each with at least 0.3) lie one or two octaves
  /// from it, or when the path itself leaves the piece for a piece at that octave; once it has
  /// moved a frame it goes on while those candidates stay there (and, at the end of a stream, to
  /// the end of the piece). It leaves a piece the path entered by a leap from its octave, and a
  /// frame whose own most probable candidate already lay at that octave when the path kept off it
  /// (a second partial stronger than the fundamental throughout the note). Measured (stop 45, pyin-live, clean renders, held notes
  /// with a jump): FluidR3 12 → 12, MuseScore 11 → 11, TimGM6mb 6 → 2, csound 5 → 0, extra set
  /// 38 → 23; frames right +71 to +88 per set over all seven conditions (extra set +167), 0 dB
  /// SNR −5 to +14; live grading unchanged, the score follower +2 right links.
  public let octaveBlipSeconds: Double

  private var analysis: PeriodicityAnalysis
  private var candidates: ProbabilisticYINCandidates
  private var decoder: PitchHMM
  /// The periodic background (mains hum) as first established, and the frames analyzed before:
  /// the offline path weighs those frames' candidates against it at the end (a hum in the
  /// lead-in and the first rest is known only later).
  private var firstBackground: PeriodicBackground?
  private var framesBeforeBackground = 0
  /// Whether the periodic background was established at the frame before.
  private var wasBackgroundEstablished = false

  /// Creates a live estimator; allocates all its memory.
  ///
  /// - Parameters:
  ///   - configuration: Sample rate, range, hop and window.
  ///   - lagFrames: Hops of look-ahead before a frame is decided, 1...64.
  ///   - maximumTransitionOctavesPerSecond: The fastest pitch change followed (default 35.92,
  ///     as in pYIN); at most 61 pitch bins per hop.
  ///   - switchProbability: The voicing switch probability per hop (default 0.01).
  ///   - thresholdMean: The mean of the YIN threshold distribution (default 0.2).
  ///   - harmonicLeapProbability: The probability per hop of an octave or twelfth leap (default
  ///     1e-8; 0 turns leaps off).
  ///   - findsNewestNote: Whether a note starting under the louder release of the one before is
  ///     followed from its start (default `true`).
  ///   - octaveConfusionProbability: The share of a candidate's probability that also counts an
  ///     octave above and below it (default 0.05; 0...0.5).
  ///   - restEntryProbability: The probability that a pitch after unvoiced frames starts anywhere
  ///     in the range (default 0.001; 0 <= p < 0.5).
  ///   - octaveBlipSeconds: How far into a note its frames may be reported at the octave the
  ///     newest frames show rather than the path's (default 0.06; 0...1; see
  ///     ``octaveBlipSeconds``).
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` for values out of range.
  public convenience init(
    configuration: PitchConfiguration, lagFrames: Int = 8, maximumTransitionOctavesPerSecond: Double = 35.92,
    switchProbability: Double = 0.01, thresholdMean: Double = 0.2, harmonicLeapProbability: Double = 1e-8,
    findsNewestNote: Bool = true, octaveConfusionProbability: Double = 0.05,
    restEntryProbability: Double = 0.001, octaveBlipSeconds: Double = 0.06
  ) throws(PitchDSPError) {
    guard (1...64).contains(lagFrames) else {
      throw .invalidParameter(name: "lag", value: "\(lagFrames)", expected: "1...64 frames")
    }
    try self.init(
      configuration: configuration, lag: lagFrames, maximumTransitionOctavesPerSecond: maximumTransitionOctavesPerSecond,
      switchProbability: switchProbability, thresholdMean: thresholdMean, harmonicLeapProbability: harmonicLeapProbability,
      findsNewestNote: findsNewestNote, octaveConfusionProbability: octaveConfusionProbability,
      restEntryProbability: restEntryProbability, octaveBlipSeconds: octaveBlipSeconds)
  }

  /// Creates an offline estimator for a signal of `frameCount` frames: ``process(_:into:)``
  /// returns nothing, and ``finish(into:)`` returns every estimate of the best path over the
  /// whole signal. Allocates memory in proportion to the length.
  ///
  /// - Parameters:
  ///   - configuration: Sample rate, range, hop and window.
  ///   - frameCount: The signal's length in input frames (an upper bound is fine).
  ///   - maximumTransitionOctavesPerSecond: The fastest pitch change followed.
  ///   - switchProbability: The voicing switch probability per hop.
  ///   - thresholdMean: The mean of the YIN threshold distribution.
  ///   - harmonicLeapProbability: The probability per hop of an octave or twelfth leap (default 0:
  ///     off).
  ///   - findsNewestNote: Whether a note starting under the louder release of the one before is
  ///     followed from its start (default `true`).
  ///   - octaveConfusionProbability: The share of a candidate's probability that also counts an
  ///     octave above and below it (default 0.05; 0...0.5).
  ///   - restEntryProbability: The probability that a pitch after unvoiced frames starts anywhere
  ///     in the range (default 0.001; 0 <= p < 0.5).
  ///   - octaveBlipSeconds: The longest octave blip at a note's start moved to the note's octave
  ///     (default 0.06; 0...1; see ``octaveBlipSeconds``).
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` for values out of range.
  public static func offline(
    configuration: PitchConfiguration, frameCount: Int, maximumTransitionOctavesPerSecond: Double = 35.92,
    switchProbability: Double = 0.01, thresholdMean: Double = 0.2, harmonicLeapProbability: Double = 0,
    findsNewestNote: Bool = true, octaveConfusionProbability: Double = 0.05,
    restEntryProbability: Double = 0.001, octaveBlipSeconds: Double = 0.06
  ) throws(PitchDSPError) -> ProbabilisticYINEstimator {
    guard frameCount >= 0, frameCount <= Int(configuration.sampleRate) * 86_400 else {
      throw .invalidParameter(name: "frame count", value: "\(frameCount)", expected: "0...one day of audio")
    }
    let hops = frameCount / max(1, configuration.hopSize) + 2
    return try ProbabilisticYINEstimator(
      configuration: configuration, lag: hops, maximumTransitionOctavesPerSecond: maximumTransitionOctavesPerSecond,
      switchProbability: switchProbability, thresholdMean: thresholdMean, harmonicLeapProbability: harmonicLeapProbability,
      findsNewestNote: findsNewestNote, octaveConfusionProbability: octaveConfusionProbability,
      restEntryProbability: restEntryProbability, octaveBlipSeconds: octaveBlipSeconds, defersDecoding: true)
  }

  private init(
    configuration: PitchConfiguration, lag lagFrames: Int, maximumTransitionOctavesPerSecond: Double,
    switchProbability: Double, thresholdMean: Double, harmonicLeapProbability: Double, findsNewestNote: Bool,
    octaveConfusionProbability: Double, restEntryProbability: Double, octaveBlipSeconds: Double = 0,
    defersDecoding: Bool = false
  ) throws(PitchDSPError) {
    guard harmonicLeapProbability >= 0, harmonicLeapProbability < 0.5 else {
      throw .invalidParameter(
        name: "harmonic leap probability", value: "\(harmonicLeapProbability)", expected: "0 <= p < 0.5")
    }
    guard octaveConfusionProbability >= 0, octaveConfusionProbability <= 0.5 else {
      throw .invalidParameter(
        name: "octave confusion probability", value: "\(octaveConfusionProbability)", expected: "0...0.5")
    }
    guard restEntryProbability >= 0, restEntryProbability < 0.5 else {
      throw .invalidParameter(
        name: "rest entry probability", value: "\(restEntryProbability)", expected: "0 <= p < 0.5")
    }
    guard octaveBlipSeconds >= 0, octaveBlipSeconds <= 1 else {
      throw .invalidParameter(name: "octave blip", value: "\(octaveBlipSeconds)", expected: "0...1 s")
    }
    guard thresholdMean > 0.02, thresholdMean < 0.5 else {
      throw .invalidParameter(name: "threshold mean", value: "\(thresholdMean)", expected: "0.02 < mean < 0.5")
    }
    guard switchProbability > 0, switchProbability < 0.5 else {
      throw .invalidParameter(name: "switch probability", value: "\(switchProbability)", expected: "0 < p < 0.5")
    }
    let analysis = try PeriodicityAnalysis(configuration: configuration)
    let bins = PitchBins(configuration: configuration)
    let jump = Int((maximumTransitionOctavesPerSecond * configuration.hopSeconds * 1200 / PitchBins.centsPerBin).rounded(.up))
    let maximumJump = PitchHMM.maximumJump
    guard maximumTransitionOctavesPerSecond > 0, jump <= maximumJump else {
      throw .invalidParameter(
        name: "maximum transition", value: "\(maximumTransitionOctavesPerSecond) octaves/s",
        expected: "at most \(maximumJump) pitch bins (of 25 cents) per hop")
    }
    self.configuration = configuration
    self.lagFrames = lagFrames
    self.maximumTransitionOctavesPerSecond = maximumTransitionOctavesPerSecond
    self.switchProbability = switchProbability
    self.thresholdMean = thresholdMean
    self.harmonicLeapProbability = harmonicLeapProbability
    self.findsNewestNote = findsNewestNote
    self.octaveConfusionProbability = octaveConfusionProbability
    self.restEntryProbability = restEntryProbability
    self.octaveBlipSeconds = octaveBlipSeconds
    candidates = ProbabilisticYINCandidates(
      plan: analysis.plan, bins: bins, hopSeconds: configuration.hopSeconds, thresholdMean: thresholdMean,
      findsNewestNote: findsNewestNote)
    self.analysis = analysis
    decoder = PitchHMM(
      bins: bins, jump: max(1, jump), switchProbability: switchProbability, lag: lagFrames,
      leapProbability: harmonicLeapProbability, octaveConfusionProbability: octaveConfusionProbability,
      restEntryProbability: restEntryProbability,
      octaveBlipFrames: Int((octaveBlipSeconds / configuration.hopSeconds).rounded()), defersDecoding: defersDecoding)
  }

  public var latencySeconds: Double { analysis.latencySeconds + Double(lagFrames) * configuration.hopSeconds }

  public func maximumEstimates(forFrames count: Int) -> Int {
    analysis.maximumFrames(forInputFrames: count) + lagFrames
  }

  /// - Note: Real-time safe.
  @_noLocks
  public func process(_ frames: UnsafeBufferPointer<Float>, into estimates: UnsafeMutableBufferPointer<PitchEstimate>) -> Int {
    var offset = 0
    var produced = 0
    while analysis.advance(frames, offset: &offset) {
      candidates.compute(analysis)
      noteBackground()
      if decoder.push(candidates, time: analysis.frameTime, levelDBFS: analysis.levelDBFS) {
        // Programmer error: `estimates` smaller than `maximumEstimates(forFrames:)`.
        guard produced < estimates.count else { fatalError() }
        estimates[produced] = decoder.decided
        produced += 1
      }
    }
    return produced
  }

  /// - Note: Real-time safe.
  @_noLocks
  public func finish(into estimates: UnsafeMutableBufferPointer<PitchEstimate>) -> Int {
    var produced = 0
    while analysis.advanceToEnd() {
      candidates.compute(analysis)
      noteBackground()
      if decoder.push(candidates, time: analysis.frameTime, levelDBFS: analysis.levelDBFS) {
        guard produced < estimates.count else { fatalError() }
        estimates[produced] = decoder.decided
        produced += 1
      }
    }
    if decoder.defersDecoding, let background = firstBackground {
      decoder.reweight(frames: framesBeforeBackground) { background.weight(frequencyHz: $0, levelDBFS: $1) }
    }
    while decoder.flushNext() {
      guard produced < estimates.count else { fatalError() }
      estimates[produced] = decoder.decided
      produced += 1
    }
    return produced
  }

  public func reset() {
    analysis.reset()
    candidates.reset()
    decoder.reset()
    firstBackground = nil
    framesBeforeBackground = 0
    wasBackgroundEstablished = false
  }

  /// Keeps the periodic background as first established, and the frames before it (the offline
  /// path); the live path weighs the frames it has not decided yet against a background as soon
  /// as it is established.
  @_noLocks
  private func noteBackground() {
    let isEstablished = analysis.background.isEstablished
    defer { wasBackgroundEstablished = isEstablished }
    if !decoder.defersDecoding {
      guard isEstablished, !wasBackgroundEstablished else { return }
      let background = analysis.background
      decoder.reweightUndecided { background.weight(frequencyHz: $0, levelDBFS: $1) }
      return
    }
    guard firstBackground == nil else { return }
    if isEstablished {
      firstBackground = analysis.background
    } else {
      framesBeforeBackground += 1
    }
  }
}
