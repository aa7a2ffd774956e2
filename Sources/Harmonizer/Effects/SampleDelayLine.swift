import PitchDSP

/// A ring of the most recent samples, a power of two long, read at integer or fractional
/// delays (4-point, 3rd-order Hermite interpolation).
///
/// A plain view into an effect's `CopyOnWriteMemory`, so reading and writing it on the audio
/// path involves no reference counting.
struct SampleDelayLine: Sendable {
  nonisolated(unsafe) private(set) var storage: UnsafeMutablePointer<Float>
  /// `capacity − 1`.
  let mask: Int
  /// Where the next sample goes.
  private(set) var writeIndex = 0
  /// The offset of this line's storage within its memory.
  let offset: Int

  /// The capacity (a power of two) a line needs to delay up to `maximumDelay` samples with room
  /// for interpolation.
  static func capacity(forMaximumDelay maximumDelay: Int) -> Int {
    var capacity = 16
    while capacity < maximumDelay + 4 { capacity <<= 1 }
    return capacity
  }

  /// A view of `capacity` samples at `offset` in `memory` (a power of two; see
  /// ``capacity(forMaximumDelay:)``).
  init(memory: CopyOnWriteMemory<Float>, offset: Int, capacity: Int) {
    precondition(capacity.nonzeroBitCount == 1 && offset + capacity <= memory.elements.count)
    storage = memory.elements.baseAddress! + offset
    mask = capacity - 1
    self.offset = offset
  }

  /// The longest delay that can be read.
  var maximumDelay: Int {
    @_noLocks get { mask - 3 }
  }

  /// Points the view at the same place in another memory (after a copy-on-write copy).
  mutating func rebind(to memory: CopyOnWriteMemory<Float>) {
    storage = memory.elements.baseAddress! + offset
  }

  /// Appends a sample.
  @_noLocks
  @inline(__always)
  mutating func write(_ x: Float) {
    storage[writeIndex] = x
    writeIndex = (writeIndex + 1) & mask
  }

  /// The sample written `delay` samples before the next write (`delay` ≥ 1: 1 is the newest).
  @_noLocks
  @inline(__always)
  func read(_ delay: Int) -> Float {
    storage[(writeIndex - delay) & mask]
  }

  /// The signal `delay` samples before the next write, interpolated (`delay` ≥ 1; ≥ 2 gives
  /// four true neighbours).
  @_noLocks
  @inline(__always)
  func read(fractional delay: Float) -> Float {
    let whole = Int(delay)
    let f = delay - Float(whole)
    // Neighbours around the point: x0 is newer (smaller delay) than x1, x1 than x2...
    let base = writeIndex - whole
    let xm1 = storage[(base + 1) & mask]
    let x0 = storage[base & mask]
    let x1 = storage[(base - 1) & mask]
    let x2 = storage[(base - 2) & mask]
    // Hermite between x0 (f = 0) and x1 (f = 1).
    let c1 = 0.5 * (x1 - xm1)
    let c2 = xm1 - 2.5 * x0 + 2 * x1 - 0.5 * x2
    let c3 = 0.5 * (x2 - xm1) + 1.5 * (x0 - x1)
    return ((c3 * f + c2) * f + c1) * f + x0
  }

  /// Zeroes the samples.
  @_noLocks
  mutating func clear() {
    for i in 0...mask { storage[i] = 0 }
    writeIndex = 0
  }

  /// Takes another line's samples and position (the same capacity; a precondition).
  @_noLocks
  mutating func copyContents(of other: SampleDelayLine) {
    UnsafeMutableRawPointer(storage).copyMemory(
      from: other.storage, byteCount: (mask + 1) * MemoryLayout<Float>.stride)
    writeIndex = other.writeIndex
  }
}
