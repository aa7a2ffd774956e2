import Foundation

/// One line of a ``PresetStore``'s list: what the seed app's preset table shows (name, size,
/// dates, description), and whether the file could be read.
public struct PresetSummary: Sendable, Hashable, Codable {
  /// The preset's name (the file's name when the file cannot be read).
  public var name: String
  /// The file's name in the store's directory, such as `Bright choir.json`.
  public var fileName: String
  /// The file's size in bytes.
  public var sizeBytes: Int
  /// When the preset was made; `nil` when the file cannot be read.
  public var created: Date?
  /// When the preset was last saved (the file's modification time when it cannot be read).
  public var modified: Date
  /// The preset's description; empty when the file cannot be read.
  public var description: String
  /// Why the file cannot be read (a ``PresetError`` message), or `nil` for a good preset.
  public var problem: String?

  /// Describes a list entry.
  ///
  /// - Parameters:
  ///   - name: The preset's name.
  ///   - fileName: The file's name.
  ///   - sizeBytes: The file's size in bytes.
  ///   - created: When it was made.
  ///   - modified: When it was last saved.
  ///   - description: Its description.
  ///   - problem: Why it cannot be read, or `nil`.
  public init(
    name: String, fileName: String, sizeBytes: Int, created: Date?, modified: Date, description: String,
    problem: String? = nil
  ) {
    self.name = name
    self.fileName = fileName
    self.sizeBytes = sizeBytes
    self.created = created
    self.modified = modified
    self.description = description
    self.problem = problem
  }
}
