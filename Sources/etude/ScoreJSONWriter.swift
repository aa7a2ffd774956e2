import ScoreModel

/// Writes the JSON of `etude score`: the same bytes as `JSONEncoder` with pretty printing, sorted
/// keys and unescaped slashes, written straight into one buffer.
///
/// `JSONEncoder` builds a tree of boxed values and sorts every object's keys for each note; on a
/// string quartet of 50,000 notes that took longer than reading the MusicXML. The keys here are
/// written in their sorted order by hand; numbers are formatted as `JSONEncoder` formats them
/// (shortest round-trip digits, integral values without a fraction).
struct ScoreJSONWriter {
  private(set) var bytes: [UInt8] = []
  private var depth = 0

  /// The document for a score, with seconds divided by `tempoScale`.
  static func document(for score: Score, tempoScale: Double) -> [UInt8] {
    var writer = ScoreJSONWriter()
    writer.bytes.reserveCapacity(600 * score.notes.count + 200 * score.measures.count + 1024)
    writer.object {
      $0.key("measures", first: true)
      $0.array(score.measures) { w, measure in
        w.object {
          $0.key("durationQuarters", first: true)
          $0.rational(measure.duration)
          $0.key("number")
          $0.string(measure.number)
          $0.key("onsetQuarters")
          $0.rational(measure.onset)
          $0.key("onsetSeconds")
          $0.number(measure.onsetSeconds / tempoScale)
        }
      }
      $0.key("notes")
      $0.array(score.notes) { w, note in
        w.object {
          $0.key("durationQuarters", first: true)
          $0.rational(note.duration)
          $0.key("durationSeconds")
          $0.number(note.durationSeconds / tempoScale)
          $0.key("isGrace")
          $0.bool(note.isGrace)
          $0.key("isRest")
          $0.bool(note.isRest)
          $0.key("isTied")
          $0.bool(note.isTied)
          $0.key("measure")
          $0.integer(note.measure)
          $0.key("name")
          $0.optionalString(note.spelling?.description)
          $0.key("onsetQuarters")
          $0.rational(note.onset)
          $0.key("onsetSeconds")
          $0.number(note.onsetSeconds / tempoScale)
          $0.key("part")
          $0.string(note.part)
          $0.key("soundingPitch")
          $0.optionalInteger(note.soundingPitch?.rawValue)
          $0.key("staff")
          $0.integer(note.staff)
          $0.key("voice")
          $0.integer(note.voice)
          $0.key("writtenPitch")
          $0.optionalInteger(note.writtenPitch?.rawValue)
          $0.key("x")
          $0.optionalNumber(note.x)
          $0.key("y")
          $0.optionalNumber(note.y)
        }
      }
      $0.key("parts")
      $0.array(score.parts) { w, part in
        w.object {
          $0.key("id", first: true)
          $0.string(part.id)
          $0.key("name")
          $0.string(part.name)
          $0.key("transposeSemitones")
          $0.integer(part.transposeSemitones)
        }
      }
      $0.key("tempos")
      $0.array(score.tempos) { w, tempo in
        w.object {
          $0.key("bpm", first: true)
          $0.number(tempo.bpm * tempoScale)
          $0.key("quarters")
          $0.rational(tempo.quarters)
          $0.key("seconds")
          $0.number(tempo.seconds / tempoScale)
        }
      }
      $0.key("timeSignatures")
      $0.array(score.timeSignatures) { w, signature in
        w.object {
          $0.key("denominator", first: true)
          $0.integer(signature.denominator)
          $0.key("numerator")
          $0.integer(signature.numerator)
          $0.key("quarters")
          $0.rational(signature.quarters)
        }
      }
      $0.key("title")
      $0.string(score.title)
    }
    writer.bytes.append(0x0A)
    return writer.bytes
  }

  // MARK: Structure

  private mutating func newline() {
    bytes.append(0x0A)
    for _ in 0..<(2 * depth) { bytes.append(0x20) }
  }

  private mutating func object(_ body: (inout ScoreJSONWriter) -> Void) {
    bytes.append(UInt8(ascii: "{"))
    depth += 1
    body(&self)
    depth -= 1
    newline()
    bytes.append(UInt8(ascii: "}"))
  }

  private mutating func array<Element>(
    _ elements: [Element], _ body: (inout ScoreJSONWriter, Element) -> Void
  ) {
    bytes.append(UInt8(ascii: "["))
    guard !elements.isEmpty else {
      // JSONEncoder leaves an empty line in an empty array.
      bytes.append(0x0A)
      newline()
      bytes.append(UInt8(ascii: "]"))
      return
    }
    depth += 1
    for (index, element) in elements.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      newline()
      body(&self, element)
    }
    depth -= 1
    newline()
    bytes.append(UInt8(ascii: "]"))
  }

  /// A key (ASCII, needing no escape) and the separator before its value.
  private mutating func key(_ name: StaticString, first: Bool = false) {
    if !first { bytes.append(UInt8(ascii: ",")) }
    newline()
    bytes.append(UInt8(ascii: "\""))
    name.withUTF8Buffer { bytes.append(contentsOf: $0) }
    bytes.append(UInt8(ascii: "\""))
    bytes.append(0x20)
    bytes.append(UInt8(ascii: ":"))
    bytes.append(0x20)
  }

  // MARK: Values

  private mutating func string(_ value: String) {
    bytes.append(UInt8(ascii: "\""))
    for byte in value.utf8 {
      switch byte {
      case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
      case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
      case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
      case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
      case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
      case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
      case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: Array("\\u00".utf8))
        bytes.append(hex[Int(byte >> 4)])
        bytes.append(hex[Int(byte & 0xF)])
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  private mutating func optionalString(_ value: String?) {
    if let value { string(value) } else { null() }
  }

  private mutating func integer(_ value: Int) {
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    var digits:
      (
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
      ) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    withUnsafeMutableBytes(of: &digits) { buffer in
      repeat {
        buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
        count += 1
      } while magnitude > 0
      for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
    }
  }

  /// A quarter-note position as its `description` (`"3/2"`, `"2"`), quoted.
  private mutating func rational(_ value: Rational) {
    bytes.append(UInt8(ascii: "\""))
    integer(value.numerator)
    if value.denominator != 1 {
      bytes.append(UInt8(ascii: "/"))
      integer(value.denominator)
    }
    bytes.append(UInt8(ascii: "\""))
  }

  private mutating func optionalInteger(_ value: Int?) {
    if let value { integer(value) } else { null() }
  }

  /// A finite number as `JSONEncoder` writes it: Swift's shortest round-trip digits, without a
  /// trailing `.0`.
  private mutating func number(_ value: Double) {
    // Whole numbers (most seconds and positions) without going through text.
    if value.rounded() == value, abs(value) < 1e15, !(value == 0 && value.sign == .minus) {
      integer(Int(value))
      return
    }
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    bytes.append(contentsOf: text.utf8)
  }

  private mutating func optionalNumber(_ value: Double?) {
    if let value { number(value) } else { null() }
  }

  private mutating func bool(_ value: Bool) {
    bytes.append(contentsOf: (value ? "true" : "false").utf8)
  }

  private mutating func null() {
    bytes.append(contentsOf: "null".utf8)
  }
}
