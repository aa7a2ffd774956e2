import Foundation
import Testing

@testable import Synthesis

@Suite struct SoundFontParsingTests {
  let font: SoundFont

  init() throws {
    font = try SoundFont(data: Data(SoundFontBuilder.standard().build()))
  }

  @Test func readsNamePresetsInstrumentsAndSamples() {
    #expect(font.name == "Builder Test Font")
    #expect(font.presets.map(\.name) == ["Sine Lead", "One Shot", "Kit"])
    #expect(font.presets.map(\.bank) == [0, 0, 128])
    #expect(font.presets.map(\.program) == [0, 1, 0])
    #expect(font.instrumentRecords.map(\.name) == ["Sine", "OneShot"])
    #expect(font.samples.map(\.name) == ["Sine440", "Sine220"])
    #expect(font.sampleFrameCount == 4046 + 4046)
    #expect(!font.has24BitSamples)
  }

  @Test func readsSampleHeadersAsAbsoluteFrames() {
    let second = font.samples[1]
    #expect(second.start == 4046)
    #expect(second.end == 4046 + 4000)
    #expect(second.loopStart == 4046 + 2000)
    #expect(second.loopEnd == 4046 + 4000)
    #expect(second.sampleRate == 44000)
    #expect(second.originalPitch == 57)
    #expect(second.type == 1)
  }

  @Test func separatesGlobalZonesAndReadsGenerators() throws {
    let sine = font.instrumentRecords[0]
    let global = try #require(sine.globalZone)
    #expect(global.link == nil)
    #expect(global.generators.amount(.attackVolEnv) == -2400)
    #expect(global.generators.amount(.releaseVolEnv) == -1200)
    #expect(global.generators.amount(.decayVolEnv) == nil)
    #expect(global.generators.value(.decayVolEnv) == -12000)
    #expect(sine.zones.count == 3)
    #expect(sine.zones.map(\.link) == [1, 0, 0])
    #expect(sine.zones[0].keyRange == 0...59)
    #expect(sine.zones[2].velocityRange == 100...127)
    #expect(font.presets[1].globalZone?.generators.amount(.coarseTune) == 1)
    #expect(font.presets[1].zones.map(\.link) == [1])
  }

  @Test func resolvesRegionsWithGlobalDefaultsAndPresetOffsets() throws {
    let lead = try font.instrument(bank: 0, program: 0)
    #expect(lead.regions.count == 3)
    #expect(lead.regions.allSatisfy { $0.attackVolEnv == -2400 && $0.releaseVolEnv == -1200 })
    #expect(lead.regions.allSatisfy { $0.sampleMode == .loopContinuously })
    #expect(lead.regions[0].rootKey == 57)
    let oneShot = try font.instrument(bank: 0, program: 1)
    #expect(oneShot.regions.count == 1)
    #expect(oneShot.regions[0].tuningCents == 100)
    #expect(oneShot.regions[0].sampleMode == .noLoop)
  }

  @Test(arguments: [(40, 80, 1), (59, 127, 1), (60, 99, 1), (60, 100, 2), (127, 127, 2)])
  func selectsZonesByKeyAndVelocity(key: Int, velocity: Int, layers: Int) throws {
    let lead = try font.instrument(bank: 0, program: 0)
    let chosen = lead.regions(key: key, velocity: velocity)
    #expect(chosen.count == layers)
    #expect(chosen[0].sampleIndex == (key < 60 ? 1 : 0))
  }

  @Test func presetKeyRangesIntersectInstrumentRanges() throws {
    let kit = try font.instrument(bank: 128, program: 0)
    #expect(kit.regions.map(\.keyRange) == [35...81])
    #expect(kit.regions(key: 34, velocity: 100).isEmpty)
    #expect(kit.regions(key: 36, velocity: 100).count == 1)
  }

  @Test func missingPresetsFallBackAsFluidSynthDoes() throws {
    #expect(try font.instrument(bank: 8, program: 1).name == "One Shot")
    #expect(try font.instrument(bank: 128, program: 25).name == "Kit")
    #expect(throws: SynthesisError.presetNotFound(bank: 0, program: 5)) { try font.instrument(bank: 0, program: 5) }
    #expect(throws: SynthesisError.presetNotFound(bank: 3, program: 7)) { try font.instrument(bank: 3, program: 7) }
  }

  @Test func reads24BitSamples() throws {
    var builder = SoundFontBuilder.standard()
    builder.with24Bit = true
    let font24 = try SoundFont(data: Data(builder.build()))
    #expect(font24.has24BitSamples)
    // Frame 25 of Sine440 is the sine's peak, 16384; its low byte is 5.
    #expect(font24.sampleData.sample(at: 25) == Float(16384 * 256 + 5) / 8_388_608)
  }

  @Test func addressOffsetsMoveTheLoopAndClampToTheSample() throws {
    var builder = SoundFontBuilder.standard()
    builder.instruments[1].zones[0].generators += [
      (.startLoopAddressOffset, 100), (.endLoopAddressOffset, -100), (.endAddressCoarseOffset, 1),
      (.sampleModes, 3),
    ]
    let font = try SoundFont(data: Data(builder.build()))
    let region = try font.instrument(bank: 0, program: 1).regions[0]
    #expect(region.loopStart == 2100)
    #expect(region.loopEnd == 3900)
    #expect(region.end == font.sampleFrameCount)  // 4000 + 32768 clamped to the data
    #expect(region.sampleMode == .loopUntilRelease)
  }
}
