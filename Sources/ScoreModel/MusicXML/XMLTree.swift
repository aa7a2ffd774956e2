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
    /// The element's own text (text directly inside it, concatenated, not trimmed).
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
    var parser = XMLTreeParser(bytes: Self.utf8(input))
    root = try parser.document()
  }

  /// The bytes as UTF-8: UTF-16 with a byte-order mark is transcoded, a UTF-8 mark dropped.
  private static func utf8(_ bytes: [UInt8]) -> [UInt8] {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return Array(bytes.dropFirst(3)) }
    let littleEndian = bytes.starts(with: [0xFF, 0xFE])
    guard littleEndian || bytes.starts(with: [0xFE, 0xFF]) else { return bytes }
    var units: [UInt16] = []
    units.reserveCapacity(bytes.count / 2)
    var i = 2
    while i + 1 < bytes.count {
      let a = UInt16(bytes[i])
      let b = UInt16(bytes[i + 1])
      units.append(littleEndian ? a | b << 8 : a << 8 | b)
      i += 2
    }
    return Array(String(decoding: units, as: UTF16.self).utf8)
  }
}

extension String {
  /// The string without leading and trailing XML whitespace (space, tab, CR, LF).
  func trimmingXMLWhitespace() -> String {
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
  let bytes: [UInt8]
  var index = 0
  var line = 1
  var lineStart = 0

  init(bytes: [UInt8]) { self.bytes = bytes }

  func error(_ reason: String) -> ScoreModelError {
    .invalidXML(line: line, column: index - lineStart + 1, reason: reason)
  }

  /// An error at an earlier byte offset (line and column counted from the start).
  func error(_ reason: String, at offset: Int) -> ScoreModelError {
    var line = 1
    var lineStart = 0
    for i in 0..<min(offset, bytes.count) where bytes[i] == 0x0A {
      line += 1
      lineStart = i + 1
    }
    return .invalidXML(line: line, column: offset - lineStart + 1, reason: reason)
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
    for _ in 0..<count where index < bytes.count {
      if bytes[index] == 0x0A {
        line += 1
        lineStart = index + 1
      }
      index += 1
    }
  }

  mutating func skipWhitespace() {
    while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { advance() }
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
    while let byte = peek(),
      !(byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ">")
        || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "<"))
    {
      advance()
    }
    guard index > start else { throw error("expected a name") }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  mutating func element(depth: Int) throws(ScoreModelError) -> XMLTree.Element {
    guard depth < XMLTree.maximumDepth else { throw error("elements nested deeper than \(XMLTree.maximumDepth) levels") }
    let startLine = line
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
    // Content.
    var text: [UInt8] = []
    while true {
      guard let byte = peek() else { throw error("unterminated element <\(element.name)> opened on line \(startLine)") }
      if byte != UInt8(ascii: "<") {
        let start = index
        while let b = peek(), b != UInt8(ascii: "<") { advance() }
        text += Array(try decodeEntities(bytes[start..<index]).utf8)
        continue
      }
      if looking(at: "</") {
        advance(2)
        let closing = try name()
        guard closing == element.name else {
          throw error("closing tag </\(closing)> does not match <\(element.name)> opened on line \(startLine)")
        }
        skipWhitespace()
        guard peek() == UInt8(ascii: ">") else { throw error("expected \">\" to close </\(closing)>") }
        advance()
        element.text = String(decoding: text, as: UTF8.self)
        return element
      }
      if looking(at: "<!--") {
        try skip(past: "-->", "unterminated comment")
      } else if looking(at: "<![CDATA[") {
        advance(9)
        let start = index
        while !atEnd, !looking(at: "]]>") { advance() }
        guard !atEnd else { throw error("unterminated CDATA section") }
        text += bytes[start..<index]
        advance(3)
      } else if looking(at: "<?") {
        try skip(past: "?>", "unterminated processing instruction")
      } else {
        element.children.append(try self.element(depth: depth + 1))
      }
    }
  }

  /// Decodes `&lt;`-style entities and character references; the bytes must be valid UTF-8.
  func decodeEntities(_ raw: ArraySlice<UInt8>) throws(ScoreModelError) -> String {
    guard let text = String(validating: raw, as: UTF8.self) else { throw error("text that is not valid UTF-8") }
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
