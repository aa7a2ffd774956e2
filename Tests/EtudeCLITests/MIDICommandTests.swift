import Foundation
import MIDIJSON
import Testing

@Suite struct MIDICommandTests {
  /// A two-channel song with a tempo change, as a MIDI file on disk.
  func songFile(in directory: URL) throws -> (Composition, URL) {
    var song = Composition(
      name: "Two hands", tempo: 100,
      events: [
        .note(time: 0, number: 60, velocity: 90, duration: 1),
        .note(time: 1, number: 64, velocity: 91, duration: 0.5),
        .chord(time: 2, numbers: [48, 55], velocity: 70, duration: 2, channel: 1),
        .control(time: 0, controller: 64, value: 127, channel: 1),
      ])
    song.tempos.append(.init(beat: 2, bpm: 50))
    let url = directory.appendingPathComponent("song.mid")
    try MIDIFile(song).write(to: url)
    return (song, url)
  }

  @Test func midiToCompactJSONAndBack() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let (song, url) = try songFile(in: directory)

    let compact = try runEtude(["midi2json", "--format", "compact", url.path])
    #expect(compact.status == 0, "\(compact.err)")
    #expect(compact.out.hasPrefix("{\n  \"name\": \"Two hands\",\n  \"tempo\": 100,\n"))
    #expect(compact.out.contains("\"tempos\": [[0, 100], [2, 50]]"))
    #expect(compact.out.contains("[2, \"note\", 48, 70, 2, 1]"))
    #expect(compact.out.contains("\"warnings\": []"))
    let parsed = try Composition(json: Data(compact.out.utf8))
    #expect(parsed.notes == song.notes)

    let jsonURL = directory.appendingPathComponent("song.json")
    try Data(compact.out.utf8).write(to: jsonURL)
    let outURL = directory.appendingPathComponent("again.mid")
    let back = try runEtude(["json2midi", jsonURL.path, outURL.path])
    #expect(back.status == 0, "\(back.err)")
    #expect(back.err.contains("4 notes"))
    #expect(Composition(try MIDIFile(url: outURL), name: "Two hands") == parsed)
  }

  @Test func midiToFullJSONAndBackFromStandardInput() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let (_, url) = try songFile(in: directory)
    let full = try runEtude(["midi2json", url.path])
    #expect(full.status == 0)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(full.out.utf8)) as? [String: Any])
    let tracks = try #require(object["tracks"] as? [[String: Any]])
    #expect(tracks.count == 3)
    let notes = try #require(tracks[2]["notes"] as? [[String: Any]])
    #expect(notes.map { $0["midi"] as? Int } == [48, 55])
    #expect(abs((notes[0]["time"] as? Double ?? 0) - 1.2) < 1e-9)  // 2 beats at 100 BPM
    #expect(abs((notes[0]["duration"] as? Double ?? 0) - 2.4) < 1e-9)  // 2 beats at 50 BPM

    let outURL = directory.appendingPathComponent("full.mid")
    let back = try runEtude(["json2midi", "-", outURL.path], stdin: Data(full.out.utf8))
    #expect(back.status == 0, "\(back.err)")
    let again = try runEtude(["midi2json", outURL.path])
    #expect(again.out == full.out)
  }

  @Test func badInputIsATypedErrorAndWritesNothing() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let bad = directory.appendingPathComponent("bad.json")
    try Data("{\"events\": [[0, \"note\", 60, 127, 1],\n [1, \"note\", 300, 127, 1]]}".utf8).write(to: bad)
    let outURL = directory.appendingPathComponent("never.mid")
    let result = try runEtude(["json2midi", bad.path, outURL.path])
    #expect(result.status != 0)
    #expect(result.err.contains("invalid JSON at events[1][2]: expected an integer 0...127, found the number 300"))
    #expect(!FileManager.default.fileExists(atPath: outURL.path))

    let notMIDI = directory.appendingPathComponent("x.mid")
    try Data("MThd".utf8).write(to: notMIDI)
    let midi = try runEtude(["midi2json", notMIDI.path])
    #expect(midi.status != 0)
    #expect(midi.err.contains("truncated at byte 0: MThd chunk needs 14 bytes, 4 available"))
  }
}

@Suite struct MIDIRepairCommandTests {
  @Test func repairWritesEveryEventAndListsTheRepairs() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    // Running status continued after a meta event, a data byte above 127, no end of track.
    let broken: [UInt8] =
      Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 96] + Array("MTrk".utf8) + [0, 0, 0, 16]
      + [0x00, 0x90, 60, 100, 0x00, 0xFF, 0x01, 0x01, 0x41, 0x10, 60, 0x00, 0x00, 0x90, 0x80 | 62, 90]
    let input = directory.appendingPathComponent("broken.mid")
    try Data(broken).write(to: input)
    let output = directory.appendingPathComponent("clean.mid")
    let result = try runEtude(["midi-repair", input.path, output.path])
    #expect(result.status == 0, "\(result.err)")
    #expect(result.err.contains("repaired: track 0, byte 32: running status continued after a meta or sysex event"))
    #expect(result.err.contains("3 repairs"))
    let clean = try MIDIFile(url: output, options: MIDIReadOptions(strict: true))
    #expect(clean.warnings.isEmpty)
    #expect(clean.tracks[0].events.map(\.event) == [
      .noteOn(channel: 0, note: 60, velocity: 100), .meta(.text(.text, [0x41])),
      .noteOn(channel: 0, note: 60, velocity: 0), .noteOn(channel: 0, note: 62, velocity: 90), .meta(.endOfTrack),
    ])
  }
}
