import Foundation
import Testing

@testable import PitchDSP

/// What pYIN's decoder reports for a decoded pitch bin
/// (``PitchHMM/reportedFrequency(state:bins:frequencies:jump:octaveBins:)``).
@Suite struct PitchHMMTests {
  /// 25-cent bins: an octave is 48 of them; a hop's move at the default 35.92 octaves per second
  /// and a 10 ms hop is 17.
  static let octave = 48
  static let jump = 17

  /// The frequency reported for `state` from candidates `(bin, frequency)`.
  static func reported(_ state: Int, _ candidates: [(Int, Double)], octaveBins: Int = octave) -> Double {
    let bins = candidates.map(\.0)
    let frequencies = candidates.map(\.1)
    return bins.withUnsafeBufferPointer { b in
      frequencies.withUnsafeBufferPointer { f in
        PitchHMM.reportedFrequency(state: state, bins: b, frequencies: f, jump: jump, octaveBins: octaveBins)
      }
    }
  }

  /// A candidate within 50 cents of the decoded bin is reported as it is, even where another one
  /// an octave off lies nearer still.
  @Test func aCandidateAtTheDecodedPitchIsReported() {
    #expect(Self.reported(200, [(202, 830.0), (152, 415.0)]) == 830)
    #expect(Self.reported(200, [(200 - 48, 415.0), (198, 820.0)]) == 820)
  }

  /// An attack whose own octave holds only a trough some semitones off the note, while the
  /// octave below's candidate sits on it (FluidR3's alto saxophone G♯5, read 1.6 semitones sharp
  /// before): the candidate below, taken up an octave.
  @Test func theOctaveBelowsCandidateOnTheDecodedBinBeatsATroughSemitonesOff() {
    #expect(Self.reported(200, [(207, 919.0), (153, 410.4)]) == 820.8)
    #expect(Self.reported(200, [(193, 760.0), (247, 1650.0)]) == 825)
  }

  /// Without the octave confusion, or with no candidate an octave off near the bin, the nearest
  /// within a hop's move; beyond it, one an octave off within a hop's move; else nothing.
  @Test func fartherCandidatesFallBackToAHopsMove() {
    #expect(Self.reported(200, [(207, 919.0), (153, 410.4)], octaveBins: 0) == 919)
    #expect(Self.reported(200, [(207, 919.0), (140, 380.0)]) == 919)
    #expect(Self.reported(200, [(230, 1500.0), (140, 380.0)]) == 760)
    #expect(Self.reported(200, [(230, 1500.0), (100, 200.0)]) == 0)
    #expect(Self.reported(200, []) == 0)
  }
}
