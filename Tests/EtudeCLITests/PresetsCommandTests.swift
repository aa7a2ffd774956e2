import Foundation
import Testing

@Suite(.serialized) struct PresetsCommandTests {
  static let document = """
    {"schema": "etude-preset/1", "name": "ignored", "description": "from the file",
     "key": "A minor", "voices": [{"degree": 3, "level": 0.8, "pan": -0.3}, {"interval": 7}],
     "rack": [{"effect": "delay", "bypassed": true, "parameters": {"delay.time": 0.25}}],
     "sequencer": {"tempoBPM": 90, "steps": [{"notes": [57, 60, 64], "beats": 4}, {"notes": [], "beats": 1}]},
     "futureSetting": {"x": 1}}
    """

  static func withDocument(_ body: (URL, URL) throws -> Void) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("doc.json")
    try Data(document.utf8).write(to: file)
    try body(directory.appendingPathComponent("presets"), file)
  }

  @Test func saveListShowDelete() throws {
    try Self.withDocument { presets, file in
      let dir = ["--dir", presets.path]
      let empty = try runEtude(["presets", "list"] + dir)
      #expect(empty.status == 0 && empty.out.contains("no presets"))

      let saved = try runEtude(["presets", "save", "Minor thirds", "--from", file.path] + dir)
      #expect(saved.status == 0, "\(saved.err)")
      #expect(saved.err.contains("saved preset \"Minor thirds\""))
      let second = try runEtude(
        ["presets", "save", "Alto", "--from", file.path, "--description", "low\nvoice"] + dir)
      #expect(second.status == 0)

      let table = try runEtude(["presets", "list"] + dir)
      let lines = table.out.split(separator: "\n")
      #expect(lines.count == 3)
      #expect(lines[0].hasPrefix("NAME") && lines[0].contains("SIZE") && lines[0].contains("MODIFIED"))
      #expect(lines[1].hasPrefix("Alto") && lines[1].hasSuffix("low voice"))
      #expect(
        lines[2].hasPrefix("Minor thirds") && lines[2].hasSuffix("from the file") && lines[2].contains(" B "))

      let json = try runEtude(["presets", "list", "--json"] + dir)
      let entries = try #require(
        try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [[String: Any]])
      #expect(entries.map { $0["name"] as? String } == ["Alto", "Minor thirds"])
      #expect((entries[1]["sizeBytes"] as? Int ?? 0) > 200)
      #expect((entries[1]["modified"] as? String)?.hasSuffix("Z") == true)

      let shown = try runEtude(["presets", "show", "minor THIRDS"] + dir)
      #expect(shown.status == 0)
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(shown.out.utf8)) as? [String: Any])
      #expect(object["schema"] as? String == "etude-preset/1")
      #expect(object["name"] as? String == "Minor thirds" && object["key"] as? String == "A minor")
      #expect((object["voices"] as? [Any])?.count == 2)
      #expect(object["futureSetting"] as? [String: Int] == ["x": 1])

      let deleted = try runEtude(["presets", "delete", "alto"] + dir)
      #expect(deleted.status == 0)
      let after = try runEtude(["presets", "list", "--json"] + dir)
      #expect((try JSONSerialization.jsonObject(with: Data(after.out.utf8)) as? [Any])?.count == 1)
    }
  }

  @Test func duplicatesNeedForce() throws {
    try Self.withDocument { presets, file in
      let dir = ["--dir", presets.path]
      #expect(try runEtude(["presets", "save", "Choir", "--from", file.path] + dir).status == 0)
      let duplicate = try runEtude(
        ["presets", "save", "CHOIR", "--from", file.path, "--description", "new"] + dir)
      #expect(duplicate.status != 0)
      #expect(duplicate.err.contains("a preset named \"Choir\" already exists"))
      let forced = try runEtude(
        ["presets", "save", "CHOIR", "--from", file.path, "--description", "new", "--force"] + dir)
      #expect(forced.status == 0)
      let shown = try runEtude(["presets", "show", "choir"] + dir)
      #expect(shown.out.contains("\"description\" : \"new\""))
    }
  }

  @Test func errorsAreClearAndExitNonZero() throws {
    try Self.withDocument { presets, file in
      let dir = ["--dir", presets.path]
      let missing = try runEtude(["presets", "show", "nothing"] + dir)
      #expect(missing.status != 0 && missing.err.contains("no preset named \"nothing\""))
      let delete = try runEtude(["presets", "delete", "nothing"] + dir)
      #expect(delete.status != 0 && delete.err.contains("no preset named"))
      let traversal = try runEtude(["presets", "save", "../escape", "--from", file.path] + dir)
      #expect(traversal.status != 0 && traversal.err.contains("path separator"))
      #expect(
        !FileManager.default.fileExists(
          atPath: presets.deletingLastPathComponent().appendingPathComponent("escape.json").path))

      let bad = try runEtude(
        ["presets", "save", "bad", "--from", "-"] + dir,
        stdin: Data(#"{"schema": "etude-preset/1", "name": "x", "voices": [{"interval": 99}]}"#.utf8))
      #expect(bad.status != 0 && bad.err.contains("voices[0].interval is 99"))
      let future = try runEtude(
        ["presets", "save", "future", "--from", "-"] + dir,
        stdin: Data(#"{"schema": "etude-preset/2", "name": "x"}"#.utf8))
      #expect(future.status != 0 && future.err.contains("etude-preset/2"))
      let notJSON = try runEtude(
        ["presets", "save", "junk", "--from", "-"] + dir, stdin: Data("not json".utf8))
      #expect(notJSON.status != 0 && notJSON.err.contains("damaged"))
      let noFile = try runEtude(
        ["presets", "save", "x", "--from", presets.appendingPathComponent("none.json").path] + dir)
      #expect(noFile.status != 0 && noFile.err.contains("cannot read"))

      // A damaged file in the directory is listed as such, and shown as an error.
      try FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
      try Data("{".utf8).write(to: presets.appendingPathComponent("broken.json"))
      let list = try runEtude(["presets", "list"] + dir)
      #expect(list.status == 0 && list.out.contains("broken") && list.out.contains("(unreadable: "))
      let show = try runEtude(["presets", "show", "broken"] + dir)
      #expect(show.status != 0 && show.err.contains("preset \"broken\" is damaged"))
    }
  }

  @Test func theDirectoryComesFromTheEnvironment() throws {
    try Self.withDocument { presets, file in
      let process = Process()
      let products =
        Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }?.bundleURL.deletingLastPathComponent()
        ?? Bundle.main.bundleURL
      process.executableURL = products.appendingPathComponent("etude")
      process.arguments = ["presets", "save", "Env", "--from", file.path]
      process.environment = ["ETUDE_PRESETS": presets.path, "HOME": "/nonexistent"]
      try process.run()
      process.waitUntilExit()
      #expect(process.terminationStatus == 0)
      #expect(FileManager.default.fileExists(atPath: presets.appendingPathComponent("Env.json").path))
    }
  }
}
