/// A preset's three volume controls, in dB (0 is unity, −96 or less is silence, at most +24).
///
/// JSON: `{"inputDB": 0, "outputDB": -3, "sampleDB": -6}`.
public struct PresetVolumes: Sendable, Hashable, Codable {
  /// The live input's gain before the harmonizer, in dB.
  public var inputDB: Double
  /// The gain of the whole output, in dB.
  public var outputDB: Double
  /// The sample player's gain, in dB.
  public var sampleDB: Double

  /// The range every volume is checked against, in dB.
  public static let range: ClosedRange<Double> = -96...24

  /// Describes the volumes.
  ///
  /// - Parameters:
  ///   - inputDB: The input gain in dB; 0 by default.
  ///   - outputDB: The output gain in dB; 0 by default.
  ///   - sampleDB: The sample gain in dB; 0 by default.
  public init(inputDB: Double = 0, outputDB: Double = 0, sampleDB: Double = 0) {
    self.inputDB = inputDB
    self.outputDB = outputDB
    self.sampleDB = sampleDB
  }

  private enum CodingKeys: String, CodingKey { case inputDB, outputDB, sampleDB }

  /// Decodes the volumes; a missing one is 0 dB.
  ///
  /// - Throws: `DecodingError` for a value that is not a number.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    inputDB = try container.decodeIfPresent(Double.self, forKey: .inputDB) ?? 0
    outputDB = try container.decodeIfPresent(Double.self, forKey: .outputDB) ?? 0
    sampleDB = try container.decodeIfPresent(Double.self, forKey: .sampleDB) ?? 0
  }
}
