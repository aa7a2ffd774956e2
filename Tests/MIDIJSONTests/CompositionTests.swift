import Foundation
import ScoreModel
import Testing

@testable import MIDIJSON

func jsonFixture(_ name: String) throws -> Data {
  let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: "json"))
  return try Data(contentsOf: url)
}

@Suite struct CompositionJSONTests {
  @Test func readsTheSeedsFirstExampleWithoutTempoOrLength() throws {
    // Moodles' first example, as published: no tempo, no length.
    let song = try Composition(json: try jsonFixture("seed-my-first-song"))
    #expect(song.name == "My First Song")
    #expect(song.tempo == 120)
    #expect(song.events.count == 5)
    #expect(song.notes.map(\.number) == [48, 49, 50, 51, 52])
    #expect(song.length == 10.5)  // the last note's end
  }

  @Test func readsTheSeedsRealCompositionWithUnsortedEvents() throws {
    let mary = try Composition(json: try jsonFixture("seed-mary"))
    #expect(mary.name == "Mary" && mary.tempo == 60)
    #expect(mary.length == 33.733943939208984)
    #expect(mary.events.count == 54)
    // The file lists a later note (beat 4.69) before earlier ones; the notes come out sorted.
    let notes = mary.notes
    #expect(zip(notes, notes.dropFirst()).allSatisfy { $0.time <= $1.time })
    #expect(notes.first?.number == 86 && notes.first?.time == 1.735548973083496)
    // 60 BPM: a beat is a second.
    #expect(mary.tempoMap.seconds(atBeat: 4.5) == 4.5)
  }

  @Test func writesWhatItReads() throws {
    let mary = try Composition(json: try jsonFixture("seed-mary"))
    let again = try Composition(json: mary.json())
    #expect(again == mary)
    // The seed's members come first and each event is one line.
    let text = String(decoding: mary.json(), as: UTF8.self)
    #expect(text.hasPrefix("{\n  \"name\": \"Mary\",\n  \"tempo\": 60,\n  \"length\": 33.733943939208984,\n  \"events\": [\n"))
    #expect(text.contains("\n    [1.735548973083496, \"note\", 86, 127, 2.0011720657348633],\n"))
  }

  @Test func everyEventTypeAndExtensionRoundTrips() throws {
    var song = Composition(
      name: "All \"kinds\"\n", tempo: 90,
      events: [
        .note(time: 0, number: 60, velocity: 100, duration: 1),
        .chord(time: 1, numbers: [60, 64, 67], velocity: 80, duration: 2, channel: 2),
        .control(time: 0, controller: 7, value: 100, channel: 2),
        .pitch(time: 0.5, bend: -8192, channel: 1),
        .param(time: 0, parameter: .program, value: 56, channel: 1),
        .param(time: 3, parameter: .pressure, value: 30),
        .sequence(time: 4, events: [.note(time: 0, number: 72, velocity: 90, duration: 0.5)], repeats: 3, length: 1),
      ])
    song.tempos.append(.init(beat: 4, bpm: 120))
    song.ppq = 480
    song.timeSignatures = [.init(beat: 0, numerator: 3, denominator: 4)]
    song.keySignatures = [.init(beat: 0, sharps: -3, minor: true)]
    let again = try Composition(json: song.json())
    #expect(again == song)
    // Chords and sequences expand: 1 + 3 + 3 notes.
    #expect(song.notes.count == 7)
    #expect(song.notes.filter { $0.number == 72 }.map(\.time) == [4, 5, 6])
    #expect(song.length == 6.5)
    // 90 BPM for 4 beats, then 120.
    #expect(abs(song.tempoMap.seconds(atBeat: 6) - (4.0 * 60 / 90 + 1)) < 1e-12)
  }

  @Test func integersMayBeWrittenWithAFractionAndUnknownMembersAreIgnored() throws {
    let song = try Composition(json: Data(#"{"id":"x7","events":[[0,"note",60.0,127.0,1]],"shared":true}"#.utf8))
    #expect(song.notes == [CompositionNote(time: 0, number: 60, velocity: 127, duration: 1)])
  }

  @Test(arguments: [
    (#"{"events":[[0,"note",128,127,1]]}"#, "events[0][2]", "expected an integer 0...127, found the number 128"),
    (#"{"events":[[0,"note",60,127,-1]]}"#, "events[0][4]", "expected a time in beats, 0 or more, found the number -1"),
    (#"{"events":[[0,"note",60,127]]}"#, "events[0]", "a note event is [time, \"note\", number, velocity, duration(, channel)]; found 4 elements"),
    (#"{"events":[[0,"drum",60]]}"#, "events[0][1]", "unknown event type \"drum\": expected note, chord, control, pitch, param or sequence"),
    (#"{"events":[[0,"param","volume",3]]}"#, "events[0][2]", "expected a parameter name, \"program\" or \"pressure\", found \"volume\""),
    (#"{"events":[[0,"chord",[60,"E"],1,1]]}"#, "events[0][2][1]", "expected an integer 0...127, found the string \"E\""),
    (#"{"events":[[0,"note",60,100,1,16]]}"#, "events[0][5]", "expected an integer 0...15, found the number 16"),
    (#"{"events":{}}"#, "events", "expected an array of events, found an object"),
    (#"{"name":3,"events":[]}"#, "name", "expected a string, found the number 3"),
    (#"{"tempo":0,"events":[]}"#, "tempo", "expected a positive tempo in BPM, found the number 0"),
    (#"{"events":[],"timeSignatures":[[0,3,5]]}"#, "timeSignatures[0][2]", "expected an integer 1...128, a power of two, found the number 5"),
    (#"{"name":"x"}"#, "", "missing member \"events\""),
    ("[1,2]", "", "expected an object, found an array"),
  ])
  func shapeErrorsNameThePlace(json: String, path: String, reason: String) {
    #expect(throws: MIDIJSONError.invalidJSON(path: path, reason: reason)) { try Composition(json: Data(json.utf8)) }
  }

  @Test(arguments: [
    ("{\"events\": [\n  [0, \"note\", 60 127, 1]\n]}", 2, 18, "expected \",\" or \"]\" in an array, found \"1\""),
    ("{\"events\": [], }", 1, 16, "expected a quoted member name"),
    ("{\"name\": \"abc", 1, 10, "unterminated string"),
    ("", 1, 1, "expected a value, found the end of the text"),
    ("{\"events\": []} x", 1, 16, "unexpected text after the JSON document"),
    ("{\"events\": [01]}", 1, 13, "a number cannot start with 0"),
  ])
  func syntaxErrorsNameLineAndColumn(json: String, line: Int, column: Int, reason: String) {
    #expect(throws: MIDIJSONError.malformedJSON(line: line, column: column, reason: reason)) {
      try Composition(json: Data(json.utf8))
    }
  }

  @Test func hostileDocumentsAreRefusedCheaply() {
    // Sequences of sequences repeating 10000 times would expand to 10^12 notes.
    let bomb = #"{"events":[[0,"sequence",[[0,"sequence",[[0,"sequence",[[0,"note",60,1,1]],10000]],10000]],10000]]}"#
    #expect(throws: MIDIJSONError.invalidJSON(path: "events[0][2][0]", reason: "expands to more than 1000000 events")) {
      try Composition(json: Data(bomb.utf8))
    }
    let deep = String(repeating: "[", count: 100_000)
    #expect(throws: MIDIJSONError.malformedJSON(line: 1, column: 65, reason: "nested deeper than 64 levels")) {
      try Composition(json: Data(deep.utf8))
    }
  }

  @Test func stringsWithEscapesAndUnicodeSurviveTheWriter() throws {
    let song = Composition(name: "Ode \u{2013} \"Freude\" \\ 歓喜 🎵\t\u{1}", events: [])
    #expect(try Composition(json: song.json()).name == song.name)
    let escaped = try Composition(json: Data(#"{"name":"\u00e9\ud83c\udfb5\/","events":[]}"#.utf8))
    #expect(escaped.name == "é🎵/")
  }
}

@Suite struct CompositionMIDIFileTests {
  /// SMF → compact → SMF → compact gives the same document, for every edge file.
  @Test(arguments: edgeFiles)
  func compactRoundTripIsLossless(name: String) throws {
    let file = try MIDIFile(data: try fixture(name))
    let first = Composition(file)
    let written = MIDIFile(first)
    let reread = try MIDIFile(data: written.encoded())
    #expect(reread.warnings.isEmpty, "\(reread.warnings)")
    let second = Composition(reread)
    #expect(second == first, "\(name)")
    #expect(second.json() == first.json())
    // The notes are the file's notes, in beats.
    let ppq = Double(file.ticksPerQuarter ?? 1)
    let fileNotes = file.notes()
    let expected = (fileNotes.notes + fileNotes.unreleased).map { "\($0.ticks) \($0.midi) \($0.channel) \($0.durationTicks)" }.sorted()
    let got = first.notes.map { "\(Int(($0.time * ppq).rounded())) \($0.number) \($0.channel) \(Int(($0.duration * ppq).rounded()))" }
      .sorted()
    if file.ticksPerQuarter != nil { #expect(got == expected, "\(name)") }
  }

  /// SMF → full → SMF → full gives the same document, for every edge file.
  @Test(arguments: edgeFiles)
  func fullRoundTripIsLossless(name: String) throws {
    let file = try MIDIFile(data: try fixture(name))
    let first = FullMIDIJSON(file)
    let decoded = try FullMIDIJSON(json: first.json())
    #expect(decoded == first)
    let reread = try MIDIFile(data: try MIDIFile(decoded).encoded())
    let second = FullMIDIJSON(reread)
    #expect(second == first, "\(name)")
  }

  @Test func appCompositionsAreQuantizedToTheDefaultGridOnce() throws {
    let mary = try Composition(json: try jsonFixture("seed-mary"))
    let file = MIDIFile(mary)
    #expect(file.ticksPerQuarter == 960 && file.format == 1)
    let back = Composition(try MIDIFile(data: file.encoded()), name: "Mary")
    #expect(back.ppq == 960)
    #expect(back.tempo == 60)
    #expect(back.notes.count == mary.notes.count)
    for (a, b) in zip(mary.notes, back.notes) {
      #expect(a.number == b.number && a.velocity == b.velocity)
      #expect(abs(a.time - b.time) <= 0.5 / 960 + 1e-12)
      #expect(abs(a.end - b.end) <= 0.5 / 960 + 1e-12)
    }
    // From then on the round trip is exact.
    #expect(Composition(try MIDIFile(data: MIDIFile(back).encoded()), name: "Mary") == back)
  }

  @Test func sameTickEventsPairBackToTheirNotes() throws {
    // A re-struck pitch, a zero-length note and two same-pitch notes starting together.
    let song = Composition(events: [
      .note(time: 0, number: 60, velocity: 10, duration: 1),
      .note(time: 1, number: 60, velocity: 20, duration: 1),
      .note(time: 2, number: 62, velocity: 30, duration: 0),
      .note(time: 3, number: 64, velocity: 40, duration: 2),
      .note(time: 3, number: 64, velocity: 50, duration: 0.5),
    ])
    let back = Composition(try MIDIFile(data: MIDIFile(song).encoded()))
    #expect(back.notes.map { [$0.time, Double($0.number), Double($0.velocity), $0.duration] } == song.notes.map { [$0.time, Double($0.number), Double($0.velocity), $0.duration] })
  }

  @Test func nestedNotesOfOnePitchGetTracksOfTheirOwn() throws {
    // From two tracks of one channel: a long C4 and, inside it, a short one. Merged into one
    // track, first-in-first-out pairing would end the long note at the short one's end.
    let song = Composition(events: [
      .note(time: 0, number: 60, velocity: 10, duration: 4),
      .note(time: 1, number: 60, velocity: 20, duration: 1),
      .note(time: 1.5, number: 60, velocity: 30, duration: 0.25),
      .note(time: 5, number: 60, velocity: 40, duration: 1),
    ])
    let file = MIDIFile(song)
    #expect(file.tracks.count == 4)  // the conductor and three tracks for channel 0
    let back = Composition(try MIDIFile(data: file.encoded()))
    #expect(back.notes.map { [$0.time, Double($0.velocity), $0.duration] } == song.notes.map { [$0.time, Double($0.velocity), $0.duration] })
  }

  @Test func jsonOfEitherFormBecomesMIDI() throws {
    let file = try MIDIFile(data: try fixture("test-multichannel-chords-0"))
    let fromCompact = try MIDIFile(json: Composition(file).json())
    let fromFull = try MIDIFile(json: FullMIDIJSON(file).json())
    #expect(fromCompact.notes().notes.count == 24 && fromFull.notes().notes.count == 24)
    #expect(throws: MIDIJSONError.self) { try MIDIFile(json: Data(#"{"tracks":[]}"#.utf8)) }
    var broken = FullMIDIJSON(file)
    broken.tracks[0].notes[0].midi = 128
    #expect(throws: MIDIJSONError.invalidJSON(path: "tracks[0].notes[0].midi", reason: "expected 0...127, found 128")) {
      try MIDIFile(broken)
    }
    #expect(throws: MIDIJSONError.invalidJSON(path: "tracks[0].notes[0]", reason: "missing member \"ticks\"")) {
      try FullMIDIJSON(json: Data(#"{"header":{"name":"","ppq":96,"format":1,"tempos":[],"timeSignatures":[],"keySignatures":[],"meta":[]},"tracks":[{"name":"","channel":0,"instrument":{"number":0,"name":"","family":""},"notes":[{"midi":60,"name":"C4","channel":0,"time":0,"durationTicks":1,"duration":0.1,"velocity":9,"releaseVelocity":0}],"controlChanges":{},"pitchBends":[],"endOfTrackTicks":0}]}"#.utf8))
    }
  }
}

@Suite struct TapRecorderTests {
  @Test func tapsBecomeNotesInBeats() {
    var recorder = TapRecorder(tempo: 120, origin: 10)
    recorder.press(note: 60, velocity: 100, at: 10.5)  // beat 1
    recorder.press(note: 64, at: 11.0)  // beat 2
    recorder.release(note: 60, at: 11.0)
    recorder.release(note: 64, at: 11.25)
    recorder.release(note: 67, at: 12)  // never pressed
    let song = recorder.composition(name: "Taps")
    #expect(song.notes == [
      CompositionNote(time: 1, number: 60, velocity: 100, duration: 1),
      CompositionNote(time: 2, number: 64, velocity: 127, duration: 0.5),
    ])
    #expect(recorder.unmatchedReleases == 1)
    #expect(song.name == "Taps" && song.tempo == 120)
  }

  @Test func quantizationSnapsStartsAndEndsToTheGrid() {
    var recorder = TapRecorder(tempo: 60)
    recorder.press(note: 60, at: 0.26)  // beat 0.26 → 0.25
    recorder.release(note: 60, at: 0.30)  // too short: one grid step
    recorder.press(note: 62, at: 0.74)
    recorder.press(note: 62, at: 1.49)  // re-strike ends the held note
    recorder.releaseAll(at: 2.01)
    let song = recorder.composition(quantization: 0.25)
    #expect(song.notes.map { [$0.time, $0.duration] } == [[0.25, 0.25], [0.75, 0.75], [1.5, 0.5]])
    #expect(recorder.heldNotes.isEmpty)
  }
}

@Suite struct QuizRoundTests {
  /// Beethoven's "da da da dum" and a chord, at 120 BPM (a beat is half a second).
  let song = Composition(
    tempo: 120,
    events: [
      .note(time: 0.5, number: 67, velocity: 100, duration: 0.5),
      .note(time: 1, number: 67, velocity: 100, duration: 0.5),
      .note(time: 1.5, number: 67, velocity: 100, duration: 0.5),
      .note(time: 2, number: 63, velocity: 100, duration: 2),
      .chord(time: 4, numbers: [60, 63, 67], velocity: 100, duration: 2),
      .note(time: 9, number: 72, velocity: 100, duration: 1),
    ])

  @Test func roundsByStepsAndByBars() {
    let bySteps = song.quizRounds(by: .steps(4))
    #expect(bySteps.map { $0.steps.count } == [4, 2])
    #expect(bySteps[1].steps[0].notes == [60, 63, 67])
    #expect(bySteps[1].steps[0].seconds == 2)
    let byBars = song.quizRounds(by: .bars(1))
    // Bar 1 (beats 0-4): 4 steps; bar 2: the chord; bar 3: the last note.
    #expect(byBars.map { $0.steps.count } == [4, 1, 1])
    #expect(byBars.map(\.number) == [1, 2, 3])
  }

  @Test func checkGivesAVerdictPerStep() {
    let round = song.quizRounds(by: .steps(5))[0]
    func taps(_ list: [(Int, Double)]) -> [Tap] { list.map { Tap(note: $0.0, press: $0.1, release: $0.1 + 0.2) } }
    // Right notes, right rhythm, starting 100 s later on another clock; the chord spread over 60 ms.
    let good = taps([(67, 100), (67, 100.25), (67, 100.5), (63, 100.75), (60, 101.75), (67, 101.78), (63, 101.81)])
    #expect(round.check(good).passed)
    // The third note late by 0.3 s, the chord missing a note.
    let sloppy = taps([(67, 0), (67, 0.25), (67, 0.8), (63, 0.75 + 0.3), (60, 1.75), (67, 1.78)])
    #expect(round.check(sloppy).steps.map(\.verdict) == [.correct, .correct, .late, .late, .wrongNotes])
    // Wrong order, then nothing.
    let swapped = taps([(63, 0), (67, 0.25)])
    #expect(round.check(swapped).steps.map(\.verdict) == [.wrongNotes, .correct, .missed, .missed, .missed])
    // Without timing, only notes and order count; an extra step is reported.
    let extra = taps([(67, 0), (67, 1), (67, 2), (63, 3), (60, 4), (63, 4), (67, 4), (72, 5)])
    let result = round.check(extra, options: .init(timingTolerance: nil))
    #expect(result.steps.map(\.verdict) == [.correct, .correct, .correct, .correct, .correct, .extra])
    #expect(!result.passed)
  }
}

@Suite struct CompositionScoreNoteTests {
  @Test func compositionNotesBecomeExactScoreNotes() throws {
    var song = Composition(
      tempo: 60,
      events: [
        .note(time: 0, number: 66, velocity: 90, duration: 1.0 / 3),
        .note(time: 1.0 / 3, number: 70, velocity: 90, duration: 1.0 / 3),
        .note(time: 3.5, number: 61, velocity: 90, duration: 0.5, channel: 1),
      ])
    song.timeSignatures = [.init(beat: 0, numerator: 3, denominator: 4)]
    song.keySignatures = [.init(beat: 0, sharps: -5, minor: false)]  // D♭ major
    let notes = song.scoreNotes()
    #expect(notes.map(\.onset) == [Rational(0), Rational(1, 3), Rational(7, 2)])
    #expect(notes.map(\.duration) == [Rational(1, 3), Rational(1, 3), Rational(1, 2)])
    #expect(notes[0].end == notes[1].onset)
    #expect(notes.map(\.measure) == [1, 1, 2])
    #expect(notes.map(\.part) == ["P1", "P1", "P2"])
    #expect(notes.map { $0.spelling?.description } == ["Gb4", "Bb4", "Db4"])
    #expect(notes[2].onsetSeconds == 3.5 && notes[2].durationSeconds == 0.5)
  }

  @Test func scoreNotesBecomeACompositionWithTheirTempo() {
    // Quarter = 90 for two beats, then quarter = 60; a rest and a grace note are left out.
    let notes = [
      ScoreNote(onset: 0, duration: 1, onsetSeconds: 0, durationSeconds: 2.0 / 3, writtenPitch: MIDINote(62), soundingPitch: MIDINote(60)),
      ScoreNote(onset: 1, duration: 1, onsetSeconds: 2.0 / 3, durationSeconds: 2.0 / 3, writtenPitch: nil),
      ScoreNote(onset: 2, duration: 0, onsetSeconds: 4.0 / 3, durationSeconds: 0, writtenPitch: MIDINote(65), isGrace: true),
      ScoreNote(onset: 2, duration: Rational(1, 2), onsetSeconds: 4.0 / 3, durationSeconds: 0.5, writtenPitch: MIDINote(64)),
      ScoreNote(part: "P2", onset: 3, duration: 1, onsetSeconds: 4.0 / 3 + 1, durationSeconds: 1, writtenPitch: MIDINote(48)),
    ]
    let song = Composition(scoreNotes: notes, name: "Score")
    #expect(song.notes.map(\.number) == [60, 64, 48])
    #expect(song.notes.map(\.channel) == [0, 0, 1])
    #expect(song.tempos == [.init(beat: 0, bpm: 90), .init(beat: 2, bpm: 60)])
    #expect(song.ppq == 960)
    // And back: the same onsets and seconds.
    let again = song.scoreNotes()
    #expect(again.map(\.onset) == [0, 2, 3])
    #expect(again.map(\.onsetSeconds).map { ($0 * 1e9).rounded() } == [0, 4e9 / 3, 4e9 / 3 + 1e9].map { $0.rounded() })
  }
}
