/// A voice of a ``Guitar``: a ``PluckedStringVoice`` or a ``SimpleGuitarVoice``, as the guitar's
/// ``GuitarTimbre`` says.
///
/// - Note: ``start(pitch:velocity:)``, ``release()`` and ``render(adding:)`` are real-time safe.
public struct GuitarVoice: SynthVoice {
  /// Which of the two voices sounds.
  public let timbre: GuitarTimbre
  /// The Karplus–Strong string (used with ``GuitarTimbre/plucked``).
  public private(set) var plucked: PluckedStringVoice
  /// The seed's sine-and-envelope voice (used with ``GuitarTimbre/simple``).
  public private(set) var simple: SimpleGuitarVoice

  /// Wraps the two voices.
  ///
  /// - Parameters:
  ///   - timbre: Which one sounds.
  ///   - plucked: The plucked string.
  ///   - simple: The simple voice.
  public init(timbre: GuitarTimbre, plucked: PluckedStringVoice, simple: SimpleGuitarVoice) {
    self.timbre = timbre
    self.plucked = plucked
    self.simple = simple
  }

  /// The sample rate, in Hz.
  public var sampleRate: Double { plucked.sampleRate }

  /// Whether the sounding voice is active.
  public var isActive: Bool {
    switch timbre {
    case .plucked: return plucked.isActive
    case .simple: return simple.isActive
    }
  }

  /// Whether the sounding voice has been released.
  public var isReleased: Bool {
    switch timbre {
    case .plucked: return plucked.isReleased
    case .simple: return simple.isReleased
    }
  }

  /// Starts a note on the sounding voice.
  ///
  /// - Parameters:
  ///   - pitch: The MIDI note number.
  ///   - velocity: The MIDI velocity, 1...127.
  /// - Note: Real-time safe (see ``PluckedStringVoice`` for how that is checked).
  public mutating func start(pitch: Double, velocity: Int) {
    switch timbre {
    case .plucked: plucked.start(pitch: pitch, velocity: velocity)
    case .simple: simple.start(pitch: pitch, velocity: velocity)
    }
  }

  /// Releases the sounding voice.
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func release() {
    switch timbre {
    case .plucked: plucked.release()
    case .simple: simple.release()
    }
  }

  /// Adds the sounding voice's next frames to `output`.
  ///
  /// - Parameter output: Any number of frames.
  /// - Note: Real-time safe (see ``PluckedStringVoice`` for how that is checked).
  public mutating func render(adding output: UnsafeMutableBufferPointer<Float>) {
    switch timbre {
    case .plucked: plucked.render(adding: output)
    case .simple: simple.render(adding: output)
    }
  }
}
