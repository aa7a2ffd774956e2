import Foundation

extension Score {
  /// Reads a MusicXML score: `score-partwise` or `score-timewise` text (`.musicxml`, `.xml`), or a
  /// compressed `.mxl` archive (its `META-INF/container.xml` names the score).
  ///
  /// What it reads: `divisions` and their changes, `backup` and `forward`, chords, voices and
  /// staves, ties merged into one sounding note (slurs are not ties), tuplets (through their
  /// durations), grace notes (flagged, duration 0), cue notes (left out: not played), rests
  /// (kept), pickup measures, time and key signatures, tempo from `<sound tempo>` or metronome
  /// marks, transposition (`<transpose>` chromatic and octave change, also changing mid-part;
  /// `<concert-score/>`), repeats, voltas and jumps (see ``MusicXMLOptions/expandsRepeats``), and
  /// the drawing position of every note (see the `MusicXMLImport` article).
  ///
  /// - Parameters:
  ///   - data: The file's bytes.
  ///   - options: Repeat expansion and the default tempo.
  /// - Throws: ``ScoreModelError/invalidXML(line:column:reason:)`` for text that is not XML,
  ///   ``ScoreModelError/invalidMusicXML(path:line:reason:)`` naming the element for a score that
  ///   cannot be read (no parts, a duration before `divisions`, a pitch outside MIDI), and the
  ///   archive errors for a broken `.mxl`. Never crashes, whatever the bytes.
  public init(musicXML data: Data, options: MusicXMLOptions = .init()) throws(ScoreModelError) {
    let bytes = [UInt8](data)
    let xml = bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) ? try Self.rootFile(ofMXL: data) : bytes
    let tree = try XMLTree(bytes: xml)
    let reader = try MusicXMLReader(document: tree.root)
    self = try Self.assemble(reader, options: options)
  }

  /// Reads a MusicXML score from a file (see ``init(musicXML:options:)``).
  ///
  /// - Throws: ``ScoreModelError/io(path:message:)`` when the file cannot be read, else as
  ///   ``init(musicXML:options:)``.
  public init(contentsOf url: URL, options: MusicXMLOptions = .init()) throws(ScoreModelError) {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      let exists = FileManager.default.fileExists(atPath: url.path)
      throw .io(path: url.path, message: exists ? "cannot read: \(error.localizedDescription)" : "no such file")
    }
    try self.init(musicXML: data, options: options)
  }

  /// The score document inside an `.mxl` archive.
  static func rootFile(ofMXL data: Data) throws(ScoreModelError) -> [UInt8] {
    let archive = try ZipArchive(data: data)
    if archive.entry(for: "META-INF/container.xml") != nil {
      let container = try XMLTree(bytes: [UInt8](try archive.data(for: "META-INF/container.xml")))
      let rootfiles = container.root.child("rootfiles")?.children("rootfile") ?? []
      // The first rootfile that is MusicXML (others may be PDFs or images).
      let chosen =
        rootfiles.first { ($0[attribute: "media-type"] ?? "application/vnd.recordare.musicxml+xml").contains("musicxml") }
        ?? rootfiles.first
      guard let path = chosen?[attribute: "full-path"] else {
        throw .invalidMusicXML(path: "META-INF/container.xml", line: container.root.line, reason: "no <rootfile full-path>")
      }
      return [UInt8](try archive.data(for: path))
    }
    guard let path = archive.paths.first(where: { !$0.hasPrefix("META-INF/") && ($0.hasSuffix(".xml") || $0.hasSuffix(".musicxml")) })
    else {
      throw .invalidMusicXML(path: "META-INF/container.xml", line: 0, reason: "the archive has no container and no .xml file")
    }
    return [UInt8](try archive.data(for: path))
  }

  /// Lays the notation on the timeline.
  static func assemble(_ reader: MusicXMLReader, options: MusicXMLOptions) throws(ScoreModelError) -> Score {
    let measures = reader.measures
    // A measure lasts as long as its content (a pickup or a final short bar is shorter, an
    // overfull one longer), or a bar when it is empty. Each part keeps its own timeline, as
    // music21 reads it, so that a writer's error in one part does not move the others; they
    // agree in any well-formed score. The score's measures and tempos follow the first part.
    let repeatMarks = measures.map { options.readsJumpWords ? $0.repeats.addingJumps(of: $0.wordJumps) : $0.repeats }
    let order = options.expandsRepeats ? RepeatMarks.performanceOrder(repeatMarks) : Array(measures.indices)
    func timeline(_ contents: [Rational], _ bars: [Rational]) -> (lengths: [Rational], onsets: [Rational]) {
      let lengths = measures.indices.map { m in
        Self.playedLength(content: m < contents.count ? contents[m] : .zero, bar: m < bars.count ? bars[m] : measures[m].barLength)
      }
      var onsets: [Rational] = []
      var position = Rational.zero
      for m in order {
        onsets.append(position)
        position += lengths[m]
      }
      return (lengths, onsets)
    }
    let partTimelines = zip(reader.partLengths, reader.partBars).map(timeline)
    let (lengths, onsets) = partTimelines.first ?? timeline([], [])

    // Tempo marks in performance order; the default before the first.
    var marks: [(quarters: Rational, bpm: Double)] = []
    for (played, m) in order.enumerated() {
      for tempo in measures[m].tempos { marks.append((onsets[played] + tempo.position, tempo.bpm)) }
    }
    marks = marks.enumerated().sorted { ($0.element.quarters, $0.offset) < ($1.element.quarters, $1.offset) }.map(\.element)
    if marks.first.map({ $0.quarters > .zero }) ?? true { marks.insert((.zero, options.defaultTempo), at: 0) }
    var tempos: [Tempo] = []
    for mark in marks {
      if let last = tempos.last {
        if last.quarters == mark.quarters {
          tempos[tempos.count - 1].bpm = mark.bpm
          continue
        }
        if last.bpm == mark.bpm { continue }
        let seconds = last.seconds + (mark.quarters - last.quarters).doubleValue * 60 / last.bpm
        tempos.append(Tempo(quarters: mark.quarters, seconds: seconds, bpm: mark.bpm))
      } else {
        tempos.append(Tempo(quarters: mark.quarters, seconds: 0, bpm: mark.bpm))
      }
    }
    var score = Score(title: reader.title, parts: reader.parts, tempos: tempos, isExpanded: options.expandsRepeats)

    // Measures, signatures and keys along the timeline.
    var lastTime: (Int, Int)?
    var lastKey: Key?
    // No signature until the score gives one (a score without <time> has none).
    var timeInForce: (Int, Int)?
    for (played, m) in order.enumerated() {
      let measure = measures[m]
      score.measures.append(
        Measure(
          number: measure.number, notationIndex: m, onset: onsets[played], duration: lengths[m],
          onsetSeconds: score.seconds(atQuarter: onsets[played])))
      if let signature = measure.timeSignature { timeInForce = signature }
      if let time = timeInForce, lastTime.map({ $0 != time }) ?? true {
        score.timeSignatures.append(TimeSignature(quarters: onsets[played], numerator: time.0, denominator: time.1))
        lastTime = time
      }
      if let key = measure.key, key != lastKey {
        score.keySignatures.append(KeySignature(quarters: onsets[played], key: key))
        lastKey = key
      }
    }

    // Notes, once per time their measure is played, then ties merged.
    let layout = ScoreLayout(measures: measures, lengths: lengths, defaults: reader.defaults, staffCounts: reader.staffCounts)
    var byMeasure = Array(repeating: [Int](), count: measures.count)
    for (index, note) in reader.notes.enumerated() where note.measure < measures.count { byMeasure[note.measure].append(index) }
    // Measure numbers as notes carry them: the number's leading digits ("12a" is 12); one without
    // (an implicit measure "X1") carries the number of the bar it continues.
    var numbers: [Int] = []
    for (index, measure) in measures.enumerated() {
      let digits = measure.number.prefix { $0.isASCII && $0.isNumber }
      numbers.append(Int(digits.prefix(9)) ?? (index > 0 ? numbers[index - 1] : 1))
    }
    var built: [(note: ScoreNote, tieStart: Bool, order: Int)] = []
    built.reserveCapacity(reader.notes.count * order.count / max(1, measures.count) + 16)
    for (played, m) in order.enumerated() {
      for index in byMeasure[m] {
        let source = reader.notes[index]
        var written: MIDINote?
        var sounding: MIDINote?
        var spelling = source.notated
        if let notated = source.notated {
          let pitch = notated.midiNumber
          let (w, s) = reader.isConcertScore ? (pitch - source.transpose, pitch) : (pitch, pitch + source.transpose)
          guard let writtenNote = MIDINote(w), let soundingNote = MIDINote(s) else {
            throw .invalidMusicXML(
              path: "\(reader.document.name)/part[\(reader.parts[source.part].id)]/measure[\(measures[m].number)]/note",
              line: source.line, reason: "pitch \(notated) sounds outside MIDI 0...127")
          }
          written = writtenNote
          sounding = soundingNote
          if reader.isConcertScore, source.transpose != 0 { spelling = SpelledNote(midi: writtenNote) }
        }
        let onset = partTimelines[source.part].onsets[played] + source.onset
        let (x, y) = layout.position(of: source, measureLength: partTimelines[source.part].lengths[m])
        let note = ScoreNote(
          part: reader.parts[source.part].id, measure: numbers[m], voice: source.voice,
          staff: source.staff, onset: onset, duration: source.duration, onsetSeconds: 0, durationSeconds: 0,
          writtenPitch: written, soundingPitch: sounding, spelling: spelling, isGrace: source.isGrace,
          isSlurred: source.isSlurred, articulations: source.articulations, x: x, y: y)
        built.append((note, source.tieStart, built.count))
      }
    }
    // Sorted by onset (stable); indices are sorted, the large notes are moved once.
    let byOnset = built.indices.sorted { a, b in
      let (x, y) = (built[a].note.onset, built[b].note.onset)
      return x == y ? a < b : x < y
    }
    var merged = mergeTies(byOnset.map { (built[$0].note, built[$0].tieStart) })
    built = []
    for i in merged.indices {
      let start = score.seconds(atQuarter: merged[i].onset)
      merged[i].onsetSeconds = start
      merged[i].durationSeconds = score.seconds(atQuarter: merged[i].end) - start
    }
    let partOrder = Dictionary(reader.parts.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { a, _ in a })
    // Onset, part, grace notes before the notes they lead to, pitch (rests first), then the order
    // so far; the keys are computed once per note.
    let keys = merged.map { note in
      (partOrder[note.part] ?? 0, note.isGrace ? 0 : 1, note.soundingPitch?.rawValue ?? -1)
    }
    let final = merged.indices.sorted { a, b in
      let (x, y) = (merged[a].onset, merged[b].onset)
      if x != y { return x < y }
      let (left, right) = (keys[a], keys[b])
      return left != right ? left < right : a < b
    }
    score.notes = final.map { merged[$0] }
    return score
  }

  /// How long a measure lasts, in quarter notes: as long as its content (a pickup or a final
  /// short bar is shorter, an overfull one longer), a full bar when it is empty, and a full bar
  /// too when its content overruns the bar by a stray amount: at most half a quarter and no
  /// multiple of a 64th note or of a 32nd-note triplet (a writer's filler rest of 59/672, a
  /// rounded tuplet), which no rhythm means and which would shift every later measure.
  static func playedLength(content: Rational, bar: Rational) -> Rational {
    guard content > .zero else { return bar }
    let overrun = content - bar
    if overrun > .zero, overrun <= Rational(1, 2), !(overrun * 16).isInteger, !(overrun * 12).isInteger {
      return bar
    }
    return content
  }

  /// Tied notes merged into one sounding note, from notes sorted by onset.
  ///
  /// A pitched, non-grace note whose tie starts (or continues) is joined by a note of the same
  /// part and pitch that starts exactly where it ends: first one of its own voice and staff, over
  /// the whole score; then, for a tie still open, one of another voice that no tie of its own voice
  /// reached (a tie into a bar where the line changes voice). Joined notes are one note as long as
  /// the chain. A missing tie stop does not break a tie (writers forget it), a stop without a
  /// start does nothing, and two voices tying the same pitch at the same time keep their own
  /// notes.
  static func mergeTies(_ notes: [(note: ScoreNote, tieStart: Bool)]) -> [ScoreNote] {
    struct Start: Hashable {
      var part: String
      var pitch: Int
      var onset: Rational
    }
    func tieable(_ index: Int) -> Bool { notes[index].note.soundingPitch != nil && !notes[index].note.isGrace }
    var starts: [Start: [Int]] = [:]
    starts.reserveCapacity(notes.count)
    for index in notes.indices where tieable(index) {
      let note = notes[index].note
      starts[Start(part: note.part, pitch: note.soundingPitch!.rawValue, onset: note.onset), default: []].append(index)
    }
    var next = [Int?](repeating: nil, count: notes.count)
    var joined = Array(repeating: false, count: notes.count)
    for sameVoiceOnly in [true, false] {
      for index in notes.indices where notes[index].tieStart && next[index] == nil && tieable(index) {
        let note = notes[index].note
        // A tie needs a length to cross: chains move forward in time, so they cannot loop.
        guard note.duration > .zero, let candidates = starts[Start(part: note.part, pitch: note.soundingPitch!.rawValue, onset: note.end)]
        else { continue }
        let chosen = candidates.first { candidate in
          !joined[candidate] && (!sameVoiceOnly || (notes[candidate].note.voice == note.voice && notes[candidate].note.staff == note.staff))
        }
        if let chosen {
          next[index] = chosen
          joined[chosen] = true
        }
      }
    }
    var merged: [ScoreNote] = []
    merged.reserveCapacity(notes.count)
    for index in notes.indices where !joined[index] {
      var note = notes[index].note
      var link = next[index]
      while let following = link {
        note.duration += notes[following].note.duration
        note.isTied = true
        // Slurred into the next note when its last tied part is.
        note.isSlurred = notes[following].note.isSlurred
        link = next[following]
      }
      merged.append(note)
    }
    return merged
  }
}
