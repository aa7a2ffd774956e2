/// The text notation for guitar tabs, after the Sound Track seed: reading it into a ``Tab`` and
/// writing a ``Tab`` back.
///
/// The grammar, with examples, is in <doc:TabNotation>. In short: items are `("SF",D)` — string
/// digit `S`, fret digits `F`, duration `D` in quarter notes — separated by `|` and whitespace;
/// `"S:F"` (or `"S-F"`) writes any fret explicitly, `"10+21+32"` is a chord, `"r"` a rest,
/// `,ring` lets notes ring, `D` may be a fraction `1/3`, and `tempo=90` changes the tempo.
///
/// Columns in errors are 1-based and count characters (Unicode scalars) from the start of the
/// text, line breaks included.
public enum TabNotation {
  /// Parses tab text.
  ///
  /// - Parameters:
  ///   - text: The tab.
  ///   - tuning: The tuning the positions are checked against (default standard).
  /// - Returns: The tab.
  /// - Throws: ``SynthesisError/tabSyntax(column:expected:found:)`` where the text breaks the
  ///   grammar; ``SynthesisError/invalidTab(column:reason:)`` for a string or fret the tuning
  ///   lacks, a duration that is not positive (or above 1024 beats) or a tempo outside
  ///   `1...1000`.
  /// - Complexity: O(n) in the length of the text.
  public static func parse(_ text: String, tuning: GuitarTuning = .standard) throws(SynthesisError) -> Tab {
    var parser = Parser(text: text, tuning: tuning)
    return Tab(events: try parser.parseTab(), tuning: tuning)
  }

  /// Writes a tab in the notation: one item per `|`-separated entry, frets above 9 in the
  /// explicit `"S:F"` form, durations as decimals. Parsing the result gives the same events
  /// (durations to within decimal printing).
  ///
  /// - Parameter tab: The tab.
  /// - Returns: The text.
  public static func format(_ tab: Tab) -> String {
    tab.events.map { event -> String in
      switch event {
      case .tempo(let bpm):
        return "tempo=\(number(bpm))"
      case .rest(let beats):
        return "(\"r\",\(number(beats)))"
      case .notes(let positions, let beats, let letRing):
        let sound = positions.map { $0.fret > 9 ? "\($0.string):\($0.fret)" : "\($0.string)\($0.fret)" }
          .joined(separator: "+")
        return "(\"\(sound)\",\(number(beats))\(letRing ? ",ring" : ""))"
      }
    }.joined(separator: "|")
  }

  private static func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }

  /// A recursive-descent reader over the text's Unicode scalars.
  private struct Parser {
    let scalars: [Unicode.Scalar]
    let tuning: GuitarTuning
    var index = 0

    init(text: String, tuning: GuitarTuning) {
      scalars = Array(text.unicodeScalars)
      self.tuning = tuning
    }

    var column: Int { index + 1 }
    var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    var found: String {
      guard let c = current else { return "end of text" }
      switch c {
      case "\n": return "line break"
      case "\t": return "tab character"
      case "\"": return "a quote"
      default: return "\"\(Character(c))\""
      }
    }

    func syntax(_ expected: String) -> SynthesisError {
      .tabSyntax(column: column, expected: expected, found: found)
    }

    mutating func skipWhitespace() {
      while let c = current, c == " " || c == "\t" || c == "\n" || c == "\r" { index += 1 }
    }

    mutating func expect(_ scalar: Unicode.Scalar, _ description: String) throws(SynthesisError) {
      guard current == scalar else { throw syntax(description) }
      index += 1
    }

    static func isQuote(_ c: Unicode.Scalar?) -> Bool { c == "\"" || c == "\u{201C}" || c == "\u{201D}" }
    static func isDigit(_ c: Unicode.Scalar?) -> Bool { c.map { ("0"..."9").contains($0) } ?? false }

    mutating func parseTab() throws(SynthesisError) -> [TabEvent] {
      var events: [TabEvent] = []
      while let c = current {
        switch c {
        case " ", "\t", "\n", "\r", "|":
          index += 1
        case "(":
          events.append(try parseNotes())
        case "t", "T":
          events.append(try parseTempo())
        default:
          throw syntax("\"(\" to start an item, \"tempo=\" or \"|\"")
        }
      }
      return events
    }

    mutating func parseTempo() throws(SynthesisError) -> TabEvent {
      let start = column
      for letter in "tempo".unicodeScalars {
        guard let c = current, c.properties.lowercaseMapping == String(letter) else { throw syntax("\"tempo=\"") }
        index += 1
      }
      skipWhitespace()
      try expect("=", "\"=\" after \"tempo\"")
      skipWhitespace()
      let bpm = try parseNumber("a tempo in beats per minute")
      guard bpm.isFinite, (1...1000).contains(bpm) else {
        throw .invalidTab(column: start, reason: "tempo \(bpm) is outside 1...1000 beats per minute")
      }
      return .tempo(beatsPerMinute: bpm)
    }

    mutating func parseNotes() throws(SynthesisError) -> TabEvent {
      try expect("(", "\"(\"")
      skipWhitespace()
      guard Self.isQuote(current) else { throw syntax("a quoted string and fret such as \"13\"") }
      index += 1
      skipWhitespace()
      var positions: [TabPosition] = []
      var isRest = false
      if current == "r" || current == "R" {
        isRest = true
        index += 1
      } else {
        positions.append(try parsePosition())
        skipWhitespace()
        while current == "+" {
          index += 1
          skipWhitespace()
          positions.append(try parsePosition())
          skipWhitespace()
        }
      }
      skipWhitespace()
      guard Self.isQuote(current) else {
        throw syntax(isRest ? "a closing quote after \"r\"" : "\"+\" and another position, or a closing quote")
      }
      index += 1
      skipWhitespace()
      try expect(",", "\",\" and a duration")
      skipWhitespace()
      let durationColumn = column
      let beats = try parseDuration()
      guard beats.isFinite, beats > 0, beats <= 1024 else {
        throw .invalidTab(column: durationColumn, reason: "duration \(beats) is not in 0 < beats ≤ 1024")
      }
      skipWhitespace()
      var letRing = false
      if current == "," {
        index += 1
        skipWhitespace()
        for letter in "ring".unicodeScalars {
          guard current == letter else { throw syntax("\"ring\"") }
          index += 1
        }
        letRing = true
        skipWhitespace()
      }
      try expect(")", letRing ? "\")\"" : "\")\" or \",ring\"")
      if isRest { return .rest(beats: beats) }
      // A chord plays each string once.
      var strings = Set<Int>()
      for position in positions where !strings.insert(position.string).inserted {
        throw .invalidTab(column: durationColumn, reason: "string \(position.string) appears twice in one chord")
      }
      return .notes(positions, beats: beats, letRing: letRing)
    }

    mutating func parsePosition() throws(SynthesisError) -> TabPosition {
      let start = column
      guard let s = current, Self.isDigit(s) else { throw syntax("a string digit") }
      index += 1
      let string = Int(s.value - 48)
      if current == ":" || current == "-" {
        index += 1
      }
      guard Self.isDigit(current) else { throw syntax("a fret digit") }
      var fret = 0
      while let c = current, Self.isDigit(c) {
        fret = min(1_000_000, fret * 10 + Int(c.value - 48))
        index += 1
      }
      guard (1...max(1, tuning.stringCount)).contains(string), string <= tuning.stringCount else {
        throw .invalidTab(column: start, reason: "there is no string \(string) (strings are 1...\(tuning.stringCount))")
      }
      guard (0...tuning.maximumFret).contains(fret) else {
        throw .invalidTab(column: start, reason: "fret \(fret) is above the highest fret, \(tuning.maximumFret)")
      }
      return TabPosition(string: string, fret: fret)
    }

    mutating func parseDuration() throws(SynthesisError) -> Double {
      let numerator = try parseNumber("a duration in quarter notes, such as 1, 0.5 or 1/3")
      skipWhitespace()
      guard current == "/" else { return numerator }
      index += 1
      skipWhitespace()
      let denominator = try parseNumber("a denominator")
      return numerator / denominator
    }

    mutating func parseNumber(_ expected: String) throws(SynthesisError) -> Double {
      var text = ""
      while let c = current, Self.isDigit(c) {
        text.unicodeScalars.append(c)
        index += 1
      }
      if current == "." {
        text += "."
        index += 1
        guard Self.isDigit(current) else { throw syntax("a digit after the decimal point") }
        while let c = current, Self.isDigit(c) {
          text.unicodeScalars.append(c)
          index += 1
        }
      }
      guard !text.isEmpty, let value = Double(text) else { throw syntax(expected) }
      return value
    }
  }
}
