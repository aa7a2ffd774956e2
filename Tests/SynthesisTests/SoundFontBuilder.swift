import Foundation

@testable import Synthesis

/// Writes small SoundFont 2 files in memory for tests: samples, instruments and presets with the
/// generators a test names, laid out as the specification asks (INFO, sdta, pdta with terminal
/// records, 46 zero frames after each sample).
struct SoundFontBuilder {
  struct Sample {
    var name: String
    var frames: [Int16]
    var loopStart: Int
    var loopEnd: Int
    var sampleRate: Int = 44000
    var originalPitch: Int = 69
    var pitchCorrection: Int = 0
    var type: Int = 1
    var link: Int = 0
  }

  /// A zone: its generators in file order, and its instrument or sample index (nil: global).
  struct Zone {
    var generators: [(SoundFontGenerator, Int16)] = []
    var link: Int?
  }

  struct Instrument {
    var name: String
    var zones: [Zone]
  }

  struct Preset {
    var name: String
    var bank: Int
    var program: Int
    var zones: [Zone]
  }

  var name = "Builder Test Font"
  var samples: [Sample] = []
  var instruments: [Instrument] = []
  var presets: [Preset] = []
  /// Extra bytes of 24-bit low bytes (one per frame) when true.
  var with24Bit = false

  /// A key or velocity range generator amount.
  static func range(_ low: Int, _ high: Int) -> Int16 { Int16(bitPattern: UInt16(low | high << 8)) }

  /// `periods` periods of a sine of `period` frames, amplitude 0.5 of full scale.
  static func sine(period: Int, periods: Int, amplitude: Double = 16384) -> [Int16] {
    (0..<(period * periods)).map { Int16((amplitude * sin(2 * Double.pi * Double($0) / Double(period))).rounded()) }
  }

  /// The standard test font:
  /// - sample 0 "Sine440": 440 Hz at 44 kHz (100-frame period), 40 periods, loop over the last 20;
  /// - sample 1 "Sine220": 220 Hz at 44 kHz, 20 periods, loop over the last 10, root key 57;
  /// - instrument 0 "Sine": a global zone (attack, release), keys 0-59 play Sine220 looped,
  ///   keys 60-127 play Sine440 looped; velocities 100-127 of keys 60-127 add a second layer of
  ///   Sine440 at +1200 cents scale-tuning-free (scaleTuning 0 → fixed pitch 440);
  /// - instrument 1 "OneShot": Sine440 without loop;
  /// - preset 0:0 "Sine Lead" plays instrument 0; preset 0:1 "One Shot" plays instrument 1 with
  ///   a preset global zone of coarseTune +1; preset 128:0 "Kit" plays instrument 1 on keys 35-81.
  static func standard() -> SoundFontBuilder {
    var b = SoundFontBuilder()
    b.samples = [
      Sample(name: "Sine440", frames: sine(period: 100, periods: 40), loopStart: 2000, loopEnd: 4000),
      Sample(name: "Sine220", frames: sine(period: 200, periods: 20), loopStart: 2000, loopEnd: 4000, originalPitch: 57),
    ]
    b.instruments = [
      Instrument(
        name: "Sine",
        zones: [
          Zone(generators: [(.attackVolEnv, -2400), (.releaseVolEnv, -1200), (.sampleModes, 1)], link: nil),
          Zone(generators: [(.keyRange, range(0, 59))], link: 1),
          Zone(generators: [(.keyRange, range(60, 127))], link: 0),
          Zone(
            generators: [(.keyRange, range(60, 127)), (.velocityRange, range(100, 127)), (.scaleTuning, 0)],
            link: 0),
        ]),
      Instrument(name: "OneShot", zones: [Zone(generators: [(.sampleModes, 0)], link: 0)]),
    ]
    b.presets = [
      Preset(name: "Sine Lead", bank: 0, program: 0, zones: [Zone(link: 0)]),
      Preset(
        name: "One Shot", bank: 0, program: 1,
        zones: [Zone(generators: [(.coarseTune, 1)], link: nil), Zone(link: 1)]),
      Preset(name: "Kit", bank: 128, program: 0, zones: [Zone(generators: [(.keyRange, range(35, 81))], link: 1)]),
    ]
    return b
  }

  /// The file's bytes.
  func build() -> [UInt8] { layout().bytes }

  /// The file's bytes and the offset of every chunk header in it (RIFF, LISTs and subchunks).
  func layout() -> (bytes: [UInt8], chunkOffsets: [Int]) {
    var offsets: [Int] = []
    var smpl: [UInt8] = []
    var sm24: [UInt8] = []
    var headers: [UInt8] = []
    var position = 0
    for (i, sample) in samples.enumerated() {
      for frame in sample.frames + Array(repeating: 0, count: 46) {
        append16(&smpl, UInt16(bitPattern: frame))
        sm24.append(UInt8(truncatingIfNeeded: i * 17 + 5))
      }
      appendName(&headers, sample.name)
      for v in [position, position + sample.frames.count, position + sample.loopStart, position + sample.loopEnd] {
        append32(&headers, UInt32(v))
      }
      append32(&headers, UInt32(sample.sampleRate))
      headers.append(UInt8(sample.originalPitch))
      headers.append(UInt8(bitPattern: Int8(sample.pitchCorrection)))
      append16(&headers, UInt16(sample.link))
      append16(&headers, UInt16(sample.type))
      position += sample.frames.count + 46
    }
    appendName(&headers, "EOS")
    headers += Array(repeating: 0, count: 26)

    func hydra(_ zonesOf: [[Zone]], terminal: SoundFontGenerator) -> (bags: [UInt8], mods: [UInt8], gens: [UInt8], firstBags: [Int]) {
      var bags: [UInt8] = []
      var gens: [UInt8] = []
      var firstBags: [Int] = []
      var bagCount = 0
      var genCount = 0
      for zones in zonesOf {
        firstBags.append(bagCount)
        for zone in zones {
          append16(&bags, UInt16(genCount))
          append16(&bags, 0)
          bagCount += 1
          var list = zone.generators.map { ($0.0.rawValue, UInt16(bitPattern: $0.1)) }
          if let link = zone.link { list.append((terminal.rawValue, UInt16(link))) }
          for (op, amount) in list {
            append16(&gens, op)
            append16(&gens, amount)
            genCount += 1
          }
        }
      }
      firstBags.append(bagCount)
      append16(&bags, UInt16(genCount))
      append16(&bags, 0)
      gens += [0, 0, 0, 0]
      return (bags, Array(repeating: 0, count: 10), gens, firstBags)
    }
    let instrumentHydra = hydra(instruments.map(\.zones), terminal: .sampleID)
    var inst: [UInt8] = []
    for (i, instrument) in instruments.enumerated() {
      appendName(&inst, instrument.name)
      append16(&inst, UInt16(instrumentHydra.firstBags[i]))
    }
    appendName(&inst, "EOI")
    append16(&inst, UInt16(instrumentHydra.firstBags.last!))
    let presetHydra = hydra(presets.map(\.zones), terminal: .instrument)
    var phdr: [UInt8] = []
    for (i, preset) in presets.enumerated() {
      appendName(&phdr, preset.name)
      append16(&phdr, UInt16(preset.program))
      append16(&phdr, UInt16(preset.bank))
      append16(&phdr, UInt16(presetHydra.firstBags[i]))
      phdr += Array(repeating: 0, count: 12)
    }
    appendName(&phdr, "EOP")
    append16(&phdr, 0)
    append16(&phdr, 0)
    append16(&phdr, UInt16(presetHydra.firstBags.last!))
    phdr += Array(repeating: 0, count: 12)

    // Chunks, recording where each header lands.
    var out: [UInt8] = []
    func chunk(_ id: String, _ body: () -> Void) {
      offsets.append(out.count)
      out += Array(id.utf8)
      let sizeAt = out.count
      out += [0, 0, 0, 0]
      body()
      let size = out.count - sizeAt - 4
      out.replaceSubrange(sizeAt..<(sizeAt + 4), with: le32(UInt32(size)))
      if size & 1 == 1 { out.append(0) }
    }
    func data(_ id: String, _ bytes: [UInt8]) { chunk(id) { out += bytes } }
    chunk("RIFF") {
      out += Array("sfbk".utf8)
      chunk("LIST") {
        out += Array("INFO".utf8)
        data("ifil", le16(2) + le16(4))
        var nameBytes = Array(name.utf8) + [0]
        if nameBytes.count & 1 == 1 { nameBytes.append(0) }
        data("INAM", nameBytes)
      }
      chunk("LIST") {
        out += Array("sdta".utf8)
        data("smpl", smpl)
        if with24Bit { data("sm24", sm24) }
      }
      chunk("LIST") {
        out += Array("pdta".utf8)
        data("phdr", phdr)
        data("pbag", presetHydra.bags)
        data("pmod", presetHydra.mods)
        data("pgen", presetHydra.gens)
        data("inst", inst)
        data("ibag", instrumentHydra.bags)
        data("imod", instrumentHydra.mods)
        data("igen", instrumentHydra.gens)
        data("shdr", headers)
      }
    }
    return (out, offsets)
  }

  private func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
  private func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
  private func append16(_ a: inout [UInt8], _ v: UInt16) { a += le16(v) }
  private func append32(_ a: inout [UInt8], _ v: UInt32) { a += le32(v) }
  private func appendName(_ a: inout [UInt8], _ s: String) {
    let bytes = Array(s.utf8.prefix(19))
    a += bytes + Array(repeating: 0, count: 20 - bytes.count)
  }
}

/// Offline rendering helpers for the SoundFont tests.
enum SoundFontRendering {
  /// Renders one note: started at frame 0, released after `holdSeconds`, rendered for `seconds`
  /// in blocks of `block` frames.
  static func note(
    _ instrument: SoundFontInstrument, pitch: Double, velocity: Int = 100, sampleRate: Double = 44100,
    holdSeconds: Double, seconds: Double, block: Int = 512
  ) -> [Float] {
    var voice = instrument.makeVoice(sampleRate: sampleRate)
    voice.start(pitch: pitch, velocity: velocity)
    let total = Int(seconds * sampleRate)
    let releaseAt = Int(holdSeconds * sampleRate)
    var out = [Float](repeating: 0, count: total)
    var frame = 0
    out.withUnsafeMutableBufferPointer { buffer in
      while frame < total {
        var n = min(block, total - frame)
        if frame < releaseAt { n = min(n, releaseAt - frame) }
        if frame == releaseAt { voice.release() }
        voice.render(adding: UnsafeMutableBufferPointer(rebasing: buffer[frame..<(frame + n)]))
        frame += n
      }
    }
    return out
  }

  /// The frequency of a steady tone in `samples[range]`, from its upward zero crossings
  /// (linearly interpolated) — precise to a small fraction of a cent for a clean periodic signal.
  static func frequency(_ samples: [Float], in range: Range<Int>, sampleRate: Double = 44100) -> Double {
    var first: Double?
    var last = 0.0
    var count = 0
    for i in (range.lowerBound + 1)..<range.upperBound where samples[i - 1] < 0 && samples[i] >= 0 {
      let t = Double(i - 1) + Double(-samples[i - 1] / (samples[i] - samples[i - 1]))
      if first == nil { first = t } else { count += 1 }
      last = t
    }
    guard let first, count > 0 else { return 0 }
    return Double(count) * sampleRate / (last - first)
  }

  /// Cents from `reference` to `frequency`.
  static func cents(_ frequency: Double, from reference: Double) -> Double { 1200 * log2(frequency / reference) }

  /// The peak absolute value in each window of `window` frames.
  static func envelope(_ samples: [Float], window: Int) -> [Float] {
    stride(from: 0, to: samples.count - window + 1, by: window).map { start in
      samples[start..<(start + window)].reduce(0) { max($0, abs($1)) }
    }
  }
}
