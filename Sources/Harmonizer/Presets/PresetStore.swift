import Foundation

/// Presets kept as JSON files in one directory: save, list, load, rename, delete.
///
/// Each preset is `NAME.json` (see ``fileName(for:)`` for how names become file names). Names
/// are unique without regard to case, as the seed app's "check for duplicate file names": saving
/// a new preset whose name is taken is ``PresetError/duplicateName(name:existing:)`` unless it is
/// saved with `replacing: true`.
///
/// Writes are atomic: the new file is written beside the old one under a hidden temporary name,
/// flushed to disk, then renamed over it in one step, so a crash or an error mid-save never
/// damages the previous file. Hidden files (temporaries left by a crash) and files not ending
/// in `.json` are not presets and are not listed.
///
/// ```swift
/// let store = PresetStore(directory: PresetStore.defaultDirectory())
/// try store.save(Preset(name: "Bright choir", voices: [PresetVoice(.degree(3)), PresetVoice(.degree(5))]))
/// for entry in try store.list() { print(entry.name, entry.sizeBytes, entry.modified) }
/// let preset = try store.load(named: "bright choir")
/// ```
///
/// Two processes saving presets at once cannot create two files of exactly the same name (the
/// create step fails if the file appeared), but two names differing only in case could both be
/// created in that race.
public struct PresetStore: Sendable {
  /// The directory holding the preset files.
  public let directory: URL
  /// A simulated failure for the next writes (tests only).
  var interruption: AtomicFileWriter.Interruption?
  /// The clock stamping `modified` (tests replace it).
  var now: @Sendable () -> Date = { Date() }

  /// A store over a directory; nothing is read or created until it is used (``save(_:replacing:)``
  /// creates the directory).
  ///
  /// - Parameter directory: The presets directory.
  public init(directory: URL) {
    self.directory = directory
  }

  /// The default presets directory: `$ETUDE_PRESETS` when set and not empty, otherwise
  /// `~/.etude/presets`.
  ///
  /// - Parameter environment: The environment to read; the process's by default.
  /// - Returns: The directory's URL.
  public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> URL
  {
    if let path = environment["ETUDE_PRESETS"], !path.isEmpty {
      return URL(fileURLWithPath: path, isDirectory: true)
    }
    let home =
      environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
      ?? FileManager.default.homeDirectoryForCurrentUser
    return home.appendingPathComponent(".etude", isDirectory: true).appendingPathComponent(
      "presets", isDirectory: true)
  }

  /// Every preset file in the directory, sorted by name (without regard to case).
  ///
  /// A file that cannot be read is listed too, under its file name, with ``PresetSummary/problem``
  /// set, so a damaged preset can be seen and deleted.
  ///
  /// - Returns: One summary per `.json` file; empty when the directory does not exist.
  /// - Throws: ``PresetError/io(path:reason:)`` when the directory cannot be read.
  public func list() throws(PresetError) -> [PresetSummary] {
    var summaries: [PresetSummary] = []
    for file in try presetFiles() {
      let url = directory.appendingPathComponent(file)
      let attributes: [FileAttributeKey: Any]
      do {
        attributes = try FileManager.default.attributesOfItem(atPath: url.path)
      } catch {
        // Deleted between the listing and now: not a preset any more.
        continue
      }
      let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
      let fileDate = attributes[.modificationDate] as? Date ?? Date(timeIntervalSince1970: 0)
      let stem = String(file.dropLast(5))
      do {
        let preset = try read(url, stem: stem)
        summaries.append(
          PresetSummary(
            name: preset.name, fileName: file, sizeBytes: size, created: preset.created,
            modified: preset.modified,
            description: preset.description))
      } catch {
        summaries.append(
          PresetSummary(
            name: stem, fileName: file, sizeBytes: size, created: nil, modified: fileDate, description: "",
            problem: error.description))
      }
    }
    return summaries.sorted {
      let a = $0.name.lowercased(), b = $1.name.lowercased()
      return a != b ? a < b : $0.fileName < $1.fileName
    }
  }

  /// Loads a preset by name (without regard to case).
  ///
  /// - Parameter name: The preset's name.
  /// - Returns: The preset; its ``Preset/name`` is the stored one.
  /// - Throws: ``PresetError/invalidName(name:reason:)``, ``PresetError/notFound(name:)``,
  ///   ``PresetError/corrupt(name:reason:)``, ``PresetError/unsupportedVersion(name:found:)`` or
  ///   ``PresetError/io(path:reason:)``.
  public func load(named name: String) throws(PresetError) -> Preset {
    let stem = try Self.fileStem(for: name)
    guard let file = try existingFile(identity: Self.identity(ofStem: stem)) else {
      throw .notFound(name: name)
    }
    return try read(directory.appendingPathComponent(file), stem: String(file.dropLast(5)))
  }

  /// Whether a preset of this name (without regard to case) is stored.
  ///
  /// - Parameter name: A preset name.
  /// - Returns: `true` when a file of that name exists.
  /// - Throws: ``PresetError/invalidName(name:reason:)`` or ``PresetError/io(path:reason:)``.
  public func contains(named name: String) throws(PresetError) -> Bool {
    try existingFile(identity: Self.identity(ofStem: try Self.fileStem(for: name))) != nil
  }

  /// Saves a preset atomically, stamping ``Preset/modified`` with the current time.
  ///
  /// A new preset keeps its ``Preset/created``; one that replaces a stored preset takes the
  /// stored one's `created` (when that file can be read) and its file name.
  ///
  /// - Parameters:
  ///   - preset: The preset; it is checked with ``Preset/validate()`` first.
  ///   - replacing: `true` to overwrite a stored preset of the same name; `false` (the default)
  ///     to refuse.
  /// - Returns: The preset as stored (with its dates).
  /// - Throws: ``PresetError/duplicateName(name:existing:)`` when the name is taken and
  ///   `replacing` is `false`; ``PresetError/invalidName(name:reason:)``,
  ///   ``PresetError/invalidValue(field:value:expected:)``, ``PresetError/io(path:reason:)``. On
  ///   any error the stored files are as they were.
  @discardableResult
  public func save(_ preset: Preset, replacing: Bool = false) throws(PresetError) -> Preset {
    let stem = try Self.fileStem(for: preset.name)
    try preset.validate()
    try createDirectory()
    let existing = try existingFile(identity: Self.identity(ofStem: stem))
    var stored = preset
    stored.name = preset.name.trimmingCharacters(in: .whitespacesAndNewlines)
    stored.modified = now()
    if let existing {
      guard replacing else { throw .duplicateName(name: preset.name, existing: String(existing.dropLast(5))) }
      do {
        stored.created = try read(directory.appendingPathComponent(existing), stem: stem).created
      } catch {
        // Replacing a damaged file: there is no earlier creation date to keep.
      }
    }
    let data = try stored.jsonData()
    let url = directory.appendingPathComponent(existing ?? stem + ".json")
    do {
      try AtomicFileWriter.write(data, to: url, replacing: existing != nil, interruption: interruption)
    } catch {
      if case .duplicateName = error { throw .duplicateName(name: preset.name, existing: stem) }
      throw error
    }
    return stored
  }

  /// Deletes a stored preset.
  ///
  /// - Parameter name: Its name (without regard to case).
  /// - Throws: ``PresetError/notFound(name:)``, ``PresetError/invalidName(name:reason:)`` or
  ///   ``PresetError/io(path:reason:)``.
  public func delete(named name: String) throws(PresetError) {
    let stem = try Self.fileStem(for: name)
    guard let file = try existingFile(identity: Self.identity(ofStem: stem)) else {
      throw .notFound(name: name)
    }
    let url = directory.appendingPathComponent(file)
    do {
      try FileManager.default.removeItem(at: url)
    } catch {
      throw .io(path: url.path, reason: error.localizedDescription)
    }
  }

  /// Renames a stored preset (a change of case only is allowed).
  ///
  /// The preset is written under the new name first and the old file removed after, so a crash
  /// in between leaves both, never neither.
  ///
  /// - Parameters:
  ///   - name: The stored preset's name.
  ///   - newName: The new name.
  /// - Returns: The preset as stored under the new name.
  /// - Throws: ``PresetError/notFound(name:)`` for `name`, ``PresetError/duplicateName(name:existing:)``
  ///   when another preset has `newName`, and the errors of ``load(named:)`` and
  ///   ``save(_:replacing:)``.
  @discardableResult
  public func rename(_ name: String, to newName: String) throws(PresetError) -> Preset {
    let oldStem = try Self.fileStem(for: name)
    let newStem = try Self.fileStem(for: newName)
    guard let oldFile = try existingFile(identity: Self.identity(ofStem: oldStem)) else {
      throw .notFound(name: name)
    }
    var preset = try read(directory.appendingPathComponent(oldFile), stem: String(oldFile.dropLast(5)))
    preset.name = newName.trimmingCharacters(in: .whitespacesAndNewlines)
    let sameIdentity = Self.identity(ofStem: oldStem) == Self.identity(ofStem: newStem)
    if !sameIdentity, let taken = try existingFile(identity: Self.identity(ofStem: newStem)) {
      throw .duplicateName(name: newName, existing: String(taken.dropLast(5)))
    }
    let newFile = newStem + ".json"
    if newFile == oldFile {
      return try save(preset, replacing: true)
    }
    preset.modified = now()
    try AtomicFileWriter.write(
      try preset.jsonData(), to: directory.appendingPathComponent(newFile), replacing: false,
      interruption: interruption)
    do {
      try FileManager.default.removeItem(at: directory.appendingPathComponent(oldFile))
    } catch {
      throw .io(path: directory.appendingPathComponent(oldFile).path, reason: error.localizedDescription)
    }
    return preset
  }

  /// The file a preset's sample reference points to, inside the presets directory.
  ///
  /// - Parameter reference: The sample reference.
  /// - Returns: Its URL.
  /// - Throws: ``PresetError/invalidValue(field:value:expected:)`` for a path that would leave the
  ///   directory (absolute, or with `..`).
  public func url(for reference: PresetSampleReference) throws(PresetError) -> URL {
    if let problem = Self.problem(withSamplePath: reference.file) {
      throw .invalidValue(field: "sample.file", value: "\"\(reference.file)\"", expected: problem)
    }
    return directory.appendingPathComponent(reference.file)
  }

  // MARK: - Files

  /// Reads and checks one preset file; the file name wins over a document name that does not
  /// match it (a file renamed by hand).
  private func read(_ url: URL, stem: String) throws(PresetError) -> Preset {
    let data: Data
    do {
      let handle = try FileHandle(forReadingFrom: url)
      // Closing a handle only read from cannot lose data; a failure there changes nothing.
      defer { try? handle.close() }
      data = try handle.read(upToCount: Preset.maximumFileBytes + 1) ?? Data()
    } catch {
      if !FileManager.default.fileExists(atPath: url.path) { throw .notFound(name: stem) }
      throw .io(path: url.path, reason: error.localizedDescription)
    }
    var preset = try Preset(jsonData: data, name: stem)
    let documentStem: String
    do {
      documentStem = try Self.fileStem(for: preset.name)
    } catch {
      documentStem = ""
    }
    if Self.identity(ofStem: documentStem) != Self.identity(ofStem: stem) { preset.name = stem }
    return preset
  }

  /// The `.json` files that are presets (not hidden), unsorted; none if the directory is missing.
  private func presetFiles() throws(PresetError) -> [String] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) else { return [] }
    guard isDirectory.boolValue else { throw .io(path: directory.path, reason: "not a directory") }
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    } catch {
      throw .io(path: directory.path, reason: error.localizedDescription)
    }
    return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") && $0.count > 5 }
  }

  /// The stored file whose name collides with `identity`, if any.
  private func existingFile(identity: String) throws(PresetError) -> String? {
    try presetFiles().sorted().first {
      Self.identity(ofStem: String($0.dropLast(5)).precomposedStringWithCanonicalMapping) == identity
    }
  }

  private func createDirectory() throws(PresetError) {
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw .io(path: directory.path, reason: error.localizedDescription)
    }
  }
}
