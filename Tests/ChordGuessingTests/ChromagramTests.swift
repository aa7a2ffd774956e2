import Foundation
import PitchDSP
import Testing
import _TestSupport

@testable import ChordGuessing

/// The chromagram: pitch classes of chords, tuning, bass, timing, chunking, bad input.
@Suite struct ChromagramTests {
  static let rate = 22050.0

  /// The chroma frame at `seconds` into a chord (the nearest frame time).
  static func frame(at seconds: Double, in frames: [ChromaFrame]) -> ChromaFrame {
    frames.min { abs($0.time - seconds) < abs($1.time - seconds) }!
  }

  /// The `count` strongest pitch classes, as a set.
  static func strongest(_ chroma: Chroma, _ count: Int) -> Set<Int> {
    Set((0..<12).sorted { chroma[$0] > chroma[$1] }.prefix(count))
  }

  @Test(arguments: [
    ([48, 60, 64, 67], [0, 4, 7], 0),  // C major over C
    ([45, 57, 60, 64, 67], [9, 0, 4, 7], 9),  // A minor seventh
    ([47, 55, 62, 65, 67], [7, 11, 2, 5], 11),  // G7 over B
    ([53, 57, 61, 65], [5, 9, 1], 5),  // F augmented
    ([50, 62, 67, 69], [2, 7, 9], 2),  // D sus4
  ])
  func trebleHoldsTheChordTonesAndBassTheLowestNote(notes: [Int], tones: [Int], bass: Int) throws {
    let signal = ChordTestSignals.chord(notes, seconds: 1, sampleRate: Self.rate)
    let chromagram = try Chromagram(configuration: .init(sampleRate: Self.rate))
    let frame = Self.frame(at: 0.5, in: chromagram.frames(for: signal))
    #expect(Self.strongest(frame.treble, tones.count) == Set(tones), "\(frame.treble.normalized)")
    // The chord tones carry nearly all of the treble chroma (upper partials are not notes).
    let onChord = tones.reduce(Float(0)) { $0 + frame.treble.normalized[$1] }
    #expect(onChord > 0.9, "\(frame.treble.normalized)")
    #expect(frame.bass.strongestPitchClass == bass, "\(frame.bass)")
    #expect(frame.bass[bass] > 0.8)
    #expect(frame.harmonicity > 0.8)
  }

  @Test(arguments: [-45.0, -30, -12, 0, 18, 30, 45])
  func tuningIsFoundWithinFourCentsOverFiftyEitherWay(cents: Double) throws {
    let signal = ChordTestSignals.chord([48, 60, 64, 67], seconds: 1, sampleRate: Self.rate, cents: cents)
    let chromagram = try Chromagram(configuration: .init(sampleRate: Self.rate))
    let frame = Self.frame(at: 0.6, in: chromagram.frames(for: signal))
    #expect(abs(Double(frame.tuningCents) - cents) < 4, "\(frame.tuningCents)")
    #expect(abs(chromagram.tuningCents - cents) < 4)
    // Analyzed on its own grid, the detuned chord keeps its pitch classes.
    #expect(Self.strongest(frame.treble, 3) == [0, 4, 7], "\(frame.treble.normalized)")
  }

  @Test func aFixedTuningIsUsedAsGiven() throws {
    let signal = ChordTestSignals.chord([48, 60, 64, 67], seconds: 1, sampleRate: Self.rate, cents: 40)
    let fixed = try Chromagram(configuration: .init(sampleRate: Self.rate, tuning: .fixed(cents: 40)))
    let frame = Self.frame(at: 0.5, in: fixed.frames(for: signal))
    #expect(frame.tuningCents == 40)
    #expect(Self.strongest(frame.treble, 3) == [0, 4, 7])
  }

  @Test(arguments: [
    (ChromaMethod.approximateTranscription, SpectrumMethod.constantQ),
    (ChromaMethod.stark, SpectrumMethod.fft),
    (ChromaMethod.stark, SpectrumMethod.constantQ),
  ])
  func everyMethodFindsTheTriad(method: ChromaMethod, spectrum: SpectrumMethod) throws {
    let signal = ChordTestSignals.chord([45, 57, 60, 64], seconds: 1, sampleRate: Self.rate, cents: -20)
    let chromagram = try Chromagram(
      configuration: .init(sampleRate: Self.rate, method: method, spectrum: spectrum))
    let frame = Self.frame(at: 0.5, in: chromagram.frames(for: signal))
    #expect(
      Self.strongest(frame.treble, 3) == [9, 0, 4], "\(method) \(spectrum): \(frame.treble.normalized)")
    #expect(frame.bass.strongestPitchClass == 9, "\(frame.bass)")
  }

  @Test func harmonicTonesAreNotCountedAtTheirUpperPartials() throws {
    // One low C with eight partials: its 3rd, 5th and 7th partials (G, E, B♭) are not notes.
    let signal = ChordTestSignals.chord([36], seconds: 1, sampleRate: Self.rate, partialDecay: 0.8)
    let chromagram = try Chromagram(configuration: .init(sampleRate: Self.rate))
    let frame = Self.frame(at: 0.5, in: chromagram.frames(for: signal))
    #expect(frame.treble.normalized[0] > 0.7, "\(frame.treble.normalized)")
    #expect(Self.strongest(frame.treble, 1) == [0])
    // Stark's chromagram counts them.
    let stark = try Chromagram(configuration: .init(sampleRate: Self.rate, method: .stark))
    let starkFrame = Self.frame(at: 0.5, in: stark.frames(for: signal))
    #expect(
      starkFrame.treble.normalized[0] < frame.treble.normalized[0] - 0.2, "\(starkFrame.treble.normalized)")
  }

  @Test func silenceHasNoChromaAndNoiseLittleHarmonicity() throws {
    let generator = SignalGenerator(sampleRate: Self.rate)
    let chromagram = try Chromagram(configuration: .init(sampleRate: Self.rate))
    let silent = chromagram.frames(for: generator.silence(length: .seconds(0.5)))
    #expect(!silent.isEmpty)
    #expect(silent.allSatisfy { $0.treble.sum == 0 && $0.bass.sum == 0 && $0.levelDBFS == -.infinity })
    let noise = chromagram.frames(
      for: generator.gaussianNoise(standardDeviation: 0.1, length: .seconds(1), seed: 4))
    let noisy = noise.filter { $0.time > 0.2 && $0.time < 0.8 }.map(\.harmonicity).sorted()
    let tone = chromagram.frames(
      for: ChordTestSignals.chord([48, 60, 64, 67], seconds: 1, sampleRate: Self.rate))
    let tonal = tone.filter { $0.time > 0.2 && $0.time < 0.8 }.map(\.harmonicity)
    // Chords are explained by notes; noise is not (its median well under a chord's worst).
    #expect(noisy[noisy.count / 2] < 0.65, "\(noisy)")
    #expect(tonal.allSatisfy { $0 > 0.85 }, "\(tonal)")
  }

  @Test func framesComeOneHopApartFromTimeZeroUntilTheEnd() throws {
    let chromagram = try Chromagram(configuration: .init(sampleRate: 44100))
    let frames = chromagram.frames(for: [Float](repeating: 0, count: 44100))
    let hop = chromagram.configuration.hopSeconds
    #expect(abs(frames[0].time) < 0.005)
    for (a, b) in zip(frames, frames.dropFirst()) { #expect(abs(b.time - a.time - hop) < 1e-9) }
    // Every frame centred before the end of the input, and no other.
    #expect(frames.last!.time < 1 && frames.last!.time + hop >= 1)
  }

  @Test(arguments: [8000.0, 22050, 44100, 48000, 96000])
  func framesComeOutExactlyAtTheLatency(sampleRate: Double) throws {
    let chromagram = try Chromagram(configuration: .init(sampleRate: sampleRate))
    var output = [ChromaFrame](
      repeating: ChromaFrame(
        time: 0, treble: .init(), bass: .init(), tuningCents: 0, levelDBFS: 0, harmonicity: 0),
      count: chromagram.maximumFrames(forFrames: 64))
    let block = [Float](repeating: 0.01, count: 64)
    var pushed = 0
    for _ in 0..<Int(sampleRate * 0.8 / 64) {
      let count = block.withUnsafeBufferPointer { input in
        output.withUnsafeMutableBufferPointer { chromagram.process(input, into: $0) }
      }
      pushed += 64
      for frame in output[0..<count] {
        // Emitted by the block during which time + latency was reached.
        let due = frame.time + chromagram.latencySeconds
        #expect(due <= Double(pushed) / sampleRate + 1e-9)
        #expect(due > Double(pushed - 64) / sampleRate - 1.5 / 11025)
      }
    }
    // 186 ms of frame plus the resampler's delay.
    #expect(abs(chromagram.latencySeconds - 2048 / 11025) < 0.01)
  }

  @Test func theOutputDoesNotDependOnTheBlockSize() throws {
    let signal = ChordTestSignals.progression(
      [[48, 60, 64, 67], [45, 57, 60, 64]], seconds: 0.6, sampleRate: Self.rate)
    let chromagram = try Chromagram(configuration: .init(sampleRate: Self.rate))
    let reference = chromagram.frames(for: signal)
    for block in [1, 37, 512, 5000] {
      chromagram.reset()
      var frames: [ChromaFrame] = []
      var output = [ChromaFrame](
        repeating: reference[0],
        count: max(chromagram.maximumFrames(forFrames: block), chromagram.maximumFrames(forFrames: 0)))
      var start = 0
      while start < signal.count {
        let end = min(signal.count, start + block)
        let count = signal[start..<end].withUnsafeBufferPointer { input in
          output.withUnsafeMutableBufferPointer { chromagram.process(input, into: $0) }
        }
        frames += output[0..<count]
        start = end
      }
      let count = output.withUnsafeMutableBufferPointer { chromagram.finish(into: $0) }
      frames += output[0..<count]
      #expect(frames == reference, "block \(block)")
    }
  }

  @Test func nonFiniteSamplesCountAsSilence() throws {
    var signal = ChordTestSignals.chord([48, 60, 64, 67], seconds: 1, sampleRate: Self.rate)
    signal = Signal.injecting(.nan, in: 2000..<2100, into: signal)
    signal = Signal.injecting(.infinity, at: [9000, 15000], into: signal)
    let chromagram = try Chromagram(configuration: .init(sampleRate: Self.rate))
    let frames = chromagram.frames(for: signal)
    #expect(frames.allSatisfy { $0.treble.values.allSatisfy(\.isFinite) && $0.levelDBFS.isFinite })
    #expect(Self.strongest(Self.frame(at: 0.6, in: frames).treble, 3) == [0, 4, 7])
  }

  @Test func badConfigurationsThrowNamingTheParameter() {
    let bad: [(Chromagram.Configuration, String)] = [
      (.init(sampleRate: 4000), "sample rate"),
      (.init(sampleRate: .nan), "sample rate"),
      (.init(sampleRate: 44100, referenceHz: 300), "reference pitch"),
      (.init(sampleRate: 44100, frameSize: 3000), "chroma frame size"),
      (.init(sampleRate: 44100, hopSize: 0), "chroma hop size"),
      (.init(sampleRate: 44100, noteProfiles: []), "note profiles"),
      (.init(sampleRate: 44100, noteProfiles: [.init(partialAmplitudes: [0, 0])]), "note profiles"),
      (.init(sampleRate: 44100, whitening: 2), "whitening"),
      (.init(sampleRate: 44100, silenceDBFS: 0), "silence level"),
      (.init(sampleRate: 44100, tuning: .fixed(cents: 60)), "tuning"),
      (.init(sampleRate: 44100, tuning: .estimated(timeConstantSeconds: 0)), "tuning time constant"),
    ]
    for (configuration, name) in bad {
      #expect {
        try Chromagram(configuration: configuration)
      } throws: { error in
        guard case .invalidParameter(let found, _, _) = error as? PitchDSPError else { return false }
        return found == name
      }
    }
  }
}
