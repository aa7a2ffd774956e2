/// The rack's built-in effects of one type, in memory allocated when the rack is built: for each
/// one a primary instance (the current order runs it) and a shadow (the previous order runs it
/// while the two are crossfaded). The audio path reaches them through ``primary`` and
/// ``shadow`` on concrete types, which the compiler can check for `@_noLocks`.
struct EffectBank<E: RackableEffect>: @unchecked Sendable {
  // @unchecked: the instances are touched only by the rack's audio thread (and by its init and
  // deinit), per the rack's threading contract.
  let primary: UnsafeMutablePointer<E>
  let shadow: UnsafeMutablePointer<E>
  let count: Int

  /// Takes `effects`, each given memory of its own, and a shadow of each with separate memory.
  init(_ effects: [E]) {
    count = effects.count
    primary = .allocate(capacity: max(1, count))
    shadow = .allocate(capacity: max(1, count))
    for (i, effect) in effects.enumerated() {
      var own = effect
      own.makeUnique()
      var twin = effect
      twin.makeUnique()
      (primary + i).initialize(to: own)
      (shadow + i).initialize(to: twin)
    }
  }

  /// Frees the instances (once, from the rack's deinit).
  func deallocate() {
    primary.deinitialize(count: count)
    shadow.deinitialize(count: count)
    primary.deallocate()
    shadow.deallocate()
  }
}
