import Foundation
import MIDIJSON
import PitchDSP
import Testing

/// `etude tone`, `etude synth`, `etude render` and the demo's guitar tune, run as a user runs
/// them; the audio they write is measured back with PitchDSP.
@Suite(.serialized) struct SynthesisCommandTests {
  /// The median voiced frequency of a mono signal between two times.
  func medianFrequency(_ samples: [Float], sampleRate: Double, from: Double, to: Double) throws -> Double {
    let estimator = try YINEstimator(configuration: PitchConfiguration(sampleRate: sampleRate))
    let heard = estimator.estimates(for: samples).filter {
      $0.time >= from && $0.time <= to && $0.frequencyHz > 0
    }
    .map(\.frequencyHz).sorted()
    return heard.isEmpty ? 0 : heard[heard.count / 2]
  }

  func cents(_ frequency: Double, from target: Double) -> Double { 1200 * log2(frequency / target) }

  @Test func toneWritesTheAskedFrequencyForTheAskedTime() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("tone.wav")
    let result = try runEtude(["tone", "--frequency", "329.6", "--seconds", "1.5", url.path])
    #expect(result.status == 0, "\(result.err)")
    let reader = try WAVReader(url: url)
    #expect(reader.format.frameCount == 66_150)
    var samples: [Float] = []
    while let block = try reader.readMono(maxFrames: 8192) { samples += block }
    let frequency = try medianFrequency(samples, sampleRate: 44_100, from: 0.1, to: 1.4)
    #expect(abs(cents(frequency, from: 329.6)) < 1)
    #expect(abs(samples.max()! - 0.5) < 0.01)
  }

  @Test func synthPlaysTheSeedsTabAndStreamsRawPCM() throws {
    // String 1, fret 3: G4; the first note lasts 1.5 beats at 120 bpm.
    let tab = #"("13",1.5)|("12",0.5)|("13",1)|("13",0.5)|("17",0.5)"#
    let result = try runEtude(["synth", "--tab", tab, "--format", "f32le", "-"])
    #expect(result.status == 0, "\(result.err)")
    // 4 beats at 120 bpm plus the ring, as raw floats (the test harness reads stdout as text, so
    // only that it came is checked here; the WAV tests measure the samples).
    #expect(result.err.contains("5 notes"))
    #expect(result.err.contains("standard output (raw f32le)"))
    #expect(!result.out.isEmpty)
  }

  @Test func synthWritesAGuitarNoteInTune() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("tab.wav")
    let result = try runEtude(["synth", "--tab", #"("13",4)"#, "--tempo", "120", url.path])
    #expect(result.status == 0, "\(result.err)")
    var samples: [Float] = []
    let reader = try WAVReader(url: url)
    while let block = try reader.readMono(maxFrames: 8192) { samples += block }
    let g4 = 440 * pow(2, -2.0 / 12)
    #expect(abs(cents(try medianFrequency(samples, sampleRate: 44_100, from: 0.2, to: 1.5), from: g4)) < 2)
  }

  @Test func tabFilesAreReadFromAPathOrStandardInputAndMustBeUTF8() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let piped = try runEtude(["synth", "--tab-file", "-", "-"], stdin: Data(#"("13",1)|("12",1)"#.utf8))
    #expect(piped.status == 0, "\(piped.err)")
    #expect(piped.err.contains("2 notes"))
    // A Latin-1 byte is not UTF-8: a clear error naming the file, in `synth` and in `render`.
    let latin1 = directory.appendingPathComponent("song.tab")
    try Data([0x28, 0x22, 0x31, 0x33, 0x22, 0x2C, 0x31, 0x29, 0x20, 0xE9]).write(to: latin1)
    for arguments in [["synth", "--tab-file", latin1.path, "-"], ["render", latin1.path, "-"]] {
      let result = try runEtude(arguments)
      #expect(result.status != 0)
      #expect(result.err.contains("song.tab: not UTF-8 text"), "\(result.err)")
      #expect(result.out.isEmpty)
    }
  }

  @Test func aTabSyntaxErrorNamesItsColumn() throws {
    let result = try runEtude(["synth", "--tab", #"("13",1.5)|("1x",0.5)"#, "-"])
    #expect(result.status != 0)
    #expect(result.err.contains("column 15"))
    #expect(result.out.isEmpty)
  }

  @Test func renderPlaysAMIDIFilesNotesAtTheirTimes() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    // A4 for one beat at 60 bpm, a beat of silence, then E5.
    let composition = Composition(
      tempo: 60,
      events: [
        .note(time: 0, number: 69, velocity: 100, duration: 1),
        .note(time: 2, number: 76, velocity: 100, duration: 1),
      ])
    let midi = directory.appendingPathComponent("song.mid")
    try MIDIFile(composition).write(to: midi)
    let wav = directory.appendingPathComponent("song.wav")
    let result = try runEtude(["render", midi.path, wav.path, "--instrument", "sine", "--rate", "22050"])
    #expect(result.status == 0, "\(result.err)")
    var samples: [Float] = []
    let reader = try WAVReader(url: wav)
    #expect(reader.format.sampleRate == 22_050)
    while let block = try reader.readMono(maxFrames: 8192) { samples += block }
    #expect(abs(cents(try medianFrequency(samples, sampleRate: 22_050, from: 0.2, to: 0.8), from: 440)) < 1)
    #expect(
      abs(cents(try medianFrequency(samples, sampleRate: 22_050, from: 2.2, to: 2.8), from: 659.255)) < 1)
    // Silence in the gap, after the release.
    let gap = samples[Int(1.5 * 22_050)..<Int(1.9 * 22_050)].map(abs).max() ?? 1
    #expect(gap < 1e-3)
  }

  @Test func renderRejectsABadSoundFontWithATypedError() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let midi = directory.appendingPathComponent("song.mid")
    try MIDIFile(Composition(tempo: 120, events: [.note(time: 0, number: 60, velocity: 90, duration: 1)]))
      .write(to: midi)
    let font = directory.appendingPathComponent("bad.sf2")
    try Data("RIFF\u{4}\u{0}\u{0}\u{0}sfbk".utf8).write(to: font)
    let wav = directory.appendingPathComponent("out.wav")
    let result = try runEtude(["render", midi.path, wav.path, "--soundfont", font.path])
    #expect(result.status != 0)
    #expect(result.err.contains("SoundFont"))
    #expect(!FileManager.default.fileExists(atPath: wav.path))
  }

  @Test func theDemoPlaysItsTabTuneInTuneAndInTime() throws {
    let object = try DemoRun.json()
    let synthesis = try #require(object["synthesis"] as? [String: Any])
    let measured = try #require(synthesis["notesMeasured"] as? Int)
    #expect(measured >= 25)
    #expect(synthesis["notesWithin2Cents"] as? Int == measured)
    let attacks = try #require(synthesis["attacks"] as? Int)
    #expect(synthesis["attacksFound"] as? Int == attacks)
    #expect((synthesis["meanAbsoluteAttackMs"] as? Double ?? 99) < 10)
  }
}
