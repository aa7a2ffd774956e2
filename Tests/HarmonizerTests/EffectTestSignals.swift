import Harmonizer

/// Runs effects and racks over whole signals in blocks, and measures what the effect tests need.
enum EffectTestSignals {
  /// `input` through `effect`, cut into blocks of `blockSize`.
  static func run<E: Effect>(_ effect: inout E, _ input: [Float], blockSize: Int = 256) -> [Float] {
    var output = input
    output.withUnsafeMutableBufferPointer { all in
      var start = 0
      while start < all.count {
        let n = min(blockSize, all.count - start)
        effect.process(UnsafeMutableBufferPointer(rebasing: all[start..<(start + n)]))
        start += n
      }
    }
    return output
  }

  /// `input` through `rack`, cut into blocks of `blockSize`; `between` runs before each block
  /// with the block's start frame.
  static func run(
    _ rack: EffectsRack, _ input: [Float], blockSize: Int = 256, between: (Int) -> Void = { _ in }
  ) -> [Float] {
    var output = input
    output.withUnsafeMutableBufferPointer { all in
      var start = 0
      while start < all.count {
        between(start)
        let n = min(blockSize, all.count - start)
        rack.process(UnsafeMutableBufferPointer(rebasing: all[start..<(start + n)]))
        start += n
      }
    }
    return output
  }

  /// A unit impulse followed by zeros.
  static func impulse(count: Int) -> [Float] {
    var x = [Float](repeating: 0, count: count)
    x[0] = 1
    return x
  }

  /// Deterministic white noise in −amplitude...amplitude.
  static func noise(count: Int, amplitude: Float = 0.5, seed: UInt64 = 1) -> [Float] {
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    return (0..<count).map { _ in
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return amplitude * (Float(state >> 40) / Float(1 << 24) * 2 - 1)
    }
  }

  /// The largest |x[n] − x[n−1]| over `range`.
  static func largestJump(_ x: [Float], in range: Range<Int>) -> Float {
    var jump: Float = 0
    for n in max(1, range.lowerBound)..<min(range.upperBound, x.count) {
      jump = max(jump, abs(x[n] - x[n - 1]))
    }
    return jump
  }
}
