/// Reads the RIFF structure of a SoundFont 2 file and resolves its hydra (`pdta`) into presets,
/// instruments and samples.
///
/// Every size and index is checked against the bytes actually there before it is used, so
/// that any input either parses or throws ``SynthesisError/malformedSoundFont(_:)`` naming what
/// was wrong and at which byte offset; nothing is allocated from a size field that the data
/// does not back.
struct SoundFontParser {
  /// What a file holds once read.
  struct Parsed {
    var name: String
    var presets: [SoundFontPreset]
    var instruments: [SoundFontInstrumentRecord]
    var samples: [SoundFontSample]
    var smpl: Range<Int>
    var sm24: Range<Int>?
  }

  /// A chunk: its four-character id, and the byte range of its data.
  private struct Chunk {
    var id: String
    var data: Range<Int>
    var offset: Int { data.lowerBound - 8 }
  }

  private let bytes: UnsafeRawBufferPointer

  init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

  func parse() throws(SynthesisError) -> Parsed {
    guard bytes.count >= 12 else {
      throw .malformedSoundFont("the file is \(bytes.count) bytes long, too short for a RIFF header (12 bytes)")
    }
    guard fourCC(at: 0) == "RIFF" else {
      throw .malformedSoundFont("byte 0: expected \"RIFF\", found \(quoted(fourCC(at: 0)))")
    }
    let riffSize = Int(u32(at: 4))
    guard riffSize >= 4, riffSize <= bytes.count - 8 else {
      throw .malformedSoundFont(
        "byte 4: the RIFF chunk claims \(riffSize) bytes but the file has \(bytes.count - 8) after its header")
    }
    guard fourCC(at: 8) == "sfbk" else {
      throw .malformedSoundFont("byte 8: expected form type \"sfbk\", found \(quoted(fourCC(at: 8)))")
    }
    let top = try chunks(in: 12..<(8 + riffSize), context: "the RIFF form")
    var info: Chunk?
    var sdta: Chunk?
    var pdta: Chunk?
    for chunk in top where chunk.id == "LIST" {
      guard chunk.data.count >= 4 else {
        throw .malformedSoundFont("byte \(chunk.offset): a LIST chunk of \(chunk.data.count) bytes has no list type")
      }
      switch fourCC(at: chunk.data.lowerBound) {
      case "INFO": info = info ?? chunk
      case "sdta": sdta = sdta ?? chunk
      case "pdta": pdta = pdta ?? chunk
      default: break
      }
    }
    var name = ""
    if let info {
      for sub in try chunks(in: (info.data.lowerBound + 4)..<info.data.upperBound, context: "the INFO list")
      where sub.id == "INAM" {
        name = text(sub.data)
      }
    }
    var smpl = 0..<0
    var sm24: Range<Int>?
    if let sdta {
      for sub in try chunks(in: (sdta.data.lowerBound + 4)..<sdta.data.upperBound, context: "the sdta list") {
        if sub.id == "smpl" { smpl = sub.data }
        if sub.id == "sm24" { sm24 = sub.data }
      }
    }
    guard let pdta else { throw .malformedSoundFont("no pdta list (the preset, instrument and sample headers)") }
    var hydra: [String: Chunk] = [:]
    for sub in try chunks(in: (pdta.data.lowerBound + 4)..<pdta.data.upperBound, context: "the pdta list")
    where hydra[sub.id] == nil {
      hydra[sub.id] = sub
    }
    func records(_ id: String, size: Int, minimum: Int) throws(SynthesisError) -> Chunk {
      guard let chunk = hydra[id] else { throw .malformedSoundFont("the pdta list has no \(id) chunk") }
      guard chunk.data.count % size == 0 else {
        throw .malformedSoundFont(
          "byte \(chunk.offset): the \(id) chunk is \(chunk.data.count) bytes, not a multiple of its \(size)-byte records")
      }
      guard chunk.data.count / size >= minimum else {
        throw .malformedSoundFont("byte \(chunk.offset): the \(id) chunk lacks its terminal record")
      }
      return chunk
    }
    let phdr = try records("phdr", size: 38, minimum: 1)
    let pbag = try records("pbag", size: 4, minimum: 1)
    _ = try records("pmod", size: 10, minimum: 0)
    let pgen = try records("pgen", size: 4, minimum: 0)
    let inst = try records("inst", size: 22, minimum: 1)
    let ibag = try records("ibag", size: 4, minimum: 1)
    _ = try records("imod", size: 10, minimum: 0)
    let igen = try records("igen", size: 4, minimum: 0)
    let shdr = try records("shdr", size: 46, minimum: 1)

    let sampleCount = shdr.data.count / 46 - 1
    var samples: [SoundFontSample] = []
    samples.reserveCapacity(sampleCount)
    for i in 0..<sampleCount {
      let o = shdr.data.lowerBound + i * 46
      samples.append(
        SoundFontSample(
          name: text(o..<(o + 20)), start: Int(u32(at: o + 20)), end: Int(u32(at: o + 24)),
          loopStart: Int(u32(at: o + 28)), loopEnd: Int(u32(at: o + 32)), sampleRate: Int(u32(at: o + 36)),
          originalPitch: Int(bytes[o + 40]), pitchCorrection: Int(Int8(bitPattern: bytes[o + 41])),
          link: Int(u16(at: o + 42)), type: Int(u16(at: o + 44))))
    }

    let instrumentCount = inst.data.count / 22 - 1
    var instruments: [SoundFontInstrumentRecord] = []
    instruments.reserveCapacity(instrumentCount)
    for i in 0..<instrumentCount {
      let o = inst.data.lowerBound + i * 22
      let name = text(o..<(o + 20))
      let (global, zones) = try zones(
        firstBag: Int(u16(at: o + 20)), endBag: Int(u16(at: o + 42)), bagChunk: ibag, genChunk: igen,
        terminal: .sampleID, linkCount: sampleCount, owner: "instrument \(i) (\(quoted(name)))")
      instruments.append(SoundFontInstrumentRecord(name: name, globalZone: global, zones: zones))
    }

    let presetCount = phdr.data.count / 38 - 1
    var presets: [SoundFontPreset] = []
    presets.reserveCapacity(presetCount)
    for i in 0..<presetCount {
      let o = phdr.data.lowerBound + i * 38
      let name = text(o..<(o + 20))
      let (global, zones) = try zones(
        firstBag: Int(u16(at: o + 24)), endBag: Int(u16(at: o + 62)), bagChunk: pbag, genChunk: pgen,
        terminal: .instrument, linkCount: instrumentCount, owner: "preset \(i) (\(quoted(name)))")
      presets.append(
        SoundFontPreset(
          name: name, bank: Int(u16(at: o + 22)), program: Int(u16(at: o + 20)), globalZone: global, zones: zones))
    }
    return Parsed(name: name, presets: presets, instruments: instruments, samples: samples, smpl: smpl, sm24: sm24)
  }

  /// Reads the zones of one preset or instrument: bags `firstBag..<endBag` of `bagChunk`, whose
  /// generators are in `genChunk`.
  private func zones(
    firstBag: Int, endBag: Int, bagChunk: Chunk, genChunk: Chunk, terminal: SoundFontGenerator, linkCount: Int, owner: String
  ) throws(SynthesisError) -> (SoundFontZone?, [SoundFontZone]) {
    let bagCount = bagChunk.data.count / 4
    let generatorCount = genChunk.data.count / 4
    // Checked before forming the range: a decreasing pair of file words would trap.
    guard firstBag <= endBag else {
      throw .malformedSoundFont("\(owner): its bags run backwards (\(firstBag) to \(endBag))")
    }
    guard endBag < bagCount else {
      throw .malformedSoundFont("\(owner): its zones end at bag \(endBag), past the \(bagCount) bags")
    }
    let bags = firstBag..<endBag
    var global: SoundFontZone?
    var zones: [SoundFontZone] = []
    for bag in bags {
      let o = bagChunk.data.lowerBound + bag * 4
      let first = Int(u16(at: o))
      let next = Int(u16(at: o + 4))
      guard first <= next, next <= generatorCount else {
        throw .malformedSoundFont(
          "\(owner), bag \(bag) (byte \(o)): generators \(first)..<\(next) do not fit the \(generatorCount) generators")
      }
      var generators = SoundFontGenerators()
      var link: Int?
      for g in first..<next {
        let go = genChunk.data.lowerBound + g * 4
        let operation = u16(at: go)
        let amount = Int16(bitPattern: u16(at: go + 2))
        guard let generator = SoundFontGenerator(rawValue: operation) else { continue }
        if generator == terminal {
          let index = Int(UInt16(bitPattern: amount))
          guard index < linkCount else {
            throw .malformedSoundFont(
              "\(owner), bag \(bag), generator \(g) (byte \(go)): \(terminal == .instrument ? "instrument" : "sample") "
                + "index \(index) is out of range (\(linkCount) in the file)")
          }
          link = index
          break  // generators after the terminal one are ignored (section 7.5)
        }
        if generator == .instrument || generator == .sampleID { continue }  // at the wrong level
        generators.set(generator, to: amount)
      }
      let zone = SoundFontZone(generators: generators, link: link)
      if link != nil {
        zones.append(zone)
      } else if bag == bags.lowerBound {
        global = zone
      }  // a zone without a link after the first is ignored (section 7.3)
    }
    return (global, zones)
  }

  /// Splits `range` into chunks, checking each size against the bytes there.
  private func chunks(in range: Range<Int>, context: String) throws(SynthesisError) -> [Chunk] {
    var result: [Chunk] = []
    var offset = range.lowerBound
    while offset < range.upperBound {
      guard range.upperBound - offset >= 8 else {
        throw .malformedSoundFont(
          "byte \(offset): \(range.upperBound - offset) bytes left in \(context), too few for a chunk header")
      }
      let id = fourCC(at: offset)
      let size = Int(u32(at: offset + 4))
      guard size <= range.upperBound - offset - 8 else {
        throw .malformedSoundFont(
          "byte \(offset): chunk \(quoted(id)) claims \(size) bytes but only \(range.upperBound - offset - 8) remain in \(context)")
      }
      result.append(Chunk(id: id, data: (offset + 8)..<(offset + 8 + size)))
      offset += 8 + size + (size & 1)
    }
    return result
  }

  private func u16(at offset: Int) -> UInt16 {
    UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
  }

  private func u32(at offset: Int) -> UInt32 {
    UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
  }

  private func fourCC(at offset: Int) -> String {
    String(decoding: (0..<4).map { bytes[offset + $0] }, as: Unicode.ASCII.self)
  }

  /// A NUL-terminated Latin-1 string in `range`, trailing spaces dropped.
  private func text(_ range: Range<Int>) -> String {
    var scalars = String.UnicodeScalarView()
    for i in range {
      let byte = bytes[i]
      if byte == 0 { break }
      scalars.append(Unicode.Scalar(byte))
    }
    var string = String(scalars)
    while string.last == " " { string.removeLast() }
    return string
  }

  private func quoted(_ id: String) -> String { "\"\(id)\"" }
}
