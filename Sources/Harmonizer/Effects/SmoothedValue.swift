/// A parameter value that glides to each new target along a straight line over a fixed number
/// of samples, so that changing it makes no zipper noise or click.
///
/// A linear ramp (rather than a one-pole) arrives exactly, so the value a block ends on does not
/// depend on how the stream is cut into blocks.
struct SmoothedValue: Sendable {
  /// The value now.
  private(set) var current: Float
  /// Where it is going.
  private(set) var target: Float
  private var step: Float = 0
  private var remaining = 0
  /// The ramp's length, in samples (at least 1).
  let rampSamples: Int

  init(_ value: Float, rampSamples: Int) {
    current = value
    target = value
    self.rampSamples = max(1, rampSamples)
  }

  /// Whether the value has arrived at its target.
  var isSettled: Bool {
    @_noLocks get { remaining == 0 }
  }

  /// Starts a ramp from the current value to `value`.
  @_noLocks
  mutating func set(_ value: Float) {
    guard value != target else { return }
    target = value
    remaining = rampSamples
    step = (target - current) / Float(rampSamples)
  }

  /// Jumps to `value` at once (for `reset` and initial values).
  @_noLocks
  mutating func jump(to value: Float) {
    current = value
    target = value
    remaining = 0
  }

  /// Moves one sample along the ramp and returns the new value.
  @_noLocks
  @inline(__always)
  mutating func next() -> Float {
    if remaining > 0 {
      remaining -= 1
      current = remaining == 0 ? target : current + step
    }
    return current
  }
}
