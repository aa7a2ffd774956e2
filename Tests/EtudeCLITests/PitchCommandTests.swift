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

  /// Three notes with rests between them, over 60 Hz mains hum 25 dB under them from the start.
  static func hummedNotes() -> [Float] {
    let notes = [(0.5, 392.0), (1.3, 523.25), (2.1, 440.0)]
    return (0..<Int(3 * rate)).map { i in
      let t = Double(i) / rate
      var x = 0.0
      for (start, frequency) in notes where t >= start && t < start + 0.5 {
        let envelope = min(1, (t - start) / 0.01, (start + 0.5 - t) / 0.02)
        for k in 1...4 { x += envelope * 0.25 / Double(k) * sin(2 * Double.pi * frequency * Double(k) * t) }
      }
      for k in 1...6 { x += 0.015 / Double(k) * sin(2 * Double.pi * 60 * Double(k) * t + Double(k)) }
      return Float(x)
    }
  }

  /// `etude notes` lists the three notes and no 60 Hz note in the lead-in or the rests; with
  /// `--keep-periodic-background` the hum is a note again.
  @Test func theHumIsNoNote() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("hum.wav")
    try WAVWriter.write(AudioBuffer(sampleRate: Self.rate, channels: [Self.hummedNotes()]), to: url, encoding: .float32)
    func frequencies(_ text: String) -> [Double] {
      text.split(separator: "\n").compactMap { line in Double(line.split(separator: "\t")[2]) }
    }
    let ignoring = try runEtude(["notes", url.path])
    let keeping = try runEtude(["notes", url.path, "--keep-periodic-background"])
    #expect(ignoring.status == 0 && keeping.status == 0, "\(ignoring.err)\(keeping.err)")
    let found = frequencies(ignoring.out)
    #expect(found.count == 3 && zip(found, [392.0, 523.25, 440]).allSatisfy { abs(1200 * log2($0 / $1)) < 20 }, "\(ignoring.out)")
    #expect(frequencies(keeping.out).contains { abs($0 - 60) < 2 }, "\(keeping.out)")
  }

  /// `etude pitch` filters rumble out first: a 55 Hz note under 12 Hz rumble as loud as its peak
  /// is read right; with `--keep-rumble` the signal is analyzed as it is, and read differently.
  @Test func rumbleIsFilteredOutUnlessKept() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("rumble.wav")
    let samples = (0..<Int(1.5 * Self.rate)).map { i -> Float in
      let t = Double(i) / Self.rate
      var x = 0.3 * sin(2 * Double.pi * 12 * t)
      if t >= 0.4, t < 1.2 {
        for k in 1...4 { x += 0.3 / Double(k) * sin(2 * Double.pi * 55 * Double(k) * t) }
      }
      return Float(x)
    }
    try WAVWriter.write(AudioBuffer(sampleRate: Self.rate, channels: [samples]), to: url, encoding: .float32)
    let filtered = try runEtude(["pitch", url.path])
    let kept = try runEtude(["pitch", url.path, "--keep-rumble"])
    #expect(filtered.status == 0 && kept.status == 0, "\(filtered.err)\(kept.err)")
    func rightShare(_ text: String) -> Double {
      let rows = text.split(separator: "\n").compactMap { line -> (Double, Double)? in
        let fields = line.split(separator: "\t")
        guard fields.count >= 2, let time = Double(fields[0]), let hz = Double(fields[1]) else { return nil }
        return (time, hz)
      }
      let note = rows.filter { $0.0 > 0.5 && $0.0 < 1.1 }
      return Double(note.filter { $0.1 > 0 && abs(1200 * log2($0.1 / 55)) < 50 }.count) / Double(max(1, note.count))
    }
    #expect(rightShare(filtered.out) >= 0.95, "\(filtered.out)")
    #expect(kept.out != filtered.out)
  }
}
