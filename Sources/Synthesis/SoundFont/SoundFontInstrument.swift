/// One preset of a SoundFont, ready to play: an ``Instrument`` whose voices play the preset's
/// samples.
///
/// Make it with ``SoundFont/instrument(bank:program:)``. It resolves the preset's zones into
/// ``regions`` once; its voices share them and the font's sample data.
///
/// Levels follow SoundFont 2.04 and FluidSynth's reading of it (see ``SoundFontVoice``):
/// the velocity modulator attenuates by `-400 · log10(velocity / 127)` cB (the default
/// concave curve with 960 cB), and `initialAttenuation` counts `attenuationScale` (0.4) of its
/// value, as FluidSynth and the EMU hardware that most SoundFonts were voiced on do — read as
/// plain centibels, quiet instruments come out 2.5 times too quiet in dB relative to the rest.
/// Output is mono at full scale (a full-scale sample at velocity 127 centre-panned peaks near
/// 0.707): FluidSynth's master gain (0.2 by default) and channel volume (CC7) are not applied.
public struct SoundFontInstrument: Instrument {
  /// The preset's name.
  public let name: String
  /// The preset's bank.
  public let bank: Int
  /// The preset's program.
  public let program: Int
  /// The playable layers, in file order.
  public let regions: [SoundFontRegion]
  /// The share of `initialAttenuation` that counts (0.4 by default, as FluidSynth; 1 reads the
  /// specification literally).
  public var attenuationScale: Double = 0.4
  /// How many regions one voice layers at most; further matching regions are not played.
  public static var maximumLayers: Int { 8 }

  let table: SoundFontRegionTable
  let sampleData: SoundFontSampleData

  init(font: SoundFont, preset: SoundFontPreset) {
    name = preset.name
    bank = preset.bank
    program = preset.program
    regions = SoundFontRegion.regions(of: preset, in: font)
    table = SoundFontRegionTable(regions)
    sampleData = font.sampleData
  }

  /// The regions a key and velocity play, in the order a voice layers them (at most
  /// ``maximumLayers``).
  ///
  /// - Parameters:
  ///   - key: A MIDI key, 0...127.
  ///   - velocity: A MIDI velocity, 1...127.
  public func regions(key: Int, velocity: Int) -> [SoundFontRegion] {
    Array(regions.filter { $0.contains(key: key, velocity: velocity) }.prefix(Self.maximumLayers))
  }

  /// Makes a silent voice that plays this preset.
  ///
  /// - Parameter sampleRate: The rate the voice renders at, in Hz (positive).
  public func makeVoice(sampleRate: Double) -> SoundFontVoice {
    SoundFontVoice(instrument: self, sampleRate: sampleRate)
  }
}
