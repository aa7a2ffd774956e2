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

  @Test func savedFuzzInputsParseOrThrow() throws {
    let inputs = Self.inputs
    #expect(inputs.count >= 10)
    for url in inputs {
      let data = try Data(contentsOf: url)
      do {
        let reader = try WAVReader(data: data)
        let all = try reader.readRemaining()
        #expect(all.frameCount == reader.format.frameCount, "\(url.lastPathComponent)")
      } catch {
        #expect(!error.description.isEmpty)
      }
    }
  }
}
