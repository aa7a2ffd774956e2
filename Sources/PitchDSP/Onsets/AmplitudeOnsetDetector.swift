import Foundation

/// An onset detector on the signal level: a sound starts when its level rises well above a
/// running noise floor, or rises sharply while it goes on (a re-attack).
///
/// Per hop (5 ms by default) the detector measures the RMS level in dBFS over the last
/// ``Configuration/levelWindowHops`` hops of the input, after a 10 Hz DC blocker (so a DC offset
/// is silence). It follows the level with a **noise floor** that falls fast (up to
/// ``Configuration/floorFallDBPerSecond``, 200 dB/s) and rises slowly (up to
/// ``Configuration/floorRiseDBPerSecond``, 3 dB/s), and never below
/// ``Configuration/silenceDBFS`` (−80 dBFS). Two rules fire:
///
/// - **Start of a sound** (the threshold rule, relative to the floor): when armed, an onset as
///   soon as the level is ``Configuration/onsetThresholdDB`` (15 dB) above the floor. The
///   detector re-arms only once the level falls back within ``Configuration/rearmThresholdDB``
///   (6 dB) of the floor: the hysteresis that keeps one note from firing twice.
/// - **Re-attack** (the same note struck again without silence between): while a sound goes on
///   (15 dB above the floor), an onset when the level rises ``Configuration/reattackRiseDB``
///   (9 dB) above its minimum of the last ``Configuration/riseSeconds`` (30 ms). The rule
///   re-arms once the rise falls below a third of that, so a slow attack fires once.
///
/// An onset's time is refined back to the start of its rise, measured on single hops: the first
/// hop of the run of hops above `floor + rearmThresholdDB` (start of a sound), or the first hop
/// 3 dB above the lowest hop of the rise (re-attack), at most ``Configuration/maximumRiseSeconds``
/// before the detection; the onset is timed at the middle of that hop (±half a hop, 2.5 ms).
/// Onsets are at least ``Configuration/minimumIntervalSeconds`` apart. Its strength is the
/// level's margin over the floor (or its rise) divided by the threshold it passed.
///
/// The level ignores pitch: a legato change of note without a dip in level is not an onset (use
/// ``SpectralFluxOnsetDetector``), and vibrato, a crescendo, or a steady background of any level
/// are not either. NaN and ±∞ samples count as silence and leave the DC blocker as it was.
///
/// **Latency**: an onset is returned at most ``latencySeconds`` after its time —
/// `(lookBack + ½) × hop`, where `lookBack` is the longer of ``Configuration/maximumRiseSeconds``
/// and the re-attack search (`riseSeconds` + the level window), in hops: 102.5 ms with the
/// defaults at 16 kHz (20.5 hops of 80 frames; 102.7 ms at 44.1 kHz, with 221-frame hops). A sharp
/// attack comes out half a hop to a hop and a half (2.5–7.5 ms) after its time; only slow
/// attacks take longer.
///
/// **Start of the stream**: the first hop's level is taken as the noise floor, so a sound
/// already playing at the first frame is background, not an onset; a sound that starts later
/// than the first hop (5 ms) is found.
///
/// - Note: ``process(_:into:)`` and ``finish(into:)`` are real-time safe.
public final class AmplitudeOnsetDetector: OnsetDetector {
  /// The configuration.
  public let configuration: Configuration

  /// The sample rate of the frames, in Hz.
  public var sampleRate: Double { configuration.sampleRate }

  /// The longest delay, in seconds, between an onset's time and the call that returns it:
  /// `(lookBack + ½) × hop` (about 102.5 ms with the defaults).
  public let latencySeconds: Double

  // Constants derived from the configuration.
  private let hop: Int
  private let windowHops: Int
  private let riseHops: Int
  private let lookBackHops: Int
  private let minimumIntervalHops: Int
  private let floorRisePerHop: Double
  private let floorFallPerHop: Double
  private let mask: Int

  // Per-hop history, indexed by hop number & mask: mean energy, its level in dB, and the level
  // over the window in dB.
  private let energies: UnsafeMutableBufferPointer<Double>
  private let hopLevels: UnsafeMutableBufferPointer<Double>
  private let levels: UnsafeMutableBufferPointer<Double>

  // Streaming state.
  private var hopEnergy = 0.0
  private var hopFill = 0
  private var dcBlocker: DCBlocker
  /// Hops completed.
  private var hops = 0
  private var floorDB = 0.0
  private var armed = true
  private var riseArmed = true
  /// The hop at which the last onset was timed (−∞ before the first).
  private var lastOnsetHop = Int.min / 2

  /// Creates a detector; allocates all its memory.
  ///
  /// - Parameter configuration: The sample rate, hop and thresholds.
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` for a configuration
  ///   out of range.
  public init(configuration: Configuration) throws(PitchDSPError) {
    try configuration.validate()
    self.configuration = configuration
    hop = configuration.hopSize
    windowHops = configuration.levelWindowHops
    riseHops = configuration.riseHops
    lookBackHops = configuration.lookBackHops
    minimumIntervalHops = configuration.minimumIntervalHops
    floorRisePerHop = configuration.floorRiseDBPerSecond * configuration.hopSeconds
    floorFallPerHop = configuration.floorFallDBPerSecond * configuration.hopSeconds
    dcBlocker = DCBlocker(sampleRate: configuration.sampleRate)
    latencySeconds = (Double(lookBackHops) + 0.5) * Double(hop) / configuration.sampleRate
    var size = 1
    while size < max(lookBackHops, riseHops + windowHops) + 2 { size <<= 1 }
    mask = size - 1
    energies = .allocate(capacity: size)
    hopLevels = .allocate(capacity: size)
    levels = .allocate(capacity: size)
    energies.initialize(repeating: 0)
    hopLevels.initialize(repeating: silentLevelDB)
    levels.initialize(repeating: silentLevelDB)
  }

  deinit {
    energies.deallocate()
    hopLevels.deallocate()
    levels.deallocate()
  }

  /// The most onsets one ``process(_:into:)`` call on `count` frames (or one ``finish(into:)``
  /// call, for `count` 0) can write: one per hop, plus one for a partial hop.
  ///
  /// - Parameter count: Frames in the call, ≥ 0.
  public func maximumOnsets(forFrames count: Int) -> Int {
    max(0, count) / hop + 2
  }

  /// - Note: Real-time safe.
  @_noLocks
  public func process(_ frames: UnsafeBufferPointer<Float>, into onsets: UnsafeMutableBufferPointer<Onset>)
    -> Int
  {
    var produced = 0
    var energy = hopEnergy
    var fill = hopFill
    var blocker = dcBlocker
    for x in frames {
      let y = blocker.process(x)
      energy += y * y
      fill += 1
      if fill == hop {
        produced += endHop(energy: energy, into: onsets, at: produced)
        energy = 0
        fill = 0
      }
    }
    hopEnergy = energy
    hopFill = fill
    dcBlocker = blocker
    return produced
  }

  /// - Note: Real-time safe.
  @_noLocks
  public func finish(into onsets: UnsafeMutableBufferPointer<Onset>) -> Int {
    guard hopFill > 0 else { return 0 }
    // The last, partial hop, completed with silence.
    let produced = endHop(energy: hopEnergy, into: onsets, at: 0)
    hopEnergy = 0
    hopFill = 0
    return produced
  }

  /// Forgets the stream, to start an unrelated one (allocates nothing).
  public func reset() {
    hopEnergy = 0
    hopFill = 0
    dcBlocker.reset()
    hops = 0
    floorDB = 0
    armed = true
    riseArmed = true
    lastOnsetHop = Int.min / 2
    energies.update(repeating: 0)
    hopLevels.update(repeating: silentLevelDB)
    levels.update(repeating: silentLevelDB)
  }

  /// Closes hop number `hops` whose squared samples sum to `energy`: updates the level, the
  /// floor and the rules; writes an onset at `onsets[index]` if one fires and returns 1, else 0.
  @_noLocks
  private func endHop(energy: Double, into onsets: UnsafeMutableBufferPointer<Onset>, at index: Int) -> Int {
    let k = hops
    hops += 1
    let meanSquare = energy / Double(hop)
    let hopLevel = levelDB(meanSquare)
    if k == 0 {
      // The stream is taken as preceded by its first hop: that hop is the background.
      energies.update(repeating: meanSquare)
      hopLevels.update(repeating: hopLevel)
    }
    energies[k & mask] = meanSquare
    hopLevels[k & mask] = hopLevel
    var sum = 0.0
    for j in (k - windowHops + 1)...k { sum += energies[j & mask] }
    let level = levelDB(sum / Double(windowHops))
    if k == 0 {
      levels.update(repeating: level)
      floorDB = max(level, configuration.silenceDBFS)
    }
    levels[k & mask] = level
    var trough = level
    for j in (k - riseHops)..<k { trough = min(trough, levels[j & mask]) }
    let rise = level - trough
    let margin = level - floorDB

    let onsetThreshold = configuration.onsetThresholdDB
    let rearmThreshold = configuration.rearmThresholdDB
    let reattackRise = configuration.reattackRiseDB
    var produced = 0
    if armed, margin >= onsetThreshold {
      armed = false
      riseArmed = false
      // The start of the rise: the first hop of the run of hops above the re-arm level.
      let above = floorDB + rearmThreshold
      var start = k
      while start - 1 >= max(0, k - lookBackHops), start - 1 > lastOnsetHop,
        hopLevels[(start - 1) & mask] >= above
      {
        start -= 1
      }
      produced = emit(hop: start, strength: margin / onsetThreshold, into: onsets, at: index)
    } else if riseArmed, rise >= reattackRise, margin >= onsetThreshold {
      riseArmed = false
      // The start of the rise: the first hop 3 dB above the lowest hop of the search.
      let earliest = max(max(k - riseHops - windowHops + 1, lastOnsetHop + 1), 0)
      var lowest = k
      if earliest <= k {
        for j in earliest...k where hopLevels[j & mask] < hopLevels[lowest & mask] { lowest = j }
      }
      var start = min(lowest + 1, k)
      let risen = hopLevels[lowest & mask] + reattackRise / 3
      while start < k, hopLevels[start & mask] < risen { start += 1 }
      produced = emit(hop: start, strength: rise / reattackRise, into: onsets, at: index)
    }
    if rise < reattackRise / 3 { riseArmed = true }
    if margin <= rearmThreshold { armed = true }

    // The floor follows the level: down fast, up slowly, never below silence.
    if level < floorDB {
      floorDB = max(level, floorDB - floorFallPerHop)
    } else {
      floorDB = min(level, floorDB + floorRisePerHop)
    }
    floorDB = max(floorDB, configuration.silenceDBFS)
    return produced
  }

  /// Writes an onset timed at the start of hop `start` unless it is too close to the last one.
  @_noLocks
  private func emit(
    hop start: Int, strength: Double, into onsets: UnsafeMutableBufferPointer<Onset>, at index: Int
  )
    -> Int
  {
    guard start - lastOnsetHop >= max(1, minimumIntervalHops) else { return 0 }
    // Programmer error: `onsets` smaller than `maximumOnsets(forFrames:)`.
    guard index < onsets.count else { fatalError() }
    lastOnsetHop = start
    // The middle of the hop: the rise starts somewhere within it.
    onsets[index] = Onset(
      time: (Double(start) + 0.5) * Double(hop) / configuration.sampleRate, strength: max(0, strength))
    return 1
  }
}

/// The level in dB given to digital silence (finite, far below any floor).
private let silentLevelDB = -400.0

/// The level, in dB, of a mean square; ``silentLevelDB`` for silence.
@_noLocks
private func levelDB(_ meanSquare: Double) -> Double {
  guard meanSquare > 0 else { return silentLevelDB }
  // RT-audited: libm's log10 is a pure function; it neither allocates nor locks.
  return max(silentLevelDB, 10 * _unsafePerformance { log10(meanSquare) })
}
