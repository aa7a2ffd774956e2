/// A preset's sequencer: a chord progression at a tempo, looping or played once.
///
/// JSON: `{"tempoBPM": 96, "loops": true, "steps": [{"notes": [60, 64, 67], "beats": 4},
/// {"notes": [], "beats": 2}]}`; a step with no notes is silence.
public struct PresetSequencer: Sendable, Hashable, Codable {
  /// One chord of the progression and how long it lasts.
  public struct Step: Sendable, Hashable, Codable {
    /// The chord's notes as MIDI note numbers (0…127, at most 16); empty for silence.
    public var notes: [Int]
    /// How long the step lasts, in beats (more than 0, at most 64).
    public var beats: Double

    /// Describes a step.
    ///
    /// - Parameters:
    ///   - notes: MIDI note numbers; empty for silence.
    ///   - beats: The length in beats.
    public init(notes: [Int], beats: Double) {
      self.notes = notes
      self.beats = beats
    }
  }

  /// The tempo in beats per minute (20…400).
  public var tempoBPM: Double
  /// Whether the progression starts again after its last step.
  public var loops: Bool
  /// The progression, in order (at most 1024 steps); empty for no sequence.
  public var steps: [Step]

  /// Describes a sequencer.
  ///
  /// - Parameters:
  ///   - tempoBPM: Beats per minute; 120 by default.
  ///   - loops: Whether it repeats; `true` by default.
  ///   - steps: The progression; empty by default.
  public init(tempoBPM: Double = 120, loops: Bool = true, steps: [Step] = []) {
    self.tempoBPM = tempoBPM
    self.loops = loops
    self.steps = steps
  }

  private enum CodingKeys: String, CodingKey { case tempoBPM, loops, steps }

  /// Decodes a sequencer; a missing field takes its default.
  ///
  /// - Throws: `DecodingError` for a field of the wrong type.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    tempoBPM = try container.decodeIfPresent(Double.self, forKey: .tempoBPM) ?? 120
    loops = try container.decodeIfPresent(Bool.self, forKey: .loops) ?? true
    steps = try container.decodeIfPresent([Step].self, forKey: .steps) ?? []
  }

  /// The progression's length in beats.
  public var totalBeats: Double { steps.reduce(0) { $0 + $1.beats } }
}
