/// A change of chord found by a ``ChordRecognizer``: from its time on, the chord is this one.
///
/// Trivially copyable, so the recognizer writes changes on the audio thread without allocating.
/// Turn one into a Harte label with ``ChordRecognizer/label(for:)``.
public struct ChordChange: Sendable, Hashable {
  /// When the new chord starts, in seconds from the start of the stream: the centre of the
  /// first analysis frame decided for it.
  public var time: Double
  /// The root's pitch class, `0...11` (C = 0), or −1 for no chord (`N`).
  public var root: Int
  /// The chord type, as an index into the recognizer's ``ChordRecognizer/Configuration/types``,
  /// or −1 for no chord.
  public var typeIndex: Int
  /// The bass, in semitones above the root, `0...11` (0 in root position).
  public var bassSemitones: Int
  /// How sure the recognizer is of this chord when it reports it, `0...1`: the smoothed
  /// probability of the chord (any bass) with the hidden Markov model, else the share of the
  /// frame's evidence.
  public var confidence: Float

  /// Creates a change.
  ///
  /// - Parameters:
  ///   - time: The start of the new chord, in seconds.
  ///   - root: The root's pitch class, or −1 for no chord.
  ///   - typeIndex: The type's index, or −1 for no chord.
  ///   - bassSemitones: The bass above the root, in semitones.
  ///   - confidence: `0...1`.
  @_noLocks
  public init(time: Double, root: Int, typeIndex: Int, bassSemitones: Int, confidence: Float) {
    self.time = time
    self.root = root
    self.typeIndex = typeIndex
    self.bassSemitones = bassSemitones
    self.confidence = confidence
  }

  /// Whether this is no chord (`N`): silence, noise, or no enabled chord fits.
  public var isNoChord: Bool { typeIndex < 0 }
}
