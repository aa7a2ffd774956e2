import ArgumentParser
import Foundation

/// The bytes of a document named on the command line: a file, or `-` for standard input (read
/// to its end).
enum InputData {
  /// Reads `path`.
  ///
  /// - Throws: `ValidationError` naming the file when it cannot be read.
  static func read(_ path: String) throws -> Data {
    if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
    do {
      return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw ValidationError("cannot read \(path): \(error.localizedDescription)")
    }
  }
}
