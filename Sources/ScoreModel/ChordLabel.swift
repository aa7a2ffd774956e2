/// A chord label as chord recognizers report it: a chord, no chord (`N`) or unknown (`X`).
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
  /// shorthand of a known type when the interval set matches one (`C:(1,b3,5)` is `C:min`).
  ///
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
      let start = index
      while index < characters.count, characters[index] != "(", characters[index] != "/" { index += 1 }
      let shorthand = String(characters[start..<index])
      let hasList = index < characters.count && characters[index] == "("
      if shorthand.isEmpty && hasList {
        type = ChordType(intervals: [])
      } else if let named = ChordType(shorthand: shorthand), !shorthand.isEmpty {
        type = named
      } else {
        throw .parse(
          text: text, offset: start, expected: "a chord shorthand such as maj, min, 7, min7, hdim7, sus4")
      }
      if hasList {
        index += 1
        var intervals = Set(shorthand.isEmpty ? [] : type.intervals)
        while true {
          let itemStart = index
          while index < characters.count, characters[index] != ",", characters[index] != ")" { index += 1 }
          guard index < characters.count else {
            throw .parse(text: text, offset: index, expected: "\")\" closing the interval list")
          }
          var item = Substring(String(characters[itemStart..<index]))
          let omit = item.first == "*"
          if omit { item = item.dropFirst() }
          guard let interval = Interval(harteDegree: item) else {
            throw .parse(text: text, offset: itemStart, expected: "a degree such as 3, b3, #5, b7 or 9")
          }
          if omit { intervals.remove(interval) } else { intervals.insert(interval) }
          let separator = characters[index]
          index += 1
          if separator == ")" { break }
        }
        type = ChordType(intervals: Array(intervals))
      }
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

  /// Parses a Harte label, or `nil`.
  public init?(_ description: String) {
    do { try self.init(harte: description) } catch { return nil }
  }

  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    do { try self.init(harte: text) } catch {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: error.description))
    }
  }

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
