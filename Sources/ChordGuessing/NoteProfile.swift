import Foundation

/// The spectrum a note is expected to have in the approximate transcription: the relative
/// amplitudes of its partials.
///
/// A ``Chromagram`` gives every note one dictionary column per profile and lets the
/// transcription mix them, so one set of profiles covers instruments whose notes differ in
/// brightness. The default pair: ``decaying(_:)`` with 0.6 (a piano-like spectrum, falling by
/// 4.4 dB per partial) and ``weakFundamental`` (plucked strings and bowed strings, whose second
/// and third partials are as strong as the fundamental or stronger).
public struct NoteProfile: Sendable, Hashable, Codable {
  /// The amplitudes of partials 1, 2, 3, …, relative to the strongest; at most 20 are used.
  public var partialAmplitudes: [Double]

  /// A profile from explicit partial amplitudes.
  ///
  /// - Parameter partialAmplitudes: Amplitudes of partials 1, 2, 3, … (non-negative, not all 0;
  ///   1 to 20 values).
  public init(partialAmplitudes: [Double]) {
    self.partialAmplitudes = partialAmplitudes
  }

  /// Twenty partials with amplitudes `shape^(h−1)`: Mauch and Dixon's profile (they used 0.7).
  ///
  /// - Parameter shape: The ratio between neighbouring partials, `0.5...0.95`.
  public static func decaying(_ shape: Double) -> NoteProfile {
    NoteProfile(partialAmplitudes: (0..<20).map { pow(shape, Double($0)) })
  }

  /// A weak fundamental: partials at 0.3, 1, 0.8, then falling by 0.75 per partial (20 in all).
  /// FluidR3's guitars have their fundamental 9 to 20 dB under the second partial.
  public static let weakFundamental = NoteProfile(
    partialAmplitudes: [0.3, 1, 0.8] + (0..<17).map { 0.8 * pow(0.75, Double($0 + 1)) })

  /// Whether the profile is usable: 1 to 20 finite, non-negative amplitudes, not all 0.
  var isValid: Bool {
    (1...20).contains(partialAmplitudes.count)
      && partialAmplitudes.allSatisfy { $0.isFinite && $0 >= 0 } && partialAmplitudes.contains { $0 > 0 }
  }
}
