import Foundation
import Testing

@testable import Harmonizer

/// Hostile inputs for the preset decoder (the kinds `Fuzz/run.sh preset` explores): each must
/// decode or throw a ``PresetError``, never crash or hang.
@Suite struct PresetFuzzRegressionTests {
  static func decodes(_ text: String) -> Bool {
    do {
      let preset = try Preset(jsonData: Data(text.utf8), name: "fuzz")
      return (try? Preset(jsonData: preset.jsonData(), name: "fuzz")) == preset
    } catch {
      #expect(!error.description.isEmpty)
      return false
    }
  }

  @Test func deeplyNestedUnknownFieldsDoNotOverflowTheStack() {
    let shallow = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
    #expect(Self.decodes(#"{"schema": "etude-preset/1", "name": "deep", "extra": \#(shallow)}"#))
    for depth in [100, 10_000, 30_000] {
      let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
      _ = Self.decodes(#"{"schema": "etude-preset/1", "name": "deep", "extra": \#(nested)}"#)
      let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
      _ = Self.decodes(#"{"schema": "etude-preset/1", "name": "deep", "extra": \#(objects)}"#)
    }
  }

  @Test(arguments: [
    #"{"schema": "etude-preset/1", "name": "n", "voices": [{"note": 1e20}]}"#,
    #"{"schema": "etude-preset/1", "name": "n", "voices": [{"degree": 3.5}]}"#,
    #"{"schema": "etude-preset/1", "name": "n", "sample": {"file": "a/../../b.wav"}}"#,
    #"{"schema": "etude-preset/1", "name": "n", "sample": {"file": "x.wav", "trimStartSeconds": 2, "trimEndSeconds": 1}}"#,
    #"{"schema": "etude-preset/1", "name": "n", "created": "2025-13-45T99:99:99Z"}"#,
    #"{"schema": 1, "name": "n"}"#,
    #"{"schema": "etude-preset/1", "name": null}"#,
    #"{"schema": "etude-preset/1", "name": "n", "sequencer": {"steps": [{"notes": [60], "beats": -0}]}}"#,
  ])
  func hostileDocumentsAreRejected(text: String) {
    #expect(!Self.decodes(text))
  }

  @Test(arguments: [
    #"{"schema": "etude-preset/1", "name": "n", "volumes": {"inputDB": 1e400}}"#,
    #"{"schema": "etude-preset/1", "schema": "etude-preset/2", "name": "n"}"#,
    "\u{FEFF}{\"schema\": \"etude-preset/1\", \"name\": \"n\"}",
    "{\"schema\": \"etude-preset/1\", \"name\": \"\\ud800\"}",
  ])
  func oddDocumentsAreRejectedOrReadConsistently(text: String) {
    _ = Self.decodes(text)
  }

  @Test func aDocumentNameThatIsAPathNeverReachesTheFileSystem() throws {
    let store = PresetStore(
      directory: FileManager.default.temporaryDirectory.appendingPathComponent("etude-fuzz-\(UUID())"))
    defer { try? FileManager.default.removeItem(at: store.directory) }
    try FileManager.default.createDirectory(at: store.directory, withIntermediateDirectories: true)
    try Data(#"{"schema": "etude-preset/1", "name": "../../evil\u0000"}"#.utf8)
      .write(to: store.directory.appendingPathComponent("plain.json"))
    let preset = try store.load(named: "plain")
    #expect(preset.name == "plain")
    #expect(throws: PresetError.self) { try store.save(Preset(name: "../../evil\u{0}")) }
  }
}
