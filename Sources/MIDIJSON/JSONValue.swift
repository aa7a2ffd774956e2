/// A parsed JSON value, for the compact MIDI JSON format, whose event arrays mix numbers and
/// strings (`[2, "note", 48, 127, 0.5]`) and whose errors must name the exact place.
///
/// The parser reads RFC 8259 JSON plus `//` and `/* */` comments (Moodles' published example
/// carries them), with a nesting limit, ``maximumDepth``, that keeps hostile input cheap.
enum JSONValue: Hashable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([(key: String, value: JSONValue)])

  /// The deepest nesting of arrays and objects accepted.
  static let maximumDepth = 64

  static func == (a: JSONValue, b: JSONValue) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.bool(let x), .bool(let y)): return x == y
    case (.number(let x), .number(let y)): return x == y
    case (.string(let x), .string(let y)): return x == y
    case (.array(let x), .array(let y)): return x == y
    case (.object(let x), .object(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    default: return false
    }
  }

  func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case .bool(let v): hasher.combine(v)
    case .number(let v): hasher.combine(v)
    case .string(let v): hasher.combine(v)
    case .array(let v): hasher.combine(v)
    case .object(let v):
      for (key, value) in v {
        hasher.combine(key)
        hasher.combine(value)
      }
    }
  }

  /// The value of `key` in an object (the last one, when a key repeats).
  subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.last { $0.key == key }?.value
  }

  /// A short name of the value's kind, for error messages.
  var kind: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number(let v): "the number \(JSONWriter.number(v))"
    case .string(let s): "the string \"\(s.count > 40 ? String(s.prefix(40)) + "…" : s)\""
    case .array: "an array"
    case .object: "an object"
    }
  }

  /// Parses a JSON document.
  ///
  /// - Throws: ``MIDIJSONError/malformedJSON(line:column:reason:)`` for text that is not JSON.
  static func parse(_ bytes: [UInt8]) throws(MIDIJSONError) -> JSONValue {
    var parser = JSONParser(bytes: bytes)
    return try parser.document()
  }
}

/// A recursive-descent JSON parser over UTF-8 bytes.
private struct JSONParser {
  let bytes: [UInt8]
  var index = 0
  var depth = 0

  init(bytes: [UInt8]) {
    self.bytes = bytes
    // A UTF-8 byte order mark is tolerated, as most JSON readers do.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
  }

  mutating func document() throws(MIDIJSONError) -> JSONValue {
    let value = try self.value()
    skipWhitespace()
    guard index == bytes.count else { throw error("unexpected text after the JSON document") }
    return value
  }

  func error(_ reason: String, at offset: Int? = nil) -> MIDIJSONError {
    let end = min(offset ?? index, bytes.count)
    var line = 1
    var lineStart = 0
    for i in 0..<end where bytes[i] == 0x0A {
      line += 1
      lineStart = i + 1
    }
    return .malformedJSON(line: line, column: end - lineStart + 1, reason: reason)
  }

  /// Skips whitespace and comments (an unterminated block comment runs to the end).
  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x0A, 0x0D, 0x09:
        index += 1
      case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/"):
        while index < bytes.count, bytes[index] != 0x0A { index += 1 }
      case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
        index += 2
        while index < bytes.count, !(bytes[index] == UInt8(ascii: "*") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/")) {
          index += 1
        }
        index = min(bytes.count, index + 2)
      default:
        return
      }
    }
  }

  mutating func value() throws(MIDIJSONError) -> JSONValue {
    skipWhitespace()
    guard index < bytes.count else { throw error("expected a value, found the end of the text") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try object()
    case UInt8(ascii: "["): return try array()
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
    default: throw error("expected a value, found \(describe(bytes[index]))")
    }
  }

  func describe(_ byte: UInt8) -> String {
    (0x21..<0x7F).contains(byte) ? "\"\(Character(Unicode.Scalar(byte)))\"" : "byte 0x\(String(byte, radix: 16))"
  }

  mutating func literal(_ word: String, _ result: JSONValue) throws(MIDIJSONError) -> JSONValue {
    let utf8 = Array(word.utf8)
    guard bytes.count - index >= utf8.count, Array(bytes[index..<(index + utf8.count)]) == utf8 else {
      throw error("expected \(word)")
    }
    index += utf8.count
    return result
  }

  mutating func enter() throws(MIDIJSONError) {
    depth += 1
    guard depth <= JSONValue.maximumDepth else {
      throw error("nested deeper than \(JSONValue.maximumDepth) levels")
    }
  }

  mutating func array() throws(MIDIJSONError) -> JSONValue {
    try enter()
    defer { depth -= 1 }
    index += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      elements.append(try value())
      skipWhitespace()
      guard index < bytes.count else { throw error("unterminated array: expected \",\" or \"]\"") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
      } else if bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(elements)
      } else {
        throw error("expected \",\" or \"]\" in an array, found \(describe(bytes[index]))")
      }
    }
  }

  mutating func object() throws(MIDIJSONError) -> JSONValue {
    try enter()
    defer { depth -= 1 }
    index += 1
    var members: [(key: String, value: JSONValue)] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw error("expected a quoted member name")
      }
      let key = try string()
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
        throw error("expected \":\" after the member name \"\(key)\"")
      }
      index += 1
      members.append((key, try value()))
      skipWhitespace()
      guard index < bytes.count else { throw error("unterminated object: expected \",\" or \"}\"") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
      } else if bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      } else {
        throw error("expected \",\" or \"}\" in an object, found \(describe(bytes[index]))")
      }
    }
  }

  mutating func string() throws(MIDIJSONError) -> String {
    let start = index
    index += 1
    var scalars = String.UnicodeScalarView()
    var runStart = index
    func flushRun(_ parser: JSONParser, upTo end: Int) throws(MIDIJSONError) {
      guard end > runStart else { return }
      guard let run = String(validating: parser.bytes[runStart..<end], as: UTF8.self) else {
        throw parser.error("invalid UTF-8 in a string", at: runStart)
      }
      scalars.append(contentsOf: run.unicodeScalars)
    }
    while true {
      guard index < bytes.count else { throw error("unterminated string", at: start) }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        try flushRun(self, upTo: index)
        index += 1
        return String(scalars)
      }
      if byte < 0x20 { throw error("control character in a string (escape it)") }
      if byte != UInt8(ascii: "\\") {
        index += 1
        continue
      }
      try flushRun(self, upTo: index)
      index += 1
      guard index < bytes.count else { throw error("unterminated escape") }
      let escape = bytes[index]
      index += 1
      switch escape {
      case UInt8(ascii: "\""): scalars.append("\"")
      case UInt8(ascii: "\\"): scalars.append("\\")
      case UInt8(ascii: "/"): scalars.append("/")
      case UInt8(ascii: "b"): scalars.append("\u{08}")
      case UInt8(ascii: "f"): scalars.append("\u{0C}")
      case UInt8(ascii: "n"): scalars.append("\n")
      case UInt8(ascii: "r"): scalars.append("\r")
      case UInt8(ascii: "t"): scalars.append("\t")
      case UInt8(ascii: "u"):
        var code = try hex4()
        if (0xD800..<0xDC00).contains(code) {
          // A high surrogate must be followed by an escaped low surrogate.
          guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
          else { throw error("unpaired surrogate \\u\(String(code, radix: 16))") }
          index += 2
          let low = try hex4()
          guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate \\u\(String(code, radix: 16))") }
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(code) else { throw error("unpaired surrogate \\u\(String(code, radix: 16))") }
        scalars.append(scalar)
      default:
        throw error("unknown escape \\\(Character(Unicode.Scalar(escape)))", at: index - 2)
      }
      runStart = index
    }
  }

  mutating func hex4() throws(MIDIJSONError) -> UInt32 {
    guard bytes.count - index >= 4 else { throw error("expected 4 hexadecimal digits after \\u") }
    var code: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw error("expected a hexadecimal digit after \\u, found \(describe(byte))")
      }
      code = code << 4 | UInt32(digit)
      index += 1
    }
    return code
  }

  mutating func number() throws(MIDIJSONError) -> Double {
    let start = index
    func digits(_ parser: inout JSONParser) -> Int {
      let from = parser.index
      while parser.index < parser.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.index]) {
        parser.index += 1
      }
      return parser.index - from
    }
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    let integerStart = index
    let integerDigits = digits(&self)
    guard integerDigits > 0 else { throw error("expected a digit", at: index) }
    if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") {
      throw error("a number cannot start with 0", at: integerStart)
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits(&self) > 0 else { throw error("expected a digit after the decimal point") }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard digits(&self) > 0 else { throw error("expected a digit in the exponent") }
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    guard let value = Double(text), value.isFinite else { throw error("number \(text) is out of range", at: start) }
    return value
  }
}

/// Writes JSON text: numbers in their shortest exact form, strings escaped.
enum JSONWriter {
  /// A number as JSON: integers without a fraction (`3`, not `3.0`), others in the shortest form
  /// that reads back to the same `Double`.
  static func number(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
    return "\(value)"
  }

  /// A string as a JSON string literal.
  static func string(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
