/// A preset of a SoundFont: what a MIDI bank and program select.
public struct SoundFontPreset: Sendable, Hashable {
  /// The preset's name, up to 20 characters (trailing NULs dropped, Latin-1 read).
  public var name: String
  /// The MIDI bank, 0...16383 (128 is the General MIDI percussion bank).
  public var bank: Int
  /// The MIDI program, 0...127.
  public var program: Int
  /// The preset's global zone, whose generators apply to every other zone that does not set them.
  public var globalZone: SoundFontZone?
  /// The zones that play an instrument, in file order.
  public var zones: [SoundFontZone]

  /// Makes a preset.
  ///
  /// - Parameters:
  ///   - name: Its name.
  ///   - bank: Its MIDI bank.
  ///   - program: Its MIDI program.
  ///   - globalZone: Its global zone, if any.
  ///   - zones: The zones that play an instrument.
  public init(name: String, bank: Int, program: Int, globalZone: SoundFontZone?, zones: [SoundFontZone]) {
    self.name = name
    self.bank = bank
    self.program = program
    self.globalZone = globalZone
    self.zones = zones
  }
}
