/// One zone of a preset or of an instrument: the generators it sets and what it points at.
///
/// A preset zone points at an instrument (``link`` is an index into
/// ``SoundFont/instrumentRecords``), an instrument zone at a sample (an index into
/// ``SoundFont/samples``). A global zone — the first zone of a preset or instrument when it
/// points at nothing — holds defaults for the others and has `link == nil`.
public struct SoundFontZone: Sendable, Hashable {
  /// The generators the zone sets, the linking generator (instrument or sampleID) excluded.
  public var generators: SoundFontGenerators
  /// The instrument (preset zone) or sample (instrument zone) index; `nil` for a global zone.
  public var link: Int?

  /// Makes a zone.
  ///
  /// - Parameters:
  ///   - generators: The generators it sets.
  ///   - link: The instrument or sample it plays, `nil` for a global zone.
  public init(generators: SoundFontGenerators, link: Int?) {
    self.generators = generators
    self.link = link
  }

  /// The keys the zone answers to (0...127 when it does not say).
  public var keyRange: ClosedRange<Int> { generators.range(.keyRange) ?? 0...127 }
  /// The velocities the zone answers to (0...127 when it does not say).
  public var velocityRange: ClosedRange<Int> { generators.range(.velocityRange) ?? 0...127 }
}
