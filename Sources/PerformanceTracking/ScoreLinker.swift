/// Links the notes of a score to the sounds of a take: which sound, if any, is the student's
/// attempt at each note.
///
/// This is a seam: ``AlignmentLinker`` (the default: an order-preserving alignment that
/// tolerates tempo drift) and ``WindowLinker`` (the original app's rule) are two strategies; a
/// researcher can add another and hand it to ``PerformanceAlignment/init(notes:sounds:latencySeconds:linker:)``.
public protocol ScoreLinker: Sendable {
  /// The sound linked to each note.
  ///
  /// - Parameters:
  ///   - notes: The notes, in score order; rests are never linked.
  ///   - sounds: The sounds, in time order, on the audio's time line.
  ///   - latencySeconds: How much later than the score the audio runs (a sound at audio time
  ///     `t` was played at score time `t − latencySeconds`).
  /// - Returns: For each note, the index of its sound in `sounds`, or `nil` (missed, or a
  ///   rest). No sound is linked to two notes, and links keep the order of time.
  func link(notes: [PerformanceNote], sounds: [PerformanceSound], latencySeconds: Double) -> [Int?]
}
