import Foundation
import MIDIJSON
import PitchDSP
import Testing

@testable import Synthesis

/// Checks against Debian's FluidR3_GM.sf2 and the fluidsynth program; skipped where they are not
/// installed (`apt-get install -y fluid-soundfont-gm fluidsynth`).
@Suite struct SoundFontFluidSynthTests {
  static let fontPath = "/usr/share/sounds/sf2/FluidR3_GM.sf2"
  static let fluidsynthPath = ["/usr/bin/fluidsynth", "/usr/local/bin/fluidsynth"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
  static var hasFont: Bool { FileManager.default.fileExists(atPath: fontPath) }

  @Test(.enabled(if: hasFont, "FluidR3_GM.sf2 is not installed"))
  func readsFluidR3() throws {
    let font = try SoundFont(contentsOf: URL(filePath: Self.fontPath))
    #expect(font.presets.count >= 128)
    #expect(font.preset(bank: 0, program: 0)?.name.contains("Piano") == true)
    #expect(font.preset(bank: 128, program: 0) != nil)
    let piano = try font.instrument(bank: 0, program: 0)
    #expect(!piano.regions(key: 60, velocity: 100).isEmpty)
  }

  /// A flute's notes rendered by both players, their fundamentals within 5 cents of each other
  /// and their onsets within 10 ms.
  @Test(.enabled(if: hasFont && fluidsynthPath != nil, "FluidR3_GM.sf2 or fluidsynth is not installed"))
  func matchesFluidSynth() throws {
    let font = try SoundFont(contentsOf: URL(filePath: Self.fontPath))
    let notes = [62, 74, 86]
    let rate = 44100.0
    // MIDI: 120 bpm, 480 ticks a quarter; program 73 (flute); notes at 0.5, 1.5, 2.5 s for 0.6 s.
    var events: [MIDITimedEvent] = [MIDITimedEvent(tick: 0, .programChange(channel: 0, program: 73))]
    for (i, note) in notes.enumerated() {
      events.append(MIDITimedEvent(tick: 480 + i * 960, .noteOn(channel: 0, note: UInt8(note), velocity: 100)))
      events.append(MIDITimedEvent(tick: 480 + i * 960 + 576, .noteOff(channel: 0, note: UInt8(note), velocity: 0)))
    }
    events.append(MIDITimedEvent(tick: 3840, .meta(.endOfTrack)))
    let directory = FileManager.default.temporaryDirectory.appending(path: "etude-sf2-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let midi = directory.appending(path: "flute.mid")
    let wav = directory.appending(path: "flute.wav")
    try MIDIFile(format: 0, tracks: [MIDITrack(events: events)]).write(to: midi)
    let process = Process()
    process.executableURL = URL(filePath: Self.fluidsynthPath!)
    process.arguments = ["-ni", "-R", "0", "-C", "0", "-r", "44100", "-F", wav.path, Self.fontPath, midi.path]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    let reference = try WAVReader.readAll(url: wav)
    let fluid = (0..<reference.frameCount).map { (reference.channels[0][$0] + reference.channels[1][$0]) / 2 }

    let flute = try font.instrument(bank: 0, program: 73)
    var ours = [Float](repeating: 0, count: fluid.count)
    for (i, note) in notes.enumerated() {
      let onset = Int((0.5 + Double(i)) * rate)
      let rendered = SoundFontRendering.note(flute, pitch: Double(note), velocity: 100, holdSeconds: 0.6, seconds: 0.9)
      for j in rendered.indices where onset + j < ours.count { ours[onset + j] += rendered[j] }
    }
    for (i, note) in notes.enumerated() {
      let time = 0.5 + Double(i)
      let fluidOnset = Self.onset(fluid, near: time)
      let ourOnset = Self.onset(ours, near: time)
      #expect(abs(fluidOnset - ourOnset) < 0.010, "note \(note): onsets \(fluidOnset) and \(ourOnset)")
      let start = Int((time + 0.1) * rate)
      let expected = 440 * pow(2, Double(note - 69) / 12)
      let f1 = Self.fundamental(fluid, from: start, expected: expected)
      let f2 = Self.fundamental(ours, from: start, expected: expected)
      #expect(abs(SoundFontRendering.cents(f2, from: f1)) < 5, "note \(note): \(f1) Hz by fluidsynth, \(f2) Hz here")
    }
  }

  /// The first 1 ms frame whose RMS passes a tenth of the loudest in [t − 20 ms, t + 80 ms].
  static func onset(_ x: [Float], near time: Double) -> Double {
    let hop = 44
    let low = Int((time - 0.02) * 44100)
    let high = Int((time + 0.08) * 44100)
    let levels = stride(from: low, to: high, by: hop).map { s in
      (x[s..<(s + 88)].reduce(0) { $0 + $1 * $1 } / 88).squareRoot()
    }
    let loudest = levels.max() ?? 0
    let k = levels.firstIndex { $0 >= loudest / 10 } ?? 0
    return Double(low + k * hop) / 44100
  }

  /// The fundamental near `expected` Hz: the normalized autocorrelation's peak over lags within
  /// 0.7 semitone of its period, refined by a parabola, over 4096 frames from `start`.
  static func fundamental(_ x: [Float], from start: Int, expected: Double) -> Double {
    let n = 4096
    let low = Int(44100 / (expected * pow(2, 0.7 / 12)))
    let high = Int(44100 / (expected / pow(2, 0.7 / 12))) + 1
    let a = Array(x[start..<(start + n)])
    let energyA = a.reduce(0) { $0 + Double($1) * Double($1) }
    var r: [Double] = []
    for lag in (low - 1)...(high + 1) {
      var dot = 0.0
      var energyB = 0.0
      for i in 0..<n {
        let b = Double(x[start + lag + i])
        dot += Double(a[i]) * b
        energyB += b * b
      }
      r.append(dot / (energyA * energyB).squareRoot())
    }
    let k = (1..<(r.count - 1)).max { r[$0] < r[$1] }!
    let denominator = r[k - 1] - 2 * r[k] + r[k + 1]
    let shift = denominator != 0 ? 0.5 * (r[k - 1] - r[k + 1]) / denominator : 0
    return 44100 / (Double(low - 1 + k) + shift)
  }
}
