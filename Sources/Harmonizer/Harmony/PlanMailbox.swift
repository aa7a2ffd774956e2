import Synchronization

/// Hands ``HarmonyPlan``s from a control thread to the audio thread without locks: a
/// single-producer, single-consumer triple buffer.
///
/// The writer fills the slot no one reads and publishes it with one atomic exchange; the reader
/// takes the newest published slot with another, and never waits. A plan posted while the audio
/// thread has not yet taken the previous one replaces it (only the newest counts).
final class PlanMailbox: @unchecked Sendable {
  // @unchecked: each slot is written by one side at a time, as the atomic state decides.
  private let slots: UnsafeMutablePointer<HarmonyPlan>
  /// The slot that holds the newest published plan, and bit 2 set while it is unread.
  private let shared = Atomic<Int>(0)
  /// The writer's own slot.
  private var writing = 1
  /// The reader's own slot.
  private var reading = 2

  init(_ plan: HarmonyPlan) {
    slots = .allocate(capacity: 3)
    slots.initialize(repeating: plan, count: 3)
  }

  deinit {
    slots.deinitialize(count: 3)
    slots.deallocate()
  }

  /// Publishes `plan` (writer side; one writer thread at a time).
  func post(_ plan: HarmonyPlan) {
    slots[writing] = plan
    let previous = shared.exchange(writing | 4, ordering: .acquiringAndReleasing)
    writing = previous & 3
  }

  /// The newest plan if one was published since the last call (reader side, the audio thread).
  @_noLocks
  func take() -> HarmonyPlan? {
    guard shared.load(ordering: .relaxed) & 4 != 0 else { return nil }
    let previous = shared.exchange(reading, ordering: .acquiringAndReleasing)
    reading = previous & 3
    return slots[reading]
  }
}
