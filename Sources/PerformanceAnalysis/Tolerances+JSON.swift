import Foundation
import ScoreModel

extension Tolerances {
  /// Tolerances from JSON: one level, or several under `"levels"`.
  ///
  /// A level is an object with any of the fields of ``Tolerances`` (nested objects for
  /// `pitch`, `timing`, `duration`, `rest`, `severity`); fields left out come from its `"base"`
  /// level (a built-in one, or another level of the same file; default `intermediate`, or the
  /// built-in level of the same name). A file of several levels looks like
  /// `{"default": "school", "levels": {"school": {"base": "beginner", "timing": {"correctMs": 60}}}}`.
  /// Unknown fields are errors, so that a misspelt name does not go unnoticed.
  ///
  /// - Parameters:
  ///   - json: The JSON.
  ///   - level: The level to take from a file of several (default: its `"default"`, else the
  ///     only one); a built-in level's name works too.
  /// - Throws: ``PerformanceAnalysisError``.
  public init(json: Data, level: String? = nil) throws(PerformanceAnalysisError) {
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: json)
    } catch {
      throw .invalidJSON(reason: "\(error.localizedDescription)")
    }
    guard let root = object as? [String: Any] else { throw .invalidJSON(reason: "expected an object") }
    var levels: [String: [String: Any]] = [:]
    var chosen = level
    if let list = root["levels"] {
      guard let list = list as? [String: Any] else { throw .invalidValue(path: "levels", reason: "expected an object") }
      for (name, value) in list {
        guard let value = value as? [String: Any] else {
          throw .invalidValue(path: "levels.\(name)", reason: "expected an object")
        }
        levels[name] = value
      }
      if chosen == nil {
        if let name = root["default"] as? String {
          chosen = name
        } else if levels.count == 1 {
          chosen = levels.keys.first
        } else {
          throw .invalidValue(path: "default", reason: "several levels and no default: name one")
        }
      }
      for key in root.keys where key != "levels" && key != "default" {
        throw .invalidValue(path: key, reason: "unknown field (expected levels, default)")
      }
    } else {
      let name = (root["name"] as? String) ?? "custom"
      levels[name] = root
      if chosen == nil || chosen == name { chosen = name }
    }
    self = try Self.resolve(chosen!, levels: levels, nested: root["levels"] != nil, visiting: [])
    try validate()
  }

  /// The most levels of a file one level's bases may chain through.
  static let maximumBaseDepth = 64

  /// A level of a file, its base resolved.
  private static func resolve(
    _ name: String, levels: [String: [String: Any]], nested: Bool, visiting: Set<String>
  ) throws(PerformanceAnalysisError) -> Tolerances {
    guard let fields = levels[name] else {
      if let builtIn = level(named: name) { return builtIn }
      throw .unknownLevel(name: name, available: (levels.keys + builtInLevels.map(\.name)).sorted())
    }
    guard !visiting.contains(name) else { throw .invalidValue(path: "levels.\(name).base", reason: "a cycle of bases") }
    // Each base is a level of recursion: a chain longer than any real file stops here, not on the stack.
    guard visiting.count < maximumBaseDepth else {
      throw .invalidValue(path: "levels.\(name).base", reason: "bases chained more than \(maximumBaseDepth) deep")
    }
    // The base: named, else the built-in level of the same name, else intermediate.
    let baseName = (fields["base"] as? String) ?? (level(named: name) != nil ? name : "intermediate")
    let base: Tolerances
    if baseName == name, let builtIn = level(named: name) {
      base = builtIn
    } else {
      base = try resolve(baseName, levels: levels, nested: nested, visiting: visiting.union([name]))
    }
    var own = fields
    own.removeValue(forKey: "base")
    if own["name"] == nil { own["name"] = name }
    return try base.merging(own, path: nested ? "levels.\(name)" : "")
  }

  /// This level with `fields` laid over it.
  func merging(_ fields: [String: Any], path: String) throws(PerformanceAnalysisError) -> Tolerances {
    let baseObject: [String: Any]
    do {
      let data = try JSONEncoder().encode(self)
      baseObject = try JSONSerialization.jsonObject(with: data) as! [String: Any]
    } catch {
      throw .invalidJSON(reason: "\(error)")
    }
    let merged = try Self.merge(fields, into: baseObject, path: path, open: false)
    do {
      let data = try JSONSerialization.data(withJSONObject: merged)
      return try JSONDecoder().decode(Tolerances.self, from: data)
    } catch let error as DecodingError {
      throw .invalidValue(path: Self.describe(error).path, reason: Self.describe(error).reason)
    } catch {
      throw .invalidJSON(reason: "\(error)")
    }
  }

  /// Lays `fields` over `base`: objects recursively, anything else replaced. In a closed object
  /// (not `severity` or `duration.expectedRatios`, which take any name) unknown keys throw.
  static func merge(
    _ fields: [String: Any], into base: [String: Any], path: String, open: Bool
  ) throws(PerformanceAnalysisError) -> [String: Any] {
    var result = base
    for (key, value) in fields {
      let here = path.isEmpty ? key : "\(path).\(key)"
      guard let old = base[key] else {
        if open {
          result[key] = value
          continue
        }
        throw .invalidValue(path: here, reason: "unknown field (expected one of \(base.keys.sorted().joined(separator: ", ")))")
      }
      if let oldObject = old as? [String: Any] {
        guard let newObject = value as? [String: Any] else { throw .invalidValue(path: here, reason: "expected an object") }
        result[key] = try merge(
          newObject, into: oldObject, path: here, open: key == "severity" || key == "expectedRatios")
      } else {
        result[key] = value
      }
    }
    return result
  }

  static func describe(_ error: DecodingError) -> (path: String, reason: String) {
    switch error {
    case .typeMismatch(let type, let context):
      return (context.codingPath.jsonPath, "expected \(type)")
    case .valueNotFound(let type, let context):
      return (context.codingPath.jsonPath, "expected \(type), found null")
    case .keyNotFound(let key, let context):
      return ((context.codingPath + [key]).jsonPath, "missing")
    case .dataCorrupted(let context):
      return (context.codingPath.jsonPath, context.debugDescription)
    @unknown default:
      return ("", "\(error)")
    }
  }
}
