import Foundation
import ScoreModel
import Testing

@testable import Harmonizer

@Suite struct PresetTests {
  static let full = """
    {
      "schema": "etude-preset/1",
      "name": "Bright choir",
      "description": "Thirds and fifths over a looping progression",
      "created": "2025-03-01T12:00:00Z",
      "modified": "2025-03-02T08:30:15.250Z",
      "key": "D major",
      "chord": "D:maj7",
      "voices": [
        {"interval": 4, "level": 0.8, "pan": -0.5},
        {"degree": 5, "level": 0.7, "pan": 0.5},
        {"note": 62}
      ],
      "autoTune": {"enabled": true, "key": "B minor", "retuneMilliseconds": 20},
      "volumes": {"inputDB": 0, "outputDB": -3, "sampleDB": -6},
      "rack": [
        {"effect": "chorus", "parameters": {"chorus.rate": 0.8, "chorus.depth": 0.3}},
        {"effect": "delay", "bypassed": true, "parameters": {"delay.time": 0.3, "delay.feedback": 0.4}},
        {"effect": "reverb", "parameters": {"reverb.decay": 2.5}}
      ],
      "sequencer": {"tempoBPM": 96, "loops": true,
                    "steps": [{"notes": [62, 66, 69], "beats": 4}, {"notes": [], "beats": 2}]},
      "sample": {"file": "samples/aah.wav", "trimStartSeconds": 0.1, "trimEndSeconds": 1.2,
                 "loop": {"enabled": true, "startSeconds": 0.2, "endSeconds": 0.9}}
    }
    """

  @Test func readsEveryField() throws {
    let preset = try Preset(jsonData: Data(Self.full.utf8))
    #expect(preset.name == "Bright choir")
    #expect(preset.created == Date(timeIntervalSince1970: 1_740_830_400))
    #expect(preset.modified == Date(timeIntervalSince1970: 1_740_904_215))
    #expect(preset.key == Key(.d, .major) && preset.chord?.harte == "D:maj7")
    #expect(
      preset.voices == [
        PresetVoice(.interval(semitones: 4), level: 0.8, pan: -0.5),
        PresetVoice(.degree(5), level: 0.7, pan: 0.5),
        PresetVoice(.note(midi: 62)),
      ])
    #expect(
      preset.autoTune == PresetAutoTune(isEnabled: true, key: Key(.b, .naturalMinor), retuneMilliseconds: 20))
    #expect(preset.volumes == PresetVolumes(inputDB: 0, outputDB: -3, sampleDB: -6))
    #expect(preset.rack.map(\.effect) == ["chorus", "delay", "reverb"])
    #expect(preset.rack.map(\.isBypassed) == [false, true, false])
    #expect(preset.rack[1].value(of: "time") == 0.3 && preset.rack[0].value(of: "time") == nil)
    #expect(preset.sequencer.steps[1].notes.isEmpty && preset.sequencer.totalBeats == 6)
    #expect(preset.sample?.file == "samples/aah.wav" && preset.sample?.loop.endSeconds == 0.9)
    #expect(preset.sample?.loop.crossfadeSeconds == SampleLoop.defaultCrossfadeSeconds)
    #expect(preset.unknownFields.isEmpty)
  }

  @Test func roundTripsThroughJSON() throws {
    let preset = try Preset(jsonData: Data(Self.full.utf8))
    let data = try preset.jsonData()
    #expect(try Preset(jsonData: data) == preset)
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.contains("\"schema\" : \"etude-preset/1\""))
    #expect(text.contains("\"modified\" : \"2025-03-02T08:30:15Z\""))
    #expect(text.contains("\"chord\" : \"D:maj7\""))
  }

  @Test func aMinimalDocumentTakesDefaults() throws {
    let preset = try Preset(jsonData: Data(#"{"schema": "etude-preset/1", "name": "Plain"}"#.utf8))
    #expect(preset.voices.isEmpty && preset.rack.isEmpty && preset.key == nil && preset.sample == nil)
    #expect(preset.autoTune == PresetAutoTune() && preset.sequencer == PresetSequencer())
  }

  @Test func unknownKeysAreKeptAtTheTopAndIgnoredInside() throws {
    let json = """
      {"schema": "etude-preset/1.3", "name": "Future", "formant": {"shift": 1.5, "on": [true, null]},
       "voices": [{"interval": 7, "humanize": 0.2}]}
      """
    let preset = try Preset(jsonData: Data(json.utf8))
    #expect(
      preset.unknownFields["formant"]
        == .object(["shift": .number(1.5), "on": .array([.bool(true), .null])]))
    #expect(preset.voices == [PresetVoice(.interval(semitones: 7))])
    let again = try Preset(jsonData: try preset.jsonData())
    #expect(again.unknownFields == preset.unknownFields)
    #expect(
      String(decoding: try preset.jsonData(), as: UTF8.self).contains("\"schema\" : \"etude-preset/1\""))
  }

  @Test(arguments: ["etude-preset/2", "etude-preset/10", "etude-preset/1.x", "etude-preset/", "other/1"])
  func anotherSchemaIsUnsupported(schema: String) {
    let json = #"{"schema": "\#(schema)", "name": "New", "voices": "a different shape"}"#
    #expect(throws: PresetError.unsupportedVersion(name: "New", found: schema)) {
      try Preset(jsonData: Data(json.utf8))
    }
  }

  @Test(arguments: [
    ("", "(document)"),
    ("[1, 2]", "(document)"),
    (#"{"name": "x"}"#, "no \"schema\""),
    (#"{"schema": "etude-preset/1"}"#, "name: missing"),
    (#"{"schema": "etude-preset/1", "name": "x", "voices": [{"level": 1}]}"#, "voices[0]"),
    (#"{"schema": "etude-preset/1", "name": "x", "voices": [{"interval": 3, "note": 60}]}"#, "exactly one"),
    (
      #"{"schema": "etude-preset/1", "name": "x", "voices": [{"interval": 3, "level": 1.5}]}"#,
      "voices[0].level"
    ),
    (
      #"{"schema": "etude-preset/1", "name": "x", "volumes": {"outputDB": "loud"}}"#,
      "volumes.outputDB: expected a number"
    ),
    (#"{"schema": "etude-preset/1", "name": "x", "key": "H major"}"#, "key"),
    (#"{"schema": "etude-preset/1", "name": "x", "chord": "C:wrong"}"#, "chord"),
    (#"{"schema": "etude-preset/1", "name": "x", "created": "yesterday"}"#, "created"),
    (
      #"{"schema": "etude-preset/1", "name": "x", "rack": [{"effect": "delay", "parameters": {"reverb.decay": 1}}]}"#,
      "rack[0].parameters[\"reverb.decay\"]"
    ),
    (
      #"{"schema": "etude-preset/1", "name": "x", "sequencer": {"steps": [{"notes": [200], "beats": 1}]}}"#,
      "sequencer.steps[0].notes[0]"
    ),
    (#"{"schema": "etude-preset/1", "name": "x", "sample": {"file": "../../etc/passwd"}}"#, "sample.file"),
  ])
  func damageIsCorruptWithAPath(json: String, fragment: String) {
    do {
      _ = try Preset(jsonData: Data(json.utf8), name: "file")
      Issue.record("accepted \(json)")
    } catch {
      guard case .corrupt(let name, let reason) = error else {
        Issue.record("\(error) for \(json)")
        return
      }
      #expect(name == "file")
      #expect(reason.contains(fragment), "\(reason)")
    }
  }

  @Test func validationNamesTheField() {
    var preset = Preset(name: "v")
    preset.voices = Array(repeating: PresetVoice(.degree(3)), count: 5)
    #expect(throws: PresetError.invalidValue(field: "voices", value: "5 voices", expected: "at most 4")) {
      try preset.validate()
    }
    preset.voices = [PresetVoice(.degree(0))]
    #expect(
      throws: PresetError.invalidValue(field: "voices[0].degree", value: "0", expected: "-15...15 but not 0")
    ) {
      try preset.validate()
    }
    preset.voices = [PresetVoice(.interval(semitones: 3), pan: .nan)]
    #expect(throws: PresetError.self) { try preset.validate() }
    preset.voices = []
    preset.sequencer.tempoBPM = 0
    #expect(throws: PresetError.self) { try preset.validate() }
    preset.sequencer.tempoBPM = 120
    preset.rack = [PresetEffect("delay", parameters: ["delay.time": .infinity])]
    #expect(throws: PresetError.self) { try preset.validate() }
    preset.rack = [PresetEffect("../delay")]
    #expect(throws: PresetError.self) { try preset.validate() }
    preset.rack = [PresetEffect("lowPass", parameters: ["lowPass.cutoff": 800])]
    #expect(throws: Never.self) { try preset.validate() }
  }

  @Test func oversizedInputIsCorruptNotRead() {
    let data = Data(repeating: 0x20, count: Preset.maximumFileBytes + 1)
    #expect(throws: PresetError.self) { try Preset(jsonData: data) }
  }
}
