import Foundation
import PitchDSP

/// A take linked to its score: each note's sound (or none: missed), the sounds no note claimed
/// (extra), and the local tempo at each note.
///
/// Sound times stay on the audio's time line; ``onset(ofSound:)`` and ``offset(ofSound:)`` give
/// them on the score's, less the latency.
public struct PerformanceAlignment: Sendable, Hashable {
  /// The notes, in score order (rests included).
  public var notes: [PerformanceNote]
  /// The sounds, in time order, on the audio's time line.
  public var sounds: [PerformanceSound]
  /// How much later than the score the audio runs, in seconds.
  public var latencySeconds: Double
  /// For each note, the index of its sound, or `nil` (missed, or a rest).
  public var soundIndices: [Int?]
  /// The indices of the sounds no note claimed, in time order.
  public var extraSoundIndices: [Int]
  /// For each note, the local offset of the student's tempo around it: how far its linked
  /// neighbours ran from the score, in seconds (see ``TempoTrend``; 0 for rests).
  public var localOffsets: [Double]

  /// Links a take to its score.
  ///
  /// - Parameters:
  ///   - notes: The notes, in score order.
  ///   - sounds: The sounds, in time order, on the audio's time line.
  ///   - latencySeconds: The audio's delay behind the score, in seconds.
  ///   - linker: The linking strategy (default ``AlignmentLinker``).
  ///   - trend: The local tempo fit.
  public init(
    notes: [PerformanceNote], sounds: [PerformanceSound], latencySeconds: Double = 0,
    linker: some ScoreLinker = AlignmentLinker(), trend: TempoTrend = TempoTrend()
  ) {
    self.init(
      notes: notes, sounds: sounds, latencySeconds: latencySeconds,
      soundIndices: linker.link(notes: notes, sounds: sounds, latencySeconds: latencySeconds), trend: trend)
  }

  /// An alignment from links found elsewhere (a live follower, an app's own linker).
  ///
  /// - Parameters:
  ///   - notes: The notes, in score order.
  ///   - sounds: The sounds, in time order.
  ///   - latencySeconds: The audio's delay behind the score, in seconds.
  ///   - soundIndices: For each note, its sound's index or `nil`.
  ///   - trend: The local tempo fit.
  public init(
    notes: [PerformanceNote], sounds: [PerformanceSound], latencySeconds: Double, soundIndices: [Int?],
    trend: TempoTrend = TempoTrend()
  ) {
    precondition(soundIndices.count == notes.count, "one link per note")
    self.notes = notes
    self.sounds = sounds
    self.latencySeconds = latencySeconds
    self.soundIndices = soundIndices
    let claimed = Set(soundIndices.compactMap { $0 })
    extraSoundIndices = sounds.indices.filter { !claimed.contains($0) }
    let pitched = notes.indices.filter { !notes[$0].isRest }
    let offsets = pitched.map { i in
      soundIndices[i].map { sounds[$0].start - latencySeconds - notes[i].expectedStart }
    }
    let local = trend.localOffsets(times: pitched.map { notes[$0].expectedStart }, offsets: offsets)
    var all = [Double](repeating: 0, count: notes.count)
    for (k, i) in pitched.enumerated() { all[i] = local[k] }
    localOffsets = all
  }

  /// A sound's onset (``PerformanceSound/onset``) on the score's time line.
  public func onset(ofSound index: Int) -> Double { sounds[index].onset - latencySeconds }

  /// A sound's end on the score's time line.
  public func offset(ofSound index: Int) -> Double { sounds[index].end - latencySeconds }

  /// The sound linked to a note, if any.
  public func sound(forNote index: Int) -> PerformanceSound? { soundIndices[index].map { sounds[$0] } }

  /// How much of a note the pitch track heard: the share of its frames over the note's first
  /// 300 ms (at least 60 ms), from 30 ms after it was due on the local tempo, at `frequencyHz`
  /// or an octave above or below it, within 60 cents. For a missed note, a high share says it
  /// may have been played with no attack of its own.
  ///
  /// - Parameters:
  ///   - index: The note.
  ///   - pitchTrack: The take's pitch track, in time order, on the audio's time line.
  ///   - frequencyHz: The note's sounding frequency.
  /// - Returns: The share, 0...1; 0 when no frame lies in the span.
  public func heardShare(ofNote index: Int, in pitchTrack: [PitchEstimate], frequencyHz: Double) -> Double {
    let note = notes[index]
    let due = note.expectedStart + localOffsets[index] + latencySeconds
    let from = due + 0.03
    let to = due + max(0.06, min(note.expectedDuration, 0.3))
    var frames = 0
    var heard = 0
    var i = pitchTrack.partitioningIndex { $0.time >= from }
    while i < pitchTrack.count, pitchTrack[i].time <= to {
      let frequency = pitchTrack[i].frequencyHz
      i += 1
      frames += 1
      guard frequency > 0 else { continue }
      let cents = 1200 * log2(frequency / frequencyHz)
      let octaves = (cents / 1200).rounded()
      if abs(octaves) <= 1, abs(cents - 1200 * octaves) <= 60 { heard += 1 }
    }
    return frames > 0 ? Double(heard) / Double(frames) : 0
  }
}
