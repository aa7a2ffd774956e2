import Foundation
import ScoreModel
import Testing
import _TestSupport

@testable import ChordGuessing

/// Whole-file decoding: segments that cover the signal, boundaries at the changes.
@Suite struct ChordTranscriberTests {
  static let rate = 22050.0

  @Test func segmentsCoverTheSignalAndChangeWhereTheChordsDo() throws {
    let chords = [[48, 60, 64, 67], [45, 57, 60, 64, 67], [41, 53, 60, 64, 69], [43, 55, 59, 62, 65]]
    let seconds = 1.3
    let silence = [Float](repeating: 0, count: Int(0.5 * Self.rate))
    let signal =
      silence + ChordTestSignals.progression(chords, seconds: seconds, sampleRate: Self.rate) + silence
    let duration = Double(signal.count) / Self.rate
    let segments = try ChordTranscriber.segments(for: signal, configuration: .init(sampleRate: Self.rate))
    #expect(segments.first?.start == 0)
    #expect(abs((segments.last?.end ?? 0) - duration) < 1e-9)
    for (a, b) in zip(segments, segments.dropFirst()) {
      #expect(a.end == b.start)
      #expect(a.label != b.label)
    }
    #expect(
      segments.map(\.label.description) == ["N", "C:maj", "A:min7", "F:maj7", "G:7", "N"], "\(segments)")
    // Boundaries on the onsets of the chords.
    for (i, segment) in segments.dropFirst().prefix(4).enumerated() {
      #expect(abs(segment.start - (0.5 + Double(i) * seconds)) < 0.03, "\(segment)")
    }
  }

  @Test func onlyTheEnabledTypesAreReported() throws {
    let seventh = ChordTestSignals.chord([43, 55, 59, 62, 65], seconds: 1.5, sampleRate: Self.rate)
    var configuration = ChordRecognizer.Configuration(sampleRate: Self.rate)
    configuration.enabledTypes = [.major, .minor]
    let segments = try ChordTranscriber.segments(for: seventh, configuration: configuration)
    #expect(segments.map(\.label.description) == ["G:maj"])
  }

  @Test func anEmptyStreamHasNoSegmentsAndBlocksDoNotMatter() throws {
    let transcriber = try ChordTranscriber(configuration: .init(sampleRate: Self.rate))
    #expect(transcriber.finish().isEmpty)
    let signal = ChordTestSignals.progression(
      [[48, 60, 64, 67], [45, 57, 60, 64]], seconds: 1, sampleRate: Self.rate)
    transcriber.reset()
    transcriber.process(signal)
    let whole = transcriber.finish()
    transcriber.reset()
    var start = 0
    while start < signal.count {
      transcriber.process(Array(signal[start..<min(signal.count, start + 333)]))
      start += 333
    }
    #expect(transcriber.finish() == whole)
    #expect(whole.map(\.label.description) == ["C:maj", "A:min"])
  }

  @Test func segmentsPrintAsTabSeparatedLines() {
    let segment = ChordSegment(
      start: 1.2345, end: 2, label: .chord(Chord(.g, .dominantSeventh, bass: .majorThird)))
    #expect(segment.description == "1.235\t2.000\tG:7/3")
    #expect(ChordSegment(start: 0, end: 0.5, label: .noChord).description == "0.000\t0.500\tN")
  }
}
