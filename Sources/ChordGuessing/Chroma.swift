/// Twelve non-negative values, one per pitch class from C (0) to B (11): a chroma vector.
///
/// A trivially copyable value (its storage is a `SIMD16<Float>` whose last four lanes stay 0), so
/// analyzers can hand chroma vectors out on the audio thread without allocating.
public struct Chroma: Sendable, Hashable, CustomStringConvertible {
  /// Lanes 0...11 hold the pitch classes; 12...15 are always 0.
  var storage: SIMD16<Float>

  /// A chroma vector of zeros.
  @_noLocks
  public init() { storage = .zero }

  /// A chroma vector from twelve values, C first.
  ///
  /// - Parameter values: Exactly twelve values (a precondition).
  public init(_ values: [Float]) {
    precondition(values.count == 12, "a chroma vector has 12 values, got \(values.count)")
    storage = .zero
    for (i, v) in values.enumerated() { storage[i] = v }
  }

  /// The value of one pitch class.
  ///
  /// - Parameter pitchClass: `0...11`, C = 0.
  public subscript(pitchClass: Int) -> Float {
    @_noLocks get { storage[pitchClass] }
    @_noLocks set { storage[pitchClass] = newValue }
  }

  /// The twelve values, C first.
  public var values: [Float] { (0..<12).map { storage[$0] } }

  /// The sum of the twelve values.
  public var sum: Float {
    @_noLocks get { storage.sum() }
  }

  /// The largest value.
  public var maximum: Float { storage.max() }

  /// The pitch class with the largest value (the lowest one on a tie), `0...11`.
  public var strongestPitchClass: Int {
    var best = 0
    for i in 1..<12 where storage[i] > storage[best] { best = i }
    return best
  }

  /// The vector scaled to sum to 1 (all zeros stay zeros).
  public var normalized: Chroma {
    let total = sum
    guard total > 0 else { return self }
    var copy = self
    copy.storage /= SIMD16(repeating: total)
    return copy
  }

  /// The twelve values, rounded to three decimals, C first.
  public var description: String {
    "[" + values.map { String(Double(($0 * 1000).rounded()) / 1000) }.joined(separator: ", ") + "]"
  }
}
