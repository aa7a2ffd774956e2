import Foundation

/// Equal temperament with a chosen reference pitch: frequency ⇄ MIDI number ⇄ cents.
///
/// MIDI numbers here are real-valued (69.5 is a quarter tone above A4), so the conversions keep
/// every nuance a pitch tracker measures.
public struct Tuning: Sendable, Hashable, Codable {
  /// The frequency of A4 (MIDI 69), in Hz.
  public var a4Hz: Double

  /// Creates a tuning.
  ///
  /// - Parameter a4Hz: The frequency of A4 in Hz; 440 by default (415, 442, 443 are common too).
  public init(a4Hz: Double = 440) {
    precondition(a4Hz > 0 && a4Hz.isFinite, "A4 must be a positive frequency")
    self.a4Hz = a4Hz
  }

  /// Standard concert pitch, A4 = 440 Hz.
  public static let standard = Tuning()

  /// The frequency of a real-valued MIDI number, in Hz.
  ///
  /// - Parameter midi: A MIDI number, fractional allowed.
  /// - Returns: `a4Hz · 2^((midi − 69)/12)`.
  public func frequencyHz(midi: Double) -> Double { a4Hz * pow(2, (midi - 69) / 12) }

  /// The frequency of a MIDI note, in Hz.
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
  /// - Returns: `1200·log2(to / from)`; `nil` unless both are positive and finite.
  public static func cents(fromHz: Double, toHz: Double) -> Double? {
    guard fromHz > 0, toHz > 0, fromHz.isFinite, toHz.isFinite else { return nil }
    return 1200 * log2(toHz / fromHz)
  }

  /// The nearest MIDI note to a frequency and how far the frequency is from it.
  ///
  /// - Parameter frequencyHz: A positive frequency in Hz.
  /// - Returns: The note and the deviation in cents (−50...50, positive = sharp); `nil` when the
  ///   frequency is not positive or lies outside the MIDI range.
  public func nearestNote(frequencyHz: Double) -> (note: MIDINote, cents: Double)? {
    guard let midi = midi(frequencyHz: frequencyHz), let note = MIDINote(rawValue: Int(midi.rounded())) else {
      return nil
    }
    return (note, (midi - Double(note.rawValue)) * 100)
  }
}
