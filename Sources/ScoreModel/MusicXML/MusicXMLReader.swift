import Foundation

/// Reads the parts of a MusicXML document into notation-order measures: notes with their
/// positions inside their measure, and what each measure says about tempo, signatures,
/// repeats and layout. ``Score/init(musicXML:options:)`` then lays them on a timeline.
struct MusicXMLReader {
  /// A note (or rest) as notated, before the timeline.
  struct Note {
    var part: Int
    var measure: Int
    var voice: Int
    var staff: Int
    /// The onset inside its measure, in quarter notes.
    var onset: Rational
    var duration: Rational
    /// The notated pitch (what the file spells), or `nil` for a rest.
    var notated: SpelledNote?
    /// Semitones from written to sounding pitch at this note.
    var transpose: Int
    var isGrace: Bool
    var tieStart: Bool
    var tieStop: Bool
    var isSlurred: Bool
    var articulations: [ScoreNote.Articulation]
    var defaultX: Double?
    var defaultY: Double?
    var line: Int
  }

  /// What one notation measure says, merged over the parts.
  struct Measure {
    var number: String
    /// The longest part's content, in quarter notes (0 when no part has any).
    var length: Rational = .zero
    /// The time signature in force, as a bar length in quarter notes.
    var barLength: Rational = 4
    var timeSignature: (numerator: Int, denominator: Int)?
    var key: Key?
    /// Tempo marks: position inside the measure and quarter notes per minute.
    var tempos: [(position: Rational, bpm: Double)] = []
    var repeats = RepeatMarks()
    /// Jumps named only by words ("D.C. al Fine"), used when ``MusicXMLOptions/readsJumpWords``.
    var wordJumps = RepeatMarks()
    var layout = MeasureLayout()
  }

  let document: XMLTree.Element
  let isConcertScore: Bool
  private(set) var parts: [Score.Part] = []
  private(set) var notes: [Note] = []
  private(set) var measures: [Measure] = []
  private(set) var staffCounts: [Int] = []
  /// Each part's content length of each measure, in quarter notes (0 when empty).
  private(set) var partLengths: [[Rational]] = []
  /// Each part's bar length (its time signature) at the end of each measure, in quarter notes.
  private(set) var partBars: [[Rational]] = []
  private(set) var defaults = PageDefaults()
  private(set) var title = ""

  /// Reads a `score-partwise` or `score-timewise` document.
  init(document root: XMLTree.Element) throws(ScoreModelError) {
    var root = root
    guard root.name == "score-partwise" || root.name == "score-timewise" else {
      throw .invalidMusicXML(
        path: root.name, line: root.line, reason: "expected a score-partwise or score-timewise root element, found <\(root.name)>")
    }
    if root.name == "score-timewise" { root = Self.partwise(root) }
    document = root
    isConcertScore = root.child("defaults")?.child("concert-score") != nil
      || root.child("part-list")?.child("concert-score") != nil
    defaults = PageDefaults(root.child("defaults"))
    title =
      root.child("work").flatMap { $0.text(of: "work-title") }
      ?? root.text(of: "movement-title")
      ?? root.children("credit").lazy.compactMap { $0.text(of: "credit-words") }.first ?? ""
    try readParts()
  }

  /// Converts `score-timewise` (measures holding parts) to `score-partwise` (parts holding
  /// measures).
  static func partwise(_ timewise: XMLTree.Element) -> XMLTree.Element {
    var root = XMLTree.Element(name: "score-partwise", attributes: timewise.attributes, line: timewise.line)
    var order: [String] = []
    var parts: [String: XMLTree.Element] = [:]
    for child in timewise.children {
      guard child.name == "measure" else {
        root.children.append(child)
        continue
      }
      for part in child.children("part") {
        let id = part[attribute: "id"] ?? ""
        if parts[id] == nil {
          order.append(id)
          parts[id] = XMLTree.Element(name: "part", attributes: [("id", id)], line: part.line)
        }
        parts[id]!.children.append(
          XMLTree.Element(name: "measure", attributes: child.attributes, children: part.children, line: child.line))
      }
    }
    root.children += order.map { parts[$0]! }
    return root
  }

  private mutating func readParts() throws(ScoreModelError) {
    let partList = document.child("part-list")
    var names: [String: String] = [:]
    var declared: [String] = []
    for scorePart in partList?.children("score-part") ?? [] {
      let id = scorePart[attribute: "id"] ?? ""
      declared.append(id)
      names[id] = scorePart.text(of: "part-name") ?? scorePart.text(of: "part-abbreviation") ?? id
    }
    let partElements = document.children("part")
    guard !partElements.isEmpty else {
      throw .invalidMusicXML(path: document.name, line: document.line, reason: "the score has no <part>")
    }
    for (index, element) in partElements.enumerated() {
      let id = element[attribute: "id"] ?? "P\(index + 1)"
      var part = Score.Part(id: id, name: names[id] ?? id)
      try readPart(element, index: index, into: &part)
      parts.append(part)
    }
  }

  /// The state carried through one part's measures.
  private struct PartState {
    var divisions: Int?
    var chromatic = 0
    var octaveChange = 0
    var barLength: Rational = 4
    var staves = 1
    /// Open slurs by voice.
    var openSlurs: [Int: Set<String>] = [:]
    /// Tablature tunings by staff number.
    var tunings: [Int: StringTuning] = [:]
    var transpose: Int { chromatic + 12 * octaveChange }
  }

  private mutating func readPart(_ element: XMLTree.Element, index: Int, into part: inout Score.Part) throws(ScoreModelError) {
    var state = PartState()
    var firstTranspose: Int?
    var lengths: [Rational] = []
    var bars: [Rational] = []
    let partPath = "\(document.name)/part[\(part.id)]"
    for (measureIndex, measureElement) in element.children("measure").enumerated() {
      let number = measureElement[attribute: "number"] ?? String(measureIndex + 1)
      let path = "\(partPath)/measure[\(number)]"
      if measureIndex == measures.count {
        measures.append(Measure(number: number))
      }
      var measure = measures[measureIndex]
      var cursor = Rational.zero
      var end = Rational.zero
      var lastOnset = Rational.zero
      var noteIndex = 0
      /// The first note of the chord being read (a `<chord/>` note joins it).
      var chordHead: Note?
      var measureNotes: [Note] = []
      if let width = measureElement[attribute: "width"].flatMap(Double.init), measure.layout.width == nil {
        measure.layout.width = width
      }
      measure.layout.isImplicit = measure.layout.isImplicit || measureElement[attribute: "implicit"] == "yes"
      for child in measureElement.children {
        switch child.name {
        case "attributes":
          try readAttributes(child, path: path, state: &state, measure: &measure, isFirstPart: index == 0)
          if firstTranspose == nil, child.child("transpose") != nil { firstTranspose = state.transpose }
        case "note":
          noteIndex += 1
          let isChord = child.child("chord") != nil
          guard
            var note = try readNote(
              child, path: "\(path)/note[\(noteIndex)]", state: &state, part: index, measure: measureIndex, chordHead: isChord ? chordHead : nil)
          else { continue }
          note.onset = isChord ? lastOnset : cursor
          if !isChord {
            lastOnset = cursor
            chordHead = note
          }
          if !isChord, !note.isGrace { cursor += note.duration }
          end = max(end, note.onset + note.duration, cursor)
          if child.child("cue") == nil { measureNotes.append(note) }
        case "backup":
          let duration = try self.duration(child, path: "\(path)/backup", state: state)
          cursor = max(.zero, cursor - duration)
        case "forward":
          let duration = try self.duration(child, path: "\(path)/forward", state: state)
          cursor += duration
          end = max(end, cursor)
        case "direction":
          readDirection(child, at: cursor, state: state, measure: &measure)
        case "sound":
          readSound(child, at: cursor, measure: &measure)
        case "barline":
          measure.repeats.read(barline: child)
        case "print":
          if index == 0 { measure.layout.read(print: child) }
        default:
          break
        }
      }
      measure.length = max(measure.length, end)
      measures[measureIndex] = measure
      lengths.append(end)
      bars.append(state.barLength)
      notes += measureNotes
    }
    staffCounts.append(state.staves)
    partLengths.append(lengths)
    partBars.append(bars)
    part.transposeSemitones = firstTranspose ?? 0
  }

  private func duration(_ element: XMLTree.Element, path: @autoclosure () -> String, state: PartState) throws(ScoreModelError) -> Rational {
    guard let text = element.text(of: "duration") else {
      throw .invalidMusicXML(path: path(), line: element.line, reason: "missing <duration>")
    }
    guard let divisions = state.divisions else {
      throw .invalidMusicXML(path: path() + "/duration", line: element.line, reason: "a duration before any <divisions> is set")
    }
    // Durations are whole numbers of divisions; some writers emit decimals, which are rounded.
    guard let value = Double(text), value.isFinite, value >= 0, value <= 1e7 else {
      throw .invalidMusicXML(path: path() + "/duration", line: element.line, reason: "expected a non-negative number of divisions, found \"\(text)\"")
    }
    return Rational(Int(value.rounded()), divisions)
  }

  private mutating func readAttributes(
    _ element: XMLTree.Element, path: String, state: inout PartState, measure: inout Measure, isFirstPart: Bool
  ) throws(ScoreModelError) {
    if let text = element.text(of: "divisions") {
      guard let value = Double(text), value.rounded() == value, value >= 1, value <= 1e7 else {
        throw .invalidMusicXML(path: path + "/attributes/divisions", line: element.line, reason: "expected a positive whole number, found \"\(text)\"")
      }
      state.divisions = Int(value)
    }
    if let staves = element.text(of: "staves").flatMap(Int.init), (1...16).contains(staves) { state.staves = max(state.staves, staves) }
    if let time = element.child("time") {
      let numerators = time.children("beats").map { $0.text.trimmingXMLWhitespace() }
      let denominators = time.children("beat-type").compactMap { Int($0.text.trimmingXMLWhitespace()) }
      // "3+2" beats sum; several beats/beat-type pairs (compound meters) add their lengths.
      var length = Rational.zero
      var numeratorSum = 0
      for (beats, beatType) in zip(numerators, denominators) where beatType > 0 && beatType <= 1024 {
        let count = beats.split(separator: "+").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.reduce(0, +)
        guard count > 0, count < 10_000 else { continue }
        length += Rational(count * 4, beatType)
        numeratorSum += count
      }
      if length > .zero {
        state.barLength = length
        if isFirstPart || measure.timeSignature == nil {
          // A composite signature (3/8+2/8+3/4) is its bar length over the beat types' common
          // denominator (11/8); a plain one stays as written.
          var common = 1
          for beatType in denominators where beatType > 0 && beatType <= 1024 { common = Self.lcm(common, beatType) }
          let numerator = length * Rational(common, 4)
          measure.timeSignature = numerator.isInteger ? (numerator.numerator, common) : (numeratorSum, denominators.first ?? 4)
        }
      }
    }
    measure.barLength = state.barLength
    if let key = element.child("key"), let fifths = key.text(of: "fifths").flatMap(Int.init), measure.key == nil {
      let minor = key.text(of: "mode") == "minor"
      measure.key = Key(signature: max(-7, min(7, fifths)), minor: minor)
    }
    for details in element.children("staff-details") {
      let staff = details[attribute: "number"].flatMap(Int.init) ?? 1
      var tuning = state.tunings[staff] ?? StringTuning(lines: 5)
      tuning.read(details)
      state.tunings[staff] = tuning
    }
    if let transpose = element.child("transpose") {
      state.chromatic = transpose.text(of: "chromatic").flatMap { Double($0) }.map { Int($0.rounded()) } ?? 0
      state.octaveChange = transpose.text(of: "octave-change").flatMap(Int.init) ?? 0
      state.chromatic = max(-48, min(48, state.chromatic))
      state.octaveChange = max(-4, min(4, state.octaveChange))
    }
  }

  /// Reads one `<note>`; `chordHead` is the chord's first note when this one carries `<chord/>`.
  ///
  /// A chord member without `<voice>` or `<staff>` takes its chord's. Its duration is its chord's
  /// unless its own note type (with dots and tuplet ratio) confirms a different `<duration>`: the
  /// format lets a chord note be shorter, but a writer's stray value (a dotted half of 512 where
  /// the chord and the type say 768) is not meant to cut the note short. A note without
  /// `<duration>` lasts what its type says (tablature files omit it).
  private func readNote(
    _ element: XMLTree.Element, path: @autoclosure () -> String, state: inout PartState, part: Int, measure: Int, chordHead: Note?
  ) throws(ScoreModelError) -> Note? {
    let isGrace = element.child("grace") != nil
    let voice = element.text(of: "voice").flatMap(Int.init) ?? chordHead?.voice ?? 1
    let staff = element.text(of: "staff").flatMap(Int.init) ?? chordHead?.staff ?? 1
    var duration = Rational.zero
    if !isGrace {
      if element.child("duration") == nil, let typed = Self.typeQuarters(element) {
        duration = typed
      } else {
        duration = try self.duration(element, path: path(), state: state)
      }
      if let head = chordHead, !head.isGrace, duration != head.duration, Self.typeQuarters(element) != duration {
        duration = head.duration
      }
    }
    var notated: SpelledNote?
    if let pitch = element.child("pitch") {
      guard let step = pitch.text(of: "step"), let letter = Self.letter(step),
        let octave = pitch.text(of: "octave").flatMap(Int.init), (-1...9).contains(octave)
      else {
        throw .invalidMusicXML(path: path() + "/pitch", line: pitch.line, reason: "expected a step A-G and an octave -1...9")
      }
      let alter = pitch.text(of: "alter").flatMap(Double.init).map { Int($0.rounded()) } ?? 0
      guard let accidental = Accidental(semitones: max(-3, min(3, alter))) else {
        throw .invalidMusicXML(path: path() + "/pitch/alter", line: pitch.line, reason: "alter \(alter)")
      }
      notated = SpelledNote(letter, accidental, octave: octave)
    } else if let unpitched = element.child("unpitched") {
      // Percussion: the display position stands for the pitch.
      if let step = unpitched.text(of: "display-step"), let letter = Self.letter(step),
        let octave = unpitched.text(of: "display-octave").flatMap(Int.init), (-1...9).contains(octave)
      {
        notated = SpelledNote(letter, octave: octave)
      }
    } else if element.child("rest") == nil {
      guard let fretted = try tablaturePitch(element, path: path(), state: state) else {
        throw .invalidMusicXML(path: path(), line: element.line, reason: "a note with no <pitch>, <unpitched>, <rest> or string and fret")
      }
      notated = fretted
    }
    // Ties (the sounding <tie>, or the notated <tied> when a writer gives only that).
    let ties = element.children("tie").compactMap { $0[attribute: "type"] }
    let notations = element.children("notations")
    let tied = notations.flatMap { $0.children("tied") }.compactMap { $0[attribute: "type"] }
    let tieTypes = ties.isEmpty ? tied : ties
    // Slurs: open and closed by number, per voice. A note is slurred when a slur carries it
    // into the next one: one is still open after it (the last note under a slur is released as
    // usual).
    for slur in notations.flatMap({ $0.children("slur") }) {
      let number = slur[attribute: "number"] ?? "1"
      switch slur[attribute: "type"] {
      case "start": state.openSlurs[voice, default: []].insert(number)
      case "stop": state.openSlurs[voice]?.remove(number)
      default: break
      }
    }
    let slurred = !(state.openSlurs[voice]?.isEmpty ?? true)
    var articulations: [ScoreNote.Articulation] = []
    for group in notations.flatMap({ $0.children("articulations") }) {
      for mark in group.children {
        switch mark.name {
        case "staccato": articulations.append(.staccato)
        case "staccatissimo", "spiccato": articulations.append(.staccatissimo)
        case "tenuto", "detached-legato": articulations.append(.tenuto)
        case "accent": articulations.append(.accent)
        case "strong-accent": articulations.append(.strongAccent)
        default: break
        }
      }
    }
    if articulations.count > 1 { articulations = ScoreNote.Articulation.allCases.filter(articulations.contains) }
    return Note(
      part: part, measure: measure, voice: voice, staff: staff, onset: .zero, duration: duration, notated: notated,
      transpose: state.transpose, isGrace: isGrace, tieStart: tieTypes.contains("start"), tieStop: tieTypes.contains("stop"),
      isSlurred: slurred, articulations: articulations, defaultX: element[attribute: "default-x"].flatMap(Double.init),
      defaultY: element[attribute: "default-y"].flatMap(Double.init), line: element.line)
  }

  /// The least common multiple of two positive numbers (capped: beat types are powers of two in
  /// practice, at most 1024).
  static func lcm(_ a: Int, _ b: Int) -> Int {
    var (x, y) = (a, b)
    while y != 0 { (x, y) = (y, x % y) }
    return min(a / x * b, 1 << 20)
  }

  /// The letter of a `<step>` such as `C` (or `c`), from its first character.
  static func letter(_ step: String) -> Letter? {
    guard let byte = step.utf8.first else { return nil }
    let upper = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? byte - 32 : byte
    return Letter(character: Character(Unicode.Scalar(upper)))
  }

  /// Quarter notes per note type, `maxima` to `1024th`.
  static let typeLengths: [String: Rational] = [
    "maxima": 32, "long": 16, "breve": 8, "whole": 4, "half": 2, "quarter": 1, "eighth": Rational(1, 2),
    "16th": Rational(1, 4), "32nd": Rational(1, 8), "64th": Rational(1, 16), "128th": Rational(1, 32),
    "256th": Rational(1, 64), "512th": Rational(1, 128), "1024th": Rational(1, 256),
  ]

  /// What a note's `<type>`, `<dot>`s and `<time-modification>` make its length, in quarter
  /// notes, or `nil` without a known type.
  static func typeQuarters(_ note: XMLTree.Element) -> Rational? {
    guard let type = note.text(of: "type"), var length = typeLengths[type] else { return nil }
    var dot = length * Rational(1, 2)
    for _ in note.children("dot").prefix(8) {
      length += dot
      dot = dot * Rational(1, 2)
    }
    if let modification = note.child("time-modification"),
      let actual = modification.text(of: "actual-notes").flatMap(Int.init),
      let normal = modification.text(of: "normal-notes").flatMap(Int.init),
      (1...1000).contains(actual), (1...1000).contains(normal)
    {
      length = length * Rational(normal, actual)
    }
    return length
  }

  /// The pitch of a tablature note given only by `<string>` and `<fret>`: the open string's
  /// `<staff-tuning>` (from the staff's `<staff-details>`, standard six-string guitar tuning E2 A2
  /// D3 G3 B3 E4 when the file gives none) raised by the fret and the `<capo>`, or `nil` when the
  /// note has no string and fret.
  private func tablaturePitch(_ element: XMLTree.Element, path: @autoclosure () -> String, state: PartState) throws(ScoreModelError) -> SpelledNote? {
    guard let technical = element.children("notations").lazy.compactMap({ $0.child("technical") }).first,
      let string = technical.text(of: "string").flatMap(Int.init), let fret = technical.text(of: "fret").flatMap(Int.init)
    else { return nil }
    let staff = element.text(of: "staff").flatMap(Int.init) ?? 1
    let tuning = state.tunings[staff] ?? StringTuning.standardGuitar
    // Strings count from the highest; tuning lines from the bottom.
    let line = tuning.lines + 1 - string
    guard let open = tuning.openStrings[line], (0...48).contains(fret) else {
      throw .invalidMusicXML(
        path: path() + "/notations/technical", line: element.line,
        reason: "string \(string), fret \(fret): no such string in a tuning of \(tuning.lines) lines")
    }
    guard let pitch = MIDINote(open + fret + tuning.capo) else {
      throw .invalidMusicXML(path: path() + "/notations/technical", line: element.line, reason: "string \(string), fret \(fret) is outside MIDI")
    }
    return SpelledNote(midi: pitch)
  }

  private func readDirection(_ element: XMLTree.Element, at cursor: Rational, state: PartState, measure: inout Measure) {
    var position = cursor
    if let offset = element.text(of: "offset").flatMap(Double.init), let divisions = state.divisions, offset.isFinite, abs(offset) < 1e7 {
      position = max(.zero, cursor + Rational(Int(offset.rounded()), divisions))
    }
    var hasSoundTempo = false
    if let sound = element.child("sound") {
      hasSoundTempo = sound[attribute: "tempo"] != nil
      readSound(sound, at: position, measure: &measure)
    }
    for type in element.children("direction-type") {
      if !hasSoundTempo, let metronome = type.child("metronome"), let bpm = Self.metronomeQuarterBPM(metronome) {
        measure.tempos.append((position, bpm))
      }
      for words in type.children("words") { measure.wordJumps.read(words: words.text) }
      if type.child("segno") != nil { measure.repeats.segno = true }
      if type.child("coda") != nil { measure.repeats.coda = true }
    }
  }

  private func readSound(_ element: XMLTree.Element, at position: Rational, measure: inout Measure) {
    if let tempo = element[attribute: "tempo"].flatMap(Double.init), tempo.isFinite, tempo > 0, tempo < 10_000 {
      measure.tempos.append((position, tempo))
    }
    measure.repeats.read(sound: element)
  }

  /// A metronome mark as quarter notes per minute (a dotted half = 3 quarters a beat).
  static func metronomeQuarterBPM(_ metronome: XMLTree.Element) -> Double? {
    guard let unit = metronome.text(of: "beat-unit"), let perMinute = metronome.text(of: "per-minute").flatMap(Double.init),
      perMinute > 0, perMinute < 10_000
    else { return nil }
    let quarters: [String: Double] = [
      "maxima": 32, "long": 16, "breve": 8, "whole": 4, "half": 2, "quarter": 1, "eighth": 0.5, "16th": 0.25,
      "32nd": 0.125, "64th": 0.0625,
    ]
    guard var value = quarters[unit] else { return nil }
    var dot = value / 2
    for _ in metronome.children("beat-unit-dot") {
      value += dot
      dot /= 2
    }
    return perMinute * value
  }
}
