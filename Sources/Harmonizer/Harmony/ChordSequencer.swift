import ScoreModel

/// A chord progression at a tempo, looping or not: the schedule that drives a
/// ``HarmonizerEngine``'s voices through ``HarmonizerEngine/hold(_:)``.
///
/// Each step is a chord as MIDI note numbers (an empty step is silence) and a length in beats.
/// The sequencer only answers which step sounds when (``step(at:)`` allocates nothing); the host
/// calls ``HarmonizerEngine/hold(_:)`` with the step's notes when the step changes, from its
/// control thread or its audio callback.
public struct ChordSequencer: Sendable, Hashable, Codable {
  /// One step of the progression.
  public struct Step: Sendable, Hashable, Codable {
    /// The notes, as MIDI numbers; empty for silence.
    public var notes: [Int]
    /// How long the step lasts, in beats (quarter notes).
    public var beats: Double

    /// A step; notes outside 0...127 are dropped, a length that is not positive counts as one beat.
    public init(notes: [Int], beats: Double) {
      self.notes = notes.filter { (0...127).contains($0) }
      self.beats = beats.isFinite && beats > 0 ? beats : 1
    }
  }

  /// The steps, in order.
  public var steps: [Step]
  /// The tempo, in beats per minute.
  public var tempo: Double
  /// Whether the progression starts over after its last step.
  public var loops: Bool

  /// A sequencer; the tempo is clamped to 1...1000 beats per minute.
  public init(steps: [Step], tempo: Double = 100, loops: Bool = true) {
    self.steps = steps
    self.tempo = tempo.isFinite ? min(1000, max(1, tempo)) : 100
    self.loops = loops
  }

  /// Reads a progression written as chords and lengths separated by `|`: `C:maj 4 | A:min 4 |
  /// F:maj 2 | G:7 2`, each chord in Harte syntax (or `N` for a rest), voiced in root position
  /// around `octave` (4: the root between C4 and B4), with an optional length in beats (default
  /// 4). A chord may name an inversion as a bass interval (`C:maj/3`).
  ///
  /// - Throws: ``HarmonizerError/invalidParameter(name:value:expected:)`` naming the step that
  ///   does not read.
  public init(progression text: String, tempo: Double = 100, loops: Bool = true, octave: Int = 4)
    throws(HarmonizerError)
  {
    var steps: [Step] = []
    for (index, item) in text.split(separator: "|").enumerated() {
      let words = item.split(separator: " ", omittingEmptySubsequences: true)
      guard let first = words.first, words.count <= 2 else {
        throw .invalidParameter(
          name: "progression step \(index + 1)", value: "\"\(item)\"",
          expected: "a chord and an optional length in beats")
      }
      let beats = words.count == 2 ? Double(words[1]) : 4
      guard let beats, beats > 0, beats.isFinite else {
        throw .invalidParameter(
          name: "progression step \(index + 1)", value: "\"\(item)\"", expected: "a length in beats above 0")
      }
      if first == "N" {
        steps.append(Step(notes: [], beats: beats))
        continue
      }
      let chord: Chord
      do { chord = try Chord(harte: String(first)) } catch {
        throw .invalidParameter(
          name: "progression step \(index + 1)", value: "\"\(first)\"",
          expected: "a chord such as C:maj, A:min7 or G:7/3")
      }
      steps.append(Step(notes: Self.voicing(of: chord, octave: octave), beats: beats))
    }
    guard !steps.isEmpty else {
      throw .invalidParameter(name: "progression", value: "\"\(text)\"", expected: "at least one chord")
    }
    self.init(steps: steps, tempo: tempo, loops: loops)
  }

  /// A chord's notes as MIDI numbers: the bass (the root, or the inversion's bass) in `octave`,
  /// the other tones stacked above it within an octave.
  public static func voicing(of chord: Chord, octave: Int = 4) -> [Int] {
    let bass = chord.bassPitchClass.rawValue + 12 * (octave + 1)
    var notes = [bass]
    for pitchClass in chord.pitchClasses where pitchClass != chord.bassPitchClass {
      notes.append(bass + pitchClass.semitones(above: chord.bassPitchClass))
    }
    return notes.sorted()
  }

  /// The progression's length, in seconds.
  public var durationSeconds: Double { steps.reduce(0) { $0 + $1.beats } * 60 / tempo }

  /// The index of the step sounding at `seconds` from the start, or `nil` before 0 and, when not
  /// looping, after the end. Allocates nothing.
  public func step(at seconds: Double) -> Int? {
    guard seconds >= 0, seconds.isFinite, !steps.isEmpty else { return nil }
    let total = durationSeconds
    var t = seconds
    if t >= total {
      guard loops, total > 0 else { return nil }
      t = t.truncatingRemainder(dividingBy: total)
    }
    var end = 0.0
    for (index, step) in steps.enumerated() {
      end += step.beats * 60 / tempo
      if t < end { return index }
    }
    return steps.count - 1
  }
}
