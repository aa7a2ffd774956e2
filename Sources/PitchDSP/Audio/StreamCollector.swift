/// Runs a whole signal through a streaming processor in blocks and collects what it emits: the
/// offline convenience behind ``PitchEstimator/estimates(for:)`` and
/// ``OnsetDetector/onsets(for:)``. Allocates; not for the audio thread.
///
/// - Parameters:
///   - samples: The signal.
///   - placeholder: A value to fill the scratch buffer with.
///   - maximumOutputs: The most outputs one call on `count` frames (or the final call, for 0)
///     can write.
///   - process: Consumes a block, writes outputs, returns how many.
///   - finish: Writes the outputs still pending at the end, returns how many.
/// - Returns: Every output, in order.
func collectStream<Output>(
  _ samples: [Float], placeholder: Output, maximumOutputs: (Int) -> Int,
  process: (UnsafeBufferPointer<Float>, UnsafeMutableBufferPointer<Output>) -> Int,
  finish: (UnsafeMutableBufferPointer<Output>) -> Int
) -> [Output] {
  let block = 4096
  var out: [Output] = []
  var scratch = [Output](repeating: placeholder, count: max(maximumOutputs(block), maximumOutputs(0)))
  samples.withUnsafeBufferPointer { all in
    var start = 0
    while start < all.count {
      let chunk = UnsafeBufferPointer(rebasing: all[start..<min(all.count, start + block)])
      let n = scratch.withUnsafeMutableBufferPointer { process(chunk, $0) }
      out += scratch[0..<n]
      start += block
    }
  }
  let n = scratch.withUnsafeMutableBufferPointer { finish($0) }
  out += scratch[0..<n]
  return out
}

extension UnsafeMutableBufferPointer where Element: Numeric {
  /// A new buffer of `count` zeros (the caller deallocates it).
  static func zeroed(_ count: Int) -> UnsafeMutableBufferPointer<Element> {
    let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: count)
    buffer.initialize(repeating: 0)
    return buffer
  }
}
