/// The generators one zone sets, by generator number, as stored in the file.
///
/// Only the generators the zone names are present; ask ``amount(_:)`` for one, or
/// ``value(_:)`` for it with the specification's default filled in. Unknown and reserved
/// generator numbers are dropped when the file is read.
public struct SoundFontGenerators: Sendable, Hashable {
  private var amounts: [Int16?] = Array(repeating: nil, count: 61)

  /// An empty set: every generator at its default.
  public init() {}

  /// The amount the zone sets for a generator, or `nil` when it does not set it.
  ///
  /// Ranges are returned as the file stores them: low byte the lower bound, high byte the upper.
  ///
  /// - Parameter generator: The generator.
  /// - Returns: The signed 16-bit amount, widened.
  public func amount(_ generator: SoundFontGenerator) -> Int? {
    amounts[Int(generator.rawValue)].map(Int.init)
  }

  /// The amount the zone sets for a generator, or its default when it does not set it.
  ///
  /// - Parameter generator: The generator.
  public func value(_ generator: SoundFontGenerator) -> Int {
    amount(generator) ?? generator.defaultAmount
  }

  /// Sets (or with `nil`, clears) a generator's amount.
  ///
  /// - Parameters:
  ///   - generator: The generator.
  ///   - amount: The signed 16-bit amount; a range packs low | high << 8.
  public mutating func set(_ generator: SoundFontGenerator, to amount: Int16?) {
    amounts[Int(generator.rawValue)] = amount
  }

  /// The generators the zone sets, in generator-number order.
  public var generatorsSet: [SoundFontGenerator] {
    SoundFontGenerator.allCases.filter { amounts[Int($0.rawValue)] != nil }
  }

  /// The key or velocity range a range generator holds, or `nil` when it is not set.
  ///
  /// A range written high byte below low byte is read with its bounds swapped.
  ///
  /// - Parameter generator: ``SoundFontGenerator/keyRange`` or ``SoundFontGenerator/velocityRange``.
  /// - Returns: The inclusive range of keys or velocities, 0...127.
  public func range(_ generator: SoundFontGenerator) -> ClosedRange<Int>? {
    guard let raw = amounts[Int(generator.rawValue)] else { return nil }
    let bits = UInt16(bitPattern: raw)
    let low = Int(bits & 0xFF)
    let high = Int(bits >> 8)
    return min(low, high, 127)...min(max(low, high), 127)
  }
}
