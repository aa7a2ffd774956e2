import Foundation

/// A SoundFont 2 file, read: its presets, instruments and sample headers, and its sample data.
///
/// ```swift
/// let font = try SoundFont(contentsOf: URL(filePath: "/usr/share/sounds/sf2/FluidR3_GM.sf2"))
/// for preset in font.presets { print(preset.bank, preset.program, preset.name) }
/// let piano = try font.instrument(bank: 0, program: 0)
/// var voice = piano.makeVoice(sampleRate: 44100)
/// ```
///
/// Reading checks every chunk size, record count and index against the data, and throws
/// ``SynthesisError/malformedSoundFont(_:)`` saying what and where when something does not fit.
/// It is lenient where players are: unknown chunks and generators are skipped, generators after
/// a zone's terminal generator and link-less zones after the first are ignored, a missing INFO
/// list or `sdta` list gives an unnamed or silent font, and zones whose sample lies outside the
/// sample data (or in a sound card's ROM) are kept in the listing but play nothing.
///
/// The file's bytes are kept once, in memory shared, immutable, by every instrument and voice
/// made from the font, so copying a `SoundFont` is cheap.
///
/// - Complexity: Reading is O(file size): one copy of the bytes, then a pass over the hydra.
public struct SoundFont: Sendable {
  /// The font's name (the INFO list's `INAM`), or "" when it has none.
  public let name: String
  /// The presets, in file order.
  public let presets: [SoundFontPreset]
  /// The instruments the presets' zones point at, in file order.
  public let instrumentRecords: [SoundFontInstrumentRecord]
  /// The sample headers the instruments' zones point at, in file order.
  public let samples: [SoundFontSample]
  /// The shared sample frames.
  let sampleData: SoundFontSampleData

  /// Reads a SoundFont from its bytes.
  ///
  /// - Parameter data: A whole `.sf2` file.
  /// - Throws: ``SynthesisError/malformedSoundFont(_:)`` when the bytes are not a SoundFont 2
  ///   file or are damaged.
  public init(data: Data) throws(SynthesisError) {
    let file = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
    data.copyBytes(to: file)
    try self.init(owning: file, count: data.count)
  }

  /// Reads a SoundFont file.
  ///
  /// The file is read straight into the memory the sample data keeps (one `pread` pass, no
  /// mapping and no second copy): FluidR3_GM.sf2 (148 MB) loads in about 0.1–0.3 s.
  ///
  /// - Parameter url: The file's location.
  /// - Throws: ``SynthesisError/malformedSoundFont(_:)`` when the file cannot be read, is not a
  ///   SoundFont 2 file or is damaged.
  public init(contentsOf url: URL) throws(SynthesisError) {
    guard let handle = FileHandle(forReadingAtPath: url.path) else {
      throw .malformedSoundFont("cannot open \(url.path)")
    }
    defer { try? handle.close() }
    let size: Int
    do { size = Int(try handle.seekToEnd()) } catch {
      throw .malformedSoundFont("cannot read \(url.path): \(error.localizedDescription)")
    }
    let file = UnsafeMutableRawBufferPointer.allocate(byteCount: max(size, 1), alignment: 16)
    var done = 0
    while done < size {
      let n = pread(handle.fileDescriptor, file.baseAddress! + done, size - done, off_t(done))
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else {
        file.deallocate()
        throw .malformedSoundFont("cannot read \(url.path): stopped at byte \(done) of \(size)")
      }
      done += n
    }
    try self.init(owning: file, count: size)
  }

  /// Parses `count` bytes of `file` and keeps it as the sample data (or deallocates it and throws).
  private init(owning file: UnsafeMutableRawBufferPointer, count: Int) throws(SynthesisError) {
    let parsed: SoundFontParser.Parsed
    do {
      parsed = try SoundFontParser(bytes: UnsafeRawBufferPointer(rebasing: file[0..<count])).parse()
    } catch {
      file.deallocate()
      throw error
    }
    name = parsed.name
    presets = parsed.presets
    instrumentRecords = parsed.instruments
    samples = parsed.samples
    sampleData = SoundFontSampleData(owning: file, smpl: parsed.smpl, sm24: parsed.sm24)
  }

  /// The number of sample frames in the file's sample data.
  public var sampleFrameCount: Int { sampleData.count }

  /// Whether the sample data has 24-bit resolution (an `sm24` chunk of the right size).
  public var has24BitSamples: Bool { sampleData.lowBytes != nil }

  /// The preset for a bank and program, exactly, if the font has one.
  ///
  /// - Parameters:
  ///   - bank: The MIDI bank (128 for percussion).
  ///   - program: The MIDI program, 0...127.
  public func preset(bank: Int, program: Int) -> SoundFontPreset? {
    presets.first { $0.bank == bank && $0.program == program }
  }

  /// A playable instrument for a bank and program, falling back as FluidSynth does when the font
  /// lacks it.
  ///
  /// The fallbacks, in order: the exact preset; for the percussion bank 128, program 0 of bank
  /// 128 (the standard kit); for any other bank, the same program in bank 0 (General MIDI).
  ///
  /// - Parameters:
  ///   - bank: The MIDI bank (128 for percussion).
  ///   - program: The MIDI program, 0...127.
  /// - Returns: The instrument, its zones resolved (preset and instrument levels combined).
  /// - Throws: ``SynthesisError/presetNotFound(bank:program:)`` when no preset answers, even
  ///   after the fallbacks.
  public func instrument(bank: Int, program: Int) throws(SynthesisError) -> SoundFontInstrument {
    let fallback = bank == 128 ? preset(bank: 128, program: 0) : preset(bank: 0, program: program)
    guard let found = preset(bank: bank, program: program) ?? fallback else {
      throw .presetNotFound(bank: bank, program: program)
    }
    return SoundFontInstrument(font: self, preset: found)
  }
}
