/// One sounding note of an instrument: started, released and rendered a block at a time.
///
/// A voice is the unit the ``VoiceAllocator`` recycles and steals. It is a value with all its
/// state inside (oscillator phases, delay lines, envelope stage), sized when it is made, so that
/// ``start(pitch:velocity:)``, ``release()`` and ``render(adding:)`` allocate nothing and take no
/// locks: they run on the audio thread.
///
/// Pitches are MIDI note numbers as `Double` (60 is middle C, 69 is A4 at the instrument's
/// reference, fractions are microtones), so one scale serves every instrument; velocities are
/// MIDI velocities, 1...127.
public protocol SynthVoice: Sendable {
  /// The sample rate the voice renders at, in Hz, fixed when it is made.
  var sampleRate: Double { get }

  /// Whether the voice still makes sound: from ``start(pitch:velocity:)`` until the end of its
  /// release (or its natural decay) after ``release()``.
  var isActive: Bool { get }

  /// Whether ``release()`` has been called since the last start.
  var isReleased: Bool { get }

  /// The note's exclusive class (SoundFont 2's `exclusiveClass`): when a voice of a class other
  /// than 0 starts, the ``VoiceAllocator`` releases every other voice of the same class, as an
  /// open hi-hat is cut by the closed one. 0 (the default) for none.
  var exclusiveClass: Int { get }

  /// Starts a note, cutting short whatever the voice was playing (a stolen voice restarts here).
  ///
  /// - Parameters:
  ///   - pitch: The MIDI note number, fractional for microtones.
  ///   - velocity: The MIDI velocity, 1...127; values outside are clamped.
  mutating func start(pitch: Double, velocity: Int)

  /// Lets the note go: the voice enters its release and becomes inactive when it has faded.
  mutating func release()

  /// Adds the voice's next `output.count` frames (mono) to `output`; an inactive voice adds
  /// nothing. Any block size; no allocation, no locks.
  mutating func render(adding output: UnsafeMutableBufferPointer<Float>)
}

extension SynthVoice {
  /// No exclusive class: starting this voice cuts no other.
  public var exclusiveClass: Int { 0 }
}
