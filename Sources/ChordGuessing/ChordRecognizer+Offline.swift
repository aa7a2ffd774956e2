import ScoreModel

extension ChordRecognizer {
  /// Every change of a whole signal, as the live recognizer reports them (offline convenience;
  /// allocates, not for the audio thread). Resets the recognizer first and finishes the stream.
  ///
  /// - Parameter samples: Mono samples at ``sampleRate``.
  /// - Returns: The changes in time order; the first is at the first frame.
  public func changes(for samples: [Float]) -> [ChordChange] {
    reset()
    return runStream(
      samples, placeholder: ChordChange(time: 0, root: -1, typeIndex: -1, bassSemitones: 0, confidence: 0),
      maximumOutputs: maximumChanges(forFrames:), process: process(_:into:), finish: finish(into:))
  }

  /// The live recognizer's decisions over a whole signal, as segments covering it (offline
  /// convenience; allocates). Each change starts a segment at its time; the first segment
  /// starts at 0 and the last ends at the end of the signal.
  ///
  /// - Parameter samples: Mono samples at ``sampleRate``.
  /// - Returns: Segments covering the signal, in order.
  public func segments(for samples: [Float]) -> [ChordSegment] {
    let found = changes(for: samples)
    return segments(from: found, duration: Double(samples.count) / sampleRate)
  }

  /// Segments from changes: each change starts a segment at its time (the first at 0), which
  /// ends at the next change (the last at `duration`).
  ///
  /// - Parameters:
  ///   - changes: Changes from this recognizer, in time order.
  ///   - duration: The end of the stream, in seconds.
  /// - Returns: Segments covering `0...duration`.
  public func segments(from changes: [ChordChange], duration: Double) -> [ChordSegment] {
    var segments: [ChordSegment] = []
    for (i, change) in changes.enumerated() {
      let start = i == 0 ? 0 : max(0, min(duration, change.time))
      let end = i + 1 < changes.count ? max(start, min(duration, changes[i + 1].time)) : duration
      guard end > start else { continue }
      let label = label(for: change)
      if let last = segments.last, last.label == label {
        segments[segments.count - 1].end = end
      } else {
        segments.append(ChordSegment(start: start, end: end, label: label))
      }
    }
    return segments
  }
}
