import Foundation

/// The sample data of a SoundFont (`smpl`, and `sm24` when present), shared, immutable, by every
/// instrument and voice made from the font.
///
/// It owns the whole file's bytes, read once into 16-byte-aligned memory, and points at the
/// sample words inside them (RIFF chunk data starts on even offsets, so the 16-bit words are
/// aligned): no second copy. Voices read it through raw pointers on the audio thread, with no
/// reference counting per sample.
final class SoundFontSampleData: @unchecked Sendable {
  // @unchecked: the memory is written once, before init returns, and only read afterwards.

  private let file: UnsafeMutableRawBufferPointer
  /// The 16-bit words (the upper 16 bits of 24-bit samples).
  let words: UnsafeBufferPointer<Int16>
  /// The low bytes of 24-bit samples, or `nil` for 16-bit data.
  let lowBytes: UnsafeBufferPointer<UInt8>?
  /// The number of frames.
  let count: Int

  /// Takes ownership of a file's bytes and finds the sample words in them.
  ///
  /// - Parameters:
  ///   - file: The whole file, allocated with alignment 16 (at least one byte); deallocated
  ///     with this object.
  ///   - smpl: The byte range of the `smpl` chunk's data (an even offset).
  ///   - sm24: The byte range of the `sm24` chunk's data, used only when it holds one byte per
  ///     frame (padded to even), as the specification asks.
  init(owning file: UnsafeMutableRawBufferPointer, smpl: Range<Int>, sm24: Range<Int>?) {
    self.file = file
    count = smpl.lowerBound & 1 == 0 ? smpl.count / 2 : 0
    let base = file.baseAddress!
    let wordPointer = (base + (count > 0 ? smpl.lowerBound : 0)).assumingMemoryBound(to: Int16.self)
    #if _endian(big)
      for i in 0..<count { wordPointer[i] = Int16(littleEndian: wordPointer[i]) }
    #endif
    words = UnsafeBufferPointer(start: wordPointer, count: count)
    if let sm24, count > 0, sm24.count == count || sm24.count == count + (count & 1) {
      lowBytes = UnsafeBufferPointer(start: (base + sm24.lowerBound).assumingMemoryBound(to: UInt8.self), count: count)
    } else {
      lowBytes = nil
    }
  }

  deinit { file.deallocate() }

  /// One frame as a Float in -1...1 (not for the audio path; voices read the buffers directly).
  func sample(at index: Int) -> Float {
    guard index >= 0, index < count else { return 0 }
    if let lowBytes {
      return Float(Int32(words[index]) << 8 | Int32(lowBytes[index])) / 8_388_608
    }
    return Float(words[index]) / 32768
  }
}
