/// Fixed-size memory a DSP value owns (a delay line, a voice's layers), allocated once when the
/// value is made and kept behind a reference so that the value stays small and cheap to copy.
///
/// The owner copies it before writing whenever it is shared (`isKnownUniquelyReferenced`, then
/// ``copy()``), so copies of the owning value never hear each other and the owner behaves as a
/// value. An owner that stays in place (a voice in its allocator, an effect in its rack) never
/// shares it, so its audio path allocates nothing: the benchmarks in `Benchmarks/` count 0
/// mallocs per render. Used by the Synthesis voices and the Harmonizer's effects.
package final class CopyOnWriteMemory<Element>: @unchecked Sendable {
  // @unchecked: reached only through its owner, which copies it before writing whenever another
  // value shares it, so no two owners ever write it.
  /// The elements, at least one.
  package let elements: UnsafeMutableBufferPointer<Element>

  /// Memory of `count` elements (at least one), each `value`.
  package init(repeating value: Element, count: Int) {
    elements = .allocate(capacity: max(1, count))
    elements.initialize(repeating: value)
  }

  /// An independent copy of these elements.
  package func copy() -> CopyOnWriteMemory {
    let copy = CopyOnWriteMemory(repeating: elements[0], count: elements.count)
    _ = copy.elements.update(fromContentsOf: elements)
    return copy
  }

  deinit {
    elements.deinitialize()
    elements.deallocate()
  }
}
