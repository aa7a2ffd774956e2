import Foundation

/// A steady periodic sound under the music — mains hum, a fan's or a fridge's whine — learned
/// from the quietest frames, so that between and under the notes it is not reported as a pitch
/// (``PitchConfiguration/ignoresPeriodicBackground``).
///
/// ``NoiseFloor`` learns only from frames without a period, and a hum has one: without this, a
/// recording with mains hum 25 dB under its notes reads every rest as a 50 or 60 Hz note. A frame
/// is a *background frame* when its level (that of its energy and the frame's before together,
/// ``PeriodicityAnalysis``'s: a hum whose period does not divide the window reads louder and
/// quieter on alternate frames) is within ``levelMargin`` of the quietest level heard
/// lately (which rises by at most ``floorRiseDecibelsPerSecond``) and that level is at least
/// ``belowPeak`` under the recent peak: something clearly louder has been heard, so the quiet
/// frames are not the music itself. The background is *established* once its frames have
/// gathered ``secondsNeeded`` of support: each background frame whose period (the first dip of
/// `d′` below ``periodicDepth``) agrees with the background's within ``periodTolerance`` and
/// whose level agrees within ``steadyTolerance`` adds a frame's; the others take away as
/// ``disagreementCost`` says. A hum's level holds, where a release tail, at the quietest level as
/// it falls, drifts out of agreement first (``levelSmoothing``).
///
/// While it is established, a candidate period that is the background's, one and a half, twice or
/// three times it, or a quarter, a third, a half, two thirds or three quarters of it (where some of
/// the hum's harmonics line up, its difference function dips too) counts only in
/// proportion to how far the frame rises over the background's level: not at all up to
/// ``fullSuppression`` above it, fully from ``noSuppression`` above. A note at another pitch is
/// never touched, however soft; a note loud over the hum neither.
///
/// Mains hum needs no louder sound first: a quietest frame whose period is a mains period (50 or
/// 60 Hz or its second or third harmonic, within ``mainsTolerance``) is a background frame even
/// before anything louder was heard, so that a lead-in of hum alone is known for what it is after
/// ``leadInMainsSecondsNeeded`` (in a later rest, after ``mainsSecondsNeeded``). Equal-tempered
/// notes at A = 440 Hz lie 35 cents or more from every such frequency, and the frame must still
/// hold its period and level that long at the quietest level heard, which a note, once anything
/// quieter has been heard, is not. Any other background is known from the end of the first rest
/// it fills for ``secondsNeeded`` after a sound ``belowPeak`` louder; before that (a lead-in, a
/// first short rest) it is reported like a note.
/// The offline pYIN path weighs those earlier frames too, once it is known; the live one, the
/// frames it has not decided yet when it becomes known (``PitchHMM/reweightUndecided(by:)``).
///
/// A plain value (no heap memory); its methods allocate nothing and take no locks.
struct PeriodicBackground {
  /// The quietest level heard lately may rise by this many decibels per second: slowly, so that
  /// it stays under soft notes between rests (a choir singing on without one for seconds).
  static let floorRiseDecibelsPerSecond = 1.0
  /// A frame within this many decibels of the quietest level heard lately is a background frame...
  static let levelMargin = 2.0
  /// ...when that level is at least this many decibels under the recent peak.
  static let belowPeak = 15.0
  /// Two periods agree within this relative difference (about half a semitone).
  static let periodTolerance = 0.03
  /// A period is a mains period within this relative difference (8.6 cents) of 50 or 60 Hz or of
  /// their second or third harmonic, where a hum's first dip lies when its fundamental is weak:
  /// grids hold their frequency within 0.4 %.
  static let mainsTolerance = 0.005
  /// Before anything ``belowPeak`` louder was heard, a frame at a mains period is a background frame
  /// only up to this level (dBFS): a hum is that far under full scale, where a test tone at 50 or
  /// 100 Hz played from the start of a stream usually is not.
  static let mainsCeilingDBFS = -30.0
  /// Until the background is established, its period follows every agreeing frame with this
  /// weight (the frame that first set it may have been a release tail mixed with the hum,
  /// which repeats a few percent off the hum's period)...
  static let periodSmoothing = 0.1
  /// ...and once it is, only the frames within this relative difference (a soft note held over
  /// the hum at its level repeats 2–3 % off it, frame after frame, and would pull it away).
  static let driftTolerance = 0.01
  /// A frame is clearly louder or quieter than the background this many decibels away.
  static let levelTolerance = 3.0
  /// A frame's level agrees with the background's within this many decibels...
  static let steadyTolerance = 2.0
  /// ...its level being an exponential mean of the agreeing frames' with this weight per frame
  /// (a memory of twenty frames): a hum's level holds (within a decibel or so, as the window
  /// meets its phase), where a release tail falling faster than about 15 dB a second drifts out
  /// of agreement before it has gathered the support of a background (a slower one, once it has
  /// faded into the noise, is forgotten within 0.4 s: ``aperiodicCost``).
  static let levelSmoothing = 0.05
  /// The background's agreeing frames, in seconds, before it is established...
  static let secondsNeeded = 0.2
  /// ...or at a mains period (``isMains(period:)``), which a note's rarely is...
  static let mainsSecondsNeeded = 0.1
  /// ...and sooner while nothing ``belowPeak`` louder has been heard: a hum from the start of a
  /// stream is known while the live decoder can still weigh its first frames against it (it
  /// decides each frame 80 ms after it). Later, a note's tail a few cents off a mains frequency
  /// (a synthesized or sung pitch) may hold a period that long.
  static let leadInMainsSecondsNeeded = 0.05
  /// Support a background frame without a period and clearly quieter than the background takes
  /// away, in frames; one with another period at its level takes one frame's, and the background
  /// gives way to that period once it gathers the support a background needs. One without a
  /// period at the background's level takes only ``aperiodicCost``: a hum that ``NoiseFloor``
  /// learned (from the frames where a note starts) and is subtracted keeps its period in only two
  /// or three frames of five, as the window meets its phase, while noise alone after a note's tail
  /// has none. One clearly louder takes nothing (a release tail over the background).
  static let disagreementCost = 2.0
  /// See ``disagreementCost``.
  static let aperiodicCost = 0.5
  /// Up to this many decibels over the background's level, a background candidate counts not at all...
  static let fullSuppression = 3.0
  /// ...and from this many on, fully.
  static let noSuppression = 12.0

  /// A background frame's period is the first dip of `d′` below this (YIN's absolute threshold;
  /// an instance constant, for the analysis to read in real time).
  let periodicDepth: Float = 0.2
  /// Once a mains background is established (or was: ``knownMainsPeriod``), a frame without such
  /// a dip still shows its period if `d′` dips below this within ``heldTolerance`` of it, and before
  /// anything louder a first dip below this at a mains period is a background frame: noise near the
  /// hum's level fills its dip, and the background would be forgotten in the rests it fills, or
  /// never learned.
  let heldDepth: Float = 0.5
  /// See ``heldDepth``.
  let heldTolerance = periodTolerance
  /// ``secondsNeeded`` in frames: the support an established background has.
  private let neededSupport: Double
  /// ``mainsSecondsNeeded`` in frames.
  private let mainsNeededSupport: Double
  /// ``leadInMainsSecondsNeeded`` in frames.
  private let leadInMainsNeededSupport: Double
  /// The rate periods are counted at, in hertz.
  private let analysisRate: Double
  /// Whether the last frame ``admits(levelDBFS:peakDBFS:)`` took had its quietest level
  /// ``belowPeak`` under the peak (otherwise only a mains period makes it a background frame).
  private var isUnderPeak = false
  /// Whether any frame so far had its quietest level ``belowPeak`` under the peak.
  private(set) var hasHeardLouder = false
  /// ``floorRiseDecibelsPerSecond`` per hop.
  private let floorRise: Double
  /// The quietest level heard lately, in dBFS.
  private var floorLevel = Double.infinity
  /// The background's period in analysis samples (0: none yet).
  private(set) var period = 0.0 {
    didSet { isMainsPeriod = isMains(period: period) }
  }
  /// Whether ``period`` is a mains period.
  private var isMainsPeriod = false
  /// The period of the last mains background established in the stream (0: none yet), kept
  /// when it is forgotten: a hum that was heard is looked for again by its trace.
  private(set) var knownMainsPeriod = 0.0
  /// The background's level in dBFS.
  private(set) var levelDBFS = -Double.infinity
  /// Agreeing background frames, less the cost of the disagreeing ones (at most twice
  /// ``neededSupport``, so that a background that stops is forgotten within a few frames).
  private var support = 0.0
  /// Another period heard at the background's level, its level and its agreeing frames (less one
  /// for each frame of the background's own).
  private var challengerPeriod = 0.0
  private var challengerLevel = -Double.infinity
  private var challengerSupport = 0.0

  /// - Parameters:
  ///   - hopSeconds: The time between frames.
  ///   - analysisRate: The rate periods are counted at, in hertz.
  init(hopSeconds: Double, analysisRate: Double) {
    neededSupport = max(1, (Self.secondsNeeded / hopSeconds).rounded())
    mainsNeededSupport = max(1, (Self.mainsSecondsNeeded / hopSeconds).rounded())
    leadInMainsNeededSupport = max(1, (Self.leadInMainsSecondsNeeded / hopSeconds).rounded())
    floorRise = Self.floorRiseDecibelsPerSecond * hopSeconds
    self.analysisRate = analysisRate
  }

  /// Whether a periodic background is established.
  var isEstablished: Bool {
    @_noLocks get {
      let mains = hasHeardLouder ? mainsNeededSupport : leadInMainsNeededSupport
      return support >= (isMainsPeriod ? mains : neededSupport)
    }
  }

  /// Takes the next frame's level and the recent peak level (in dBFS) and tells whether the frame
  /// is at the quietest level heard lately, to be given to ``observe(levelDBFS:period:)`` with its
  /// period: a background frame if that level is ``belowPeak`` under the peak or the period is a
  /// mains period.
  @_noLocks
  mutating func admits(levelDBFS level: Double, peakDBFS peak: Double) -> Bool {
    guard level.isFinite else { return false }
    floorLevel = min(level, floorLevel + floorRise)
    isUnderPeak = floorLevel <= peak - Self.belowPeak
    hasHeardLouder = hasHeardLouder || isUnderPeak
    return level <= floorLevel + Self.levelMargin
  }

  /// Whether a period (in analysis samples) is a mains hum's: 50 or 60 Hz or their second or third
  /// harmonic, within ``mainsTolerance``.
  @_noLocks
  func isMains(period: Double) -> Bool {
    guard period > 0 else { return false }
    let frequency = analysisRate / period
    var harmonic = 1.0
    while harmonic <= 3 {
      if abs(frequency / (50 * harmonic) - 1) <= Self.mainsTolerance
        || abs(frequency / (60 * harmonic) - 1) <= Self.mainsTolerance
      {
        return true
      }
      harmonic += 1
    }
    return false
  }

  /// Learns from a frame at the quietest level (see ``admits(levelDBFS:peakDBFS:)``) if it is a
  /// background frame.
  ///
  /// - Parameters:
  ///   - level: The frame's level in dBFS.
  ///   - frame: The frame's period in analysis samples (the first dip of `d′` below
  ///     ``periodicDepth``), or `nil` when it has none.
  @_noLocks
  mutating func observe(levelDBFS level: Double, period frame: Double?) {
    // Nothing clearly louder heard yet: only a mains hum can be told from the music.
    if !isUnderPeak {
      guard let frame, level <= Self.mainsCeilingDBFS, isMains(period: frame) else { return }
    }
    if let frame, period > 0, Self.agree(frame, level, period, levelDBFS) {
      support = min(support + 1, 2 * neededSupport)
      // The background heard again: a challenger gathered from a few frames of each release tail
      // never takes over.
      challengerSupport = max(0, challengerSupport - 1)
      if !isEstablished || abs(frame / period - 1) <= Self.driftTolerance {
        period += Self.periodSmoothing * (frame - period)
        levelDBFS += Self.levelSmoothing * (level - levelDBFS)
      }
      if isMainsPeriod, isEstablished { knownMainsPeriod = period }
      return
    }
    // A frame clearly louder than the background is a sound over it (a note's release tail falls
    // through the quietest level: each of its frames is the quietest yet).
    if period > 0, level > levelDBFS + Self.levelTolerance { return }
    guard let frame else {
      // Without a period: at the background's level, the background subtracted or noise alone;
      // clearly quieter, the background has stopped.
      support -= level >= levelDBFS - Self.levelTolerance ? Self.aperiodicCost : Self.disagreementCost
      if support <= 0 { forget() }
      return
    }
    // Another period at the background's level: a release tail mixed with it, or a new
    // background, which takes over once it has as much support as a background needs.
    support -= 1
    if challengerPeriod > 0, Self.agree(frame, level, challengerPeriod, challengerLevel) {
      challengerSupport += 1
      challengerPeriod += Self.periodSmoothing * (frame - challengerPeriod)
      challengerLevel += Self.levelSmoothing * (level - challengerLevel)
    } else {
      challengerPeriod = frame
      challengerLevel = level
      challengerSupport = 1
    }
    if period == 0 || support <= 0 || challengerSupport >= neededSupport {
      period = challengerPeriod
      levelDBFS = challengerLevel
      support = challengerSupport
      challengerPeriod = 0
      challengerSupport = 0
    }
  }

  /// ``weight(period:levelDBFS:)`` for a candidate given as a frequency.
  @_noLocks
  func weight(frequencyHz: Double, levelDBFS level: Double) -> Double {
    weight(period: analysisRate / frequencyHz, levelDBFS: level)
  }

  /// How much a candidate of the given period counts in a frame of the given level: 1 unless it
  /// is the established background's (see the type's discussion).
  @_noLocks
  func weight(period candidate: Double, levelDBFS level: Double) -> Double {
    guard isEstablished, candidate > 0 else { return 1 }
    let rise = level - levelDBFS
    guard rise < Self.noSuppression else { return 1 }
    let ratio = candidate / period
    func near(_ multiple: Double) -> Bool { abs(ratio / multiple - 1) <= Self.periodTolerance }
    guard
      near(1) || near(0.5) || near(2) || near(1.0 / 3) || near(3) || near(0.25) || near(2.0 / 3) || near(1.5)
        || near(0.75)
    else { return 1 }
    return max(0, min(1, (rise - Self.fullSuppression) / (Self.noSuppression - Self.fullSuppression)))
  }

  /// Whether an estimator that reports one period per frame (YIN, MPM) should read this one as
  /// the background, unvoiced: when it counts less than half (``weight(period:levelDBFS:)``).
  @_noLocks
  func holds(period candidate: Double, levelDBFS level: Double) -> Bool {
    weight(period: candidate, levelDBFS: level) < 0.5
  }

  /// Whether a frame's period and level agree with a background's.
  @_noLocks
  private static func agree(_ framePeriod: Double, _ frameLevel: Double, _ period: Double, _ level: Double)
    -> Bool
  {
    abs(framePeriod / period - 1) <= periodTolerance && abs(frameLevel - level) <= steadyTolerance
  }

  /// Forgets the background, keeping the quietest level heard.
  @_noLocks
  private mutating func forget() {
    period = 0
    levelDBFS = -.infinity
    support = 0
    challengerPeriod = 0
    challengerSupport = 0
  }

  /// Forgets the background and the quietest level heard.
  mutating func reset() {
    forget()
    floorLevel = .infinity
    hasHeardLouder = false
    knownMainsPeriod = 0
  }
}
