/// Something that plays notes: a factory of ``SynthVoice``s of one sound.
///
/// The renderers and the ``VoiceAllocator`` make all the voices they need when they are set up
/// (never on the audio thread) and reuse them. Conform a type here to plug a new sound into every
/// renderer, the tab player and the CLI.
public protocol Instrument: Sendable {
  /// The voice this instrument plays its notes with.
  associatedtype Voice: SynthVoice

  /// Makes one voice, silent until started.
  ///
  /// - Parameter sampleRate: The rate the voice renders at, in Hz.
  func makeVoice(sampleRate: Double) -> Voice
}
