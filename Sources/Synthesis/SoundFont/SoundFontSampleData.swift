import Foundation

/// The sample data of a SoundFont (`smpl`, and `sm24` when present), decoded once and shared,
/// immutable, by every instrument and voice made from the font.
///
/// It owns its memory so that voices can read it through raw pointers on the audio thread,
/// with no reference counting per sample. 16-bit words are kept as they are (2 bytes a frame);
/// the optional 24-bit extension keeps its low bytes beside them.
final class SoundFontSampleData: @unchecked Sendable {
  // @unchecked: both buffers are written once, in init, and only read afterwards.

  /// The 16-bit words (the upper 16 bits of 24-bit samples), plus a zero frame at the end so that
  /// an empty font still has a valid pointer.
  let words: UnsafeMutableBufferPointer<Int16>
  /// The low bytes of 24-bit samples, or `nil` for 16-bit data.
  let lowBytes: UnsafeMutableBufferPointer<UInt8>?
  /// The number of frames.
  let count: Int

  /// Copies the sample words out of the file's bytes.
  ///
  /// - Parameters:
  ///   - bytes: The whole file.
  ///   - smpl: The byte range of the `smpl` chunk's data.
  ///   - sm24: The byte range of the `sm24` chunk's data, used only when it holds one byte per
  ///     frame (the specification says to ignore it otherwise).
  init(bytes: UnsafeRawBufferPointer, smpl: Range<Int>, sm24: Range<Int>?) {
    count = smpl.count / 2
    words = .allocate(capacity: count + 1)
    words[count] = 0
    if count > 0, let base = bytes.baseAddress {
      UnsafeMutableRawPointer(words.baseAddress!).copyMemory(from: base + smpl.lowerBound, byteCount: count * 2)
      #if _endian(big)
        for i in 0..<count { words[i] = Int16(littleEndian: words[i]) }
      #endif
    }
    if let sm24, sm24.count == count || sm24.count == count + (count & 1), count > 0, let base = bytes.baseAddress {
      let low = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: count + 1)
      low[count] = 0
      UnsafeMutableRawPointer(low.baseAddress!).copyMemory(from: base + sm24.lowerBound, byteCount: count)
      lowBytes = low
    } else {
      lowBytes = nil
    }
  }

  deinit {
    words.deallocate()
    lowBytes?.deallocate()
  }

  /// One frame as a Float in -1...1 (not for the audio path; voices read the buffers directly).
  func sample(at index: Int) -> Float {
    guard index >= 0, index < count else { return 0 }
    if let lowBytes {
      return Float(Int32(words[index]) << 8 | Int32(lowBytes[index])) / 8_388_608
    }
    return Float(words[index]) / 32768
  }
}
