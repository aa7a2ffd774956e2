/// One note (or rest) of a score as it is expected to be played: where it starts, how long it
/// lasts, what it sounds like and where it is drawn.
///
/// Positions are exact quarter notes from the start of the performance (``onset``,
/// ``duration``) and seconds through the score's tempo (``onsetSeconds``,
/// ``durationSeconds``). A transposing instrument's ``writtenPitch`` differs from its
/// ``soundingPitch`` (a B♭ trumpet's written D5 sounds C5). Tied notes are one `ScoreNote`.
/// Rests are kept (`isRest`, no pitch): a grader checks that nothing sounds during them.
public struct ScoreNote: Sendable, Hashable, Codable {
  /// The part's identifier, such as `P1`.
  public var part: String
  /// The measure number as the score counts it (1 for the first full bar; 0 for a pickup).
  public var measure: Int
  /// The voice within the part, from 1.
  public var voice: Int
  /// The staff within the part, from 1.
  public var staff: Int
  /// The start, in quarter notes from the beginning.
  public var onset: Rational
  /// The length, in quarter notes (0 for grace notes, which have no notated duration).
  public var duration: Rational
  /// The start in seconds through the tempo map.
  public var onsetSeconds: Double
  /// The length in seconds through the tempo map.
  public var durationSeconds: Double
  /// The written pitch (as printed for the player), or `nil` for a rest.
  public var writtenPitch: MIDINote?
  /// The sounding (concert) pitch, or `nil` for a rest.
  public var soundingPitch: MIDINote?
  /// The written note's spelling, such as `F♯4`, or `nil` for a rest.
  public var spelling: SpelledNote?
  /// The loudness as a MIDI velocity 1...127, when the source says (MIDI, or MusicXML dynamics).
  public var velocity: Int?
  /// `true` for a grace note.
  public var isGrace: Bool
  /// `true` when the note is several tied notes merged into one sounding note.
  public var isTied: Bool
  /// `true` when a slur carries the note into the next one (played legato, without a new
  /// attack). The last note under a slur is released as usual: `false`.
  public var isSlurred: Bool
  /// The note's articulation marks, in a fixed order.
  public var articulations: [Articulation]
  /// The drawing position's x, in the score's layout units (tenths in MusicXML), when known.
  public var x: Double?
  /// The drawing position's y, in the score's layout units, when known.
  public var y: Double?

  /// An articulation mark that changes how long or how hard a note is played.
  public enum Articulation: String, Sendable, Hashable, Codable, CaseIterable {
    /// Short: about half its value.
    case staccato
    /// Very short.
    case staccatissimo
    /// Full value, slightly stressed.
    case tenuto
    /// Stressed.
    case accent
    /// Strongly stressed (marcato).
    case strongAccent
  }

  /// `true` for a rest.
  public var isRest: Bool { soundingPitch == nil }

  /// The end, in quarter notes from the beginning.
  public var end: Rational { onset + duration }

  /// Creates a note or rest.
  ///
  /// - Parameters:
  ///   - part: The part's identifier.
  ///   - measure: The measure number.
  ///   - voice: The voice, from 1.
  ///   - staff: The staff, from 1.
  ///   - onset: The start in quarter notes.
  ///   - duration: The length in quarter notes.
  ///   - onsetSeconds: The start in seconds.
  ///   - durationSeconds: The length in seconds.
  ///   - writtenPitch: The written pitch; `nil` for a rest.
  ///   - soundingPitch: The sounding pitch; defaults to the written pitch.
  ///   - spelling: The written spelling; defaults to the written pitch spelled in C major.
  ///   - velocity: A MIDI velocity, when known.
  ///   - isGrace: Whether it is a grace note.
  ///   - isTied: Whether it merges tied notes.
  ///   - isSlurred: Whether a slur carries it into the next note.
  ///   - articulations: Its articulation marks.
  ///   - x: The drawing x, when known.
  ///   - y: The drawing y, when known.
  public init(
    part: String = "P1", measure: Int = 1, voice: Int = 1, staff: Int = 1,
    onset: Rational, duration: Rational, onsetSeconds: Double, durationSeconds: Double,
    writtenPitch: MIDINote?, soundingPitch: MIDINote? = nil, spelling: SpelledNote? = nil,
    velocity: Int? = nil, isGrace: Bool = false, isTied: Bool = false, isSlurred: Bool = false,
    articulations: [Articulation] = [], x: Double? = nil, y: Double? = nil
  ) {
    self.part = part
    self.measure = measure
    self.voice = voice
    self.staff = staff
    self.onset = onset
    self.duration = duration
    self.onsetSeconds = onsetSeconds
    self.durationSeconds = durationSeconds
    self.writtenPitch = writtenPitch
    self.soundingPitch = soundingPitch ?? writtenPitch
    self.spelling = spelling ?? writtenPitch.map { SpelledNote(midi: $0) }
    self.velocity = velocity
    self.isGrace = isGrace
    self.isTied = isTied
    self.isSlurred = isSlurred
    self.articulations = articulations
    self.x = x
    self.y = y
  }
}
