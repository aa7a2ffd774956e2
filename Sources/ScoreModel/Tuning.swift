#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(ucrt)
  import ucrt
#endif

/// Equal temperament with a chosen reference pitch: frequency ⇄ MIDI number ⇄ cents.
///
/// MIDI numbers here are real-valued (69.5 is a quarter tone above A4), so the conversions keep
/// every nuance a pitch tracker measures. Encodes in JSON as `{"a4Hz": 440}`; decoding rejects a
/// reference that is not a positive finite frequency.
public struct Tuning: Sendable, Hashable, Codable {
  /// The frequency of A4 (MIDI 69), in Hz; positive and finite.
  public let a4Hz: Double

  /// Creates a tuning from a reference the program chose.
  ///
  /// Use ``init(validatingA4Hz:)`` for a reference from user input.
  ///
  /// - Parameter a4Hz: The frequency of A4 in Hz, positive and finite; 440 by default (415, 442,
  ///   443 are common too).
  public init(a4Hz: Double = 440) {
    precondition(a4Hz > 0 && a4Hz.isFinite, "A4 must be a positive, finite frequency")
    self.a4Hz = a4Hz
  }

  /// Creates a tuning from a reference given by a user.
  ///
  /// - Parameter a4Hz: The frequency of A4 in Hz.
  /// - Throws: ``ScoreModelError/invalidValue(what:value:expected:)`` unless it is positive and
  ///   finite.
  public init(validatingA4Hz a4Hz: Double) throws(ScoreModelError) {
    guard a4Hz > 0, a4Hz.isFinite else {
      throw .invalidValue(
        what: "A4 reference", value: "\(a4Hz) Hz", expected: "a positive, finite frequency in Hz")
    }
    self.a4Hz = a4Hz
  }

  private enum CodingKeys: String, CodingKey {
    case a4Hz
  }

  /// Decodes `{"a4Hz": …}`.
  ///
  /// - Throws: `DecodingError.dataCorrupted` unless the reference is positive and finite.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let a4Hz = try container.decode(Double.self, forKey: .a4Hz)
    do { try self.init(validatingA4Hz: a4Hz) } catch {
      throw DecodingError.dataCorruptedError(
        forKey: .a4Hz, in: container, debugDescription: error.description)
    }
  }

  /// Standard concert pitch, A4 = 440 Hz.
  public static let standard = Tuning()

  /// The frequency of a real-valued MIDI number, in Hz.
  ///
  /// - Parameter midi: A MIDI number, fractional allowed (60.5 is a quarter tone above C4).
  /// - Returns: `a4Hz · 2^((midi − 69)/12)`, in Hz.
  public func frequencyHz(midi: Double) -> Double { a4Hz * pow(2, (midi - 69) / 12) }

  /// The frequency of a MIDI note, in Hz.
  ///
  /// - Parameter note: The note.
  /// - Returns: The frequency in Hz (A4 = ``a4Hz``).
  public func frequencyHz(of note: MIDINote) -> Double { frequencyHz(midi: Double(note.rawValue)) }

  /// The real-valued MIDI number of a frequency.
  ///
  /// - Parameter frequencyHz: A positive frequency in Hz.
  /// - Returns: `69 + 12·log2(f / a4Hz)`; `nil` for non-positive or non-finite input.
  public func midi(frequencyHz: Double) -> Double? {
    guard frequencyHz > 0, frequencyHz.isFinite else { return nil }
    return 69 + 12 * log2(frequencyHz / a4Hz)
  }

  /// The interval from one frequency to another in cents (100 per semitone, 1200 per octave).
  ///
  /// - Parameters:
  ///   - fromHz: The reference frequency in Hz.
  ///   - toHz: The other frequency in Hz.
  /// - Returns: `1200·log2(to / from)`, positive when `toHz` is higher; `nil` unless both are
  ///   positive and finite.
  public static func cents(fromHz: Double, toHz: Double) -> Double? {
    guard fromHz > 0, toHz > 0, fromHz.isFinite, toHz.isFinite else { return nil }
    return 1200 * log2(toHz / fromHz)
  }

  /// How far a frequency is from a note, in cents (positive = sharp).
  ///
  /// - Parameters:
  ///   - frequencyHz: A positive frequency in Hz.
  ///   - note: The reference note.
  /// - Returns: The deviation in cents; `nil` for non-positive or non-finite input.
  public func cents(frequencyHz: Double, from note: MIDINote) -> Double? {
    midi(frequencyHz: frequencyHz).map { ($0 - Double(note.rawValue)) * 100 }
  }

  /// The nearest MIDI note to a frequency and how far the frequency is from it.
  ///
  /// - Parameter frequencyHz: A positive frequency in Hz.
  /// - Returns: The note and the deviation in cents (−50...50, positive = sharp); `nil` when the
  ///   frequency is not positive and finite or its nearest note lies outside `0...127`.
  public func nearestNote(frequencyHz: Double) -> (note: MIDINote, cents: Double)? {
    guard let midi = midi(frequencyHz: frequencyHz), let note = MIDINote(rawValue: Int(midi.rounded())) else {
      return nil
    }
    return (note, (midi - Double(note.rawValue)) * 100)
  }
}
