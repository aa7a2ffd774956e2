/// A one-pole DC blocker, `y[n] = x[n] − x[n−1] + R·y[n−1]` with a 10 Hz corner, seeded by the
/// first sample so that an offset present from the start is silence rather than a step.
///
/// Non-finite samples come out as 0 and leave the state as it was: a burst of NaN is silence,
/// and the signal after it continues without a transient.
struct DCBlocker {
  /// The pole `R = 1 − 2π·10 Hz / sampleRate`.
  let pole: Double
  private var seeded = false
  private var lastInput = 0.0
  private var lastOutput = 0.0

  init(sampleRate: Double) {
    pole = 1 - 2 * Double.pi * 10 / sampleRate
  }

  /// Filters one sample.
  @_noLocks
  mutating func process(_ x: Float) -> Double {
    guard x.isFinite else { return 0 }
    let value = Double(x)
    if !seeded {
      lastInput = value
      seeded = true
    }
    lastOutput = value - lastInput + pole * lastOutput
    lastInput = value
    return lastOutput
  }

  /// Forgets the stream.
  mutating func reset() {
    seeded = false
    lastInput = 0
    lastOutput = 0
  }
}
