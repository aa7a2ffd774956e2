/// Runs a whole signal through a streaming analyzer in blocks and collects what it emits: the
/// offline conveniences' engine. Allocates; not for the audio thread.
func runStream<Output>(
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
