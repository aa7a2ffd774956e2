/// How a ``Guitar`` makes its sound.
public enum GuitarTimbre: String, Sendable, Hashable, Codable, CaseIterable {
  /// A physical model of a plucked string: extended Karplus–Strong (``PluckedStringVoice``).
  case plucked
  /// The Sound Track seed's sound: a sine shaped by its fitted guitar envelope
  /// (``SimpleGuitarVoice``).
  case simple
}
