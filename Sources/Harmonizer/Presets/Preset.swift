import Foundation
import ScoreModel

/// Everything a harmonizer setup is, as a document: the voices, key and chord, auto-tune, the
/// effects rack, the volumes, the sequencer and the sample, with a name, a description and dates.
///
/// A preset is plain data (the engine applies it); it reads and writes JSON with the schema
/// ``schema`` (see the PresetsAndSamples article for the format), and a ``PresetStore`` keeps
/// presets as files in a directory.
///
/// Forward compatibility: keys this version does not know are ignored when read, never an error;
/// unknown top-level keys are also kept in ``unknownFields`` and written back when the preset is
/// saved, so a preset made by a newer Etude keeps its extra settings through an older one.
/// (Unknown keys inside a nested object, such as a voice, are ignored and not kept.)
public struct Preset: Sendable, Hashable, Codable {
  /// The schema identifier written into every preset: `etude-preset/1`.
  public static let schema = "etude-preset/1"

  /// The preset's name, as shown and as stored (see ``PresetStore`` for the file-name rules).
  public var name: String
  /// A free-text description.
  public var description: String
  /// When the preset was first made (stored to the second).
  public var created: Date {
    didSet { created = Self.wholeSeconds(created) }
  }
  /// When the preset was last saved (stored to the second).
  public var modified: Date {
    didSet { modified = Self.wholeSeconds(modified) }
  }
  /// The key diatonic voices and chords are built in; `nil` for none.
  public var key: Key?
  /// The chord the voices sing (a Harte label such as `C:maj7` in JSON); `nil` for none.
  public var chord: Chord?
  /// The harmony voices, at most ``maximumVoices``.
  public var voices: [PresetVoice]
  /// Auto-tune settings.
  public var autoTune: PresetAutoTune
  /// The input, output and sample volumes.
  public var volumes: PresetVolumes
  /// The effects rack, in processing order (after the harmonizer and auto-tuner).
  public var rack: [PresetEffect]
  /// The sequencer.
  public var sequencer: PresetSequencer
  /// The sample, or `nil` for none.
  public var sample: PresetSampleReference?
  /// Top-level JSON keys this version does not know, kept as read and written back.
  public var unknownFields: [String: PresetJSONValue]

  /// The most harmony voices a preset holds: 4.
  public static let maximumVoices = 4

  /// Describes a preset.
  ///
  /// - Parameters:
  ///   - name: Its name.
  ///   - description: A description; empty by default.
  ///   - created: When it was made; now by default (truncated to the second).
  ///   - modified: When it was last changed; `created` by default.
  ///   - key: The key; none by default.
  ///   - chord: The chord; none by default.
  ///   - voices: The harmony voices; none by default.
  ///   - autoTune: Auto-tune settings; off by default.
  ///   - volumes: The volumes; all 0 dB by default.
  ///   - rack: The effects rack; empty by default.
  ///   - sequencer: The sequencer; no steps by default.
  ///   - sample: The sample; none by default.
  public init(
    name: String, description: String = "", created: Date = Date(), modified: Date? = nil, key: Key? = nil,
    chord: Chord? = nil, voices: [PresetVoice] = [], autoTune: PresetAutoTune = PresetAutoTune(),
    volumes: PresetVolumes = PresetVolumes(), rack: [PresetEffect] = [],
    sequencer: PresetSequencer = PresetSequencer(),
    sample: PresetSampleReference? = nil
  ) {
    self.name = name
    self.description = description
    self.created = Self.wholeSeconds(created)
    self.modified = Self.wholeSeconds(modified ?? created)
    self.key = key
    self.chord = chord
    self.voices = voices
    self.autoTune = autoTune
    self.volumes = volumes
    self.rack = rack
    self.sequencer = sequencer
    self.sample = sample
    self.unknownFields = [:]
  }

  /// A date truncated to the whole second, as presets store dates.
  static func wholeSeconds(_ date: Date) -> Date {
    Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
  }
}
