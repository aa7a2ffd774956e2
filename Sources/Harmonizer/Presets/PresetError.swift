/// What went wrong reading, checking or storing a ``Preset``.
///
/// Every case names the preset (or file) and says what to change; none is ever a crash, whatever
/// bytes a preset file holds.
public enum PresetError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A name that cannot become a safe file name: empty, a path (`/`, `\`, `..`), NUL or another
  /// control character, a leading dot, or longer than ``PresetStore/maximumNameLength`` bytes.
  case invalidName(name: String, reason: String)
  /// Saving a new preset whose name another preset already has (compared without regard to case,
  /// after the same file-name normalization); `existing` is the stored one's name.
  case duplicateName(name: String, existing: String)
  /// No preset of that name in the store.
  case notFound(name: String)
  /// The preset file is not a valid preset: not JSON, a field of the wrong type, a value out of
  /// range, or too large; `reason` says where (a JSON path such as `voices[1].level`).
  case corrupt(name: String, reason: String)
  /// The file's `schema` is not one this library reads (it reads ``Preset/schema`` and its
  /// additive revisions `etude-preset/1.N`).
  case unsupportedVersion(name: String, found: String)
  /// A value out of its range in a preset being saved: `field` is its JSON path.
  case invalidValue(field: String, value: String, expected: String)
  /// The file system refused: `path` and the system's message.
  case io(path: String, reason: String)

  /// A message a user can act on.
  public var description: String {
    switch self {
    case .invalidName(let name, let reason): "preset name \"\(name)\" is not allowed: \(reason)"
    case .duplicateName(let name, let existing):
      "a preset named \"\(existing)\" already exists; choose another name than \"\(name)\" or replace it"
    case .notFound(let name): "no preset named \"\(name)\""
    case .corrupt(let name, let reason): "preset \"\(name)\" is damaged: \(reason)"
    case .unsupportedVersion(let name, let found):
      "preset \"\(name)\" has schema \"\(found)\"; this version of Etude reads \"\(Preset.schema)\""
    case .invalidValue(let field, let value, let expected):
      "preset field \(field) is \(value); expected \(expected)"
    case .io(let path, let reason): "preset store: \(path): \(reason)"
    }
  }
}
