import Foundation

/// Measures how much later than the score a take runs (the microphone's and the audio
/// system's latency, plus the student's habit), from the take itself.
///
/// The take is linked with no latency; the latency is the median offset of the notes linked to a
/// sound at their own pitch (within 60 cents). A student who plays every note late by the same
/// amount looks like latency: calibrate on a take played with a metronome, or give the latency.
public enum LatencyCalibration {
  /// The measured latency in seconds, or `nil` when fewer than three notes link at their pitch.
  ///
  /// - Parameters:
  ///   - notes: The notes, in score order.
  ///   - sounds: The sounds, on the audio's time line.
  ///   - linker: The linker to use.
  public static func estimate(
    notes: [PerformanceNote], sounds: [PerformanceSound], linker: some ScoreLinker = AlignmentLinker()
  ) -> Double? {
    let links = linker.link(notes: notes, sounds: sounds, latencySeconds: 0)
    var offsets: [Double] = []
    for (i, link) in links.enumerated() {
      guard let j = link, let midi = notes[i].soundingPitch?.rawValue, sounds[j].frequencyHz > 0 else { continue }
      let cents = 1200 * log2(sounds[j].frequencyHz / 440) + 6900 - Double(midi) * 100
      if abs(cents) <= 60 { offsets.append(sounds[j].start - notes[i].expectedStart) }
    }
    guard offsets.count >= 3 else { return nil }
    offsets.sort()
    return offsets[offsets.count / 2]
  }
}
