import ArgumentParser
import Synthesis

/// The built-in instruments the CLI offers by name.
enum BuiltInSound: String, CaseIterable, ExpressibleByArgument {
  /// The Karplus-Strong plucked guitar.
  case guitar
  /// The seed's "simple" guitar: a sine under its fitted timbre envelope.
  case simpleGuitar = "simple-guitar"
  /// Band-limited oscillators under an ADSR envelope.
  case sine, sawtooth, square, triangle

  /// Renders `song` with this instrument (percussion left out).
  func render(_ song: Song, with renderer: SongRenderer) -> [Float] {
    switch self {
    case .guitar: renderer.render(song, instrument: Guitar(timbre: .plucked))
    case .simpleGuitar: renderer.render(song, instrument: Guitar(timbre: .simple))
    case .sine: renderer.render(song, instrument: OscillatorInstrument(waveform: .sine))
    case .sawtooth: renderer.render(song, instrument: OscillatorInstrument(waveform: .sawtooth))
    case .square: renderer.render(song, instrument: OscillatorInstrument(waveform: .square))
    case .triangle: renderer.render(song, instrument: OscillatorInstrument(waveform: .triangle))
    }
  }
}
