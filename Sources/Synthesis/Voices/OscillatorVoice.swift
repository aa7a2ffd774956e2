/// A voice of an ``OscillatorInstrument``: one ``Oscillator`` shaped by an ``ADSREnvelope`` and
/// scaled by the note's velocity.
///
/// The output is `gain · (velocity / 127)² · envelope · waveform`. A restart while sounding (a
/// stolen voice, a repeated note) keeps the oscillator's phase and starts the attack from the
/// current level, so it makes no step; a voice that was silent starts at phase 0.
///
/// - Note: ``start(pitch:velocity:)``, ``release()`` and ``render(adding:)`` are real-time safe.
public struct OscillatorVoice: SynthVoice {
  /// The sample rate, in Hz.
  public let sampleRate: Double
  /// The overall linear gain (before velocity and envelope).
  public let gain: Double
  /// The envelope generator, for inspection.
  public private(set) var envelope: EnvelopeGenerator
  /// The pitch of the current (or last) note, as a MIDI note number.
  public private(set) var pitch: Double = 69

  private var oscillator: Oscillator
  private var amplitude: Float = 0
  private var released = false

  /// Creates a silent voice.
  ///
  /// - Parameters:
  ///   - waveform: The oscillator's shape.
  ///   - envelope: The loudness envelope.
  ///   - gain: The overall linear gain (NaN or negative gives 0).
  ///   - sampleRate: The rate, in Hz.
  public init(waveform: Waveform, envelope: ADSREnvelope = ADSREnvelope(), gain: Double = 0.25, sampleRate: Double) {
    let oscillator = Oscillator(waveform: waveform, frequencyHz: 440, sampleRate: sampleRate)
    self.oscillator = oscillator
    self.sampleRate = oscillator.sampleRate
    self.gain = gain.isFinite ? max(0, gain) : 0
    self.envelope = EnvelopeGenerator(envelope: envelope, sampleRate: oscillator.sampleRate)
  }

  /// The oscillator's shape.
  public var waveform: Waveform { oscillator.waveform }

  /// Whether the envelope is still sounding.
  public var isActive: Bool { envelope.isActive }

  /// Whether ``release()`` has been called since the last start.
  public var isReleased: Bool { released }

  /// Starts a note: the frequency of `pitch` (A4 = 440 Hz), an attack from the current level.
  ///
  /// - Parameters:
  ///   - pitch: The MIDI note number (NaN plays A4).
  ///   - velocity: The MIDI velocity, clamped to `1...127`.
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func start(pitch: Double, velocity: Int) {
    if !envelope.isActive { oscillator.phase = 0 }
    self.pitch = pitch.isFinite ? pitch : 69
    oscillator.jump(toFrequency: PitchMath.frequencyHz(pitch: self.pitch))
    amplitude = Float(gain * PitchMath.velocityGain(velocity))
    envelope.noteOn()
    released = false
  }

  /// Starts the envelope's release.
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func release() {
    envelope.noteOff()
    released = true
  }

  /// Adds the next `output.count` frames to `output`; nothing once the release has finished.
  ///
  /// - Parameter output: Any number of frames.
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func render(adding output: UnsafeMutableBufferPointer<Float>) {
    guard envelope.isActive, !output.isEmpty else { return }
    var block = oscillator.beginBlock(frameCount: output.count)
    for i in output.indices {
      let gain = amplitude * envelope.next()
      output[i] += gain * oscillator.nextSample(&block)
    }
  }
}
