import Foundation

/// Where one harmony voice sings relative to the live voice.
///
/// Text form (JSON and the CLI): `+4` or `-12` (semitones), `3rd`, `5th`, `-3rd`, `8ve`… or
/// `d3`, `d-3` (diatonic interval numbers in the key), `c1`, `c-1` (chord tones), `n60` or a
/// note name such as `n:E4` (a fixed note).
public enum HarmonyInterval: Sendable, Hashable, Codable, CustomStringConvertible, LosslessStringConvertible {
  /// A fixed shift in semitones (the voice follows the singer's intonation exactly).
  case semitones(Double)
  /// A diatonic interval in the key, by its number: 3 is a third above, 5 a fifth, 8 an octave,
  /// −3 a third below (1 is the unison). The sung pitch is placed on the nearest scale degree and
  /// the voice is shifted by the scale's semitones from there, so a third above E in C major is a
  /// minor third (G) and above C a major third (E); the voice keeps the singer's intonation.
  case diatonic(Int)
  /// The `n`-th tone of the chord above the sung pitch (at least a semitone above), or below for
  /// negative `n`; the voice is tuned to the chord tone exactly.
  case chordTone(Int)
  /// A fixed MIDI pitch, whatever is sung (what the keyboard and the sequencer use).
  case note(Double)

  /// The interval written as text (see the type's documentation).
  public var description: String {
    switch self {
    case .semitones(let s):
      let text = s == s.rounded() ? String(Int(s)) : String(s)
      return s >= 0 ? "+" + text : text
    case .diatonic(let n): return "d\(n)"
    case .chordTone(let n): return "c\(n)"
    case .note(let p): return p == p.rounded() ? "n\(Int(p))" : "n\(p)"
    }
  }

  /// Reads the text form; `nil` when it is none of them.
  public init?(_ text: String) {
    let t = text.trimmingCharacters(in: .whitespaces).lowercased()
    let ordinals = [
      "unison": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5, "6th": 6, "7th": 7, "8ve": 8, "octave": 8,
    ]
    if let n = ordinals[t] {
      self = .diatonic(n)
      return
    }
    if t.hasPrefix("-"), let n = ordinals[String(t.dropFirst())] {
      self = .diatonic(-n)
      return
    }
    if t.hasPrefix("+") || (t.hasPrefix("-") && Double(t.dropFirst()) != nil) {
      guard let s = Double(t.hasPrefix("+") ? String(t.dropFirst()) : t), s.isFinite else { return nil }
      self = .semitones(s)
      return
    }
    if t.hasPrefix("d"), let n = Int(t.dropFirst()), n != 0 {
      self = .diatonic(n)
      return
    }
    if t.hasPrefix("c"), let n = Int(t.dropFirst()), n != 0 {
      self = .chordTone(n)
      return
    }
    if t.hasPrefix("n"), let p = Double(t.dropFirst()), p.isFinite {
      self = .note(p)
      return
    }
    return nil
  }

  /// Decodes the text form.
  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    guard let value = HarmonyInterval(text) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "not a harmony interval: \(text)"))
    }
    self = value
  }

  /// Encodes the text form.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
