/// The original app's linking rule: each note, in score order, takes the unlinked sound that
/// starts nearest its expected start within a window.
///
/// Simple and local, but a sound played late enough to fall out of the window is both a missed
/// note and an extra sound, and a steady drift in tempo pushes every later note out of it.
public struct WindowLinker: ScoreLinker {
  /// The window on either side of the expected start, in seconds (the app's 200 ms).
  public var windowSeconds: Double

  /// Creates the linker.
  ///
  /// - Parameter windowSeconds: The half-width of the window, in seconds.
  public init(windowSeconds: Double = 0.2) {
    self.windowSeconds = windowSeconds
  }

  public func link(notes: [PerformanceNote], sounds: [PerformanceSound], latencySeconds: Double) -> [Int?] {
    var used = [Bool](repeating: false, count: sounds.count)
    var lastLinked = -1
    return notes.map { note in
      guard !note.isRest else { return nil }
      var best: Int?
      var bestDistance = windowSeconds
      // Only sounds after the last linked one, so that links keep time order.
      for j in (lastLinked + 1)..<max(lastLinked + 1, sounds.count) where !used[j] {
        let distance = abs(sounds[j].start - latencySeconds - note.expectedStart)
        if distance <= bestDistance {
          best = j
          bestDistance = distance
        }
      }
      if let best {
        used[best] = true
        lastLinked = best
      }
      return best
    }
  }
}
