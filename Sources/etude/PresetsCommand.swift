import ArgumentParser
import Foundation
import Harmonizer

/// `etude presets list|show|save|delete|rename`: the harmonizer presets kept as JSON files in a
/// directory.
struct PresetsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "presets",
    abstract: "List, show, save, rename and delete harmonizer presets.",
    discussion: """
      Presets are JSON files (schema etude-preset/1) in one directory: --dir, or $ETUDE_PRESETS, \
      or ~/.etude/presets. Names are unique without regard to case; writes are atomic (a failed \
      save never damages the previous file).
      """,
    subcommands: [List.self, Show.self, Save.self, Delete.self, Rename.self],
    defaultSubcommand: List.self
  )

  /// The `--dir` option every subcommand takes.
  struct DirectoryOptions: ParsableArguments {
    @Option(
      name: .customLong("dir"), help: "The presets directory (default: $ETUDE_PRESETS or ~/.etude/presets).")
    var directory: String?

    /// The store over the chosen directory.
    var store: PresetStore {
      PresetStore(
        directory: directory.map { URL(fileURLWithPath: $0, isDirectory: true) }
          ?? PresetStore.defaultDirectory())
    }
  }

  /// `etude presets list`: a table of name, size, modified date and description.
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List the presets: name, size, modified date (UTC) and description.")

    @OptionGroup var options: DirectoryOptions

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func run() throws {
      let store = options.store
      let entries = try store.list()
      if json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        print(String(decoding: try encoder.encode(entries), as: UTF8.self))
        return
      }
      guard !entries.isEmpty else {
        print("no presets in \(store.directory.path)")
        return
      }
      let rows = entries.map { entry in
        [
          entry.name, PresetsCommand.size(entry.sizeBytes), PresetsCommand.date(entry.modified),
          entry.problem.map { "(unreadable: \($0))" } ?? entry.description,
        ]
      }
      let header = ["NAME", "SIZE", "MODIFIED", "DESCRIPTION"]
      let widths = (0..<3).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
      for row in [header] + rows {
        let padded = (0..<3).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
        print((padded + [PresetsCommand.oneLine(row[3])]).joined(separator: "  "))
      }
    }
  }

  /// `etude presets show NAME`: the preset's JSON.
  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print a preset's JSON.")

    @OptionGroup var options: DirectoryOptions

    @Argument(help: "The preset's name (case does not matter).")
    var name: String

    func run() throws {
      let preset = try options.store.load(named: name)
      FileHandle.standardOutput.write(try preset.jsonData())
    }
  }

  /// `etude presets save NAME --from FILE.json`: stores a preset document under a name.
  struct Save: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Store a preset document (checked first) under NAME.",
      discussion: """
        FILE.json is a preset document (schema etude-preset/1; `etude presets show` prints one); \
        its name is replaced by NAME. An existing preset of the same name is an error unless \
        --force replaces it (keeping its creation date). FILE may be - for standard input.
        """)

    @OptionGroup var options: DirectoryOptions

    @Argument(help: "The name to store the preset under.")
    var name: String

    @Option(help: "The preset document to store, or - for standard input.")
    var from: String

    @Option(help: "A description, replacing the document's.")
    var description: String?

    @Flag(help: "Replace a stored preset of the same name.")
    var force = false

    func run() throws {
      let data = try InputData.read(from)
      let label = from == "-" ? "standard input" : URL(fileURLWithPath: from).lastPathComponent
      var preset = try Preset(jsonData: data, name: label)
      preset.name = name
      if let description { preset.description = description }
      let store = options.store
      let saved = try store.save(preset, replacing: force)
      let file = store.directory.appendingPathComponent(try PresetStore.fileName(for: saved.name)).path
      FileHandle.standardError.write(Data("saved preset \"\(saved.name)\" (\(file))\n".utf8))
    }
  }

  /// `etude presets delete NAME`.
  struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Delete a preset.")

    @OptionGroup var options: DirectoryOptions

    @Argument(help: "The preset's name (case does not matter).")
    var name: String

    func run() throws {
      try options.store.delete(named: name)
      FileHandle.standardError.write(Data("deleted preset \"\(name)\"\n".utf8))
    }
  }

  /// `etude presets rename OLD NEW`.
  struct Rename: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Rename a preset.")

    @OptionGroup var options: DirectoryOptions

    @Argument(help: "The preset's name.")
    var name: String

    @Argument(help: "Its new name (must not be taken).")
    var newName: String

    func run() throws {
      let renamed = try options.store.rename(name, to: newName)
      FileHandle.standardError.write(Data("renamed preset \"\(name)\" to \"\(renamed.name)\"\n".utf8))
    }
  }

  /// A byte count as `812 B`, `4.2 KB`, `1.3 MB`.
  static func size(_ bytes: Int) -> String {
    if bytes < 1024 { return "\(bytes) B" }
    if bytes < 1024 * 1024 { return String(format: "%.1f KB", Double(bytes) / 1024) }
    return String(format: "%.1f MB", Double(bytes) / 1024 / 1024)
  }

  /// A date as `2025-03-02 08:30` in UTC.
  static func date(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    return String(
      format: "%04d-%02d-%02d %02d:%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0)
  }

  /// Text on one line: line breaks and tabs become spaces.
  static func oneLine(_ text: String) -> String {
    String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
  }
}
