import Foundation
import MIDIJSON
import ScoreModel
import Testing

@testable import Synthesis

@Suite struct SongTests {
  @Test func compositionNotesAreTimedThroughTheTempoAndKeepTheirChannelsProgram() {
    // 120 bpm for two beats, then 60 bpm.
    var composition = Composition(
      tempo: 120,
      events: [
        .param(time: 0, parameter: .program, value: 24, channel: 1),
        .note(time: 0, number: 60, velocity: 90, duration: 1),
        .note(time: 1, number: 64, velocity: 80, duration: 1, channel: 1),
        .note(time: 2, number: 67, velocity: 70, duration: 1),
      ])
    composition.tempos.append(.init(beat: 2, bpm: 60))
    let song = Song(composition)
    #expect(song.notes.count == 3)
    #expect(song.notes.map(\.pitch) == [60, 64, 67])
    #expect(song.notes.map(\.startSeconds) == [0, 0.5, 1])
    #expect(song.notes.map(\.durationSeconds) == [0.5, 0.5, 1])
    #expect(song.notes.map(\.program) == [0, 24, 0])
    #expect(song.notes.map(\.channel) == [0, 1, 0])
    #expect(song.durationSeconds == 2)
    #expect(song.parts.map { [$0.channel, $0.program, $0.notes.count] } == [[0, 0, 2], [1, 24, 1]])
  }

  @Test func aProgramChangeAffectsOnlyLaterNotesOfItsChannel() {
    let song = Song(
      Composition(
        tempo: 60,
        events: [
          .note(time: 0, number: 60, velocity: 90, duration: 1),
          .param(time: 1, parameter: .program, value: 40),
          .note(time: 1, number: 62, velocity: 90, duration: 1),
        ]))
    #expect(song.notes.map(\.program) == [0, 40])
  }

  @Test func theSustainPedalHoldsReleasedNotesUntilItLifts() {
    let song = Song(
      Composition(
        tempo: 60,
        events: [
          .control(time: 0.5, controller: 64, value: 127),
          .note(time: 0, number: 60, velocity: 90, duration: 1),  // released under the pedal
          .note(time: 0, number: 72, velocity: 90, duration: 0.25),  // released before it
          .control(time: 3, controller: 64, value: 0),
          .note(time: 4, number: 64, velocity: 90, duration: 1),  // after it
        ]))
    #expect(song.notes.map(\.durationSeconds) == [3, 0.25, 1])
  }

  @Test func aMIDIFileBecomesTheSameSongAsItsComposition() throws {
    let composition = Composition(
      tempo: 100,
      events: [
        .param(time: 0, parameter: .program, value: 56),
        .note(time: 0, number: 67, velocity: 100, duration: 0.5),
        .chord(time: 1, numbers: [60, 64, 67], velocity: 64, duration: 2),
      ])
    let file = MIDIFile(composition)
    let song = Song(try MIDIFile(data: file.encoded()))
    let direct = Song(composition)
    #expect(song.notes.count == 4)
    for (a, b) in zip(song.notes, direct.notes) {
      #expect(a.pitch == b.pitch && a.velocity == b.velocity && a.program == b.program)
      #expect(abs(a.startSeconds - b.startSeconds) < 1e-6)
      #expect(abs(a.durationSeconds - b.durationSeconds) < 1e-6)
    }
  }

  @Test func badNotesAreLeftOut() {
    let song = Song(notes: [
      NoteEvent(startSeconds: .nan, durationSeconds: 1, pitch: 60, velocity: 90),
      NoteEvent(startSeconds: -1, durationSeconds: 1, pitch: 60, velocity: 90),
      NoteEvent(startSeconds: 0, durationSeconds: 0, pitch: 60, velocity: 90),
      NoteEvent(startSeconds: 0, durationSeconds: 1, pitch: .infinity, velocity: 90),
      NoteEvent(startSeconds: 0, durationSeconds: 1, pitch: 60, velocity: 0),
      NoteEvent(startSeconds: 1, durationSeconds: 1, pitch: 62, velocity: 90),
    ])
    #expect(song.notes.map(\.pitch) == [62])
  }

  @Test func aScoresPartsPlayOnTheirOwnChannelsWithoutRests() throws {
    let xml = """
      <?xml version="1.0"?>
      <score-partwise><part-list>
      <score-part id="P1"><part-name>A</part-name></score-part>
      <score-part id="P2"><part-name>B</part-name></score-part>
      </part-list>
      <part id="P1"><measure number="1"><attributes><divisions>1</divisions><time><beats>2</beats><beat-type>4</beat-type></time></attributes>
      <sound tempo="60"/>
      <note><pitch><step>C</step><octave>4</octave></pitch><duration>1</duration></note>
      <note><rest/><duration>1</duration></note></measure></part>
      <part id="P2"><measure number="1"><attributes><divisions>1</divisions><time><beats>2</beats><beat-type>4</beat-type></time></attributes>
      <note><rest/><duration>1</duration></note>
      <note><pitch><step>E</step><octave>4</octave></pitch><duration>1</duration></note></measure></part>
      </score-partwise>
      """
    let song = Song(try Score(musicXML: Data(xml.utf8)), program: 24)
    #expect(song.notes.map(\.pitch) == [60, 64])
    #expect(song.notes.map(\.channel) == [0, 1])
    #expect(song.notes.map(\.startSeconds) == [0, 1])
    #expect(song.notes.map(\.program) == [24, 24])
  }
}
