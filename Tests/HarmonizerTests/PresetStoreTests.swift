import Foundation
import Testing

@testable import Harmonizer

@Suite struct PresetStoreTests {
  /// A store over a fresh temporary directory; the caller removes it.
  static func makeStore() throws -> PresetStore {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("etude-presets-\(UUID())")
    return PresetStore(directory: url)
  }

  static func files(_ store: PresetStore) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: store.directory.path).sorted()
  }

  @Test func savesListsLoadsAndDeletes() throws {
    var store = try Self.makeStore()
    defer { try? FileManager.default.removeItem(at: store.directory) }
    #expect(try store.list().isEmpty)
    store.now = { Date(timeIntervalSince1970: 1_750_000_000.7) }
    let made = Date(timeIntervalSince1970: 1_700_000_000)
    let saved = try store.save(
      Preset(name: "  Bright choir ", description: "thirds", created: made, voices: [PresetVoice(.degree(3))])
    )
    #expect(saved.name == "Bright choir" && saved.created == made)
    #expect(saved.modified == Date(timeIntervalSince1970: 1_750_000_000))
    try store.save(Preset(name: "alto", description: "low"))
    #expect(try Self.files(store) == ["Bright choir.json", "alto.json"])

    let list = try store.list()
    #expect(list.map(\.name) == ["alto", "Bright choir"])
    let bright = try #require(list.last)
    #expect(bright.description == "thirds" && bright.created == made && bright.problem == nil)
    #expect(bright.modified == saved.modified)
    let size =
      try FileManager.default.attributesOfItem(
        atPath: store.directory.appendingPathComponent("Bright choir.json").path)[.size] as? Int
    #expect(bright.sizeBytes == size && bright.sizeBytes > 100)

    #expect(try store.load(named: "BRIGHT CHOIR") == saved)
    #expect(try store.contains(named: "bright choir"))
    try store.delete(named: "bright Choir")
    #expect(try store.list().map(\.name) == ["alto"])
    #expect(throws: PresetError.notFound(name: "Bright choir")) { try store.load(named: "Bright choir") }
    #expect(throws: PresetError.notFound(name: "Bright choir")) { try store.delete(named: "Bright choir") }
  }

  @Test func aDuplicateNameIsATypedErrorUnlessReplacing() throws {
    var store = try Self.makeStore()
    defer { try? FileManager.default.removeItem(at: store.directory) }
    store.now = { Date(timeIntervalSince1970: 1_750_000_000) }
    let first = try store.save(
      Preset(name: "Choir: Aah", description: "one", created: Date(timeIntervalSince1970: 5)))
    for name in ["Choir: Aah", "choir: aah", "CHOIR_ AAH", " choir| aah "] {
      #expect(throws: PresetError.duplicateName(name: name, existing: "Choir_ Aah")) {
        try store.save(Preset(name: name, description: "two"))
      }
    }
    #expect(try store.load(named: "Choir: Aah").description == "one")
    store.now = { Date(timeIntervalSince1970: 1_760_000_000) }
    let replaced = try store.save(Preset(name: "choir: aah", description: "two"), replacing: true)
    #expect(
      replaced.created == first.created && replaced.modified == Date(timeIntervalSince1970: 1_760_000_000))
    #expect(try Self.files(store) == ["Choir_ Aah.json"])
    let loaded = try store.load(named: "Choir: Aah")
    #expect(loaded.description == "two" && loaded.name == "choir: aah")
  }

  @Test(arguments: [
    "", "   ", "../x", "a/b", "/etc/passwd", "a\\b", "nul\u{0}name", "line\nbreak", ".", "..", ".hidden",
    String(repeating: "é", count: 51),
  ])
  func unsafeNamesAreRefused(name: String) throws {
    let store = try Self.makeStore()
    defer { try? FileManager.default.removeItem(at: store.directory) }
    do {
      try store.save(Preset(name: name))
      Issue.record("saved \(name.debugDescription)")
    } catch {
      guard case .invalidName = error else {
        Issue.record("\(error)")
        return
      }
    }
    #expect(throws: PresetError.self) { try store.load(named: name) }
    #expect(
      !FileManager.default.fileExists(
        atPath: store.directory.deletingLastPathComponent().appendingPathComponent("x.json").path))
  }

  @Test func fileNamesAreSanitized() throws {
    #expect(try PresetStore.fileName(for: "Lead: \"hot\" <1>?") == "Lead_ _hot_ _1__.json")
    #expect(try PresetStore.fileName(for: "Cafe\u{301}") == "Caf\u{e9}.json")
    #expect(try PresetStore.fileName(for: String(repeating: "a", count: 100)).count == 105)
    #expect(throws: PresetError.self) { try PresetStore.fileName(for: String(repeating: "a", count: 101)) }
  }

  @Test func renameMovesThePresetAndKeepsNamesUnique() throws {
    let store = try Self.makeStore()
    defer { try? FileManager.default.removeItem(at: store.directory) }
    try store.save(Preset(name: "one", description: "first"))
    try store.save(Preset(name: "two"))
    #expect(throws: PresetError.duplicateName(name: "TWO", existing: "two")) {
      try store.rename("one", to: "TWO")
    }
    #expect(throws: PresetError.notFound(name: "three")) { try store.rename("three", to: "four") }
    let renamed = try store.rename("one", to: "uno")
    #expect(renamed.name == "uno" && renamed.description == "first")
    #expect(try Self.files(store) == ["two.json", "uno.json"])
    try store.rename("uno", to: "Uno")
    #expect(try Self.files(store) == ["Uno.json", "two.json"])
    #expect(try store.load(named: "uno").name == "Uno")
  }

  @Test func aCrashMidSaveLeavesThePreviousFileWhole() throws {
    var store = try Self.makeStore()
    defer { try? FileManager.default.removeItem(at: store.directory) }
    try store.save(Preset(name: "keep", description: "version 1"))
    let url = store.directory.appendingPathComponent("keep.json")
    let before = try Data(contentsOf: url)

    store.interruption = .crashMidWrite
    #expect(throws: PresetError.self) {
      try store.save(
        Preset(name: "keep", description: String(repeating: "version 2 ", count: 50)), replacing: true)
    }
    #expect(try Data(contentsOf: url) == before)
    // The crash left its half-written temporary file; it is hidden and never listed or loaded.
    let leftovers = try Self.files(store).filter { $0.hasSuffix(".tmp") }
    #expect(leftovers.count == 1 && leftovers[0].hasPrefix(".keep.json."))
    #expect(try store.list().map(\.name) == ["keep"])
    #expect(try store.load(named: "keep").description == "version 1")

    store.interruption = .failBeforeRename
    #expect(throws: PresetError.self) {
      try store.save(Preset(name: "keep", description: "version 3"), replacing: true)
    }
    #expect(throws: PresetError.self) { try store.save(Preset(name: "new one")) }
    #expect(try Data(contentsOf: url) == before)
    #expect(try Self.files(store).filter { $0.hasSuffix(".tmp") }.count == 1)  // only the crash's
    #expect(try store.list().map(\.name) == ["keep"])

    store.interruption = nil
    try store.save(Preset(name: "keep", description: "version 4"), replacing: true)
    #expect(try store.load(named: "keep").description == "version 4")
  }

  @Test func anEncoderFailureLeavesThePreviousFileWhole() throws {
    let store = try Self.makeStore()
    defer { try? FileManager.default.removeItem(at: store.directory) }
    try store.save(Preset(name: "keep", description: "good"))
    let before = try Data(contentsOf: store.directory.appendingPathComponent("keep.json"))
    var bad = Preset(name: "keep", description: "bad")
    bad.unknownFields["future"] = .number(.nan)  // JSON cannot hold NaN: the encoder throws
    #expect(throws: PresetError.self) { try store.save(bad, replacing: true) }
    #expect(try Data(contentsOf: store.directory.appendingPathComponent("keep.json")) == before)
    #expect(try Self.files(store) == ["keep.json"])
  }

  @Test func aWriteIntoAnUnwritableDirectoryFailsCleanly() throws {
    // A directory where the store's directory should be is a file: every write must fail with
    // an I/O error, never crash.
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("etude-presets-file-\(UUID())")
    try Data("x".utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let store = PresetStore(directory: file)
    #expect(throws: PresetError.self) { try store.save(Preset(name: "a")) }
    #expect(throws: PresetError.self) { try store.list() }
    #expect(try Data(contentsOf: file) == Data("x".utf8))
  }

  @Test func damagedAndForeignFilesAreTypedErrorsAndStillListed() throws {
    let store = try Self.makeStore()
    defer { try? FileManager.default.removeItem(at: store.directory) }
    try store.save(Preset(name: "good"))
    try Data("{\"schema\": \"etude-preset/1\", \"name\": ".utf8).write(
      to: store.directory.appendingPathComponent("broken.json"))
    try Data(#"{"schema": "etude-preset/7", "name": "future"}"#.utf8).write(
      to: store.directory.appendingPathComponent("future.json"))
    try Data("not a preset".utf8).write(to: store.directory.appendingPathComponent("notes.txt"))
    do {
      _ = try store.load(named: "broken")
      Issue.record("loaded a broken file")
    } catch {
      guard case .corrupt(let name, _) = error else { throw error }
      #expect(name == "broken")
    }
    #expect(throws: PresetError.unsupportedVersion(name: "future", found: "etude-preset/7")) {
      try store.load(named: "future")
    }
    let list = try store.list()
    #expect(list.map(\.name) == ["broken", "future", "good"])
    #expect(
      list[0].problem?.contains("damaged") == true && list[1].problem?.contains("etude-preset/7") == true)
    #expect(list[2].problem == nil)
    try store.delete(named: "broken")
    #expect(try store.list().count == 2)
  }

  @Test func aHandRenamedFileIsKnownByItsFileName() throws {
    let store = try Self.makeStore()
    defer { try? FileManager.default.removeItem(at: store.directory) }
    try store.save(Preset(name: "original"))
    try FileManager.default.moveItem(
      at: store.directory.appendingPathComponent("original.json"),
      to: store.directory.appendingPathComponent("moved.json"))
    #expect(try store.load(named: "moved").name == "moved")
    #expect(try store.list().map(\.name) == ["moved"])
  }

  @Test func theDefaultDirectoryFollowsTheEnvironment() {
    #expect(
      PresetStore.defaultDirectory(environment: ["ETUDE_PRESETS": "/tmp/p", "HOME": "/home/x"]).path
        == "/tmp/p")
    #expect(
      PresetStore.defaultDirectory(environment: ["ETUDE_PRESETS": "", "HOME": "/home/x"]).path
        == "/home/x/.etude/presets")
  }
}
