import Foundation

/// A table of the rising half of a raised cosine, `(1 − cos(π·u)) / 2` for `u` in 0...1, read
/// with linear interpolation: the crossfade gain and (mirrored) the grain window, without a
/// cosine per sample.
///
/// 1025 points keep the interpolation error under 2·10⁻⁶.
struct RaisedCosine {
  static var segments: Int { 1024 }
  let table: UnsafeMutablePointer<Float>

  /// Allocates and fills the table; the owner frees it with ``deallocate()``.
  static func allocate() -> RaisedCosine {
    let table = UnsafeMutablePointer<Float>.allocate(capacity: segments + 2)
    for i in 0...(segments + 1) {
      let u = min(1, Double(i) / Double(segments))
      table[i] = Float(0.5 - 0.5 * cos(Double.pi * u))
    }
    return RaisedCosine(table: table)
  }

  func deallocate() { table.deallocate() }

  /// The rising gain at `u` (clamped to 0...1): 0 at 0, 1/2 at 1/2, 1 at 1.
  @_noLocks
  @inline(__always)
  func rising(_ u: Double) -> Float {
    let x = max(0, min(1, u)) * Double(Self.segments)
    let i = Int(x)
    let f = Float(x - Double(i))
    return table[i] + f * (table[i + 1] - table[i])
  }

  /// The Hann window of half-width 1 at `u` in −1...1: 1 at 0, 0 at ±1 (0 outside).
  @_noLocks
  @inline(__always)
  func hann(_ u: Double) -> Float {
    rising(1 - abs(u))
  }
}
