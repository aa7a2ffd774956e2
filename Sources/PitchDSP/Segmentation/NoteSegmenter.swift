import Foundation

/// Cuts a pitch track into notes: sounds that start when the level rises well above a running
/// noise floor, end when it falls back (hysteresis), and split when the pitch moves to a new note
/// for several frames without a dip in level (legato).
///
/// This is the performance tracker's sound segmentation (MusiKyoshi's rule: a sound starts above
/// an amplitude threshold, and a pitch change in a legato passage ends it and starts the next),
/// with thresholds relative to the noise floor instead of absolute levels, so that a quiet room
/// and a noisy one segment alike.
///
/// - The noise floor follows the level down at once and up slowly
///   (``Configuration/floorRiseDecibelsPerSecond``) on unvoiced estimates; a pitched one holds it
///   (music played on without a gap hides the noise, and a floor creeping up under it cut short
///   the quiet notes that followed). Silence counts as −120 dBFS. A stream that starts voiced
///   starts with a note, over an assumed floor of −90 dBFS.
/// - A sound starts when the level exceeds the floor by ``Configuration/onDecibels``; it ends when
///   it falls below floor + ``Configuration/offDecibels``, or when a pitched sound stays unvoiced
///   for ``Configuration/unvoicedSeconds``; then the floor rises to the level less
///   ``Configuration/offDecibels``, so that the note's release tail, still over a floor learned
///   in a digitally silent lead-in, is not a sound of its own (with the pitch tracker's rumble
///   filter, which takes a render's DC offset out of the lead-in, nearly every piece of the onset
///   evaluation gained such an unpitched "note": note-start F1 0.856 → 0.841, 0.856 with this).
///   A sound that is still unvoiced that long after it started (noise swelling over the
///   threshold, a breath) starts again at its first voiced estimate.
/// - A re-attack (the level rising by ``Configuration/reattackDecibels`` within
///   ``Configuration/reattackSeconds`` while sounding, as when a note is repeated without a gap)
///   starts a new segment at the lowest point before the rise when that point is a real dip,
///   ``Configuration/reattackDipDecibels`` under the loudest the sound had been before it, or
///   when a held note is played again louder: the sound had stopped getting louder at least
///   ``Configuration/reattackSeconds`` before the low point and now rises
///   ``Configuration/reattackExcessDecibels`` above anything it reached before. A slow attack
///   that keeps rising is one note.
/// - Inside a sound, the reference pitch is the median of its voiced estimates so far; when
///   ``Configuration/changeFrames`` consecutive voiced estimates lie more than
///   ``Configuration/changeCents`` from it and within that distance of each other, a new segment
///   starts at the first of them. Vibrato within the threshold and single-frame octave glitches
///   do not split.
/// - A segment's frequency is the median of its voiced estimates after
///   ``Configuration/attackSeconds`` (all of them when the note is shorter); of the confident
///   ones among them (``Configuration/confidentPitch``) when there are
///   ``Configuration/confidentFrames`` or more.
/// - Segments shorter than ``Configuration/minimumSeconds`` are dropped.
///
/// - Note: ``process(_:)`` and ``finish()`` are real-time safe.
public final class NoteSegmenter {
  /// The thresholds, all tunable.
  public struct Configuration: Sendable, Hashable, Codable {
    /// How far above the noise floor a sound starts, in dB.
    public var onDecibels: Double = 15
    /// How far above the noise floor a *voiced* estimate starts a sound, in dB (default: the
    /// same as ``onDecibels``). Lower it to find pitched notes in loud noise, where the level
    /// rises little above the floor but the pitch is clear.
    public var voicedOnDecibels: Double? = nil
    /// How far above the noise floor a sound continues, in dB (below `onDecibels`: hysteresis).
    public var offDecibels: Double = 8
    /// How fast the floor may rise on unvoiced estimates, in dB per second.
    public var floorRiseDecibelsPerSecond: Double = 3
    /// The distance from the note's pitch that counts as a new note, in cents.
    public var changeCents: Double = 60
    /// Consecutive estimates at a new pitch needed to split.
    public var changeFrames: Int = 4
    /// The attack left out of a note's pitch, in seconds.
    public var attackSeconds: Double = 0.05
    /// The voicing confidence from which an estimate is confident: when a segment has
    /// ``confidentFrames`` or more of them after the attack, only they set its pitch. Where two
    /// notes' periods mix (a legato change, a short note under the previous one's ring) the
    /// tracker's estimates wander between them at a lower confidence.
    public var confidentPitch: Double = 0.8
    /// How many confident estimates set a segment's pitch on their own.
    public var confidentFrames: Int = 3
    /// The shortest segment kept, in seconds.
    public var minimumSeconds: Double = 0.05
    /// How long a pitched sound may stay unvoiced before it ends, in seconds.
    public var unvoicedSeconds: Double = 0.1
    /// The level rise that counts as a re-attack, in dB.
    public var reattackDecibels: Double = 6
    /// The time within which that rise must happen, in seconds (at most 32 hops are looked at).
    public var reattackSeconds: Double = 0.05
    /// How far under the sound's loudest level so far the low point before a re-attack must
    /// lie, in dB: the rise must come out of a dip, not continue the note's own attack. (The
    /// level swings of a bowed or sung vibrato can reach this too; the performance tracker's
    /// `SoundTracker` checks each split of a held pitch on the note's harmonics.)
    public var reattackDipDecibels: Double = 3
    /// Without such a dip, how far above the loudest the sound had been the rise must go, in dB,
    /// after the sound had stopped getting louder: a held note played again, louder.
    public var reattackExcessDecibels: Double = 3

    /// Whether a rise out of a low point is a new attack.
    ///
    /// - Parameters:
    ///   - dipDecibels: How far the low point lies under the loudest level before it.
    ///   - heldSeconds: How long before the low point that loudest level was reached.
    ///   - excessDecibels: How far the level now stands above that loudest level.
    /// - Note: Real-time safe.
    @_noLocks
    func isReattack(dipDecibels: Double, heldSeconds: Double, excessDecibels: Double) -> Bool {
      if dipDecibels >= reattackDipDecibels { return true }
      return heldSeconds >= reattackSeconds && excessDecibels >= reattackExcessDecibels
    }

    /// Creates the default thresholds.
    public init() {}
  }

  /// The thresholds.
  public let configuration: Configuration

  private let histogram: UnsafeMutableBufferPointer<Int32>
  /// Bins touched by the current segment, to clear them cheaply.
  private let touched: UnsafeMutableBufferPointer<Int32>
  private var touchedCount = 0
  /// The pending new pitch: its frames' bins and times.
  private let pending: UnsafeMutableBufferPointer<Double>
  private let pendingTimes: UnsafeMutableBufferPointer<Double>
  private let pendingConfidences: UnsafeMutableBufferPointer<Double>
  private var pendingCount = 0

  /// Recent (time, level) pairs, for re-attacks: a ring of ``recentCapacity``.
  private let recentTimes: UnsafeMutableBufferPointer<Double>
  private let recentLevels: UnsafeMutableBufferPointer<Double>
  /// The sound's loudest level up to each recent estimate (its own level when not sounding).
  private let recentPeaks: UnsafeMutableBufferPointer<Double>
  /// When the sound reached that level.
  private let recentPeakTimes: UnsafeMutableBufferPointer<Double>
  private var recentCount = 0
  private var recentNext = 0
  private let recentCapacity = 32
  /// When the current unvoiced run began (NaN while voiced).
  private var unvoicedSince = Double.nan

  private var floor = Double.nan
  private var lastTime = Double.nan
  private var sounding = false
  private var segmentStart = 0.0
  private var segmentBoundary = NoteSegment.Boundary.onset
  private var peak = -Double.infinity
  /// When the segment reached ``peak``.
  private var peakTime = Double.nan
  private var frames = 0
  private var voicedFrames = 0
  private var voicedCount: Int32 = 0
  /// The same histogram restricted to frames after the attack.
  private let stableHistogram: UnsafeMutableBufferPointer<Int32>
  /// The sums of the exact cents in each bin, for all voiced frames and after the attack.
  private let sums: UnsafeMutableBufferPointer<Double>
  private let stableSums: UnsafeMutableBufferPointer<Double>
  private var stableCount: Int32 = 0
  /// The same for the confident frames after the attack.
  private let confidentHistogram: UnsafeMutableBufferPointer<Int32>
  private let confidentSums: UnsafeMutableBufferPointer<Double>
  private var confidentCount: Int32 = 0

  /// Creates a segmenter; allocates its memory.
  ///
  /// - Parameter configuration: The thresholds.
  public init(configuration: Configuration = Configuration()) {
    self.configuration = configuration
    histogram = .zeroed(CentsHistogram.histogramBins)
    stableHistogram = .zeroed(CentsHistogram.histogramBins)
    sums = .zeroed(CentsHistogram.histogramBins)
    stableSums = .zeroed(CentsHistogram.histogramBins)
    confidentHistogram = .zeroed(CentsHistogram.histogramBins)
    confidentSums = .zeroed(CentsHistogram.histogramBins)
    touched = .zeroed(CentsHistogram.histogramBins)
    let maximumPending = max(1, configuration.changeFrames)
    pending = .zeroed(maximumPending)
    pendingTimes = .zeroed(maximumPending)
    pendingConfidences = .zeroed(maximumPending)
    recentTimes = .zeroed(recentCapacity)
    recentLevels = .zeroed(recentCapacity)
    recentPeaks = .zeroed(recentCapacity)
    recentPeakTimes = .zeroed(recentCapacity)
  }

  deinit {
    histogram.deallocate()
    stableHistogram.deallocate()
    sums.deallocate()
    stableSums.deallocate()
    confidentHistogram.deallocate()
    confidentSums.deallocate()
    touched.deallocate()
    pending.deallocate()
    pendingTimes.deallocate()
    pendingConfidences.deallocate()
    recentTimes.deallocate()
    recentLevels.deallocate()
    recentPeaks.deallocate()
    recentPeakTimes.deallocate()
  }

  /// Whether a sound is in progress (started and not yet ended).
  ///
  /// - Note: Real-time safe.
  public var isSounding: Bool {
    @_noLocks get { sounding }
  }

  /// Forgets the stream.
  public func reset() {
    clearSegment()
    floor = .nan
    lastTime = .nan
    sounding = false
    recentCount = 0
    recentNext = 0
    unvoicedSince = .nan
  }

  /// Consumes the next estimate (in time order) and returns the segment it completed, if any.
  ///
  /// - Parameter estimate: The next pitch estimate.
  /// - Returns: A finished segment, or `nil`.
  /// - Note: Real-time safe.
  @_noLocks
  public func process(_ estimate: PitchEstimate) -> NoteSegment? {
    let level = estimate.levelDBFS.isFinite ? max(-120, estimate.levelDBFS) : -120
    let voiced = estimate.frequencyHz > 0
    let first = floor.isNaN
    let hop = lastTime.isNaN ? 0 : max(0, estimate.time - lastTime)
    lastTime = estimate.time
    // The lowest recent level and its time, before this estimate joins them.
    var lowLevel = level
    var lowTime = estimate.time
    // (No `||` here: its autoclosure would retain self on the audio thread.)
    var rising = !sounding
    if level > peak { rising = true }
    var peakBeforeLow = rising ? level : peak
    var peakTimeBeforeLow = rising ? estimate.time : peakTime
    for i in 0..<recentCount where estimate.time - recentTimes[i] <= configuration.reattackSeconds {
      if recentLevels[i] < lowLevel {
        lowLevel = recentLevels[i]
        lowTime = recentTimes[i]
        peakBeforeLow = recentPeaks[i]
        peakTimeBeforeLow = recentPeakTimes[i]
      }
    }
    recentTimes[recentNext] = estimate.time
    recentLevels[recentNext] = level
    recentPeaks[recentNext] = rising ? level : peak
    recentPeakTimes[recentNext] = rising ? estimate.time : peakTime
    recentNext = (recentNext + 1) % recentCapacity
    recentCount = min(recentCount + 1, recentCapacity)

    if first {
      // A stream that starts voiced starts mid-note: assume a quiet room's floor.
      floor = voiced ? min(level - configuration.onDecibels, -90) : level
    } else {
      floor = min(level, floor + (voiced ? 0 : configuration.floorRiseDecibelsPerSecond * hop))
    }

    if !sounding {
      var threshold = configuration.onDecibels
      if voiced, let voicedThreshold = configuration.voicedOnDecibels { threshold = voicedThreshold }
      guard level >= floor + threshold else { return nil }
      start(at: estimate.time, boundary: .onset)
      add(estimate, level: level)
      return nil
    }
    if level < floor + configuration.offDecibels {
      let finished = finishSegment(at: estimate.time)
      sounding = false
      return finished
    }
    // A sound unvoiced since it started for longer than a pitched sound may stay unvoiced (noise
    // over the threshold, a breath) starts again at its first voiced estimate.
    if voiced, voicedCount == 0, estimate.time - segmentStart >= configuration.unvoicedSeconds {
      start(at: estimate.time, boundary: segmentBoundary)
    }
    // A pitched sound that has gone unvoiced for long enough has ended.
    if voiced {
      unvoicedSince = .nan
    } else {
      if unvoicedSince.isNaN { unvoicedSince = estimate.time }
      if voicedCount > 0, estimate.time - unvoicedSince >= configuration.unvoicedSeconds {
        let finished = finishSegment(at: unvoicedSince)
        sounding = false
        // What sounds on is the note's release or the room: the floor rises to it (less the
        // hysteresis), so that the tail does not start a sound of its own.
        floor = max(floor, level - configuration.offDecibels)
        return finished
      }
    }
    // A re-attack: the level jumped within the last moments.
    if level - lowLevel >= configuration.reattackDecibels, lowTime - segmentStart >= configuration.minimumSeconds,
      configuration.isReattack(
        dipDecibels: peakBeforeLow - lowLevel, heldSeconds: lowTime - peakTimeBeforeLow,
        excessDecibels: level - peakBeforeLow)
    {
      let finished = finishSegment(at: lowTime)
      start(at: lowTime, boundary: .onset)
      add(estimate, level: level)
      return finished
    }
    // A legato change: enough consecutive voiced frames away from the note's pitch.
    if estimate.frequencyHz > 0, voicedCount > 0, let cents = CentsHistogram.cents(estimate.frequencyHz) {
      let reference = median(histogram, count: voicedCount)
      if abs(cents - Double(reference)) > configuration.changeCents {
        // (No `||` here: its autoclosure would retain self on the audio thread.)
        if pendingCount > 0, abs(cents - pending[0]) > configuration.changeCents { pendingCount = 0 }
        pending[pendingCount] = cents
        pendingTimes[pendingCount] = estimate.time
        pendingConfidences[pendingCount] = estimate.confidence
        pendingCount += 1
        if pendingCount >= configuration.changeFrames {
          let splitTime = pendingTimes[0]
          let finished = finishSegment(at: splitTime)
          // The new note starts with the pending frames.
          let count = pendingCount
          start(at: splitTime, boundary: .pitchChange)
          for i in 0..<count {
            record(cents: pending[i], time: pendingTimes[i], confidence: pendingConfidences[i])
            frames += 1
            voicedFrames += 1
          }
          peak = level
          peakTime = estimate.time
          return finished
        }
        if level > peak {
          peak = level
          peakTime = estimate.time
        }
        frames += 1
        return nil
      }
      // Back at the note's pitch: the excursion was a glitch; its frames count for the note.
      for i in 0..<pendingCount { record(cents: pending[i], time: pendingTimes[i], confidence: pendingConfidences[i]) }
      pendingCount = 0
    }
    add(estimate, level: level)
    return nil
  }

  /// Ends the stream: returns the segment still sounding, if any (ending at the last estimate).
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public func finish() -> NoteSegment? {
    guard sounding else { return nil }
    sounding = false
    for i in 0..<pendingCount { record(cents: pending[i], time: pendingTimes[i], confidence: pendingConfidences[i]) }
    pendingCount = 0
    return finishSegment(at: lastTime)
  }

  /// Every segment of a pitch track (offline convenience; allocates).
  ///
  /// - Parameter estimates: The track, in time order.
  /// - Returns: The segments, in time order.
  public func segments(of estimates: [PitchEstimate]) -> [NoteSegment] {
    reset()
    var out: [NoteSegment] = []
    for estimate in estimates {
      if let segment = process(estimate) { out.append(segment) }
    }
    if let segment = finish() { out.append(segment) }
    return out
  }

  @_noLocks
  private func start(at time: Double, boundary: NoteSegment.Boundary) {
    clearSegment()
    sounding = true
    unvoicedSince = .nan
    segmentStart = time
    segmentBoundary = boundary
  }

  @_noLocks
  private func add(_ estimate: PitchEstimate, level: Double) {
    frames += 1
    if level > peak {
      peak = level
      peakTime = estimate.time
    }
    guard estimate.frequencyHz > 0, let cents = CentsHistogram.cents(estimate.frequencyHz) else { return }
    voicedFrames += 1
    record(cents: cents, time: estimate.time, confidence: estimate.confidence)
  }

  @_noLocks
  private func record(cents: Double, time: Double, confidence: Double) {
    let bin = Int(cents + 0.5)
    if histogram[bin] == 0, stableHistogram[bin] == 0 {
      touched[touchedCount] = Int32(bin)
      touchedCount += 1
    }
    histogram[bin] += 1
    sums[bin] += cents
    voicedCount += 1
    if time - segmentStart >= configuration.attackSeconds {
      stableHistogram[bin] += 1
      stableSums[bin] += cents
      stableCount += 1
      if confidence >= configuration.confidentPitch {
        confidentHistogram[bin] += 1
        confidentSums[bin] += cents
        confidentCount += 1
      }
    }
  }

  /// The finished segment ending at `time`, or `nil` when it is too short.
  @_noLocks
  private func finishSegment(at time: Double) -> NoteSegment? {
    defer { clearSegment() }
    guard time - segmentStart >= configuration.minimumSeconds else { return nil }
    var frequency = 0.0
    if confidentCount > 0, confidentCount >= configuration.confidentFrames {
      frequency = CentsHistogram.frequency(cents: centre(confidentHistogram, confidentSums, count: confidentCount))
    } else if stableCount > 0 {
      frequency = CentsHistogram.frequency(cents: centre(stableHistogram, stableSums, count: stableCount))
    } else if voicedCount > 0 {
      frequency = CentsHistogram.frequency(cents: centre(histogram, sums, count: voicedCount))
    }
    return NoteSegment(
      start: segmentStart, end: time, frequencyHz: frequency, peakLevelDBFS: peak,
      voicedFraction: frames > 0 ? Double(voicedFrames) / Double(frames) : 0, boundary: segmentBoundary)
  }

  @_noLocks
  private func clearSegment() {
    for i in 0..<touchedCount {
      let bin = Int(touched[i])
      histogram[bin] = 0
      stableHistogram[bin] = 0
      sums[bin] = 0
      stableSums[bin] = 0
      confidentHistogram[bin] = 0
      confidentSums[bin] = 0
    }
    touchedCount = 0
    voicedCount = 0
    stableCount = 0
    confidentCount = 0
    pendingCount = 0
    frames = 0
    voicedFrames = 0
    peak = -.infinity
    peakTime = .nan
  }

  /// The mean of the exact values within 2 cents of a histogram's median bin: the median's
  /// neighbourhood, without the bins' 1-cent quantization.
  @_noLocks
  private func centre(_ bins: UnsafeMutableBufferPointer<Int32>, _ sums: UnsafeMutableBufferPointer<Double>, count: Int32) -> Double {
    let middle = median(bins, count: count)
    var total = 0.0
    var n: Int32 = 0
    for bin in max(0, middle - 2)...min(CentsHistogram.histogramBins - 1, middle + 2) {
      total += sums[bin]
      n += bins[bin]
    }
    return n > 0 ? total / Double(n) : Double(middle)
  }

  /// The median bin of a histogram holding `count` values.
  @_noLocks
  private func median(_ bins: UnsafeMutableBufferPointer<Int32>, count: Int32) -> Int {
    let half = (count + 1) / 2
    var seen: Int32 = 0
    // Scan only the touched bins' range: find it from the touched list.
    var low = CentsHistogram.histogramBins
    var high = 0
    for i in 0..<touchedCount {
      low = min(low, Int(touched[i]))
      high = max(high, Int(touched[i]))
    }
    guard low <= high else { return 0 }
    for bin in low...high {
      seen += bins[bin]
      if seen >= half { return bin }
    }
    return high
  }
}

/// The cents scale of ``NoteSegmenter``'s pitch histograms: 1 cent per bin from 10 Hz
/// (8½ octaves).
private enum CentsHistogram {
  static let histogramBins = 10_200
  static let histogramBaseHz = 10.0

  /// The cents above 10 Hz of a frequency, or `nil` outside the histogram.
  @_noLocks
  static func cents(_ frequencyHz: Double) -> Double? {
    guard frequencyHz > histogramBaseHz else { return nil }
    let ratio = frequencyHz / histogramBaseHz
    // RT-audited: libm's log2 is a pure function; it neither allocates nor locks.
    let cents = _unsafePerformance { 1200 * log2(ratio) }
    return cents + 0.5 < Double(histogramBins) ? cents : nil
  }

  /// The frequency `cents` above 10 Hz.
  @_noLocks
  static func frequency(cents: Double) -> Double {
    let exponent = cents / 1200
    // RT-audited: libm's exp2 is a pure function; it neither allocates nor locks.
    return histogramBaseHz * _unsafePerformance { exp2(exponent) }
  }
}
