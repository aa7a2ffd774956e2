extension AmplitudeOnsetDetector {
  /// What an ``AmplitudeOnsetDetector`` measures and when it fires.
  ///
  /// The defaults suit solo instruments and voice at any recording level: an onset when the
  /// level rises 15 dB above the running noise floor, re-armed once it falls back within 6 dB of
  /// the floor, and a re-attack when the level rises 9 dB within 30 ms while a sound goes on.
  public struct Configuration: Sendable, Hashable, Codable {
    /// The input sample rate, in Hz (8 kHz...384 kHz).
    public var sampleRate: Double
    /// Input frames per level measurement (default 5 ms); the time resolution of onsets.
    public var hopSize: Int
    /// The RMS integration window, in hops (default 2, 10 ms): long enough that the level of a
    /// 40 Hz tone ripples less than ±1.5 dB.
    public var levelWindowHops: Int
    /// The level above the noise floor at which a sound starts, in dB (default 15).
    public var onsetThresholdDB: Double
    /// The level above the noise floor below which the detector re-arms, in dB (default 6); less
    /// than ``onsetThresholdDB`` (the hysteresis).
    public var rearmThresholdDB: Double
    /// The rise, in dB within ``riseSeconds``, that counts as a re-attack while a sound goes on
    /// (default 9 dB).
    public var reattackRiseDB: Double
    /// The time within which the level must rise ``reattackRiseDB`` for a re-attack, in seconds
    /// (default 0.03).
    public var riseSeconds: Double
    /// How fast the noise floor may rise toward a louder level, in dB per second (default 3: a
    /// held note lifts it 3 dB per second, a background that swells more slowly is followed).
    public var floorRiseDBPerSecond: Double
    /// How fast the noise floor may fall toward a quieter level, in dB per second (default 200:
    /// it reaches a new background within a fraction of a second, but a 10 ms dropout moves it
    /// only 2 dB).
    public var floorFallDBPerSecond: Double
    /// The lowest the noise floor goes, in dBFS (default −80): quieter sounds are silence, so a
    /// sound must reach `silenceDBFS + onsetThresholdDB` (−65 dBFS) to be an onset, and dither
    /// in digital silence is not.
    public var silenceDBFS: Double
    /// The shortest time between two onsets, in seconds (default 0.03).
    public var minimumIntervalSeconds: Double
    /// How far back from its detection an onset's time may be refined to the start of its rise,
    /// in seconds (default 0.1): slower attacks are timed at most this long before detection.
    public var maximumRiseSeconds: Double

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - sampleRate: The input sample rate, in Hz.
    ///   - hopSeconds: The time between level measurements, in seconds (rounded to frames).
    ///   - levelWindowHops: The RMS window, in hops.
    ///   - onsetThresholdDB: dB above the noise floor for an onset.
    ///   - rearmThresholdDB: dB above the noise floor below which the detector re-arms.
    ///   - reattackRiseDB: dB of rise within `riseSeconds` for a re-attack.
    ///   - riseSeconds: The re-attack rise time, in seconds.
    ///   - floorRiseDBPerSecond: The noise floor's upward leak, in dB per second.
    ///   - floorFallDBPerSecond: The noise floor's fastest fall, in dB per second.
    ///   - silenceDBFS: The lowest noise floor, in dBFS.
    ///   - minimumIntervalSeconds: The shortest time between onsets, in seconds.
    ///   - maximumRiseSeconds: The longest refinement back to the start of a rise, in seconds.
    public init(
      sampleRate: Double, hopSeconds: Double = 0.005, levelWindowHops: Int = 2, onsetThresholdDB: Double = 15,
      rearmThresholdDB: Double = 6, reattackRiseDB: Double = 9, riseSeconds: Double = 0.03,
      floorRiseDBPerSecond: Double = 3, floorFallDBPerSecond: Double = 200, silenceDBFS: Double = -80,
      minimumIntervalSeconds: Double = 0.03, maximumRiseSeconds: Double = 0.1
    ) {
      self.sampleRate = sampleRate
      let hop = hopSeconds * sampleRate
      self.hopSize = hop.isFinite && hop >= 1 && hop < 1e9 ? Int(hop + 0.5) : 0
      self.levelWindowHops = levelWindowHops
      self.onsetThresholdDB = onsetThresholdDB
      self.rearmThresholdDB = rearmThresholdDB
      self.reattackRiseDB = reattackRiseDB
      self.riseSeconds = riseSeconds
      self.floorRiseDBPerSecond = floorRiseDBPerSecond
      self.floorFallDBPerSecond = floorFallDBPerSecond
      self.silenceDBFS = silenceDBFS
      self.minimumIntervalSeconds = minimumIntervalSeconds
      self.maximumRiseSeconds = maximumRiseSeconds
    }

    /// The time between level measurements, in seconds.
    public var hopSeconds: Double { Double(hopSize) / sampleRate }

    /// Checks that the values can be analyzed.
    ///
    /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` naming the first value
    ///   out of range.
    public func validate() throws(PitchDSPError) {
      guard sampleRate.isFinite, (8000...384_000).contains(sampleRate) else {
        throw .invalidParameter(name: "sample rate", value: "\(sampleRate)", expected: "8000...384000 Hz")
      }
      guard hopSize >= 1, Double(hopSize) <= sampleRate / 20 else {
        throw .invalidParameter(
          name: "onset hop size", value: "\(hopSize) frames", expected: "1 frame...50 ms")
      }
      guard (1...64).contains(levelWindowHops) else {
        throw .invalidParameter(
          name: "level window", value: "\(levelWindowHops) hops", expected: "1...64 hops")
      }
      guard onsetThresholdDB.isFinite, onsetThresholdDB > 0, onsetThresholdDB <= 120 else {
        throw .invalidParameter(
          name: "onset threshold", value: "\(onsetThresholdDB) dB", expected: "0...120 dB")
      }
      guard rearmThresholdDB.isFinite, rearmThresholdDB >= 0, rearmThresholdDB < onsetThresholdDB else {
        throw .invalidParameter(
          name: "re-arm threshold", value: "\(rearmThresholdDB) dB",
          expected: "0 dB up to the onset threshold")
      }
      guard reattackRiseDB.isFinite, reattackRiseDB > 0 else {
        throw .invalidParameter(
          name: "re-attack rise", value: "\(reattackRiseDB) dB", expected: "more than 0 dB")
      }
      guard riseSeconds.isFinite, riseSeconds >= hopSeconds, riseSeconds <= 1 else {
        throw .invalidParameter(name: "rise time", value: "\(riseSeconds) s", expected: "one hop...1 s")
      }
      guard floorRiseDBPerSecond.isFinite, floorRiseDBPerSecond >= 0 else {
        throw .invalidParameter(
          name: "noise floor rise", value: "\(floorRiseDBPerSecond) dB/s", expected: "0 dB/s or more")
      }
      guard floorFallDBPerSecond.isFinite, floorFallDBPerSecond > 0 else {
        throw .invalidParameter(
          name: "noise floor fall", value: "\(floorFallDBPerSecond) dB/s", expected: "more than 0 dB/s")
      }
      guard silenceDBFS.isFinite, silenceDBFS >= -200, silenceDBFS < 0 else {
        throw .invalidParameter(
          name: "silence level", value: "\(silenceDBFS) dBFS", expected: "-200...0 dBFS")
      }
      guard minimumIntervalSeconds.isFinite, minimumIntervalSeconds >= 0, minimumIntervalSeconds <= 10 else {
        throw .invalidParameter(
          name: "minimum onset interval", value: "\(minimumIntervalSeconds) s", expected: "0...10 s")
      }
      guard maximumRiseSeconds.isFinite, maximumRiseSeconds >= 0, maximumRiseSeconds <= 2 else {
        throw .invalidParameter(
          name: "maximum rise time", value: "\(maximumRiseSeconds) s", expected: "0...2 s")
      }
    }

    /// Hops per re-attack rise (at least 1).
    var riseHops: Int { max(1, Int(riseSeconds / hopSeconds + 0.5)) }
    /// Hops an onset may be refined back (at least the re-attack search).
    var lookBackHops: Int { max(Int(maximumRiseSeconds / hopSeconds + 0.5), riseHops + levelWindowHops) }
    /// Hops between onsets.
    var minimumIntervalHops: Int { Int(minimumIntervalSeconds / hopSeconds + 0.5) }
  }
}
