import Foundation

/// The natural harmonics a brass instrument plays on each valve combination (or slide
/// position), in written pitch: the data behind "you played the upper partial of this
/// fingering".
///
/// Partial `n` of a combination sounds at `n/2` times the frequency of its 2nd partial (taken
/// as in tune), so the 3rd partial lies 2 cents above its equal-tempered note, the 5th 14
/// cents below, the 6th 2 above, the 7th 31 below. Tables are data: ``trumpet``, ``trombone``,
/// ``horn`` and ``tuba`` are built in, and any other loads from JSON.
public struct PartialTable: Sendable, Hashable, Codable {
  /// One valve combination or slide position.
  public struct Combination: Sendable, Hashable, Codable {
    /// Its name (`open`, `1+2`, `position 3`).
    public var name: String
    /// The written MIDI note of each partial, keyed by partial number (2 = the lowest usually
    /// played).
    public var partials: [Int: Int]

    /// Creates a combination.
    public init(name: String, partials: [Int: Int]) {
      self.name = name
      self.partials = partials
    }

    /// Where partial `n` lies from its written equal-tempered note, in cents (natural tuning
    /// from the 2nd partial).
    public func naturalCents(ofPartial n: Int) -> Double? {
      guard let written = partials[n], let reference = partials[2] != nil ? 2 : partials.keys.min(),
        let referenceNote = partials[reference]
      else { return nil }
      // In Double: a table read from JSON may hold any Int, and their difference can overflow.
      return 1200 * log2(Double(n) / Double(reference)) - (Double(written) - Double(referenceNote)) * 100
    }
  }

  /// The instrument's name.
  public var instrument: String
  /// Its combinations, from the most preferred (fewest valves) to the least.
  public var combinations: [Combination]
  /// Partials avoided by the standard fingering when another combination has the note (the
  /// 7th, whose natural tuning is far off).
  public var avoidedPartials: Set<Int>

  /// Creates a table.
  public init(instrument: String, combinations: [Combination], avoidedPartials: Set<Int> = [7]) {
    self.instrument = instrument
    self.combinations = combinations
    self.avoidedPartials = avoidedPartials
  }

  /// The standard fingering of a written note: the first combination (in preference order)
  /// that has it as a partial not avoided, else the first that has it at all.
  ///
  /// - Parameter written: The written MIDI note.
  /// - Returns: The combination and the partial number, or `nil` when no combination plays it.
  public func fingering(written: Int) -> (combination: Combination, partial: Int)? {
    var fallback: (Combination, Int)?
    for combination in combinations {
      for (n, note) in combination.partials where note == written {
        if !avoidedPartials.contains(n) { return (combination, n) }
        if fallback == nil { fallback = (combination, n) }
      }
    }
    return fallback
  }

  /// Which other partial of the expected note's fingering a played pitch is, if any.
  ///
  /// - Parameters:
  ///   - playedWrittenMIDI: The played pitch as a fractional written MIDI number.
  ///   - expectedWritten: The expected written note.
  ///   - toleranceCents: How near the partial's natural pitch the played pitch must be.
  /// - Returns: The partial number and the expected note's, or `nil`.
  public func partial(
    playedWrittenMIDI: Double, expectedWritten: Int, toleranceCents: Double
  ) -> (played: Int, expected: Int)? {
    guard let (combination, expected) = fingering(written: expectedWritten) else { return nil }
    var best: (Int, Double)?
    for (n, note) in combination.partials where n != expected {
      let natural = Double(note) + (combination.naturalCents(ofPartial: n) ?? 0) / 100
      let distance = abs(playedWrittenMIDI - natural) * 100
      if distance <= toleranceCents, distance < best?.1 ?? .infinity { best = (n, distance) }
    }
    return best.map { ($0.0, expected) }
  }
}

extension PartialTable {
  /// The written offsets of partials 2...16 above the 2nd partial, in equal-tempered semitones.
  static let partialOffsets: [Int: Int] = [
    2: 0, 3: 7, 4: 12, 5: 16, 6: 19, 7: 22, 8: 24, 9: 26, 10: 28, 11: 30, 12: 31, 13: 32, 14: 34, 15: 35, 16: 36,
  ]

  /// A table of three-valve combinations (open, 2, 1, 1+2, 2+3, 1+3, 1+2+3, lowering 0...6
  /// semitones) over the partials given.
  ///
  /// - Parameters:
  ///   - instrument: The name.
  ///   - openSecondPartial: The written MIDI note of the open 2nd partial.
  ///   - partials: The partial numbers played.
  public static func valved(instrument: String, openSecondPartial: Int, partials: ClosedRange<Int>) -> PartialTable {
    let valves = [("open", 0), ("2", 1), ("1", 2), ("1+2", 3), ("2+3", 4), ("1+3", 5), ("1+2+3", 6)]
    return PartialTable(
      instrument: instrument,
      combinations: valves.map { name, lowered in
        Combination(
          name: name,
          partials: Dictionary(
            uniqueKeysWithValues: partials.compactMap { n in
              partialOffsets[n].map { (n, openSecondPartial - lowered + $0) }
            }))
      })
  }

  /// B♭ trumpet, written pitch: open partials 2–8 C4 G4 C5 E5 G5 B♭5 C6, and the six other
  /// valve combinations.
  public static let trumpet = valved(instrument: "trumpet", openSecondPartial: 60, partials: 2...8)

  /// Tenor trombone, concert pitch: 1st position partials 2–8 B♭2 F3 B♭3 D4 F4 A♭4 B♭4, each
  /// further position a semitone lower.
  public static let trombone = PartialTable(
    instrument: "trombone",
    combinations: (1...7).map { position in
      Combination(
        name: "position \(position)",
        partials: Dictionary(uniqueKeysWithValues: (2...8).map { ($0, 46 - (position - 1) + partialOffsets[$0]!) }))
    })

  /// Horn in F, written pitch: open partials 2–12 from C3, with the three valves.
  public static let horn = valved(instrument: "horn", openSecondPartial: 48, partials: 2...12)

  /// B♭ tuba, concert pitch: open partials 2–8 from B♭1, with three valves.
  public static let tuba = valved(instrument: "tuba", openSecondPartial: 34, partials: 2...8)

  /// The built-in tables.
  public static let builtIn: [PartialTable] = [.trumpet, .trombone, .horn, .tuba]

  /// A built-in table by instrument name, or `nil`.
  public static func named(_ name: String) -> PartialTable? {
    builtIn.first { $0.instrument == name.lowercased() }
  }
}
