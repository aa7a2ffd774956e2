/// A small XML document tree for MusicXML: elements with attributes, text and their line
/// numbers, parsed by a strict, self-contained reader.
///
/// The reader takes UTF-8 (a UTF-16 file with a byte-order mark is transcoded first) and handles
/// the XML that music notation programs write: the declaration, a DOCTYPE (skipped, never
/// fetched: no external entity is ever resolved), comments, processing instructions, CDATA, the
/// five predefined entities and character references. Anything else malformed is a
/// ``ScoreModelError/invalidXML(line:column:reason:)``. Nesting is limited to
/// ``maximumDepth`` levels so that no input can exhaust the stack.
struct XMLTree {
  /// One element.
  struct Element {
    var name: String
    var attributes: [(name: String, value: String)] = []
    var children: [Element] = []
    /// The element's own text (text directly inside it, concatenated, not trimmed; whitespace
    /// only between child elements is dropped).
    var text = ""
    /// The 1-based line of its start tag.
    var line: Int

    /// The value of an attribute.
    subscript(attribute name: String) -> String? {
      attributes.first { $0.name == name }?.value
    }

    /// The first child named `name`.
    func child(_ name: String) -> Element? { children.first { $0.name == name } }

    /// Every child named `name`.
    func children(_ name: String) -> [Element] { children.filter { $0.name == name } }

    /// The trimmed text of the first child named `name`.
    func text(of name: String) -> String? {
      child(name).map { $0.text.trimmingXMLWhitespace() }
    }
  }

  /// The deepest nesting accepted.
  static let maximumDepth = 256

  /// The root element.
  let root: Element

  /// Parses a document.
  ///
  /// - Throws: ``ScoreModelError/invalidXML(line:column:reason:)``.
  init(bytes input: [UInt8]) throws(ScoreModelError) {
    var parser = XMLTreeParser(bytes: try Self.utf8(input))
    root = try parser.document()
  }

  /// The bytes as UTF-8: UTF-16 with a byte-order mark is transcoded, a UTF-8 mark dropped;
  /// anything that is not valid UTF-8 (or UTF-16) is an error at its line and column.
  private static func utf8(_ bytes: [UInt8]) throws(ScoreModelError) -> [UInt8] {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      let body = Array(bytes.dropFirst(3))
      try validateUTF8(body)
      return body
    }
    let littleEndian = bytes.starts(with: [0xFF, 0xFE])
    guard littleEndian || bytes.starts(with: [0xFE, 0xFF]) else {
      try validateUTF8(bytes)
      return bytes
    }
    return try transcodeUTF16(bytes, littleEndian: littleEndian)
  }

  /// Throws at the first byte that does not continue a well-formed UTF-8 sequence (overlong
  /// forms, surrogates and code points past U+10FFFF included).
  private static func validateUTF8(_ bytes: [UInt8]) throws(ScoreModelError) {
    let count = bytes.count
    var i = 0
    while i < count {
      let lead = bytes[i]
      if lead < 0x80 {
        i += 1
        continue
      }
      var length = 0
      var lower: UInt8 = 0x80
      var upper: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0: length = 3; lower = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED: length = 3; upper = 0x9F
      case 0xF0: length = 4; lower = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4: length = 4; upper = 0x8F
      default: throw invalidText(bytes, at: i, "text that is not valid UTF-8")
      }
      guard i + length <= count else { throw invalidText(bytes, at: i, "text that is not valid UTF-8") }
      let second = bytes[i + 1]
      guard second >= lower, second <= upper else { throw invalidText(bytes, at: i, "text that is not valid UTF-8") }
      for k in 2..<max(2, length) where bytes[i + k] & 0xC0 != 0x80 {
        throw invalidText(bytes, at: i, "text that is not valid UTF-8")
      }
      i += length
    }
  }

  /// UTF-16 (after its byte-order mark) as UTF-8; an unpaired surrogate is an error.
  ///
  /// - Complexity: O(n), one pass into a buffer sized for the worst case (3 bytes of UTF-8 for
  ///   each 2 bytes of UTF-16).
  private static func transcodeUTF16(_ bytes: [UInt8], littleEndian: Bool) throws(ScoreModelError) -> [UInt8] {
    var unpairedAtLine: Int?
    let capacity = bytes.count / 2 * 3 + 4
    let out = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, written in
      bytes.withUnsafeBufferPointer { input in
        var i = 2
        var o = 0
        var lineCount = 1
        func unit(_ at: Int) -> UInt32 {
          let a = UInt32(input[at])
          let b = UInt32(input[at + 1])
          return littleEndian ? a | b << 8 : a << 8 | b
        }
        while i + 1 < input.count {
          var scalar = unit(i)
          i += 2
          if scalar < 0x80 {
            if scalar == 0x0A { lineCount += 1 }
            buffer[o] = UInt8(truncatingIfNeeded: scalar)
            o += 1
            continue
          }
          if scalar >= 0xD800, scalar <= 0xDFFF {
            guard scalar <= 0xDBFF, i + 1 < input.count else {
              unpairedAtLine = lineCount
              break
            }
            let low = unit(i)
            guard low >= 0xDC00, low <= 0xDFFF else {
              unpairedAtLine = lineCount
              break
            }
            i += 2
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          }
          switch scalar {
          case 0..<0x800:
            buffer[o] = UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6)
            buffer[o + 1] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            o += 2
          case 0x800..<0x10000:
            buffer[o] = UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12)
            buffer[o + 1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
            buffer[o + 2] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            o += 3
          default:
            // A surrogate pair (4 bytes of UTF-16) makes 4 bytes of UTF-8.
            buffer[o] = UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18)
            buffer[o + 1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F)
            buffer[o + 2] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
            buffer[o + 3] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            o += 4
          }
        }
        written = o
      }
    }
    if let line = unpairedAtLine {
      throw .invalidXML(line: line, column: 1, reason: "an unpaired UTF-16 surrogate")
    }
    return out
  }

  /// An error at a byte offset, with its line and column counted from the start.
  static func invalidText(_ bytes: [UInt8], at offset: Int, _ reason: String) -> ScoreModelError {
    var line = 1
    var lineStart = 0
    for i in 0..<min(offset, bytes.count) where bytes[i] == 0x0A {
      line += 1
      lineStart = i + 1
    }
    return .invalidXML(line: line, column: offset - lineStart + 1, reason: reason)
  }
}

extension String {
  /// The string without leading and trailing XML whitespace (space, tab, CR, LF).
  func trimmingXMLWhitespace() -> String {
    // Most values ("4", "quarter") have nothing to trim.
    let utf8 = self.utf8
    guard let head = utf8.first, let tail = utf8.last else { return self }
    func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
    if !isSpace(head), !isSpace(tail) { return self }
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !$0.isXMLWhitespace }) else { return "" }
    let last = scalars.lastIndex(where: { !$0.isXMLWhitespace })!
    return String(scalars[first...last])
  }
}

extension Unicode.Scalar {
  var isXMLWhitespace: Bool { self == " " || self == "\t" || self == "\n" || self == "\r" }
}

/// The recursive-descent reader behind ``XMLTree``.
private struct XMLTreeParser {
  /// The document, valid UTF-8.
  let bytes: [UInt8]
  var index = 0
  /// Lines are counted lazily: `countedLine` is the line at byte `countedUpTo`.
  var countedUpTo = 0
  var countedLine = 1

  init(bytes: [UInt8]) { self.bytes = bytes }

  /// The 1-based line of the current byte.
  mutating func line() -> Int {
    var i = countedUpTo
    while i < index {
      if bytes[i] == 0x0A { countedLine += 1 }
      i += 1
    }
    countedUpTo = i
    return countedLine
  }

  func error(_ reason: String) -> ScoreModelError { error(reason, at: index) }

  /// An error at a byte offset (line and column counted from the start).
  func error(_ reason: String, at offset: Int) -> ScoreModelError {
    XMLTree.invalidText(bytes, at: offset, reason)
  }

  var atEnd: Bool { index >= bytes.count }

  func peek(_ offset: Int = 0) -> UInt8? {
    index + offset < bytes.count ? bytes[index + offset] : nil
  }

  func looking(at literal: StaticString) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard bytes.count - index >= count else { return false }
    return literal.withUTF8Buffer { buffer in
      for i in 0..<count where bytes[index + i] != buffer[i] { return false }
      return true
    }
  }

  mutating func advance(_ count: Int = 1) {
    index = min(index + count, bytes.count)
  }

  static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

  mutating func skipWhitespace() {
    while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
  }

  /// Skips past `terminator`, or throws `reason` at the end of the text.
  mutating func skip(past terminator: StaticString, _ reason: String) throws(ScoreModelError) {
    while !atEnd {
      if looking(at: terminator) {
        advance(terminator.utf8CodeUnitCount)
        return
      }
      advance()
    }
    throw error(reason)
  }

  mutating func document() throws(ScoreModelError) -> XMLTree.Element {
    // Prolog: declaration, comments, processing instructions, DOCTYPE.
    while true {
      skipWhitespace()
      if looking(at: "<?") {
        try skip(past: "?>", "unterminated processing instruction")
      } else if looking(at: "<!--") {
        try skip(past: "-->", "unterminated comment")
      } else if looking(at: "<!DOCTYPE") {
        try skipDoctype()
      } else {
        break
      }
    }
    guard peek() == UInt8(ascii: "<") else {
      throw error(atEnd ? "the document is empty: expected a root element" : "expected the root element")
    }
    let root = try element(depth: 0)
    // Trailing comments, processing instructions and whitespace only.
    while true {
      skipWhitespace()
      if atEnd { return root }
      if looking(at: "<!--") {
        try skip(past: "-->", "unterminated comment")
      } else if looking(at: "<?") {
        try skip(past: "?>", "unterminated processing instruction")
      } else {
        throw error("unexpected content after the root element")
      }
    }
  }

  /// Skips a DOCTYPE, including an internal subset in brackets (its declarations are ignored).
  mutating func skipDoctype() throws(ScoreModelError) {
    var depth = 0
    while !atEnd {
      switch peek() {
      case UInt8(ascii: "["): depth += 1
      case UInt8(ascii: "]"): depth -= 1
      case UInt8(ascii: ">") where depth <= 0:
        advance()
        return
      case UInt8(ascii: "\""), UInt8(ascii: "'"):
        let quote = peek()!
        advance()
        while let byte = peek(), byte != quote { advance() }
      default: break
      }
      advance()
    }
    throw error("unterminated DOCTYPE")
  }

  mutating func name() throws(ScoreModelError) -> String {
    let start = index
    try skipName()
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  /// Moves past a name, or throws when there is none.
  @discardableResult
  mutating func skipName() throws(ScoreModelError) -> Int {
    let start = index
    while let byte = peek(),
      !(byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ">")
        || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "<"))
    {
      advance()
    }
    guard index > start else { throw error("expected a name") }
    return index - start
  }

  mutating func element(depth: Int) throws(ScoreModelError) -> XMLTree.Element {
    guard depth < XMLTree.maximumDepth else { throw error("elements nested deeper than \(XMLTree.maximumDepth) levels") }
    let startLine = line()
    advance()  // <
    var element = XMLTree.Element(name: try name(), line: startLine)
    // Attributes.
    while true {
      skipWhitespace()
      guard let byte = peek() else { throw error("unterminated start tag <\(element.name)>") }
      if byte == UInt8(ascii: "/") {
        advance()
        guard peek() == UInt8(ascii: ">") else { throw error("expected \">\" after \"/\" in <\(element.name)>") }
        advance()
        return element
      }
      if byte == UInt8(ascii: ">") {
        advance()
        break
      }
      let attribute = try name()
      skipWhitespace()
      guard peek() == UInt8(ascii: "=") else { throw error("expected \"=\" after attribute \(attribute)") }
      advance()
      skipWhitespace()
      guard let quote = peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
        throw error("expected a quoted value for attribute \(attribute)")
      }
      advance()
      let start = index
      while let b = peek(), b != quote {
        if b == UInt8(ascii: "<") { throw error("\"<\" inside the value of attribute \(attribute)") }
        advance()
      }
      guard !atEnd else { throw error("unterminated value of attribute \(attribute)") }
      let raw = bytes[start..<index]
      advance()
      element.attributes.append((attribute, try decodeEntities(raw)))
    }
    // Content. Text is kept as the range of its first run while it is one run without entities
    // (a leaf's text, or indentation), and copied only when there is more.
    var firstRun: Range<Int>?
    var text: [UInt8] = []
    var copied = false
    var onlyWhitespace = true
    func add(_ run: ArraySlice<UInt8>) {
      if !copied, firstRun == nil {
        firstRun = run.startIndex..<run.endIndex
        return
      }
      if !copied {
        text += bytes[firstRun!]
        copied = true
      }
      text += run
    }
    while true {
      guard let byte = peek() else { throw error("unterminated element <\(element.name)> opened on line \(startLine)") }
      if byte != UInt8(ascii: "<") {
        let start = index
        var entities = false
        while index < bytes.count {
          let b = bytes[index]
          if b == UInt8(ascii: "<") { break }
          if b == UInt8(ascii: "&") { entities = true }
          index += 1
        }
        if entities {
          if !copied {
            if let run = firstRun { text += bytes[run] }
            copied = true
          }
          let decoded = Array(try decodeEntities(bytes[start..<index]).utf8)
          if onlyWhitespace, !decoded.allSatisfy(Self.isWhitespace) { onlyWhitespace = false }
          text += decoded
        } else {
          if onlyWhitespace, !bytes[start..<index].allSatisfy(Self.isWhitespace) { onlyWhitespace = false }
          add(bytes[start..<index])
        }
        continue
      }
      if looking(at: "</") {
        advance(2)
        let closingStart = index
        _ = try skipName()
        guard bytes[closingStart..<index].elementsEqual(element.name.utf8) else {
          let closing = String(decoding: bytes[closingStart..<index], as: UTF8.self)
          throw error("closing tag </\(closing)> does not match <\(element.name)> opened on line \(startLine)")
        }
        skipWhitespace()
        guard peek() == UInt8(ascii: ">") else { throw error("expected \">\" to close </\(element.name)>") }
        advance()
        // Indentation between child elements is not kept.
        if !(element.children.count > 0 && onlyWhitespace) {
          if copied {
            element.text = String(decoding: text, as: UTF8.self)
          } else if let run = firstRun {
            element.text = String(decoding: bytes[run], as: UTF8.self)
          }
        }
        return element
      }
      if looking(at: "<!--") {
        try skip(past: "-->", "unterminated comment")
      } else if looking(at: "<![CDATA[") {
        advance(9)
        let start = index
        while !atEnd, !looking(at: "]]>") { advance() }
        guard !atEnd else { throw error("unterminated CDATA section") }
        if onlyWhitespace, !bytes[start..<index].allSatisfy(Self.isWhitespace) { onlyWhitespace = false }
        add(bytes[start..<index])
        advance(3)
      } else if looking(at: "<?") {
        try skip(past: "?>", "unterminated processing instruction")
      } else {
        element.children.append(try self.element(depth: depth + 1))
      }
    }
  }

  /// Decodes `&lt;`-style entities and character references (the document is valid UTF-8).
  func decodeEntities(_ raw: ArraySlice<UInt8>) throws(ScoreModelError) -> String {
    let text = String(decoding: raw, as: UTF8.self)
    guard raw.contains(UInt8(ascii: "&")) else { return text }
    var out = ""
    var rest = Substring(text)
    while let amp = rest.firstIndex(of: "&") {
      out += rest[..<amp]
      // The byte offset of the "&", for the error's place.
      let at = raw.startIndex + text.utf8.distance(from: text.startIndex, to: amp)
      guard let semicolon = rest[amp...].firstIndex(of: ";"), rest.distance(from: amp, to: semicolon) <= 12 else {
        throw error("an \"&\" that starts no entity", at: at)
      }
      let entity = rest[rest.index(after: amp)..<semicolon]
      switch entity {
      case "lt": out += "<"
      case "gt": out += ">"
      case "amp": out += "&"
      case "quot": out += "\""
      case "apos": out += "'"
      default:
        var value: UInt32?
        if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
          value = UInt32(entity.dropFirst(2), radix: 16)
        } else if entity.hasPrefix("#") {
          value = UInt32(entity.dropFirst(), radix: 10)
        }
        guard let code = value, let scalar = Unicode.Scalar(code) else {
          throw error("unknown entity &\(entity);", at: at)
        }
        out.unicodeScalars.append(scalar)
      }
      rest = rest[rest.index(after: semicolon)...]
    }
    return out + rest
  }
}
