import Foundation
import Testing

@testable import Synthesis

@Suite struct SoundFontVoiceTests {
  let font: SoundFont

  init() throws {
    font = try SoundFont(data: Data(SoundFontBuilder.standard().build()))
  }

  private func frequency(program: Int = 0, pitch: Double, velocity: Int = 80) throws -> Double {
    let instrument = try font.instrument(bank: 0, program: program)
    let samples = SoundFontRendering.note(instrument, pitch: pitch, velocity: velocity, holdSeconds: 1, seconds: 0.8)
    return SoundFontRendering.frequency(samples, in: 13000..<35000)
  }

  @Test(arguments: [45.0, 57.0, 59.0, 60.0, 64.5, 69.0, 76.0, 81.25, 93.0])
  func looppedNotesSoundAtTheirPitch(pitch: Double) throws {
    let expected = 440 * pow(2, (pitch - 69) / 12)
    let measured = try frequency(pitch: pitch)
    #expect(abs(SoundFontRendering.cents(measured, from: expected)) < 2, "\(measured) Hz for \(expected) Hz")
  }

  @Test func presetCoarseTuneAddsToTheInstrument() throws {
    // "One Shot" has coarseTune +1 at preset level; the sample lasts 4000 frames at 44 kHz.
    let instrument = try font.instrument(bank: 0, program: 1)
    let samples = SoundFontRendering.note(instrument, pitch: 69, velocity: 80, holdSeconds: 1, seconds: 0.1)
    let measured = SoundFontRendering.frequency(samples, in: 200..<3500)
    #expect(abs(SoundFontRendering.cents(measured, from: 440 * pow(2, 1.0 / 12))) < 2)
  }

  @Test func tuningGeneratorsShiftThePitch() throws {
    var builder = SoundFontBuilder.standard()
    builder.instruments[1].zones[0].generators += [(.fineTune, 37), (.overridingRootKey, 67), (.scaleTuning, 50)]
    builder.samples[0].pitchCorrection = -12
    let font = try SoundFont(data: Data(builder.build()))
    let instrument = try font.instrument(bank: 0, program: 1)
    let samples = SoundFontRendering.note(instrument, pitch: 71, velocity: 80, holdSeconds: 1, seconds: 0.1)
    let measured = SoundFontRendering.frequency(samples, in: 200..<3500)
    // 50 cents/key × (71 − (67 + 0.12)) + 100 (preset coarse) + 37 (fine) from the sample's 440 Hz.
    let cents = 50 * (71 - 67.12) + 100 + 37
    #expect(abs(SoundFontRendering.cents(measured, from: 440 * pow(2, cents / 1200))) < 2)
  }

  @Test func aLoopedNoteSustainsAndAOneShotEnds() throws {
    let looped = SoundFontRendering.note(try font.instrument(bank: 0, program: 0), pitch: 69, velocity: 80, holdSeconds: 3, seconds: 2.5)
    let levels = SoundFontRendering.envelope(looped, window: 4410)
    // After the 0.25 s attack, the level holds to within 0.1 dB for two seconds.
    let steady = levels[4..<25]
    #expect(20 * log10(Double(steady.max()! / steady.min()!)) < 0.1)
    #expect(steady.min()! > 0.1)

    var voice = try font.instrument(bank: 0, program: 1).makeVoice(sampleRate: 44100)
    voice.start(pitch: 69, velocity: 80)
    var block = [Float](repeating: 0, count: 4400)
    block.withUnsafeMutableBufferPointer { voice.render(adding: $0) }
    // 4000 frames at 44 kHz, a semitone up (the preset's coarseTune), last 3785 frames at
    // 44.1 kHz, after the default delay of −12000 timecents (43 frames), as FluidSynth.
    #expect(!voice.isActive)
    #expect(block[3800..<3826].contains { abs($0) > 0.05 })
    #expect(block[3829...].allSatisfy { $0 == 0 }, "last sound at \(block.lastIndex { $0 != 0 } ?? -1)")
  }

  @Test func attackAndReleaseTakeTheirTimecents() throws {
    let instrument = try font.instrument(bank: 0, program: 0)
    // Attack −2400 tc = 0.25 s, linear; release −1200 tc = 0.5 s for 96 dB.
    let samples = SoundFontRendering.note(instrument, pitch: 69, velocity: 127, holdSeconds: 1, seconds: 1.6)
    let window = 441  // 10 ms
    let levels = SoundFontRendering.envelope(samples, window: window)
    let peak = levels[40..<100].max()!
    let halfway = levels.firstIndex { $0 >= peak / 2 }!
    #expect(abs(Double(halfway * window) / 44100 - 0.125) < 0.012)
    let full = levels.firstIndex { $0 >= peak * 0.98 }!
    #expect(abs(Double(full * window) / 44100 - 0.245) < 0.012)
    // 0.25 s into the release the level is 48 dB down; 0.5 s in, the voice has ended.
    let quarter = Double(levels[(100 + 25)])
    #expect(abs(20 * log10(quarter / Double(peak)) + 48) < 1.5)
    #expect(levels[(151)...].allSatisfy { $0 == 0 })
  }

  @Test func velocityAttenuatesOnTheConcaveCurve() throws {
    let instrument = try font.instrument(bank: 0, program: 0)
    func peak(_ velocity: Int) -> Double {
      let s = SoundFontRendering.note(instrument, pitch: 50, velocity: velocity, holdSeconds: 1, seconds: 0.5)
      return Double(s[15000..<20000].map(abs).max()!)
    }
    let loud = peak(127)
    // Sample peak 0.5, centred pan 0.707.
    #expect(abs(loud - 0.5 * 0.7071) < 0.002)
    #expect(abs(20 * log10(peak(64) / loud) - (-40 * log10(127.0 / 64))) < 0.05)
    #expect(abs(20 * log10(peak(20) / loud) - (-40 * log10(127.0 / 20))) < 0.05)
  }

  @Test func initialAttenuationCountsFourTenths() throws {
    var builder = SoundFontBuilder.standard()
    builder.instruments[0].zones[0].generators.append((.initialAttenuation, 100))
    let quieter = try SoundFont(data: Data(builder.build())).instrument(bank: 0, program: 0)
    var literal = quieter
    literal.attenuationScale = 1
    let reference = try font.instrument(bank: 0, program: 0)
    func peak(_ instrument: SoundFontInstrument) -> Double {
      let s = SoundFontRendering.note(instrument, pitch: 50, velocity: 127, holdSeconds: 1, seconds: 0.5)
      return Double(s[15000..<20000].map(abs).max()!)
    }
    #expect(abs(20 * log10(peak(quieter) / peak(reference)) + 4) < 0.05)
    #expect(abs(20 * log10(peak(literal) / peak(reference)) + 10) < 0.05)
  }

  @Test func panMixesToMono() throws {
    var builder = SoundFontBuilder.standard()
    builder.instruments[1].zones[0].generators.append((.pan, -500))
    let left = try SoundFont(data: Data(builder.build())).instrument(bank: 0, program: 1)
    let s = SoundFontRendering.note(left, pitch: 69, velocity: 127, holdSeconds: 1, seconds: 0.08)
    #expect(abs(Double(s[100..<3000].map(abs).max()!) - 0.25) < 0.002)
  }

  @Test func outputIsTheSameForEveryBlockSize() throws {
    let instrument = try font.instrument(bank: 0, program: 0)
    let reference = SoundFontRendering.note(instrument, pitch: 72.3, velocity: 110, holdSeconds: 0.3, seconds: 0.9, block: 512)
    for block in [1, 7, 8192] {
      let other = SoundFontRendering.note(instrument, pitch: 72.3, velocity: 110, holdSeconds: 0.3, seconds: 0.9, block: block)
      #expect(other == reference, "block \(block)")
    }
    #expect(reference.contains { $0 != 0 })
  }

  @Test func releaseAndRestartFollowTheProtocol() throws {
    var voice = try font.instrument(bank: 0, program: 0).makeVoice(sampleRate: 48000)
    #expect(!voice.isActive)
    voice.start(pitch: 72, velocity: 120)
    #expect(voice.isActive && !voice.isReleased && voice.layerCount == 2)
    var block = [Float](repeating: 0, count: 1000)
    block.withUnsafeMutableBufferPointer { voice.render(adding: $0) }
    voice.release()
    #expect(voice.isReleased && voice.isActive)
    voice.start(pitch: 40, velocity: 10)
    #expect(!voice.isReleased && voice.layerCount == 1)
    var kit = try font.instrument(bank: 128, program: 0).makeVoice(sampleRate: 44100)
    kit.start(pitch: 20, velocity: 100)
    #expect(!kit.isActive)
  }

  @Test func loopUntilReleasePlaysOnToTheEnd() throws {
    var builder = SoundFontBuilder.standard()
    builder.instruments[1].zones[0].generators = [(.sampleModes, 3), (.releaseVolEnv, 2400)]
    let instrument = try SoundFont(data: Data(builder.build())).instrument(bank: 0, program: 1)
    var voice = instrument.makeVoice(sampleRate: 44100)
    voice.start(pitch: 69, velocity: 100)
    var buffer = [Float](repeating: 0, count: 44100)
    buffer.withUnsafeMutableBufferPointer { voice.render(adding: UnsafeMutableBufferPointer(rebasing: $0[0..<22050])) }
    #expect(voice.isActive)  // looping, far past the sample's 4000 frames
    voice.release()
    buffer.withUnsafeMutableBufferPointer { voice.render(adding: UnsafeMutableBufferPointer(rebasing: $0[22050...])) }
    #expect(!voice.isActive)  // the 4 s release outlasts the 2000 frames left after the loop
  }
}
