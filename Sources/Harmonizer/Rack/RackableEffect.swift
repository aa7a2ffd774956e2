/// What the rack needs beyond ``Effect`` from a built-in effect: a processing entry point it can
/// call without the copy-on-write check (the rack holds each effect uniquely), and a way to copy
/// another instance's state into preallocated memory (for crossfading orders).
protocol RackableEffect: Effect {
  /// Processes in place; assumes this value is the only owner of its memory.
  mutating func render(_ buffer: UnsafeMutableBufferPointer<Float>)

  /// Gives this value its own memory if a copy shares it (allocates then; not on the audio path).
  mutating func makeUnique()

  /// Forgets the signal so far, like ``Effect/reset()``, assuming this value owns its memory.
  mutating func resetInPlace()

  /// Takes `other`'s whole state (parameters, ramps, delay lines) without allocating; `other`
  /// was made with the same sample rate.
  mutating func copyState(from source: UnsafeMutablePointer<Self>)
}

extension ClosedRange where Bound == Float {
  /// `value` clamped into the range; NaN becomes `fallback`.
  @_noLocks
  @inline(__always)
  func clamping(_ value: Float, nanTo fallback: Float) -> Float {
    value.isNaN ? fallback : Swift.min(Swift.max(value, lowerBound), upperBound)
  }
}
