/// A power-of-two ring of the most recent samples, indexed by absolute sample number, with
/// four-point (Catmull-Rom) interpolation between samples.
///
/// A plain view over memory its owner allocates with ``allocate(minimumCapacity:)`` and frees
/// with ``deallocate()``, so that reading and writing it on the audio path involves no reference
/// counting. Before the first write it holds zeros, so reads before the start of a stream (negative
/// indices) are silence.
struct SampleRing {
  let storage: UnsafeMutablePointer<Float>
  /// `capacity − 1`; the capacity is a power of two.
  let mask: Int

  /// Allocates a zeroed ring of at least `minimumCapacity` samples (rounded up to a power of two).
  static func allocate(minimumCapacity: Int) -> SampleRing {
    var capacity = 16
    while capacity < minimumCapacity { capacity <<= 1 }
    let storage = UnsafeMutablePointer<Float>.allocate(capacity: capacity)
    storage.initialize(repeating: 0, count: capacity)
    return SampleRing(storage: storage, mask: capacity - 1)
  }

  /// The number of samples held.
  var capacity: Int { mask + 1 }

  /// Frees the memory; call once, from the owner's `deinit`.
  func deallocate() { storage.deallocate() }

  /// Sets every sample to 0.
  @_noLocks
  func clear() {
    for i in 0...mask { storage[i] = 0 }
  }

  /// The sample at absolute index `index` (any integer; the ring wraps).
  @_noLocks
  @inline(__always)
  subscript(index: Int) -> Float {
    get { storage[index & mask] }
    nonmutating set { storage[index & mask] = newValue }
  }

  /// The signal at a fractional absolute position, by Catmull-Rom interpolation of the four
  /// nearest samples (reads `⌊position⌋ − 1 ... ⌊position⌋ + 2`).
  @_noLocks
  @inline(__always)
  func interpolated(at position: Double) -> Float {
    var i = Int(position)
    if Double(i) > position { i -= 1 }  // floor, also below 0
    let f = Float(position - Double(i))
    let y0 = storage[(i - 1) & mask], y1 = storage[i & mask]
    let y2 = storage[(i + 1) & mask], y3 = storage[(i + 2) & mask]
    let c1 = 0.5 * (y2 - y0)
    let c2 = y0 - 2.5 * y1 + 2 * y2 - 0.5 * y3
    let c3 = 0.5 * (y3 - y0) + 1.5 * (y1 - y2)
    return ((c3 * f + c2) * f + c1) * f + y1
  }
}
