/// What can go wrong reading the grader's tunable data (tolerances, partial tables).
public enum PerformanceAnalysisError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The data is not JSON, or not an object where one is needed.
  case invalidJSON(reason: String)
  /// A field is unknown, of the wrong type, or out of range; `path` names it (`pitch.correctCents`).
  case invalidValue(path: String, reason: String)
  /// A level named that is not in the file or among the built-in ones.
  case unknownLevel(name: String, available: [String])

  public var description: String {
    switch self {
    case .invalidJSON(let reason): "invalid tolerances JSON: \(reason)"
    case .invalidValue(let path, let reason): "invalid tolerance \(path): \(reason)"
    case .unknownLevel(let name, let available):
      "unknown level \"\(name)\" (available: \(available.joined(separator: ", ")))"
    }
  }
}
