/// A preset's sample: a WAV file next to the presets, and how it is trimmed and looped.
///
/// The file is a path relative to the presets directory (`aah.wav`, `samples/aah.wav`); it
/// never leaves that directory (no absolute paths, no `..`). Times are in seconds: the trim from
/// the start of the file, the loop from the trim start. JSON:
/// `{"file": "samples/aah.wav", "trimStartSeconds": 0.1, "trimEndSeconds": 1.2,
/// "loop": {"enabled": true, "startSeconds": 0.2, "endSeconds": 0.9, "crossfadeSeconds": 0.01}}`.
public struct PresetSampleReference: Sendable, Hashable, Codable {
  /// How the referenced sample loops.
  public struct Loop: Sendable, Hashable, Codable {
    /// Whether it loops.
    public var isEnabled: Bool
    /// The loop start, in seconds from the trim start.
    public var startSeconds: Double
    /// The loop end, in seconds from the trim start; `nil` for the trim end.
    public var endSeconds: Double?
    /// The crossfade at the seam, in seconds (0…1).
    public var crossfadeSeconds: Double

    /// Describes a loop.
    ///
    /// - Parameters:
    ///   - isEnabled: Whether it loops; off by default.
    ///   - startSeconds: Start from the trim start; 0 by default.
    ///   - endSeconds: End from the trim start; `nil` (the trim end) by default.
    ///   - crossfadeSeconds: The seam crossfade; 10 ms by default.
    public init(
      isEnabled: Bool = false, startSeconds: Double = 0, endSeconds: Double? = nil,
      crossfadeSeconds: Double = SampleLoop.defaultCrossfadeSeconds
    ) {
      self.isEnabled = isEnabled
      self.startSeconds = startSeconds
      self.endSeconds = endSeconds
      self.crossfadeSeconds = crossfadeSeconds
    }

    private enum CodingKeys: String, CodingKey {
      case isEnabled = "enabled"
      case startSeconds, endSeconds, crossfadeSeconds
    }

    /// Decodes a loop; a missing field takes its default.
    ///
    /// - Throws: `DecodingError` for a field of the wrong type.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      isEnabled = try container.decodeIfPresent(Bool.self, forKey: .isEnabled) ?? false
      startSeconds = try container.decodeIfPresent(Double.self, forKey: .startSeconds) ?? 0
      endSeconds = try container.decodeIfPresent(Double.self, forKey: .endSeconds)
      crossfadeSeconds =
        try container.decodeIfPresent(Double.self, forKey: .crossfadeSeconds)
        ?? SampleLoop.defaultCrossfadeSeconds
    }
  }

  /// The WAV file, relative to the presets directory.
  public var file: String
  /// Where playback starts, in seconds from the start of the file.
  public var trimStartSeconds: Double
  /// Where playback ends, in seconds from the start of the file; `nil` for the end.
  public var trimEndSeconds: Double?
  /// How it loops.
  public var loop: Loop

  /// Describes a sample reference.
  ///
  /// - Parameters:
  ///   - file: The WAV file relative to the presets directory.
  ///   - trimStartSeconds: The trim start; 0 by default.
  ///   - trimEndSeconds: The trim end; `nil` (the end of the file) by default.
  ///   - loop: How it loops; off by default.
  public init(file: String, trimStartSeconds: Double = 0, trimEndSeconds: Double? = nil, loop: Loop = Loop())
  {
    self.file = file
    self.trimStartSeconds = trimStartSeconds
    self.trimEndSeconds = trimEndSeconds
    self.loop = loop
  }

  private enum CodingKeys: String, CodingKey { case file, trimStartSeconds, trimEndSeconds, loop }

  /// Decodes a reference; only `file` is required.
  ///
  /// - Throws: `DecodingError` when `file` is missing or a field has the wrong type.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    file = try container.decode(String.self, forKey: .file)
    trimStartSeconds = try container.decodeIfPresent(Double.self, forKey: .trimStartSeconds) ?? 0
    trimEndSeconds = try container.decodeIfPresent(Double.self, forKey: .trimEndSeconds)
    loop = try container.decodeIfPresent(Loop.self, forKey: .loop) ?? Loop()
  }
}
