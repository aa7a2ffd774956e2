/// A simple synthesizer: one band-limited ``Oscillator`` per note, shaped by an ``ADSREnvelope``.
///
/// ```swift
/// let organ = OscillatorInstrument(waveform: .square, envelope: .init(attackSeconds: 0.01, releaseSeconds: 0.3))
/// var player = NotePlayer(notes: notes, instrument: organ, sampleRate: 48_000, polyphony: 8)
/// ```
public struct OscillatorInstrument: Instrument, Hashable, Codable {
  /// The oscillator's shape.
  public var waveform: Waveform
  /// The loudness envelope of every note.
  public var envelope: ADSREnvelope
  /// The linear gain of a note at velocity 127 and full envelope (default 0.25, so a few
  /// overlapping notes stay below full scale).
  public var gain: Double

  /// Creates an instrument.
  ///
  /// - Parameters:
  ///   - waveform: The oscillator's shape (default sine).
  ///   - envelope: The loudness envelope.
  ///   - gain: The linear gain at velocity 127.
  public init(waveform: Waveform = .sine, envelope: ADSREnvelope = ADSREnvelope(), gain: Double = 0.25) {
    self.waveform = waveform
    self.envelope = envelope
    self.gain = gain
  }

  /// Makes a silent voice.
  ///
  /// - Parameter sampleRate: The rate, in Hz.
  public func makeVoice(sampleRate: Double) -> OscillatorVoice {
    OscillatorVoice(waveform: waveform, envelope: envelope, gain: gain, sampleRate: sampleRate)
  }
}
