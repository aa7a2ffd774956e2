import Foundation

/// The open strings of a guitar and where its frets put each note.
///
/// Strings are numbered as guitarists (and the Sound Track seed) number them: string 1 is the
/// highest, thinnest string. Each fret raises a string by an equal-tempered semitone, a
/// frequency ratio of 2^(1/12).
public struct GuitarTuning: Sendable, Hashable, Codable {
  /// The open strings' frequencies in Hz, string 1 first.
  public var openStringFrequenciesHz: [Double]
  /// The highest fret (default 24).
  public var maximumFret: Int

  /// Creates a tuning.
  ///
  /// - Parameters:
  ///   - openStringFrequenciesHz: The open strings' frequencies in Hz, string 1 (the highest) first.
  ///   - maximumFret: The highest fret.
  public init(openStringFrequenciesHz: [Double], maximumFret: Int = 24) {
    self.openStringFrequenciesHz = openStringFrequenciesHz
    self.maximumFret = maximumFret
  }

  /// Standard tuning: strings 1...6 are E4 329.63, B3 246.94, G3 196.0, D3 146.83, A2 110.0 and
  /// E2 82.41 Hz.
  public static let standard = GuitarTuning(openStringFrequenciesHz: [
    329.63, 246.94, 196.0, 146.83, 110.0, 82.41,
  ])

  /// How many strings there are.
  public var stringCount: Int { openStringFrequenciesHz.count }

  /// The frequency of a string stopped at a fret: `open · 2^(fret / 12)`.
  ///
  /// - Parameters:
  ///   - string: The string, `1...stringCount` (1 is the highest).
  ///   - fret: The fret, `0...maximumFret` (0 is the open string).
  /// - Returns: The frequency in Hz, or `nil` when there is no such string or fret.
  public func frequencyHz(string: Int, fret: Int) -> Double? {
    guard (1...max(1, stringCount)).contains(string), string <= stringCount,
      (0...max(0, maximumFret)).contains(fret)
    else { return nil }
    return openStringFrequenciesHz[string - 1] * pow(2, Double(fret) / 12)
  }

  /// The MIDI pitch of a string stopped at a fret (fractional: the open strings are the
  /// tuning's frequencies, rounded to hundredths of a hertz, not exact equal temperament).
  ///
  /// - Parameters:
  ///   - string: The string, `1...stringCount` (1 is the highest).
  ///   - fret: The fret, `0...maximumFret`.
  /// - Returns: The MIDI note number (69 = A4 at 440 Hz), or `nil` when there is no such
  ///   string or fret.
  public func pitch(string: Int, fret: Int) -> Double? {
    frequencyHz(string: string, fret: fret).map { 69 + 12 * log2($0 / 440) }
  }
}
