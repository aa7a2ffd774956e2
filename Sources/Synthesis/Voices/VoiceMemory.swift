/// Fixed-size memory a voice owns (a delay line, its layers), allocated once when the voice is
/// made, behind a reference so that a voice stays a small value.
///
/// A voice copies its memory before writing when the memory is shared (after the voice itself
/// was copied), so copies never hear each other. The ``VoiceAllocator`` keeps its voices in place,
/// so on the audio path the memory is never shared and nothing is allocated: the benchmarks in
/// `Benchmarks/` count 0 mallocs per render.
final class VoiceMemory<Element>: @unchecked Sendable {
  // @unchecked: only the owning voice writes, and only after making the memory its own.
  /// The elements, `count` of them.
  let elements: UnsafeMutableBufferPointer<Element>

  /// Memory of `count` elements, each `value`.
  init(repeating value: Element, count: Int) {
    elements = .allocate(capacity: max(1, count))
    elements.initialize(repeating: value)
  }

  /// An independent copy of these elements.
  func copy() -> VoiceMemory {
    let copy = VoiceMemory(repeating: elements[0], count: elements.count)
    for i in elements.indices { copy.elements[i] = elements[i] }
    return copy
  }

  deinit {
    elements.deinitialize()
    elements.deallocate()
  }
}
