/// Sample memory an effect allocates once, when it is made, and shares with no one: the owner
/// of the raw storage that ``SampleDelayLine`` views point into.
///
/// Effects hold one as a reference to copy-on-write it: a copied effect gets its own memory the
/// first time it is processed or changed, so effects behave as values.
final class EffectMemory: @unchecked Sendable {
  // @unchecked: reached only through an effect, which copies it before writing whenever another
  // effect value shares it, so no two owners ever write it.
  let base: UnsafeMutablePointer<Float>
  let count: Int

  /// Allocates `count` zeroed samples.
  init(count: Int) {
    self.count = max(1, count)
    base = .allocate(capacity: self.count)
    base.initialize(repeating: 0, count: self.count)
  }

  /// A new memory holding the same samples.
  func copy() -> EffectMemory {
    let copy = EffectMemory(count: count)
    copy.base.update(from: base, count: count)
    return copy
  }

  deinit {
    base.deallocate()
  }
}
