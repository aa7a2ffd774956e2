import Foundation
import MIDIJSON

/// The first built-in material of `etude demo`: a short melody, rendered by a ``HarmonicVoice``.
///
/// Each note is a harmonic tone (partials 1…6 at falling amplitudes) under an attack–decay
/// envelope with a short silent gap before the next note, so the melody sounds like a plucked or
/// struck instrument rather than a pure sine.
struct DemoMelody {
  /// One note of the melody.
  struct Note {
    /// MIDI note number.
    var midi: Int
    /// Length in beats.
    var beats: Double
  }

  /// The first phrase of Beethoven's "Ode to Joy" (public domain), in C major.
  static let odeToJoy: [Note] = [
    (64, 1), (64, 1), (65, 1), (67, 1), (67, 1), (65, 1), (64, 1), (62, 1),
    (60, 1), (60, 1), (62, 1), (64, 1), (64, 1.5), (62, 0.5), (62, 2),
  ].map { Note(midi: $0.0, beats: $0.1) }

  var notes: [Note] = DemoMelody.odeToJoy
  /// Tempo in beats per minute.
  var tempoBPM: Double = 120

  /// The seconds each note starts at, and the total length.
  var onsetsSeconds: [Double] {
    var t = 0.0
    return notes.map { note in
      defer { t += note.beats * 60 / tempoBPM }
      return t
    }
  }

  /// The melody as a MIDI JSON composition, in beats.
  var composition: Composition {
    var beat = 0.0
    return Composition(
      name: "Ode to Joy", tempo: tempoBPM,
      events: notes.map { note in
        defer { beat += note.beats }
        return .note(time: beat, number: note.midi, velocity: 100, duration: note.beats)
      })
  }

  /// The voice the melody is rendered with: six partials at falling amplitudes under a 10 ms
  /// attack and a decay, like a plucked or struck string.
  var voice = HarmonicVoice(
    partials: [1, 0.5, 0.33, 0.25, 0.2, 0.15], attackSeconds: 0.01, decayPerSecond: 3, releaseSeconds: 0.005,
    peak: 0.5)

  /// Renders the melody at `sampleRate` Hz, peak amplitude about 0.5.
  func render(sampleRate: Double) -> [Float] {
    let secondsPerBeat = 60 / tempoBPM
    let total = notes.reduce(0) { $0 + $1.beats } * secondsPerBeat + 0.25
    var out = [Float](repeating: 0, count: Int(total * sampleRate))
    for (note, onset) in zip(notes, onsetsSeconds) {
      // Sound for all but the last 40 ms of the note, then silence.
      let tone = HarmonicVoice.Note(
        frequencyHz: 440 * pow(2, Double(note.midi - 69) / 12), seconds: note.beats * secondsPerBeat - 0.04)
      voice.add([tone], at: onset, to: &out, sampleRate: sampleRate)
    }
    return out
  }
}
