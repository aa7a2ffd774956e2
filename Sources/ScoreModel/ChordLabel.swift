/// A chord label as chord recognizers report it: a chord, no chord (`N`) or unknown (`X`).
///
/// Prints, parses and encodes in JSON as the Harte label (`"N"`, `"X"`, `"G:7/3"`).
public enum ChordLabel: Sendable, Hashable, Codable, CustomStringConvertible, LosslessStringConvertible {
  /// Silence or sound without harmony: Harte `N`.
  case noChord
  /// Harmony that fits no label: Harte `X`.
  case unknown
  /// A chord.
  case chord(Chord)

  /// Parses a Harte label: `N`, `X`, `C`, `C:min7`, `G:7/3`, `C:maj(9)`, `C:min7(*b7)`, `C:(1,b3,5)`.
  ///
  /// Additions and omissions in parentheses modify the shorthand's intervals; the result takes the
  /// shorthand of a known type when the pitch-class set matches one (`C:(1,b3,5)` is `C:min`).
  ///
  /// - Parameter text: The label.
  /// - Throws: ``ScoreModelError/parse(text:offset:expected:)`` naming the character at fault.
  public init(harte text: String) throws(ScoreModelError) {
    if text == "N" {
      self = .noChord
      return
    }
    if text == "X" {
      self = .unknown
      return
    }
    let characters = Array(text)
    let (root, rootLength) = try NoteName.parsePrefix(Substring(text), whole: text)
    var index = rootLength
    var type = ChordType.major
    if index < characters.count, characters[index] == ":" {
      index += 1
      type = try ChordType.parseHarte(characters, at: &index, text: text)
    }
    var bass: Interval?
    if index < characters.count {
      guard characters[index] == "/" else {
        throw .parse(text: text, offset: index, expected: "\":\", \"/\" or the end of the label")
      }
      let degreeText = Substring(String(characters[(index + 1)...]))
      guard let degree = Interval(harteDegree: degreeText) else {
        throw .parse(text: text, offset: index + 1, expected: "a bass degree such as 3, b3, 5 or b7")
      }
      bass = degree
    }
    self = .chord(Chord(root, type, bass: bass))
  }

  /// Parses a Harte label, or returns `nil`.
  ///
  /// - Parameter description: The label.
  public init?(_ description: String) {
    do { try self.init(harte: description) } catch { return nil }
  }

  /// Decodes a label from its Harte form, such as `"N"` or `"A:min7"`.
  ///
  /// - Throws: `DecodingError.dataCorrupted` when the string is not a chord label.
  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    do { try self.init(harte: text) } catch {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: error.description))
    }
  }

  /// Encodes the label in its Harte form.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  /// The Harte label: `N`, `X`, or the chord's.
  public var description: String {
    switch self {
    case .noChord: "N"
    case .unknown: "X"
    case .chord(let chord): chord.harte
    }
  }
}
