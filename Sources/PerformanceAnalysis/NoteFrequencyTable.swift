import Foundation
import ScoreModel

/// Every MIDI note with its names, centre frequency and the boundaries of its pitch zones: the
/// table a practice app shows or exports, and the grader's pitch reference.
///
/// Zone boundaries come from ``Tolerances/Pitch`` in cents: correct within ±``correctCents``,
/// a bit flat or sharp to ±``veryCents``, very flat or sharp to ±``wrongNoteCents`` (beyond
/// that the nearest note is another one).
public struct NoteFrequencyTable: Sendable, Hashable, Codable {
  /// One note.
  public struct Entry: Sendable, Hashable, Codable {
    /// The sounding (concert) MIDI note.
    public var midi: Int
    /// The written name for the instrument (`D5` on a B♭ trumpet for a concert C5).
    public var writtenName: String
    /// The concert name.
    public var concertName: String
    /// The centre frequency, in Hz.
    public var frequencyHz: Double
    /// The correct zone, in Hz.
    public var correctHz: ClosedRange<Double>
    /// The zone up to very flat or sharp (beyond: another note), in Hz.
    public var sameNoteHz: ClosedRange<Double>
    /// The boundaries between a bit and very flat, and between a bit and very sharp, in Hz.
    public var aBitHz: ClosedRange<Double>
  }

  /// The entries, indexed by MIDI note 0...127.
  public var entries: [Entry]

  /// Builds the table.
  ///
  /// - Parameters:
  ///   - tolerances: The pitch zones and A4.
  ///   - transposeSemitones: Written minus sounding, in semitones (+2 for a B♭ trumpet).
  public init(tolerances: Tolerances.Pitch, transposeSemitones: Int = 0) {
    let tuning = Tuning(a4Hz: tolerances.a4Hz)
    entries = (0...127).map { midi in
      let centre = tuning.frequencyHz(midi: Double(midi))
      func at(_ cents: Double) -> Double { centre * pow(2, cents / 1200) }
      let written = MIDINote(rawValue: min(127, max(0, midi + transposeSemitones)))!
      return Entry(
        midi: midi, writtenName: SpelledNote(midi: written).description,
        concertName: SpelledNote(midi: MIDINote(rawValue: midi)!).description, frequencyHz: centre,
        correctHz: at(-tolerances.correctCents)...at(tolerances.correctCents),
        sameNoteHz: at(-tolerances.wrongNoteCents)...at(tolerances.wrongNoteCents),
        aBitHz: at(-tolerances.veryCents)...at(tolerances.veryCents))
    }
  }

  /// The entry of a MIDI note.
  public subscript(midi: Int) -> Entry { entries[min(127, max(0, midi))] }

  /// The nearest note to a frequency and the distance to it in cents, or `nil` for 0 Hz or a
  /// frequency outside MIDI's range.
  public func nearest(frequencyHz: Double) -> (entry: Entry, cents: Double)? {
    guard frequencyHz > 0, frequencyHz.isFinite else { return nil }
    let midi = 69 + 12 * log2(frequencyHz / entries[69].frequencyHz)
    let rounded = Int(midi.rounded())
    guard (0...127).contains(rounded) else { return nil }
    return (entries[rounded], (midi - Double(rounded)) * 100)
  }
}
