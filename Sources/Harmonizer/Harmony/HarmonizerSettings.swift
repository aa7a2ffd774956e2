import ScoreModel

/// Everything that shapes the harmony: the key, an optional chord, up to four voices, the live
/// voice's level and the auto-tuner. A plain document (Codable, as presets store it); a
/// ``HarmonizerEngine`` takes it through ``HarmonizerEngine/update(_:)`` from any thread.
public struct HarmonizerSettings: Sendable, Hashable, Codable {
  /// The most harmony voices an engine sings at once.
  public static var maximumVoices: Int { 4 }

  /// The key: diatonic intervals and the auto-tuner's default scale.
  public var key: Key
  /// The chord whose tones ``HarmonyInterval/chordTone(_:)`` voices sing; `nil` uses the key's
  /// tonic triad.
  public var chord: Chord?
  /// The harmony voices, at most ``maximumVoices``.
  public var voices: [HarmonyVoice]
  /// The live (dry, or auto-tuned) voice's level, 0...1.
  public var liveLevel: Double
  /// The auto-tuner applied to the live voice.
  public var autoTune: AutoTuneSettings

  /// Settings; levels are clamped, extra voices are rejected by ``validate()``.
  public init(
    key: Key = .cMajor, chord: Chord? = nil, voices: [HarmonyVoice] = [], liveLevel: Double = 1,
    autoTune: AutoTuneSettings = .init()
  ) {
    self.key = key
    self.chord = chord
    self.voices = voices
    self.liveLevel = liveLevel.isFinite ? min(1, max(0, liveLevel)) : 1
    self.autoTune = autoTune
  }

  /// Voices at diatonic intervals in `key`, such as `[3, 5]` for a third and a fifth above,
  /// spread across the stereo field.
  public static func diatonic(_ numbers: [Int], in key: Key) -> HarmonizerSettings {
    HarmonizerSettings(key: key, voices: spread(numbers.map { .diatonic($0) }))
  }

  /// Voices on the tones of `chord` above the sung note (as many as the chord has above its
  /// root, at most four), spread across the stereo field.
  public static func chord(_ chord: Chord, key: Key? = nil, voices count: Int? = nil) -> HarmonizerSettings {
    let n = min(maximumVoices, max(1, count ?? (chord.type.intervals.count - 1)))
    let minor = chord.type.semitones.contains(3) && !chord.type.semitones.contains(4)
    return HarmonizerSettings(
      key: key ?? Key(chord.root, minor ? .naturalMinor : .major), chord: chord,
      voices: spread((1...n).map { .chordTone($0) }))
  }

  /// Voices at `intervals`, panned evenly from left to right (one voice stays in the centre).
  public static func spread(_ intervals: [HarmonyInterval], level: Double = 0.7) -> [HarmonyVoice] {
    intervals.enumerated().map { index, interval in
      let pan = intervals.count < 2 ? 0 : -0.6 + 1.2 * Double(index) / Double(intervals.count - 1)
      return HarmonyVoice(interval, level: level, pan: pan)
    }
  }

  /// Checks that an engine can sing these settings.
  ///
  /// - Throws: ``HarmonizerError/invalidParameter(name:value:expected:)`` for more than
  ///   ``maximumVoices`` voices or a unison diatonic interval written as 0.
  public func validate() throws(HarmonizerError) {
    guard voices.count <= Self.maximumVoices else {
      throw .invalidParameter(
        name: "voices", value: "\(voices.count)", expected: "at most \(Self.maximumVoices)")
    }
    for voice in voices {
      switch voice.interval {
      case .diatonic(0), .chordTone(0):
        throw .invalidParameter(
          name: "voice interval", value: voice.interval.description, expected: "a non-zero number")
      case .semitones(let s) where abs(s) > 24:
        throw .invalidParameter(
          name: "voice interval", value: voice.interval.description, expected: "−24...24 semitones")
      default:
        break
      }
    }
  }
}
