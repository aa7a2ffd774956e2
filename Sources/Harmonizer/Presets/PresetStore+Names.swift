import Foundation

extension PresetStore {
  /// The longest preset name: 100 bytes of UTF-8 (after trimming spaces).
  public static let maximumNameLength = 100

  /// The file name a preset name is stored under: the name without leading and trailing
  /// whitespace, in Unicode canonical composition (NFC), with `: * ? " < > |` (unsafe on some file
  /// systems) replaced by `_`, plus `.json`.
  ///
  /// - Parameter name: A preset name.
  /// - Returns: A safe file name, such as `Bright choir.json`.
  /// - Throws: ``PresetError/invalidName(name:reason:)`` for a name that is empty, holds `/`,
  ///   `\`, NUL or another control character, starts with a dot (`.`, `..`, hidden files), or is
  ///   longer than ``maximumNameLength`` bytes. Such names are refused, not rewritten, so that
  ///   nothing like `../x` can reach the file system.
  public static func fileName(for name: String) throws(PresetError) -> String {
    try fileStem(for: name) + ".json"
  }

  /// The file name without `.json`; see ``fileName(for:)``.
  static func fileStem(for name: String) throws(PresetError) -> String {
    let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
    guard !trimmed.isEmpty else { throw .invalidName(name: name, reason: "it is empty") }
    if trimmed.unicodeScalars.contains("\0") {
      throw .invalidName(name: name, reason: "it holds a NUL character")
    }
    if trimmed.contains("/") || trimmed.contains("\\") {
      throw .invalidName(name: name, reason: "it holds a path separator (/ or \\)")
    }
    if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
      throw .invalidName(name: name, reason: "it holds a control character")
    }
    if trimmed.hasPrefix(".") { throw .invalidName(name: name, reason: "it starts with a dot") }
    guard trimmed.utf8.count <= maximumNameLength else {
      throw .invalidName(name: name, reason: "it is longer than \(maximumNameLength) bytes")
    }
    let unsafe: Set<Character> = [":", "*", "?", "\"", "<", ">", "|"]
    return String(trimmed.map { unsafe.contains($0) ? "_" : $0 })
  }

  /// The key two names collide on: the file stem, lowercased.
  static func identity(ofStem stem: String) -> String { stem.lowercased() }

  /// What is wrong with a sample's path relative to the presets directory, or `nil` when it is
  /// fine: not empty, relative, no `..` or `.` component, no `\`, NUL or control characters,
  /// at most 1024 bytes.
  static func problem(withSamplePath path: String) -> String? {
    guard !path.isEmpty, path.utf8.count <= 1024 else { return "a relative path of 1 to 1024 bytes" }
    guard !path.hasPrefix("/") else { return "a path relative to the presets directory, not an absolute one" }
    guard !path.contains("\\"),
      !path.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else { return "a path without backslashes or control characters" }
    let components = path.split(separator: "/", omittingEmptySubsequences: false)
    guard components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else {
      return "a path that stays inside the presets directory (no empty, . or .. parts)"
    }
    return nil
  }
}
