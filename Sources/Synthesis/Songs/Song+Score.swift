import ScoreModel

extension Song {
  /// The sounding notes of a score, timed through its tempo map.
  ///
  /// Rests are left out; each part plays on its own channel (in score order, skipping the
  /// percussion channel 9) with `program`. A grace note, which has no notated length, sounds
  /// for `graceSeconds` from its onset. A note's velocity is the score's dynamics where it has
  /// them, else `velocity`.
  ///
  /// - Parameters:
  ///   - score: The score, with repeats expanded or not as it was read.
  ///   - program: The General MIDI program every part plays with (0, piano, by default).
  ///   - velocity: The velocity of notes without dynamics, 1–127.
  ///   - graceSeconds: How long a grace note sounds.
  public init(_ score: Score, program: Int = 0, velocity: Int = 80, graceSeconds: Double = 0.06) {
    var channels: [String: Int] = [:]
    for part in score.parts where channels[part.id] == nil {
      let next = channels.count
      channels[part.id] = (next >= 9 ? next + 1 : next) % 16
    }
    let notes = score.notes.compactMap { note -> NoteEvent? in
      guard !note.isRest, let pitch = note.soundingPitch else { return nil }
      return NoteEvent(
        startSeconds: note.onsetSeconds,
        durationSeconds: note.isGrace ? graceSeconds : note.durationSeconds,
        pitch: Double(pitch.rawValue), velocity: min(127, max(1, note.velocity ?? velocity)),
        channel: channels[note.part] ?? 0, program: min(127, max(0, program)))
    }
    self.init(name: score.title, notes: notes)
  }
}
