import Foundation
import Testing

@testable import Synthesis

@Suite struct SoundFontMalformedTests {
  private func expectMalformed(_ bytes: [UInt8], mentioning text: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
    do {
      _ = try SoundFont(data: Data(bytes))
      Issue.record("expected malformedSoundFont", sourceLocation: sourceLocation)
    } catch {
      guard case .malformedSoundFont(let reason) = error else {
        Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        return
      }
      if let text { #expect(reason.contains(text), "\(reason)", sourceLocation: sourceLocation) }
    }
  }

  @Test func everyTruncationThrows() {
    let bytes = SoundFontBuilder.standard().build()
    // Every length, chunk boundaries included (they are listed separately below, too).
    for length in stride(from: 0, to: bytes.count, by: 1) {
      expectMalformed(Array(bytes.prefix(length)))
    }
  }

  @Test func truncationAtEveryChunkBoundaryNamesTheProblem() {
    let (bytes, offsets) = SoundFontBuilder.standard().layout()
    #expect(offsets.count == 16)
    for offset in offsets {
      expectMalformed(Array(bytes.prefix(offset)))
      expectMalformed(Array(bytes.prefix(offset + 8)))
    }
  }

  @Test func aTruncatedChunkInsideACorrectRIFFSizeIsReported() {
    var bytes = SoundFontBuilder.standard().build()
    // Cut the file and fix the RIFF size so only the inner chunk is short.
    bytes.removeLast(30)
    let size = UInt32(bytes.count - 8)
    for i in 0..<4 { bytes[4 + i] = UInt8((size >> (8 * UInt32(i))) & 0xFF) }
    expectMalformed(bytes, mentioning: "claims")
  }

  @Test func wrongMagicIsReported() {
    var bytes = SoundFontBuilder.standard().build()
    bytes[8] = UInt8(ascii: "X")
    expectMalformed(bytes, mentioning: "sfbk")
    var riff = SoundFontBuilder.standard().build()
    riff[0] = UInt8(ascii: "R") + 1
    expectMalformed(riff, mentioning: "RIFF")
  }

  @Test func hugeSizeFieldsAreRejectedWithoutAllocating() {
    var bytes = SoundFontBuilder.standard().build()
    for i in 4..<8 { bytes[i] = 0xFF }
    expectMalformed(bytes, mentioning: "RIFF chunk claims")
    let (good, offsets) = SoundFontBuilder.standard().layout()
    for offset in offsets.dropFirst() {
      var broken = good
      for i in (offset + 4)..<(offset + 8) { broken[i] = 0xFF }
      expectMalformed(broken, mentioning: "claims")
    }
  }

  @Test func recordSizesThatAreNotMultiplesAreReported() throws {
    let (good, offsets) = SoundFontBuilder.standard().layout()
    // The phdr chunk is the first subchunk of the pdta list.
    let phdr = try #require(offsets.first { String(decoding: good[$0..<($0 + 4)], as: UTF8.self) == "phdr" })
    var bytes = good
    bytes[phdr + 4] &-= 2
    expectMalformed(bytes)
  }

  @Test func badIndicesAreReported() {
    var badInstrument = SoundFontBuilder.standard()
    badInstrument.presets[0].zones[0].link = 7
    expectMalformed(badInstrument.build(), mentioning: "instrument index 7 is out of range")
    var badSample = SoundFontBuilder.standard()
    badSample.instruments[1].zones[0].link = 9
    expectMalformed(badSample.build(), mentioning: "sample index 9 is out of range")
  }

  @Test func bagIndicesPastTheBagsOrBackwardsAreReported() throws {
    let (good, offsets) = SoundFontBuilder.standard().layout()
    let phdr = try #require(offsets.first { String(decoding: good[$0..<($0 + 4)], as: UTF8.self) == "phdr" })
    // The terminal preset record's bag index (the 4th record, byte 24 of it).
    var past = good
    past[phdr + 8 + 3 * 38 + 24] = 200
    expectMalformed(past, mentioning: "past the")
    // The first preset's bag index above the second's.
    var backwards = good
    backwards[phdr + 8 + 24] = 3
    expectMalformed(backwards, mentioning: "backwards")
  }

  @Test func generatorIndicesPastTheGeneratorsAreReported() throws {
    let (good, offsets) = SoundFontBuilder.standard().layout()
    let ibag = try #require(offsets.first { String(decoding: good[$0..<($0 + 4)], as: UTF8.self) == "ibag" })
    var bytes = good
    bytes[ibag + 8 + 4] = 250
    expectMalformed(bytes, mentioning: "generators")
  }

  @Test func missingPdtaIsReported() {
    var builder = SoundFontBuilder.standard()
    builder.presets = []
    let bytes = builder.build()
    #expect(throws: Never.self) { try SoundFont(data: Data(bytes)) }
    expectMalformed(Array("RIFF\u{4}\0\0\0sfbk".utf8), mentioning: "pdta")
  }

  @Test func samplesOutsideTheDataAreSilentNotFatal() throws {
    let (good, offsets) = SoundFontBuilder.standard().layout()
    let shdr = try #require(offsets.first { String(decoding: good[$0..<($0 + 4)], as: UTF8.self) == "shdr" })
    var bytes = good
    // Sample 0's end far past the data.
    bytes[shdr + 8 + 24 + 3] = 0x7F
    let font = try SoundFont(data: Data(bytes))
    let oneShot = try font.instrument(bank: 0, program: 1)
    #expect(oneShot.regions.isEmpty)
    var voice = oneShot.makeVoice(sampleRate: 44100)
    voice.start(pitch: 69, velocity: 100)
    #expect(!voice.isActive)
  }

  @Test func regressionInputsFromFuzzingThrowOrParse() {
    for bytes in SoundFontFuzzRegressions.inputs {
      do {
        let font = try SoundFont(data: Data(bytes))
        for preset in font.presets {
          guard let instrument = try? font.instrument(bank: preset.bank, program: preset.program) else { continue }
          var voice = instrument.makeVoice(sampleRate: 44100)
          voice.start(pitch: 60, velocity: 100)
          var out = [Float](repeating: 0, count: 256)
          out.withUnsafeMutableBufferPointer { voice.render(adding: $0) }
        }
      } catch {
        #expect(error.description.contains("SoundFont"))
      }
    }
  }
}

/// Inputs to replay: crashers of the fuzzer (Fuzz/SoundFontFuzz) go here, inline. Its first
/// 300-second run (1.5 million inputs) found none; the entries are hand-made edge cases.
enum SoundFontFuzzRegressions {
  static let inputs: [[UInt8]] = [
    // A RIFF form with an empty pdta list: no phdr.
    Array("RIFF\u{10}\0\0\0sfbkLIST\u{4}\0\0\0pdta".utf8),
    // An odd-sized chunk whose pad byte is missing at the very end of the form.
    Array("RIFF\u{0D}\0\0\0sfbkINAM\u{1}\0\0\0A".utf8),
  ]
}
