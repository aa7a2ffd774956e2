/// A MIDI note number, checked to lie in `0...127` (60 = middle C = C4, 69 = A4).
///
/// A `MIDINote` is a *pitch*: it says nothing about spelling. Use ``SpelledNote/init(midi:in:)``
/// to name it in a key. It encodes in JSON as a bare number (`60`); decoding rejects numbers
/// outside `0...127`.
public struct MIDINote: RawRepresentable, Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
  /// The note number, `0...127`.
  public let rawValue: Int

  /// The valid note numbers, `0...127`.
  public static let range = 0...127

  /// Creates a note, or `nil` outside `0...127`.
  ///
  /// - Parameter rawValue: A MIDI note number.
  public init?(rawValue: Int) {
    guard Self.range.contains(rawValue) else { return nil }
    self.rawValue = rawValue
  }

  /// Creates a note, or `nil` outside `0...127`.
  ///
  /// - Parameter number: A MIDI note number.
  public init?(_ number: Int) { self.init(rawValue: number) }

  /// Creates a note from a number that must be in range.
  ///
  /// - Parameter number: A MIDI note number.
  /// - Throws: ``ScoreModelError/outOfRange(what:value:range:)`` outside `0...127`.
  public init(validating number: Int) throws(ScoreModelError) {
    guard let note = MIDINote(rawValue: number) else {
      throw .outOfRange(what: "MIDI note", value: number, range: Self.range)
    }
    self = note
  }

  /// Decodes a note from a bare integer.
  ///
  /// - Throws: `DecodingError.dataCorrupted` outside `0...127`.
  public init(from decoder: any Decoder) throws {
    let number = try decoder.singleValueContainer().decode(Int.self)
    guard let note = MIDINote(rawValue: number) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "MIDI note \(number) is outside 0...127"))
    }
    self = note
  }

  /// Encodes the note as a bare integer.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  /// The pitch class (0 = C … 11 = B).
  public var pitchClass: PitchClass { PitchClass(rawValue) }

  /// The octave in scientific pitch notation (MIDI 60 is in octave 4; MIDI 0 in octave −1).
  public var octave: Int { rawValue / 12 - 1 }

  /// The note `semitones` higher (or lower, when negative), or `nil` when out of range.
  ///
  /// - Parameter semitones: The distance in semitones.
  /// - Returns: The transposed note, or `nil` outside `0...127`.
  public func transposed(by semitones: Int) -> MIDINote? { MIDINote(rawValue: rawValue + semitones) }

  /// The note `semitones` higher (or lower, when negative), which must be in range.
  ///
  /// - Parameter semitones: The distance in semitones.
  /// - Returns: The transposed note.
  /// - Throws: ``ScoreModelError/outOfRange(what:value:range:)`` when the result is outside `0...127`.
  public func transposed(validatingBy semitones: Int) throws(ScoreModelError) -> MIDINote {
    try MIDINote(validating: rawValue + semitones)
  }

  /// The number as text, such as `"60"`.
  public var description: String { String(rawValue) }

  /// Orders notes from low to high.
  public static func < (a: MIDINote, b: MIDINote) -> Bool { a.rawValue < b.rawValue }
}
