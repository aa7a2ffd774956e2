import ScoreModel

/// ``HarmonizerSettings`` compiled into fixed-size values the audio thread reads without
/// allocating: the scale and chord as pitch-class sets and each voice's rule, level and pan.
///
/// Also carries the keyboard's (or the sequencer's) notes: when ``holdsNotes`` is set, voice `i`
/// sings the `i`-th of ``notes`` (or is silent when there are fewer notes), whatever its rule.
public struct HarmonyPlan: Sendable, Hashable {
  /// How many voices sing (0...4).
  public var voiceCount: Int
  /// Each voice's rule: 0 semitones, 1 diatonic, 2 chord tone, 3 fixed note.
  var kinds: SIMD4<Int32>
  /// Each voice's rule value (semitones, interval number, chord-tone number or MIDI pitch).
  var values: SIMD4<Double>
  /// Each voice's level, 0...1.
  public var levels: SIMD4<Float>
  /// Each voice's pan, −1...1.
  public var pans: SIMD4<Float>
  /// The key's scale.
  public var scale: PitchClassSet
  /// The chord's tones.
  public var chord: PitchClassSet
  /// The live voice's level.
  public var liveLevel: Float
  /// Whether the live voice is auto-tuned.
  public var autoTune: Bool
  /// The notes the auto-tuner snaps to.
  public var autoTuneSet: PitchClassSet
  /// The auto-tuner's retune time constant, in seconds.
  public var retuneSeconds: Double
  /// Whether the voices sing ``notes`` instead of their rules (keyboard or sequencer).
  public var holdsNotes: Bool
  /// The held notes (MIDI pitches), ``noteCount`` of them.
  public var notes: SIMD4<Double>
  /// How many held notes there are (0 = silence while ``holdsNotes``).
  public var noteCount: Int

  /// Compiles settings.
  ///
  /// - Throws: what ``HarmonizerSettings/validate()`` throws.
  public init(_ settings: HarmonizerSettings) throws(HarmonizerError) {
    try settings.validate()
    voiceCount = settings.voices.count
    kinds = .zero
    values = .zero
    levels = .zero
    pans = .zero
    for (i, voice) in settings.voices.enumerated() {
      switch voice.interval {
      case .semitones(let s): (kinds[i], values[i]) = (0, s)
      case .diatonic(let n): (kinds[i], values[i]) = (1, Double(n))
      case .chordTone(let n): (kinds[i], values[i]) = (2, Double(n))
      case .note(let p): (kinds[i], values[i]) = (3, p)
      }
      levels[i] = Float(voice.level)
      pans[i] = Float(voice.pan)
    }
    scale = PitchClassSet(key: settings.key)
    chord = PitchClassSet(
      chord: settings.chord ?? Chord(settings.key.tonic, settings.key.scale.isMinor ? .minor : .major))
    liveLevel = Float(settings.liveLevel)
    autoTune = settings.autoTune.isEnabled
    autoTuneSet = settings.autoTune.key.map { PitchClassSet(key: $0) } ?? .chromatic
    retuneSeconds = settings.autoTune.retuneSeconds
    holdsNotes = false
    notes = .zero
    noteCount = 0
  }

  /// The plan with the voices singing `notes` (the first four; an empty list is silence), or
  /// back on their rules for `nil`.
  public func holding(_ notes: [Double]?) -> HarmonyPlan {
    var plan = self
    plan.holdsNotes = notes != nil
    plan.noteCount = min(4, notes?.count ?? 0)
    plan.notes = .zero
    for (i, note) in (notes ?? []).prefix(4).enumerated() where note.isFinite { plan.notes[i] = note }
    // Notes beyond the configured voices sing at a default level, spread across the field.
    for i in voiceCount..<max(voiceCount, plan.noteCount) {
      plan.levels[i] = 0.7
      plan.pans[i] = Float(-0.6 + 1.2 * Double(i) / 3)
    }
    return plan
  }

  /// Voice `index`'s target: the shift in semitones from the sung pitch `sung` (a fractional
  /// MIDI pitch, or NaN when nothing is sung), or NaN when the voice is silent.
  @_noLocks
  public func shift(voice index: Int, sung: Double) -> Double {
    guard index < voiceCount || (holdsNotes && index < noteCount) else { return .nan }
    if holdsNotes { return index < noteCount ? notes[index] - sung : .nan }
    let value = values[index]
    switch kinds[index] {
    case 0:
      return value
    case 1:
      guard let degree = scale.nearest(to: sung) else { return .nan }  // nothing sung yet: silent
      let n = Int(value)
      let steps = n > 0 ? n - 1 : n < 0 ? n + 1 : 0
      return Double(scale.member(from: degree, steps: steps) - degree)
    case 2:
      guard !chord.isEmpty, sung.isFinite else { return .nan }
      let n = Int(value)
      // The first chord tone at least a semitone above (below) the sung pitch, then on.
      let start = Int(_unsafePerformance { n > 0 ? (sung + 0.5).rounded(.down) : (sung - 0.5).rounded(.up) })
      let target = chord.member(from: start, steps: n)
      return Double(target) - sung
    default:
      return value - sung
    }
  }

  /// How many voices sing under this plan (the held notes' count when holding notes).
  public var singingVoices: Int { holdsNotes ? noteCount : voiceCount }
}
