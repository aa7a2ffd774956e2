import Foundation

/// The few libm functions the effects need on the audio path, and sample hygiene helpers.
enum EffectMath {
  /// `tan(x)`.
  @_noLocks
  @inline(__always)
  static func tan(_ x: Double) -> Double {
    // RT-audited: libm tan neither allocates nor locks.
    _unsafePerformance { Foundation.tan(x) }
  }

  /// `sin(x)`.
  @_noLocks
  @inline(__always)
  static func sin(_ x: Double) -> Double {
    // RT-audited: libm sin neither allocates nor locks.
    _unsafePerformance { Foundation.sin(x) }
  }

  /// `√x`.
  @_noLocks
  @inline(__always)
  static func squareRoot(_ x: Double) -> Double {
    // RT-audited: a single instruction (the debug build does not see through the stdlib call).
    _unsafePerformance { x.squareRoot() }
  }

  /// `exp(x)`.
  @_noLocks
  @inline(__always)
  static func exp(_ x: Double) -> Double {
    // RT-audited: libm exp neither allocates nor locks.
    _unsafePerformance { Foundation.exp(x) }
  }

  /// The linear gain of `decibels`; at or below `silenceBelow` it is exactly 0.
  @_noLocks
  @inline(__always)
  static func gain(decibels: Float, silenceBelow: Float = -200) -> Float {
    decibels <= silenceBelow ? 0 : Float(exp(Double(decibels) * 0.115_129_254_649_702_28))
  }

  /// The sample, or 0 when it is NaN or infinite (so bad input never enters a filter's state).
  @_noLocks
  @inline(__always)
  static func sanitized(_ x: Float) -> Float {
    x.isFinite ? x : 0
  }

  /// The value, or 0 when it is so small it would be subnormal soon (denormals make recursive
  /// filters crawl on some CPUs).
  @_noLocks
  @inline(__always)
  static func flushed(_ x: Float) -> Float {
    abs(x) < 1e-25 ? 0 : x
  }
}
