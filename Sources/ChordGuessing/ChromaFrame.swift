/// One analysis frame of a ``Chromagram``: the treble and bass chroma, the tuning and the level.
///
/// Trivially copyable, so a ``Chromagram`` writes frames on the audio thread without allocating.
public struct ChromaFrame: Sendable, Hashable {
  /// The centre of the analysis window, in seconds from the start of the stream.
  public var time: Double
  /// The pitch-class content above the bass: what the harmony is made of.
  ///
  /// With ``ChromaMethod/approximateTranscription`` the sum of the note activations of each
  /// pitch class; with ``ChromaMethod/stark`` Stark's sum of harmonics over two octaves. Not
  /// normalized: the scale follows the method (see ``Chroma/normalized``).
  public var treble: Chroma
  /// The pitch-class content of the lowest notes: what is in the bass, for inversions and for
  /// the root of symmetric chords.
  ///
  /// With ``ChromaMethod/approximateTranscription`` a distribution (summing to at most 1) of
  /// which pitch class is the lowest clearly present note; with ``ChromaMethod/stark`` the
  /// spectrum's content from E1 to D♯3.
  public var bass: Chroma
  /// The tuning the frame was analyzed at: cents away from the reference (A4 = 440 Hz by
  /// default), `-50...50`.
  public var tuningCents: Float
  /// The level of the analysis window (Hann-weighted RMS), in dBFS; `-infinity` for digital
  /// silence.
  public var levelDBFS: Float
  /// The fraction of the whitened log-frequency spectrum that harmonic notes explain, `0...1`:
  /// near 1 for chords played on pitched instruments, lower for noise. Always 1 with
  /// ``ChromaMethod/stark``, which has no note model.
  public var harmonicity: Float

  /// Creates a frame.
  ///
  /// - Parameters:
  ///   - time: The centre of the analysis window, in seconds.
  ///   - treble: The treble chroma.
  ///   - bass: The bass chroma.
  ///   - tuningCents: The tuning, in cents from the reference.
  ///   - levelDBFS: The level, in dBFS.
  ///   - harmonicity: The harmonic fraction, `0...1`.
  @_noLocks
  public init(
    time: Double, treble: Chroma, bass: Chroma, tuningCents: Float, levelDBFS: Float, harmonicity: Float
  ) {
    self.time = time
    self.treble = treble
    self.bass = bass
    self.tuningCents = tuningCents
    self.levelDBFS = levelDBFS
    self.harmonicity = harmonicity
  }
}
