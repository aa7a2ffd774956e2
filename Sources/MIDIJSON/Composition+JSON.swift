import Foundation

extension Composition {
  /// The most events a document may expand to (sequences repeat their events); more is refused
  /// so that a small hostile document cannot make a reader build billions of notes.
  public static let maximumExpandedEvents = 1_000_000

  /// Reads a composition from compact MIDI JSON.
  ///
  /// Accepts the seed format as Moodles wrote it (`tempo` and `length` may be missing: 120 BPM
  /// and the end of the last event), events in any order, integers written as `127.0`, and
  /// ignores members it does not know (such as an app's `id`). Everything else is checked: a
  /// note number of 128, a negative duration, an unknown event type or a malformed array is an
  /// error naming the place, such as `events[3][2]`.
  ///
  /// - Parameter data: UTF-8 JSON text.
  /// - Throws: ``MIDIJSONError/malformedJSON(line:column:reason:)`` for text that is not JSON,
  ///   ``MIDIJSONError/invalidJSON(path:reason:)`` for JSON that is not a composition.
  public init(json data: Data) throws(MIDIJSONError) {
    let root = try JSONValue.parse([UInt8](data))
    guard case .object = root else { throw .invalidJSON(path: "", reason: "expected an object, found \(root.kind)") }
    var decoder = CompositionDecoder()
    let name = try root["name"].map { value throws(MIDIJSONError) in try decoder.string(value, at: "name") } ?? ""
    let tempo = try root["tempo"].map { value throws(MIDIJSONError) in
      try decoder.number(value, at: "tempo", where: { $0 > 0 }, expected: "a positive tempo in BPM")
    }
    guard let eventsValue = root["events"] else { throw .invalidJSON(path: "", reason: "missing member \"events\"") }
    let events = try decoder.events(eventsValue, at: "events", depth: 0)
    self.init(name: name, tempo: tempo ?? 120, events: events)
    if let value = root["length"] {
      length = try decoder.number(value, at: "length", where: { $0 >= 0 }, expected: "a length in beats, 0 or more")
    }
    if let value = root["ppq"] {
      ppq = try decoder.integer(value, at: "ppq", in: 1...0x7FFF)
    }
    if let value = root["tempos"] {
      let list = try decoder.rows(value, at: "tempos", counts: 2...2) { (row, path) throws(MIDIJSONError) in
        Tempo(
          beat: try decoder.beat(row[0], at: path + "[0]"),
          bpm: try decoder.number(row[1], at: path + "[1]", where: { $0 > 0 }, expected: "a positive tempo in BPM"))
      }
      if !list.isEmpty {
        tempos = list.enumerated().sorted { ($0.element.beat, $0.offset) < ($1.element.beat, $1.offset) }.map(\.element)
        if tempos[0].beat > 0 { tempos.insert(Tempo(beat: 0, bpm: tempo ?? 120), at: 0) }
      }
    }
    if let value = root["timeSignatures"] {
      timeSignatures = try decoder.rows(value, at: "timeSignatures", counts: 3...3) { (row, path) throws(MIDIJSONError) in
        TimeSignature(
          beat: try decoder.beat(row[0], at: path + "[0]"),
          numerator: try decoder.integer(row[1], at: path + "[1]", in: 1...255),
          denominator: try decoder.integer(
            row[2], at: path + "[2]", in: 1...128, where: { $0.nonzeroBitCount == 1 }, expected: "a power of two"))
      }.sorted { $0.beat < $1.beat }
    }
    if let value = root["keySignatures"] {
      keySignatures = try decoder.rows(value, at: "keySignatures", counts: 3...3) { (row, path) throws(MIDIJSONError) in
        let mode = try decoder.string(row[2], at: path + "[2]")
        guard mode == "major" || mode == "minor" else {
          throw .invalidJSON(path: path + "[2]", reason: "expected \"major\" or \"minor\", found \"\(mode)\"")
        }
        return KeySignature(
          beat: try decoder.beat(row[0], at: path + "[0]"), sharps: try decoder.integer(row[1], at: path + "[1]", in: -7...7),
          minor: mode == "minor")
      }.sorted { $0.beat < $1.beat }
    }
  }

  /// The composition as compact MIDI JSON: the seed's members first (`name`, `tempo`,
  /// `length`, `events`), the extensions only where they say something (`ppq` when set, `tempos`
  /// when the tempo changes, signatures when present), one event per line.
  public func json() -> Data {
    var lines = ["{"]
    var members = [
      "  \"name\": \(JSONWriter.string(name))",
      "  \"tempo\": \(JSONWriter.number(tempo))",
      "  \"length\": \(JSONWriter.number(length))",
    ]
    if let ppq { members.append("  \"ppq\": \(ppq)") }
    if tempos.count > 1 {
      members.append(
        "  \"tempos\": [" + tempos.map { "[\(JSONWriter.number($0.beat)), \(JSONWriter.number($0.bpm))]" }.joined(separator: ", ")
          + "]")
    }
    if !timeSignatures.isEmpty {
      members.append(
        "  \"timeSignatures\": ["
          + timeSignatures.map { "[\(JSONWriter.number($0.beat)), \($0.numerator), \($0.denominator)]" }.joined(separator: ", ")
          + "]")
    }
    if !keySignatures.isEmpty {
      members.append(
        "  \"keySignatures\": ["
          + keySignatures.map { "[\(JSONWriter.number($0.beat)), \($0.sharps), \"\($0.minor ? "minor" : "major")\"]" }
          .joined(separator: ", ") + "]")
    }
    if events.isEmpty {
      members.append("  \"events\": []")
    } else {
      members.append("  \"events\": [\n" + events.map { "    " + Self.array($0) }.joined(separator: ",\n") + "\n  ]")
    }
    lines.append(members.joined(separator: ",\n"))
    lines.append("}\n")
    return Data(lines.joined(separator: "\n").utf8)
  }

  /// One event as its JSON array.
  static func array(_ event: CompositionEvent) -> String {
    let n = JSONWriter.number
    func channel(_ c: Int) -> String { c == 0 ? "" : ", \(c)" }
    switch event {
    case .note(let time, let number, let velocity, let duration, let c):
      return "[\(n(time)), \"note\", \(number), \(velocity), \(n(duration))\(channel(c))]"
    case .chord(let time, let numbers, let velocity, let duration, let c):
      let list = numbers.map(String.init).joined(separator: ", ")
      return "[\(n(time)), \"chord\", [\(list)], \(velocity), \(n(duration))\(channel(c))]"
    case .control(let time, let controller, let value, let c):
      return "[\(n(time)), \"control\", \(controller), \(value)\(channel(c))]"
    case .pitch(let time, let bend, let c):
      return "[\(n(time)), \"pitch\", \(bend)\(channel(c))]"
    case .param(let time, let parameter, let value, let c):
      return "[\(n(time)), \"param\", \"\(parameter.rawValue)\", \(value)\(channel(c))]"
    case .sequence(let time, let events, let repeats, let length):
      var tail = ""
      if repeats != 1 || length != nil { tail += ", \(repeats)" }
      if let length { tail += ", \(n(length))" }
      return "[\(n(time)), \"sequence\", [" + events.map(array).joined(separator: ", ") + "]\(tail)]"
    }
  }
}

/// Checks the shapes and ranges of a compact MIDI JSON document, naming the place of each error.
private struct CompositionDecoder {
  /// Events counted so far, sequences' repeats multiplied in.
  var expandedCount = 0

  func string(_ value: JSONValue, at path: String) throws(MIDIJSONError) -> String {
    guard case .string(let text) = value else { throw .invalidJSON(path: path, reason: "expected a string, found \(value.kind)") }
    return text
  }

  func number(
    _ value: JSONValue, at path: String, where isValid: (Double) -> Bool = { _ in true }, expected: String = "a number"
  ) throws(MIDIJSONError) -> Double {
    guard case .number(let number) = value, isValid(number) else {
      throw .invalidJSON(path: path, reason: "expected \(expected), found \(value.kind)")
    }
    return number
  }

  func beat(_ value: JSONValue, at path: String) throws(MIDIJSONError) -> Double {
    try number(value, at: path, where: { $0 >= 0 }, expected: "a time in beats, 0 or more")
  }

  func integer(
    _ value: JSONValue, at path: String, in range: ClosedRange<Int>, where isValid: (Int) -> Bool = { _ in true },
    expected: String? = nil
  ) throws(MIDIJSONError) -> Int {
    let wanted = "an integer \(range.lowerBound)...\(range.upperBound)" + (expected.map { ", \($0)" } ?? "")
    guard case .number(let number) = value, number == number.rounded(), Double(range.lowerBound) <= number,
      number <= Double(range.upperBound), isValid(Int(number))
    else { throw .invalidJSON(path: path, reason: "expected \(wanted), found \(value.kind)") }
    return Int(number)
  }

  func rows<T>(
    _ value: JSONValue, at path: String, counts: ClosedRange<Int>,
    _ make: ([JSONValue], String) throws(MIDIJSONError) -> T
  ) throws(MIDIJSONError) -> [T] {
    guard case .array(let list) = value else { throw .invalidJSON(path: path, reason: "expected an array, found \(value.kind)") }
    var out: [T] = []
    for (index, row) in list.enumerated() {
      let rowPath = "\(path)[\(index)]"
      guard case .array(let elements) = row, counts.contains(elements.count) else {
        throw .invalidJSON(path: rowPath, reason: "expected an array of \(counts.lowerBound) elements, found \(row.kind)")
      }
      out.append(try make(elements, rowPath))
    }
    return out
  }

  mutating func count(_ n: Int, at path: String) throws(MIDIJSONError) {
    expandedCount += n
    if expandedCount > Composition.maximumExpandedEvents {
      throw .invalidJSON(path: path, reason: "expands to more than \(Composition.maximumExpandedEvents) events")
    }
  }

  mutating func events(_ value: JSONValue, at path: String, depth: Int) throws(MIDIJSONError) -> [CompositionEvent] {
    guard case .array(let list) = value else { throw .invalidJSON(path: path, reason: "expected an array of events, found \(value.kind)") }
    var out: [CompositionEvent] = []
    out.reserveCapacity(list.count)
    for (index, item) in list.enumerated() {
      out.append(try event(item, at: "\(path)[\(index)]", depth: depth))
    }
    return out
  }

  mutating func event(_ value: JSONValue, at path: String, depth: Int) throws(MIDIJSONError) -> CompositionEvent {
    guard case .array(let a) = value, a.count >= 2 else {
      throw .invalidJSON(path: path, reason: "expected an event array such as [0, \"note\", 60, 127, 1], found \(value.kind)")
    }
    let time = try beat(a[0], at: path + "[0]")
    let type = try string(a[1], at: path + "[1]")
    func arity(_ range: ClosedRange<Int>, _ form: String) throws(MIDIJSONError) {
      guard range.contains(a.count) else {
        throw .invalidJSON(path: path, reason: "a \(type) event is \(form); found \(a.count) elements")
      }
    }
    func channel(_ index: Int) throws(MIDIJSONError) -> Int {
      index < a.count ? try integer(a[index], at: "\(path)[\(index)]", in: 0...15) : 0
    }
    let byte = 0...127
    switch type {
    case "note":
      try arity(5...6, "[time, \"note\", number, velocity, duration(, channel)]")
      try count(1, at: path)
      return .note(
        time: time, number: try integer(a[2], at: path + "[2]", in: byte), velocity: try integer(a[3], at: path + "[3]", in: byte),
        duration: try beat(a[4], at: path + "[4]"), channel: try channel(5))
    case "chord":
      try arity(5...6, "[time, \"chord\", [number, …], velocity, duration(, channel)]")
      guard case .array(let numberValues) = a[2] else {
        throw .invalidJSON(path: path + "[2]", reason: "expected an array of note numbers, found \(a[2].kind)")
      }
      var numbers: [Int] = []
      for (i, number) in numberValues.enumerated() {
        numbers.append(try integer(number, at: "\(path)[2][\(i)]", in: byte))
      }
      try count(max(numbers.count, 1), at: path)
      return .chord(
        time: time, numbers: numbers, velocity: try integer(a[3], at: path + "[3]", in: byte),
        duration: try beat(a[4], at: path + "[4]"), channel: try channel(5))
    case "control":
      try arity(4...5, "[time, \"control\", controller, value(, channel)]")
      try count(1, at: path)
      return .control(
        time: time, controller: try integer(a[2], at: path + "[2]", in: byte), value: try integer(a[3], at: path + "[3]", in: byte),
        channel: try channel(4))
    case "pitch":
      try arity(3...4, "[time, \"pitch\", bend(, channel)]")
      try count(1, at: path)
      return .pitch(time: time, bend: try integer(a[2], at: path + "[2]", in: -8192...8191), channel: try channel(3))
    case "param":
      try arity(4...5, "[time, \"param\", name, value(, channel)]")
      let name = try string(a[2], at: path + "[2]")
      guard let parameter = CompositionEvent.Parameter(rawValue: name) else {
        let known = CompositionEvent.Parameter.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
        throw .invalidJSON(path: path + "[2]", reason: "expected a parameter name, \(known), found \"\(name)\"")
      }
      try count(1, at: path)
      return .param(time: time, parameter: parameter, value: try integer(a[3], at: path + "[3]", in: byte), channel: try channel(4))
    case "sequence":
      try arity(3...5, "[time, \"sequence\", [event, …](, repeats(, length))]")
      let repeats = a.count > 3 ? try integer(a[3], at: path + "[3]", in: 1...10_000) : 1
      let length = a.count > 4 ? try beat(a[4], at: path + "[4]") : nil
      // The inner events count once per repetition: count them, then scale.
      let before = expandedCount
      expandedCount = 0
      let inner = try events(a[2], at: path + "[2]", depth: depth + 1)
      let innerCount = expandedCount
      expandedCount = before
      let (total, overflow) = innerCount.multipliedReportingOverflow(by: repeats)
      try count(overflow ? Int.max / 2 : total, at: path)
      return .sequence(time: time, events: inner, repeats: repeats, length: length)
    default:
      throw .invalidJSON(
        path: path + "[1]", reason: "unknown event type \"\(type)\": expected note, chord, control, pitch, param or sequence")
    }
  }
}
