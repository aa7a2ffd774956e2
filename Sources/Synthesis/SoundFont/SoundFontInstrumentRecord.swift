/// An instrument as a SoundFont file stores it (the specification's `inst` record): a named set
/// of zones that each play a sample.
///
/// Not to be confused with ``SoundFontInstrument``, the playable ``Instrument`` made from a preset.
public struct SoundFontInstrumentRecord: Sendable, Hashable {
  /// The instrument's name, up to 20 characters.
  public var name: String
  /// The instrument's global zone, whose generators apply to every other zone that does not set them.
  public var globalZone: SoundFontZone?
  /// The zones that play a sample, in file order.
  public var zones: [SoundFontZone]

  /// Makes an instrument record.
  ///
  /// - Parameters:
  ///   - name: Its name.
  ///   - globalZone: Its global zone, if any.
  ///   - zones: The zones that play a sample.
  public init(name: String, globalZone: SoundFontZone?, zones: [SoundFontZone]) {
    self.name = name
    self.globalZone = globalZone
    self.zones = zones
  }
}
