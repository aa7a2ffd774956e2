import Foundation
import Testing

@testable import MIDIJSON

func fixture(_ name: String) throws -> Data {
  let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: "mid"))
  return try Data(contentsOf: url)
}

/// The Jazz-Soft edge-case files that any reader must get through.
let edgeFiles = [
  "test-2-tracks-type-0", "test-2-tracks-type-1", "test-2-tracks-type-2", "test-corrupt-file-extra-byte",
  "test-corrupt-file-missing-byte", "test-empty", "test-illegal-message-all", "test-karaoke-kar",
  "test-multichannel-chords-0", "test-non-midi-track", "test-note-on-velocity", "test-running-status-metaevent",
  "test-running-status-sysex", "test-silence-end-of-track", "test-smpte-offset", "test-track-length",
  "test-vlq-3-byte", "test-vlq-4-byte",
]

@Suite struct MIDIFileReadingTests {
  /// Note counts checked against mido's reading where mido reads the file, and by inspection where not.
  @Test(arguments: [
    ("test-2-tracks-type-1", 2, 16), ("test-karaoke-kar", 3, 29), ("test-multichannel-chords-0", 1, 24),
    ("test-note-on-velocity", 1, 9), ("test-vlq-4-byte", 1, 8), ("test-track-length", 1, 1),
    ("test-running-status-sysex", 1, 8), ("test-illegal-message-all", 1, 8), ("test-non-midi-track", 1, 8),
    ("test-corrupt-file-missing-byte", 1, 8),
  ])
  func edgeFilesGiveTheirNotes(name: String, tracks: Int, notes: Int) throws {
    let file = try MIDIFile(data: try fixture(name))
    #expect(file.tracks.count == tracks)
    let paired = file.notes()
    #expect(paired.notes.count == notes)
    #expect(paired.unreleased.isEmpty)
  }

  @Test func lenientRepairsAreWarnedAndStrictRejectsThem() throws {
    let repaired: [(String, String)] = [
      ("test-running-status-metaevent", "running status continued after a meta or sysex event"),
      ("test-running-status-sysex", "running status continued after a meta or sysex event"),
      ("test-non-midi-track", "unknown chunk \"Junk\" of 27 bytes skipped"),
      ("test-corrupt-file-extra-byte", "1 trailing bytes after the last chunk are ignored"),
      ("test-illegal-message-all", "system message 0xF1 inside a track skipped"),
      ("test-corrupt-file-missing-byte", "track chunk promises 246 bytes, 245 available; reading what is there"),
      ("test-2-tracks-type-0", "format 0 with 2 tracks"),
    ]
    for (name, message) in repaired {
      let file = try MIDIFile(data: try fixture(name))
      #expect(file.warnings.contains { $0.message == message }, "\(name): \(file.warnings)")
      #expect(throws: MIDIJSONError.self, "\(name) in strict mode") {
        try MIDIFile(data: try fixture(name), options: MIDIReadOptions(strict: true))
      }
    }
    #expect(try MIDIFile(data: try fixture("test-2-tracks-type-1"), options: .init(strict: true)).warnings.isEmpty)
  }

  @Test func notMIDIIsATypedError() throws {
    #expect(throws: MIDIJSONError.notMIDI(found: "an empty file")) { try MIDIFile(data: try fixture("test-empty-file")) }
    #expect(throws: MIDIJSONError.notMIDI(found: "\"not \"")) { try MIDIFile(data: try fixture("test-not-a-midi-file")) }
    #expect(throws: MIDIJSONError.truncated(offset: 0, needed: 14, available: 8, context: "MThd chunk")) {
      try MIDIFile(data: Data("MThd\0\0\0\u{6}".utf8))
    }
  }

  @Test func metaEventsAndVelocityZeroNoteOffs() throws {
    let smpte = try MIDIFile(data: try fixture("test-smpte-offset"))
    let hasOffset = smpte.tracks[0].events.contains {
      if case .meta(.smpteOffset) = $0.event { return true }
      return false
    }
    #expect(hasOffset)
    let karaoke = try MIDIFile(data: try fixture("test-karaoke-kar"))
    let lyrics = FullMIDIJSON(karaoke).header.meta.filter { $0.type == "lyrics" || $0.type == "text" }
    #expect(!lyrics.isEmpty)
    // Note-on with velocity 0 ends a note, with the conventional release velocity 64.
    let velocities = try MIDIFile(data: try fixture("test-note-on-velocity")).notes().notes
    #expect(velocities.contains { $0.releaseVelocity == 64 })
    #expect(velocities.allSatisfy { $0.durationTicks >= 0 })
  }

  @Test func overlappingNotesPairFirstInFirstOutByDefault() {
    // Two C4 note-ons on one channel, then two note-offs.
    let track = MIDITrack(events: [
      MIDITimedEvent(tick: 0, .noteOn(channel: 0, note: 60, velocity: 100)),
      MIDITimedEvent(tick: 10, .noteOn(channel: 0, note: 60, velocity: 50)),
      MIDITimedEvent(tick: 20, .noteOff(channel: 0, note: 60, velocity: 0)),
      MIDITimedEvent(tick: 40, .noteOff(channel: 0, note: 60, velocity: 0)),
      MIDITimedEvent(tick: 50, .noteOn(channel: 0, note: 62, velocity: 70)),
      MIDITimedEvent(tick: 60, .meta(.endOfTrack)),
    ])
    let file = MIDIFile(tracks: [track])
    let fifo = file.notes()
    #expect(fifo.notes.map(\.durationTicks) == [20, 30])
    #expect(fifo.notes.map(\.velocity) == [100, 50])
    let lifo = file.notes(pairing: .lastInFirstOut)
    #expect(lifo.notes.map(\.durationTicks) == [40, 10])
    #expect(fifo.unreleased.count == 1 && fifo.unreleased[0].durationTicks == 10)
  }
}

@Suite struct MIDIFileWritingTests {
  @Test(arguments: edgeFiles)
  func writeThenReadGivesTheSameEvents(name: String) throws {
    let original = try MIDIFile(data: try fixture(name))
    let reread = try MIDIFile(data: original.encoded())
    // What the writer produces is clean, except a format-0 file with two tracks stays one.
    #expect(reread.warnings.allSatisfy { $0.message.hasPrefix("format 0 with") }, "\(reread.warnings)")
    #expect(reread.format == original.format && reread.division == original.division)
    #expect(reread.tracks.count == original.tracks.count)
    for (a, b) in zip(original.tracks, reread.tracks) {
      // The writer adds an end-of-track where a broken file lacked one.
      let expected = a.events.last.map { if case .meta(.endOfTrack) = $0.event { return true } else { return false } } ?? false
        ? a.events : a.events + [MIDITimedEvent(tick: a.endTick, .meta(.endOfTrack))]
      #expect(b.events == expected, "\(name)")
    }
    #expect(FullMIDIJSON(reread).tracks.map(\.notes) == FullMIDIJSON(original).tracks.map(\.notes))
  }

  @Test func variableLengthQuantities() {
    for (value, bytes) in [(0, [0x00]), (0x7F, [0x7F]), (0x80, [0x81, 0x00]), (0x3FFF, [0xFF, 0x7F]), (0x0FFF_FFFF, [0xFF, 0xFF, 0xFF, 0x7F])] {
      #expect(MIDIFile.vlq(value) == bytes.map(UInt8.init))
    }
  }
}

@Suite struct TempoMapTests {
  @Test func secondsFollowTempoChangesFromAnyTrack() {
    let conductor = MIDITrack(events: [MIDITimedEvent(tick: 0, .meta(.tempo(microsecondsPerQuarter: 500_000)))])
    let other = MIDITrack(events: [MIDITimedEvent(tick: 960, .meta(.tempo(microsecondsPerQuarter: 1_000_000)))])
    let map = TempoMap(MIDIFile(division: .ticksPerQuarter(480), tracks: [conductor, other]))
    #expect(map.seconds(atTick: 480) == 0.5)
    #expect(map.seconds(atTick: 960) == 1.0)
    #expect(map.seconds(atTick: 1440) == 2.0)
    #expect(map.tick(atSeconds: 2.0) == 1440)
    #expect(TempoMap(MIDIFile(division: .ticksPerQuarter(96))).seconds(atTick: 96) == 0.5)
    #expect(TempoMap(MIDIFile(division: .smpte(framesPerSecond: 25, ticksPerFrame: 40))).seconds(atTick: 1000) == 1)
  }
}
