import Foundation
import PitchDSP
import ScoreModel
import Testing
import _TestSupport

@testable import ChordGuessing

/// The live recognizer: vocabulary, bass and inversions, no-chord, latency, chunking.
@Suite struct ChordRecognizerTests {
  static let rate = 22050.0

  /// The label the segments give at `seconds`.
  static func label(at seconds: Double, _ segments: [ChordSegment]) -> String {
    segments.first { $0.start <= seconds && seconds < $0.end }?.label.description ?? "none"
  }

  /// Each chord `seconds` long; the labels found at the middle of each.
  static func labels(
    _ chords: [[Int]], seconds: Double = 1.2, cents: Double = 0,
    configuration: ChordRecognizer.Configuration? = nil
  ) throws -> [String] {
    let signal = ChordTestSignals.progression(chords, seconds: seconds, sampleRate: rate, cents: cents)
    let recognizer = try ChordRecognizer(configuration: configuration ?? .init(sampleRate: rate))
    let segments = recognizer.segments(for: signal)
    return chords.indices.map { label(at: (Double($0) + 0.75) * seconds, segments) }
  }

  @Test func recognizesAProgressionWithSeventhsAndInversions() throws {
    let found = try Self.labels([
      [48, 60, 64, 67],  // C
      [45, 57, 60, 64, 67],  // Am7
      [45, 53, 60, 65],  // F/A
      [43, 55, 59, 62, 65],  // G7
      [40, 55, 60, 64],  // C/E
      [50, 62, 65, 69, 72],  // Dm7
    ])
    #expect(found == ["C:maj", "A:min7", "F:maj/3", "G:7", "C:maj/3", "D:min7"])
  }

  @Test(arguments: [-30.0, 30])
  func aDetunedInstrumentIsRecognizedAsWell(cents: Double) throws {
    let found = try Self.labels(
      [[48, 60, 64, 67], [45, 57, 60, 64], [41, 57, 60, 65], [43, 55, 59, 62, 65]], cents: cents)
    #expect(found == ["C:maj", "A:min", "F:maj", "G:7"])
  }

  @Test func theRootOfSymmetricAndSuspendedChordsIsTheBass() throws {
    // C–E–G♯ over C, E or G♯; C–F–G over C is C:sus4, over F it is F:sus2.
    let found = try Self.labels([
      [48, 60, 64, 68], [40, 60, 64, 68], [44, 60, 64, 68], [48, 60, 65, 67], [41, 60, 65, 67],
    ])
    #expect(found == ["C:aug", "E:aug", "Ab:aug", "C:sus4", "F:sus2"])
  }

  @Test func silenceAndNoiseAreNoChord() throws {
    let generator = SignalGenerator(sampleRate: Self.rate)
    let recognizer = try ChordRecognizer(configuration: .init(sampleRate: Self.rate))
    for (name, signal) in [
      ("silence", generator.silence(length: .seconds(1))),
      ("white noise", generator.gaussianNoise(standardDeviation: 0.05, length: .seconds(2), seed: 1)),
      ("pink noise", generator.pinkNoise(rms: 0.05, length: .seconds(2), seed: 2)),
    ] {
      let segments = recognizer.segments(for: signal)
      #expect(segments.map(\.label) == [.noChord], "\(name): \(segments)")
    }
    // A chord between silences: N, the chord, N.
    let chord = ChordTestSignals.chord(
      [45, 57, 60, 64], seconds: 1, sampleRate: Self.rate, decaySeconds: 100)
    let gap = generator.silence(length: .seconds(0.6))
    let segments = recognizer.segments(for: gap + chord + gap)
    #expect(segments.map(\.label.description) == ["N", "A:min", "N"], "\(segments)")
  }

  @Test func typesCanBeTurnedOnAndOffWhileRunning() throws {
    let recognizer = try ChordRecognizer(configuration: .init(sampleRate: Self.rate))
    try recognizer.setEnabledTypes([.major, .minor])
    #expect(recognizer.enabledTypes == [.major, .minor])
    let seventh = ChordTestSignals.chord(
      [43, 55, 59, 62, 65], seconds: 3, sampleRate: Self.rate, decaySeconds: 100)
    var found: [ChordChange] = []
    var output = [ChordChange](
      repeating: .init(time: 0, root: -1, typeIndex: -1, bassSemitones: 0, confidence: 0),
      count: recognizer.maximumChanges(forFrames: 2048))
    var start = 0
    while start < seventh.count {
      // Halfway through, the user turns dominant sevenths on.
      if start >= seventh.count / 2, !recognizer.enabledTypes.contains(.dominantSeventh) {
        try recognizer.setEnabledTypes([.major, .minor, .dominantSeventh])
      }
      let end = min(seventh.count, start + 2048)
      let count = seventh[start..<end].withUnsafeBufferPointer { input in
        output.withUnsafeMutableBufferPointer { recognizer.process(input, into: $0) }
      }
      found += output[0..<count]
      start = end
    }
    let labels = found.map { recognizer.label(for: $0).description }
    #expect(labels == ["G:maj", "G:7"], "\(labels)")
    #expect(found.last!.time > 1.5 && found.last!.time < 1.8)
    #expect(throws: PitchDSPError.self) { try recognizer.setEnabledTypes([.majorNinth]) }
  }

  @Test(arguments: [
    ChordSmoothing.none, .repeated(count: 2), .hiddenMarkov,
  ])
  func everySmoothingFindsTheChords(smoothing: ChordSmoothing) throws {
    let chords = [[48, 60, 64, 67], [45, 57, 60, 64], [43, 55, 59, 62, 65]]
    let configuration = ChordRecognizer.Configuration(
      chroma: .init(sampleRate: Self.rate), smoothing: smoothing)
    #expect(try Self.labels(chords, configuration: configuration) == ["C:maj", "A:min", "G:7"])
    // Stark's detector with Chordabra's default vocabulary, major and minor triads.
    let stark = ChordRecognizer.Configuration(
      chroma: .init(sampleRate: Self.rate, method: .stark), enabledTypes: [.major, .minor],
      decision: .templateDistance, smoothing: smoothing)
    #expect(try Self.labels(chords, configuration: stark) == ["C:maj", "A:min", "G:maj"])
  }

  @Test func changesComeOutAtTheDocumentedLatency() throws {
    let signal = ChordTestSignals.progression(
      [[48, 60, 64, 67], [45, 57, 60, 64]], seconds: 1.5, sampleRate: Self.rate)
    let recognizer = try ChordRecognizer(configuration: .init(sampleRate: Self.rate))
    var output = [ChordChange](
      repeating: .init(time: 0, root: -1, typeIndex: -1, bassSemitones: 0, confidence: 0),
      count: recognizer.maximumChanges(forFrames: 64))
    var pushed = 0
    var changes = 0
    while pushed + 64 <= signal.count {
      let count = signal[pushed..<(pushed + 64)].withUnsafeBufferPointer { input in
        output.withUnsafeMutableBufferPointer { recognizer.process(input, into: $0) }
      }
      pushed += 64
      for change in output[0..<count] {
        let due = change.time + recognizer.latencySeconds
        #expect(due <= Double(pushed) / Self.rate + 1e-9)
        #expect(due > Double(pushed - 64) / Self.rate - 1.5 / 11025)
        changes += 1
      }
    }
    #expect(changes >= 2, "\(changes)")
    #expect(abs(recognizer.latencySeconds - 0.1875) < 0.005)
  }

  @Test func theChangesDoNotDependOnTheBlockSize() throws {
    let signal = ChordTestSignals.progression(
      [[48, 60, 64, 67], [45, 57, 60, 64], [41, 53, 60, 65]], seconds: 0.8, sampleRate: Self.rate)
    let recognizer = try ChordRecognizer(configuration: .init(sampleRate: Self.rate))
    let reference = recognizer.changes(for: signal)
    #expect(reference.count >= 3)
    for block in [1, 100, 3000] {
      recognizer.reset()
      var changes: [ChordChange] = []
      var output = [ChordChange](
        repeating: reference[0],
        count: max(recognizer.maximumChanges(forFrames: block), recognizer.maximumChanges(forFrames: 0)))
      var start = 0
      while start < signal.count {
        let end = min(signal.count, start + block)
        let count = signal[start..<end].withUnsafeBufferPointer { input in
          output.withUnsafeMutableBufferPointer { recognizer.process(input, into: $0) }
        }
        changes += output[0..<count]
        start = end
      }
      changes += output[0..<output.withUnsafeMutableBufferPointer { recognizer.finish(into: $0) }]
      #expect(changes == reference, "block \(block)")
    }
  }

  @Test func labelsUseHarteSyntax() throws {
    let recognizer = try ChordRecognizer(configuration: .init(sampleRate: Self.rate))
    let seventh = recognizer.types.firstIndex(of: .dominantSeventh)!
    let minor = recognizer.types.firstIndex(of: .minor)!
    #expect(
      recognizer.label(for: .init(time: 0, root: 7, typeIndex: seventh, bassSemitones: 4, confidence: 1))
        .description == "G:7/3")
    #expect(
      recognizer.label(for: .init(time: 0, root: 10, typeIndex: seventh, bassSemitones: 10, confidence: 1))
        .description == "Bb:7/b7")
    #expect(
      recognizer.label(for: .init(time: 0, root: 9, typeIndex: minor, bassSemitones: 0, confidence: 1))
        .description == "A:min")
    #expect(
      recognizer.label(for: .init(time: 0, root: -1, typeIndex: -1, bassSemitones: 0, confidence: 1))
        == .noChord)
  }

  @Test func badConfigurationsThrowNamingTheParameter() {
    let chroma = Chromagram.Configuration(sampleRate: 44100)
    let bad: [(ChordRecognizer.Configuration, String)] = [
      (.init(chroma: chroma, types: []), "chord types"),
      (.init(chroma: chroma, types: [.major, .major]), "chord types"),
      (.init(chroma: chroma, types: [.major], enabledTypes: [.minor]), "enabled chord type"),
      (.init(chroma: chroma, meanChordSeconds: 0.01), "mean chord duration"),
      (.init(chroma: chroma, smoothing: .repeated(count: 0)), "repeat count"),
      (.init(chroma: .init(sampleRate: 1)), "sample rate"),
    ]
    for (configuration, name) in bad {
      #expect {
        try ChordRecognizer(configuration: configuration)
      } throws: { error in
        guard case .invalidParameter(let found, _, _) = error as? PitchDSPError else { return false }
        return found == name
      }
    }
  }
}
