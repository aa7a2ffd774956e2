import Foundation
import Testing

@testable import PitchDSP

@Suite struct PitchCommandTests {
  static let rate = 22050.0

  /// A 220 Hz note from 0.1 s whose first 50 ms hold only its even partials (it repeats every
  /// 1/440 s there), after which the odd ones enter over 20 ms: the attack alone reads 440 Hz.
  static func ambiguousAttack() -> [Float] {
    (0..<Int(rate)).map { i in
      let t = Double(i) / rate
      let envelope = max(0, min(1, (t - 0.1) / 0.005)) * max(0, min(1, (1 - t) / 0.05))
      let odd = max(0, min(1, (t - 0.15) / 0.02))
      var x = 0.0
      for k in 1...8 { x += (k % 2 == 1 ? odd : 1) / Double(k) * sin(2 * Double.pi * 220 * Double(k) * t) }
      return Float(0.2 * envelope * x)
    }
  }

  /// The frequencies printed for frames from 0.09 s to 0.13 s.
  static func attack(_ text: String) -> [Double] {
    text.split(separator: "\n").compactMap { line in
      let parts = line.split(separator: "\t")
      guard parts.count == 3, let time = Double(parts[0]), time > 0.085, time < 0.135 else { return nil }
      return Double(parts[1])
    }
  }

  @Test func aLongerLookAheadReadsAnAttackByTheRestOfTheNote() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("attack.wav")
    try WAVWriter.write(
      AudioBuffer(sampleRate: Self.rate, channels: [Self.ambiguousAttack()]), to: url, encoding: .float32)
    // Deciding each frame one hop later, the live decoder commits to the attack's octave; after
    // the default 80 ms it has seen the odd partials enter, and so has the offline path.
    let short = try runEtude(["pitch", url.path, "--method", "pyin-live", "--look-ahead-ms", "10"])
    let standard = try runEtude(["pitch", url.path, "--method", "pyin-live"])
    let offline = try runEtude(["pitch", url.path])
    #expect(short.status == 0 && standard.status == 0 && offline.status == 0, "\(short.err)\(standard.err)")
    let early = Self.attack(short.out)
    #expect(early.count == 5 && early.filter { abs($0 - 440) < 5 }.count >= 3, "\(early)")
    for text in [standard.out, offline.out] {
      let frequencies = Self.attack(text)
      #expect(frequencies.count == 5 && frequencies.allSatisfy { abs($0 - 220) < 3 }, "\(frequencies)")
    }
  }

  @Test(arguments: ["0", "4", "650", "nan"])
  func aLookAheadOutsideOneTo64HopsIsRefused(_ milliseconds: String) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("tone.wav")
    try WAVWriter.write(
      AudioBuffer(sampleRate: Self.rate, channels: [Self.ambiguousAttack()]), to: url, encoding: .float32)
    let result = try runEtude(["pitch", url.path, "--method", "pyin-live", "--look-ahead-ms", milliseconds])
    #expect(result.status != 0 && result.err.contains("--look-ahead-ms must be 1...64 hops"), "\(result.err)")
    #expect(result.out.isEmpty)
    let notes = try runEtude(["notes", url.path, "--method", "pyin-live", "--look-ahead-ms", milliseconds])
    #expect(notes.status != 0 && notes.err.contains("--look-ahead-ms must be 1...64 hops"), "\(notes.err)")
  }
}
