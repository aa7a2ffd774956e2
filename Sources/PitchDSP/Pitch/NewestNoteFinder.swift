import Foundation

/// Finds the newest note while the previous one still rings over it: the pitch of what is left
/// of a frame once the note that has been sounding is cancelled (``PeriodicityAnalysis/cancelPeriod(_:)``).
///
/// In a legato change the previous note's release can stay the louder for 30–250 ms (a bowed
/// string's, a sung vowel's, a room's ring); the mixture's `d′` then dips at the old period, or
/// at a period the two notes share, and hardly at the new one, and pYIN's candidates hold the old
/// note. Melody follows the newest note, so a frame whose residual repeats at a pitch the frame's
/// likeliest candidate has not held lately (``noveltySeconds``) and whose level has just risen
/// (``riseDecibels``; or which continues such a note from one of the ``continuationFrames``
/// frames before) yields that pitch as a candidate. The note cancelled is the *reference*: the
/// likeliest candidate's pitch while it stays within ``followCents`` of itself, and another pitch
/// only once that has been the likeliest for ``referenceSeconds`` (a mixture's shared period, the
/// likeliest for a few frames, is not a note to cancel). While a new note is being found the
/// reference stays where it is: the mixture's dip then drifts from the old period towards the
/// new one in steps the reference would follow, and cancelling that drifting pitch leaves
/// neither note.
///
/// The residual is computed only where it can matter: when the likeliest candidate's dip is no
/// deeper than ``triggerDepth`` (a clean held note dips deeper), or to continue a note found in
/// the frame before. Steady noise does not keep it from looking: a room's diffuse ring, which the
/// noise floor learns as noise, is where legato changes hide longest (in the project's
/// evaluation, skipping frames whose learned noise held more than a tenth of their energy lost
/// frames in the reverberant renders of all three soundfonts and gained none at 0 dB SNR).
struct NewestNoteFinder: ~Copyable {
  /// The residual's `d′` must dip below this for a period.
  static let residualThreshold: Float = 0.3
  /// The residual's first dip hands over to one near its triple at most this fraction as deep
  /// (``residualPeriod(_:plan:referenceLag:)``)...
  static let handOverRatio: Float = 0.3
  /// ...when its own value is at least this (the floor of ``halfPeriodRatio``'s test too)...
  static let handOverFloor: Float = 0.02
  /// ...and the lowest value near its double at least this fraction of its own.
  static let doubleRatio: Float = 0.75
  /// A residual's period whose double dips to at most this fraction of its own, and at which
  /// the frame too repeats far better (``PeriodicityAnalysis/periodLag(startingAt:)``), is half a
  /// note's period, not a new note (unless the double is a period shared with the note cancelled).
  static let halfPeriodRatio: Float = 0.1
  /// A note found in one of this many frames before is continued without a new rise (one frame
  /// of the attack may leave the residual without a clear dip).
  static let continuationFrames = 2
  /// The residual must hold at least this share of the frame's energy.
  static let minimumResidualShare = 0.05
  /// The residual is looked at when the likeliest candidate's dip is no deeper than this.
  static let triggerDepth: Float = 0.06
  /// A new note's residual level rises by at least this over the last two frames (dB), from the
  /// lower of their levels.
  static let riseDecibels = 3.0
  /// A new note is at least this far from the likeliest candidate and the reference (cents).
  static let minimumCents = 60.0
  /// The reference follows the likeliest candidate within this (cents).
  static let followCents = 50.0
  /// Another pitch becomes the reference after it has been the likeliest this long.
  static let referenceSeconds = 0.08
  /// A new note's pitch has not been the likeliest candidate's within this long.
  static let noveltySeconds = 0.6
  /// The most frames ``noveltySeconds`` can span (at a 1 ms hop).
  static let maximumNoveltyFrames = 600

  private let referenceFrames: Int
  private let noveltyFrames: Int
  /// The likeliest candidate's bin in each of the last ``noveltyFrames`` frames (−1: none), a
  /// ring written at `recentIndex`.
  private let recentBins: UnsafeMutableBufferPointer<Int>
  private var recentIndex = 0
  /// The pitch cancelled (Hz; 0: none yet), and the likeliest pitch that may replace it, with the
  /// frames it has lasted.
  private var referenceHz = 0.0
  private var pendingHz = 0.0
  private var pendingFrames = 0
  /// The residual's level in the frame before (dBFS; −∞: not computed).
  private var previousResidualLevel = -Double.infinity
  /// ...and in the frame before that.
  private var earlierResidualLevel = -Double.infinity
  /// The bin of the last note found, or −1, and the frames since.
  private var foundBin = -1
  private var framesSinceFound = Int.max / 2

  /// - Parameter hopSeconds: The analysis hop.
  init(hopSeconds: Double) {
    referenceFrames = max(1, Int((Self.referenceSeconds / hopSeconds).rounded()))
    noveltyFrames = max(1, min(Self.maximumNoveltyFrames, Int((Self.noveltySeconds / hopSeconds).rounded())))
    recentBins = .allocate(capacity: noveltyFrames)
    recentBins.initialize(repeating: -1)
  }

  deinit {
    recentBins.deallocate()
  }

  /// Forgets the stream.
  mutating func reset() {
    recentBins.update(repeating: -1)
    recentIndex = 0
    referenceHz = 0
    pendingFrames = 0
    previousResidualLevel = -.infinity
    earlierResidualLevel = -.infinity
    foundBin = -1
    framesSinceFound = Int.max / 2
  }

  /// The newest note in the frame `analysis` just analyzed, given its likeliest candidate
  /// (`nil`: none, an unvoiced frame): its frequency and pitch bin, or `nil`. `held`: whether that
  /// candidate is likely enough to count as a pitch held (one that later frames' new notes must
  /// differ from, ``noveltySeconds``); the likeliest of a frame of noise is not.
  @_noLocks
  mutating func find(
    in analysis: borrowing PeriodicityAnalysis, bins: PitchBins, likeliest: (frequencyHz: Double, bin: Int)?,
    held: Bool
  ) -> (frequencyHz: Double, bin: Int)? {
    defer {
      recentBins[recentIndex] = held ? likeliest?.bin ?? -1 : -1
      recentIndex = (recentIndex + 1) % noveltyFrames
    }
    // The note found in one of the last ``continuationFrames`` frames, or −1.
    let previousFound = framesSinceFound < Self.continuationFrames ? foundBin : -1
    framesSinceFound += 1
    guard let likeliest else {
      foundBin = -1
      referenceHz = 0
      pendingFrames = 0
      previousResidualLevel = -.infinity
      earlierResidualLevel = -.infinity
      return nil
    }
    // While a new note is being found, the likeliest pitch is the mixture's, not the note to cancel.
    if previousFound < 0 { follow(likeliest.frequencyHz) }
    let plan = analysis.plan
    let lag = min(Int(plan.analysisRate / likeliest.frequencyHz + 0.5), plan.maximumLag)
    let depth = parabolicExtremum(analysis.normalizedDifference, at: lag)
    guard previousFound >= 0 || depth >= Self.triggerDepth else {
      previousResidualLevel = -.infinity
      earlierResidualLevel = -.infinity
      return nil
    }
    let referenceLag = plan.analysisRate / referenceHz
    let share = analysis.cancelPeriod(referenceLag)
    // RT-audited: libm's log10 is a pure function; it neither allocates nor locks.
    let level = share > 0 ? analysis.levelDBFS + 10 * _unsafePerformance { log10(share) } : -.infinity
    // The rise over the last two frames: from the lower level computed (a bowed or blown attack
    // may take 20 ms to rise 3 dB).
    let base =
      earlierResidualLevel.isFinite ? min(previousResidualLevel, earlierResidualLevel) : previousResidualLevel
    let rise = level - base
    earlierResidualLevel = previousResidualLevel
    previousResidualLevel = level
    guard share >= Self.minimumResidualShare else { return nil }
    let d = analysis.residual.difference
    guard let tau = Self.residualPeriod(d, plan: plan, referenceLag: referenceLag) else { return nil }
    // A dip at half a period where the residual and the frame both repeat far better at its
    // double (a new note with a weak fundamental under a strong second partial) is no new note's
    // period: the frame's own candidates, which weigh the two, decide (with this dip the new
    // note's share read whole legato notes an octave high). Unless the double is a period the
    // note shares with the one cancelled (what is left of that one dips it; the cancelled pitch
    // itself when it was this note's sub-harmonic, in an attack): then the dip is the note.
    if d[tau] > Self.handOverFloor,
      let double = PeriodicityAnalysis.multipleDip(in: d, of: tau, times: 2, maximumLag: plan.maximumLag),
      parabolicExtremum(d, at: double) < Self.halfPeriodRatio * parabolicExtremum(d, at: tau)
    {
      let reach = PeriodicityAnalysis.multipleReach(of: tau, times: 2)
      if !Self.isShared(double, reach: reach, referenceLag: referenceLag),
        abs(analysis.periodLag(startingAt: tau) - double) <= reach
      {
        return nil
      }
    }
    let frequency = plan.analysisRate / (Double(tau) + parabolicOffset(d, at: tau))
    let bin = bins.bin(frequency)
    guard bin >= 0,
      min(cents(frequency, likeliest.frequencyHz), cents(frequency, referenceHz)) > Self.minimumCents
    else { return nil }
    // A multiple of the cancelled period (the period the two notes share, or what is left of
    // the cancelled note) or of the likeliest one is no new note.
    if isSubharmonic(frequency, of: referenceHz) || isSubharmonic(frequency, of: likeliest.frequencyHz) {
      return nil
    }
    let continues = previousFound >= 0 && abs(previousFound - bin) <= 2
    guard continues || rise >= Self.riseDecibels else { return nil }
    for k in 0..<noveltyFrames where abs(recentBins[k] - bin) <= 2 { return nil }
    foundBin = bin
    framesSinceFound = 0
    return (frequency, bin)
  }

  /// The residual's period (a lag of `plan`) from its `d′`, `d`, once the period `referenceLag`
  /// is cancelled: its first dip below ``residualThreshold`` (or a deeper one within an eighth of
  /// its lag, of which the first is a ripple on the flank), or the dip near three times that lag
  /// when the first dip is a third of the period, or `nil`.
  ///
  /// A new note with a strong third partial (a horn's, a trombone's) dips the residual at a third
  /// of its period, shallower than at the period itself: that first dip hands over to the dip
  /// near its triple when the triple's is at most ``handOverRatio`` as deep, while the dip near its
  /// double is not much deeper than its own (``doubleRatio``: were the first dip the period, the
  /// residual would repeat there too) and the triple is no period the new note shares with the
  /// cancelled one (what is left of that note dips it).
  @_noLocks
  static func residualPeriod(
    _ d: UnsafeMutableBufferPointer<Float>, plan: PeriodicityPlan, referenceLag: Double
  ) -> Int? {
    var tau = max(plan.minimumLag, 1)
    while tau < plan.maximumLag, !(d[tau] < residualThreshold && d[tau] < d[tau - 1] && d[tau] <= d[tau + 1])
    {
      tau += 1
    }
    guard tau < plan.maximumLag else { return nil }
    // A deeper dip within an eighth of the lag makes the first a ripple on its flank (a piano's
    // stretched partials, beating), as in the frame's own candidates: the period is the deeper.
    let first = tau
    for lag in (first + 1)..<min(plan.maximumLag, first + first / 8 + 1)
    where d[lag] < d[tau] && d[lag] < d[lag - 1] && d[lag] <= d[lag + 1] {
      tau = lag
    }
    let own = d[tau]
    guard own > handOverFloor,
      let triple = PeriodicityAnalysis.multipleDip(in: d, of: tau, times: 3, maximumLag: plan.maximumLag),
      d[triple] < own * handOverRatio
    else { return tau }
    let reach = PeriodicityAnalysis.multipleReach(of: tau, times: 3)
    guard !isShared(3 * tau, reach: reach, referenceLag: referenceLag) else { return tau }
    var double = Float.infinity
    for lag in (2 * tau - reach)...(2 * tau + reach) { double = min(double, d[lag]) }
    return double >= doubleRatio * own ? triple : tau
  }

  /// Moves the reference with the likeliest pitch `frequency`.
  @_noLocks
  private mutating func follow(_ frequency: Double) {
    if referenceHz == 0 || cents(frequency, referenceHz) < Self.followCents {
      referenceHz = frequency
      pendingFrames = 0
    } else if pendingFrames > 0, cents(frequency, pendingHz) < Self.followCents {
      pendingHz = frequency
      pendingFrames += 1
      if pendingFrames >= referenceFrames {
        referenceHz = frequency
        pendingFrames = 0
      }
    } else {
      pendingHz = frequency
      pendingFrames = 1
    }
  }
}

extension NewestNoteFinder {
  /// Whether `lag` lies within `reach` lags of a whole multiple of the cancelled period
  /// `referenceLag`: a period the new note shares with the note cancelled, which what is left
  /// of that note dips too.
  @_noLocks
  fileprivate static func isShared(_ lag: Int, reach: Int, referenceLag: Double) -> Bool {
    let multiple = Double(lag) / referenceLag
    return abs(multiple - Double(Int(multiple + 0.5))) * referenceLag <= Double(reach)
  }
}

/// Whether `frequency` is within 50 cents of `pitch / k` for a whole `k` of at least 2.
@_noLocks
private func isSubharmonic(_ frequency: Double, of pitch: Double) -> Bool {
  let multiple = Double(Int(pitch / frequency + 0.5))
  return multiple >= 2 && cents(frequency * multiple, pitch) < 50
}

/// The distance between two frequencies in cents.
@_noLocks
private func cents(_ a: Double, _ b: Double) -> Double {
  let ratio = a / b
  // RT-audited: libm's log2 is a pure function; it neither allocates nor locks.
  return abs(1200 * _unsafePerformance { log2(ratio) })
}
