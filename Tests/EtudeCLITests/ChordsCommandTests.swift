import Foundation
import Testing

@testable import PitchDSP

@Suite struct ChordsCommandTests {
  static let rate = 22050.0

  /// C major, A minor seventh, G7 over B: 1.2 s each after 0.5 s of silence (mono).
  static func progression() -> [Float] {
    var samples = [Float](repeating: 0, count: Int(0.5 * rate))
    for notes in [[48, 60, 64, 67], [45, 57, 60, 64, 67], [47, 55, 62, 65, 67]] {
      let count = Int(1.2 * rate)
      var chord = [Float](repeating: 0, count: count)
      for note in notes {
        let f0 = 440 * pow(2, (Double(note) - 69) / 12)
        var amplitude = 0.05
        for h in 1...8 {
          let omega = 2 * Double.pi * Double(h) * f0 / rate
          for n in 0..<count {
            let t = Double(n) / rate
            chord[n] += Float(amplitude * min(1, t / 0.005) * exp(-t / 2) * sin(omega * Double(n)))
          }
          amplitude *= 0.6
        }
      }
      samples += chord
    }
    return samples
  }

  static func writeWAV(_ samples: [Float]) throws -> (URL, URL) {
    let directory = try temporaryDirectory()
    let url = directory.appendingPathComponent("chords.wav")
    try WAVWriter.write(
      AudioBuffer(sampleRate: rate, channels: [samples, samples]), to: url, encoding: .signed16)
    return (directory, url)
  }

  static func segments(_ text: String) -> [(start: Double, end: Double, label: String)] {
    text.split(separator: "\n").compactMap { line in
      let parts = line.split(separator: "\t")
      guard parts.count == 3, let start = Double(parts[0]), let end = Double(parts[1]) else { return nil }
      return (start, end, String(parts[2]))
    }
  }

  @Test func printsSegmentsCoveringTheFileInHarteSyntax() throws {
    let (directory, url) = try Self.writeWAV(Self.progression())
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try runEtude(["chords", url.path])
    #expect(result.status == 0, "\(result.err)")
    let found = Self.segments(result.out)
    #expect(found.count == result.out.split(separator: "\n").count, "\(result.out)")
    #expect(found.map(\.label) == ["N", "C:maj", "A:min7", "G:7/3"], "\(result.out)")
    #expect(found.first?.start == 0)
    #expect(abs((found.last?.end ?? 0) - 4.1) < 0.001)
    for (a, b) in zip(found, found.dropFirst()) { #expect(a.end == b.start) }
    for (segment, truth) in zip(found.dropFirst(), [0.5, 1.7, 2.9]) {
      #expect(abs(segment.start - truth) < 0.05, "\(result.out)")
    }
  }

  @Test func enabledTypesAndLiveDecisions() throws {
    let (directory, url) = try Self.writeWAV(Self.progression())
    defer { try? FileManager.default.removeItem(at: directory) }
    let triads = try runEtude(["chords", url.path, "--types", "maj,min"])
    #expect(triads.status == 0, "\(triads.err)")
    #expect(Self.segments(triads.out).map(\.label) == ["N", "C:maj", "A:min", "G:maj/3"], "\(triads.out)")
    let live = try runEtude(["chords", url.path, "--live"])
    #expect(live.status == 0, "\(live.err)")
    #expect(live.err.contains("reported 0.18"), "\(live.err)")
    let labels = Self.segments(live.out).map(\.label)
    #expect(labels.first == "N" && labels.contains("C:maj") && labels.contains("A:min7"), "\(live.out)")
    #expect(abs((Self.segments(live.out).last?.end ?? 0) - 4.1) < 0.001)
  }

  @Test func printsChangesOfRawPCMFromStandardInputAsTheyHappen() throws {
    var bytes: [UInt8] = []
    for x in Self.progression() {
      let v = Int16(max(-32768, min(32767, (x * 32767).rounded())))
      bytes += [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)]
    }
    let result = try runEtude(["chords", "-", "--rate", "22050", "--format", "s16le"], stdin: Data(bytes))
    #expect(result.status == 0, "\(result.err)")
    let lines = result.out.split(separator: "\n").map { $0.split(separator: "\t") }
    #expect(lines.allSatisfy { $0.count == 2 && Double($0[0]) != nil }, "\(result.out)")
    let labels = lines.map { String($0[1]) }
    #expect(labels.first == "N" && labels.contains("C:maj") && labels.contains("A:min7"), "\(result.out)")
  }

  @Test func printsTheFirstChordWhileTheAudioArrives() throws {
    // Only the first 1.2 s goes in (silence, then 0.7 s of C major); C:maj must come out
    // before standard input ends.
    let floats = Self.progression()
    let head = floats[0..<Int(1.2 * Self.rate)].withUnsafeBytes { Data($0) }
    let tail = floats[Int(1.2 * Self.rate)...].withUnsafeBytes { Data($0) }
    let products =
      Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }?.bundleURL.deletingLastPathComponent()
      ?? Bundle.main.bundleURL
    let process = Process()
    process.executableURL = products.appendingPathComponent("etude")
    process.arguments = ["chords", "-", "--rate", "22050", "--format", "f32le"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    input.fileHandleForWriting.write(head)
    let early = LockedBox<String>()
    let arrived = DispatchSemaphore(value: 0)
    let reader = output.fileHandleForReading
    Thread.detachNewThread {
      var text = ""
      while !text.contains("C:maj") {
        let data = reader.availableData
        if data.isEmpty { break }
        text += String(decoding: data, as: UTF8.self)
      }
      early.set(text)
      arrived.signal()
    }
    let inTime = arrived.wait(timeout: .now() + 20) == .success
    input.fileHandleForWriting.write(tail)
    try input.fileHandleForWriting.close()
    _ = reader.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(inTime && (early.get() ?? "").contains("C:maj"), "\(early.get() ?? "")")
    #expect(process.terminationStatus == 0)
  }

  @Test func printsTheChromagramAndRejectsBadOptions() throws {
    let (directory, url) = try Self.writeWAV(Self.progression())
    defer { try? FileManager.default.removeItem(at: directory) }
    let chroma = try runEtude(["chords", url.path, "--print-chroma"])
    #expect(chroma.status == 0, "\(chroma.err)")
    let rows = chroma.out.split(separator: "\n")
    #expect(rows.count > 80 && rows.allSatisfy { $0.split(separator: "\t").count == 28 })
    let badType = try runEtude(["chords", url.path, "--types", "maj,foo"])
    #expect(badType.status != 0 && badType.err.contains("--types"), "\(badType.err)")
    let badTuning = try runEtude(["chords", url.path, "--tuning", "70"])
    #expect(badTuning.status != 0 && badTuning.err.contains("--tuning"))
    let missing = try runEtude(["chords", directory.appendingPathComponent("none.wav").path])
    #expect(missing.status != 0 && missing.err.contains("no such file"), "\(missing.err)")
  }
}
