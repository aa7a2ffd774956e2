import Foundation

extension ScoreCommand {
  /// Runs `etude score` from plain arguments without ArgumentParser's command tree, or returns
  /// `false` and prints nothing.
  ///
  /// Building the tree of every subcommand (for the completion-script check and the parse) took
  /// about as long as reading a small score, once per process. Plain arguments are the file and
  /// the documented options, each once, values not starting with `-`: `FILE [--part ID]
  /// [--expand-repeats | --no-expand-repeats] [--tempo-scale X]` in any order. Anything else
  /// (help, `--option=value`, an unknown flag, a bad value), and any error while reading, returns
  /// `false`, so the standard parser runs and prints its usual help, usage or message.
  ///
  /// - Parameter arguments: The arguments after `score`.
  /// - Returns: Whether the score was read and printed.
  static func runPlain(_ arguments: [String]) -> Bool {
    var file: String?
    var part: String?
    var expandRepeats: Bool?
    var tempoScale: Double?
    var index = 0
    func value() -> String? {
      guard index + 1 < arguments.count, !arguments[index + 1].hasPrefix("-") else { return nil }
      index += 1
      return arguments[index]
    }
    while index < arguments.count {
      let argument = arguments[index]
      switch argument {
      case "--part":
        guard part == nil, let id = value() else { return false }
        part = id
      case "--expand-repeats", "--no-expand-repeats":
        guard expandRepeats == nil else { return false }
        expandRepeats = argument == "--expand-repeats"
      case "--tempo-scale":
        guard tempoScale == nil, let text = value(), let scale = Double(text), scale > 0, scale.isFinite,
          scale <= 100
        else { return false }
        tempoScale = scale
      default:
        guard file == nil, !argument.hasPrefix("-"), !argument.isEmpty else { return false }
        file = argument
      }
      index += 1
    }
    guard let file else { return false }
    guard
      let bytes = try? document(
        file: file, part: part, expandRepeats: expandRepeats ?? true, tempoScale: tempoScale ?? 1)
    else { return false }
    FileHandle.standardOutput.write(Data(bytes))
    return true
  }
}
