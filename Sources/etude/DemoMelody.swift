import Foundation
import MIDIJSON

/// The built-in material of `etude demo`: a short melody and a simple additive synthesizer for it.
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
  /// Relative amplitudes of partials 1, 2, 3, ….
  var partials: [Double] = [1, 0.5, 0.33, 0.25, 0.2, 0.15]

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

  /// Renders the melody at `sampleRate` Hz, peak amplitude about 0.5.
  func render(sampleRate: Double) -> [Float] {
    let secondsPerBeat = 60 / tempoBPM
    let total = notes.reduce(0) { $0 + $1.beats } * secondsPerBeat + 0.25
    var out = [Float](repeating: 0, count: Int(total * sampleRate))
    let norm = 0.5 / partials.reduce(0, +)
    for (note, onset) in zip(notes, onsetsSeconds) {
      let f0 = 440 * pow(2, Double(note.midi - 69) / 12)
      let start = Int(onset * sampleRate)
      // Sound for all but the last 40 ms of the note, then silence.
      let length = Int((note.beats * secondsPerBeat - 0.04) * sampleRate)
      let attack = Int(0.01 * sampleRate)
      for i in 0..<length where start + i < out.count {
        let t = Double(i) / sampleRate
        let envelope =
          i < attack ? Double(i) / Double(attack) : exp(-3 * (t - 0.01)) * min(1, Double(length - i) / 200)
        var sample = 0.0
        for (k, amplitude) in partials.enumerated() {
          let f = f0 * Double(k + 1)
          if f < sampleRate / 2 { sample += amplitude * sin(2 * Double.pi * f * t) }
        }
        out[start + i] = Float(sample * norm * envelope)
      }
    }
    return out
  }
}
