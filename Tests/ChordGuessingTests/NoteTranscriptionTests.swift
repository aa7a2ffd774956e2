import Foundation
import Testing

@testable import ChordGuessing

/// The non-negative least-squares transcription on its own dictionary.
@Suite struct NoteTranscriptionTests {
  static func makeTranscription() -> NoteTranscription {
    let layout = LogFrequencyLayout(analysisRate: 11025, frameSize: 4096, referenceHz: 440)
    let rows = (0..<layout.binCount).map { layout.fftRow(bin: $0, cents: 0) }
    return NoteTranscription(
      lowestNote: layout.lowestNote, highestNote: layout.highestNote, binCount: layout.binCount,
      profiles: [NoteProfile.decaying(0.6).partialAmplitudes, NoteProfile.weakFundamental.partialAmplitudes],
      referenceHz: 440, topFrequencyHz: 4200,
      binRange: { f in
        let low = max(0, Int((69 + 12 * log2(max(f * 0.9 - 15, 1) / 440) - 20) * 3))
        let high = min(layout.binCount - 1, Int((69 + 12 * log2((f * 1.1 + 15) / 440) - 20) * 3) + 1)
        return low...max(low, high)
      },
      response: { bin, f in layout.fftResponse(row: rows[bin], frequencyHz: f) })
  }

  @Test func recoversAnExactMixtureOfProfiles() {
    var transcription = Self.makeTranscription()
    let y = UnsafeMutableBufferPointer<Float>.allocate(capacity: transcription.binCount)
    defer { y.deallocate() }
    y.initialize(repeating: 0)
    // C3 (dull) 1.0, E4 (dull) 0.5, G4 (weak fundamental) 0.7: columns 2·(note − 21) + profile.
    let mixture: [(column: Int, weight: Float)] = [(2 * 27, 1), (2 * 43, 0.5), (2 * 46 + 1, 0.7)]
    for (column, weight) in mixture {
      for (bin, value) in transcription.profile(note: column) { y[bin] += weight * value }
    }
    transcription.solve(y)
    let notes = (0..<transcription.noteCount).map { transcription.activations[$0] }
    #expect(abs(notes[27] - 1) < 0.02, "\(notes[27])")
    #expect(abs(notes[43] - 0.5) < 0.02, "\(notes[43])")
    #expect(abs(notes[46] - 0.7) < 0.02, "\(notes[46])")
    let others = notes.enumerated().filter { ![27, 43, 46].contains($0.offset) }.map(\.element)
    #expect(others.allSatisfy { $0 < 0.02 }, "\(others.max() ?? 0)")
    #expect(transcription.explainedFraction > 0.99)
  }

  @Test func anEmptySpectrumHasNoNotes() {
    var transcription = Self.makeTranscription()
    let y = UnsafeMutableBufferPointer<Float>.allocate(capacity: transcription.binCount)
    defer { y.deallocate() }
    y.initialize(repeating: 0)
    transcription.solve(y)
    #expect((0..<transcription.noteCount).allSatisfy { transcription.activations[$0] == 0 })
    #expect(transcription.explainedFraction == 0)
  }
}
