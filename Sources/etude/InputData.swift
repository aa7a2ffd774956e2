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

  /// Reads `path` as UTF-8 text.
  ///
  /// - Throws: `ValidationError` naming the file when it cannot be read or is not UTF-8.
  static func readText(_ path: String) throws -> String {
    let data = try read(path)
    guard let text = String(data: data, encoding: .utf8) else {
      throw ValidationError("\(path == "-" ? "standard input" : path): not UTF-8 text")
    }
    return text
  }
}
