import Foundation
import Testing

@testable import PitchDSP

/// Replays inputs saved from `Fuzz/run.sh wav` (a sample of its corpus, and any crasher it ever
/// finds) through the WAV parser: each must parse or throw a typed error, never crash.
@Suite struct WAVFuzzRegressionTests {
  static var inputs: [URL] {
    let directory = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/fuzz")
    return
      ((try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? [])
      .filter { $0.pathExtension == "wav" }
      .sorted { $0.lastPathComponent < $1.lastPathComponent }
  }

  /// `crash-byte-rate-overflow.wav`: a float file at 4 294 966 801 Hz read fine, but writing it
  /// back trapped on a byte rate (rate × frame size) beyond 32 bits. Now the byte rate saturates.
  @Test func aRateWhoseByteRateOverflowsWritesBack() throws {
    let url = try #require(Bundle.module.url(forResource: "Fixtures/fuzz/crash-byte-rate-overflow", withExtension: "wav"))
    let reader = try WAVReader(url: url)
    #expect(reader.format.sampleRate == 4_294_966_801)
    let all = try reader.readRemaining()
    let again = try WAVReader.readAll(data: WAVWriter.encode(all, encoding: reader.format.encoding))
    #expect(again == all)
  }

  /// The hand-built seeds decode to their 8 known samples.
  @Test(arguments: [("seed-rf64", false), ("seed-bw64", false), ("seed-chunks-placeholder", true)])
  func seedsDecodeToTheirSamples(name: String, repaired: Bool) throws {
    let url = try #require(Bundle.module.url(forResource: "Fixtures/fuzz/\(name)", withExtension: "wav"))
    let reader = try WAVReader(url: url)
    #expect(reader.dataSizeWasRepaired == repaired)
    let expected: [Float] = [0, 16384, -16384, 32767, -32768, 1, 200, -200].map { $0 / 32768 }
    #expect(try reader.readRemaining().mono == expected)
  }

  @Test func savedFuzzInputsParseOrThrow() throws {
    let inputs = Self.inputs
    #expect(inputs.count >= 10)
    for url in inputs {
      let data = try Data(contentsOf: url)
      do {
        let reader = try WAVReader(data: data)
        let all = try reader.readRemaining()
        #expect(all.frameCount == reader.format.frameCount, "\(url.lastPathComponent)")
        // What was read writes back and reads again with the same shape, as the fuzz target checks.
        let again = try WAVReader(data: WAVWriter.encode(all, encoding: reader.format.encoding))
        #expect(again.format.frameCount == all.frameCount, "\(url.lastPathComponent)")
      } catch {
        #expect(!error.description.isEmpty)
      }
    }
  }
}
