/// A note onset: the moment a sound starts, with how clearly the detector saw it.
///
/// Onsets come out of an ``OnsetDetector`` in time order, at least the detector's minimum
/// interval apart.
public struct Onset: Sendable, Hashable, Codable {
  /// When the sound starts, in seconds from the first frame of the stream.
  public var time: Double
  /// How far the detection function rose past its threshold, unitless and ≥ 0: 1 is exactly at
  /// the threshold, 2 twice as far. Comparable between onsets of one detector and configuration,
  /// not between detectors.
  public var strength: Double

  /// Creates an onset.
  ///
  /// - Parameters:
  ///   - time: The onset time, in seconds.
  ///   - strength: The detection strength, unitless, ≥ 0.
  @_noLocks
  public init(time: Double, strength: Double) {
    self.time = time
    self.strength = strength
  }
}
