/// How a ``Sample`` loops: on or off, the region that repeats, and the crossfade at the seam.
///
/// The region is in frames counted from the sample's trim start (`nil` loops the whole trimmed
/// sample). At the seam the last ``crossfadeSeconds`` of the loop are blended, with a raised-cosine
/// curve, into the audio that leads into the loop start, so the jump back lands on a sample that
/// continues the waveform and makes no click (see ``SamplePlayer``).
public struct SampleLoop: Sendable, Hashable, Codable {
  /// Whether playback repeats the region instead of stopping at the end.
  public var isEnabled: Bool
  /// The repeating frames, from the trim start; `nil` for the whole trimmed sample.
  public var region: Range<Int>?
  /// The crossfade at the loop seam, in seconds (0 for a hard jump); clamped when played to half
  /// the loop's length.
  public var crossfadeSeconds: Double

  /// The crossfade used unless another is asked for: 10 ms.
  public static let defaultCrossfadeSeconds = 0.01

  /// Describes a loop.
  ///
  /// - Parameters:
  ///   - isEnabled: Whether playback repeats; `false` by default.
  ///   - region: The repeating frames from the trim start; `nil` (the default) for all of them.
  ///   - crossfadeSeconds: The seam crossfade in seconds, 10 ms by default; negative or
  ///     non-finite values become 0.
  public init(
    isEnabled: Bool = false, region: Range<Int>? = nil, crossfadeSeconds: Double = defaultCrossfadeSeconds
  ) {
    self.isEnabled = isEnabled
    self.region = region
    self.crossfadeSeconds = crossfadeSeconds.isFinite ? max(0, crossfadeSeconds) : 0
  }
}
