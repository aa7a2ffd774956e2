/// One analysis pitch mark: a point in the input at the same place in every period (an epoch),
/// the period measured there, and whether the input is voiced there.
///
/// Unvoiced marks are spaced regularly (5 ms or less) so that the analysis keeps moving through
/// unvoiced input; their period is that spacing.
public struct PitchMark: Sendable, Hashable {
  /// The mark's position, in input samples from the start of the stream (fractional).
  public var position: Double
  /// The period at the mark, in samples (fractional), or the spacing of unvoiced marks.
  public var periodSamples: Double
  /// Whether the input is periodic (voiced) at the mark.
  public var isVoiced: Bool

  /// Creates a mark.
  ///
  /// - Parameters:
  ///   - position: The position, in input samples.
  ///   - periodSamples: The period there, in samples.
  ///   - isVoiced: Whether the input is voiced there.
  @_noLocks
  public init(position: Double, periodSamples: Double, isVoiced: Bool) {
    self.position = position
    self.periodSamples = periodSamples
    self.isVoiced = isVoiced
  }
}
