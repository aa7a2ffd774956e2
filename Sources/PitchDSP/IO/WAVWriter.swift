import Foundation

/// Writes WAV files atomically, all at once or streamed in blocks.
///
/// Samples go to a temporary file beside the destination; ``finish()`` patches the header sizes,
/// flushes the file to disk and renames it over the destination in one step, so a crash or an
/// error mid-write never leaves a damaged file at the destination (an existing file there stays
/// as it was until the rename). A writer dropped without ``finish()`` deletes its temporary file.
///
/// The header is plain PCM/float for one or two channels of up to 16-bit integers or float, and
/// `WAVE_FORMAT_EXTENSIBLE` for more channels or deeper integers, as the format's specification
/// recommends (or when asked for). Float files carry a `fact` chunk.
public final class WAVWriter {
  /// The format being written; `frameCount` counts the frames written so far.
  public private(set) var format: WAVFormat

  private let destination: URL
  private let temporary: URL
  private var handle: FileHandle?
  private var dataBytes = 0

  /// Starts a file at `url`.
  ///
  /// - Parameters:
  ///   - url: The destination file URL; its directory must exist.
  ///   - encoding: How to store samples.
  ///   - channelCount: Channels per frame, at least 1.
  ///   - sampleRate: Frames per second, in Hz (an integer value, as WAV stores it).
  ///   - extensible: Force (`true`) or forbid (`false`) an EXTENSIBLE header; `nil` chooses.
  /// - Throws: ``PitchDSPError`` for bad parameters or when the file cannot be created.
  public init(
    url: URL, encoding: SampleEncoding, channelCount: Int, sampleRate: Double,
    extensible: Bool? = nil
  ) throws(PitchDSPError) {
    guard channelCount >= 1, channelCount <= WAVHeaderParser.maximumChannelCount else {
      throw .invalidParameter(name: "channel count", value: String(channelCount), expected: "1...4096")
    }
    guard sampleRate >= 1, sampleRate <= Double(UInt32.max), sampleRate == sampleRate.rounded() else {
      throw .invalidParameter(
        name: "sample rate", value: String(sampleRate), expected: "a whole number of Hz from 1 to 2³²−1")
    }
    let useExtensible = extensible ?? (channelCount > 2 || (!encoding.isFloat && encoding.bitsPerSample > 16))
    format = WAVFormat(
      encoding: encoding, channelCount: channelCount, sampleRate: sampleRate, frameCount: 0,
      isExtensible: useExtensible, channelMask: useExtensible ? Self.defaultChannelMask(channelCount) : 0)
    destination = url
    let directory = url.deletingLastPathComponent()
    temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
    guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
      throw .io(path: url.path, message: "cannot create a file in \(directory.path)")
    }
    do {
      handle = try FileHandle(forWritingTo: temporary)
    } catch {
      throw .io(path: url.path, message: "cannot open for writing: \(error.localizedDescription)")
    }
    try append(Self.header(for: format, dataBytes: 0))
  }

  deinit {
    if let handle {
      handle.closeFile()
      // Nothing to report to from deinit; the temporary file is ours to remove.
      _ = unlink(temporary.path)
    }
  }

  /// Appends frames.
  ///
  /// - Parameter buffer: Frames with ``WAVFormat/channelCount`` channels (its sample rate is not checked).
  /// - Throws: ``PitchDSPError`` when the channel count differs, the file would pass 4 GiB, or
  ///   the write fails.
  public func write(_ buffer: AudioBuffer) throws(PitchDSPError) {
    guard buffer.channelCount == format.channelCount else {
      throw .invalidParameter(
        name: "channel count", value: String(buffer.channelCount),
        expected: "\(format.channelCount), as the writer was created")
    }
    let blockFrames = 1 << 15
    var start = 0
    while start < buffer.frameCount {
      let end = min(buffer.frameCount, start + blockFrames)
      var bytes: [UInt8] = []
      bytes.reserveCapacity((end - start) * format.bytesPerFrame)
      format.encoding.encode(buffer.channels, frames: start..<end, appendingTo: &bytes)
      guard dataBytes + bytes.count <= Int(UInt32.max) - 256 else {
        throw .invalidParameter(
          name: "WAV data size", value: String(dataBytes + bytes.count), expected: "under 4 GiB")
      }
      try append(bytes)
      dataBytes += bytes.count
      start = end
    }
    format.frameCount = dataBytes / format.bytesPerFrame
  }

  /// Completes the file: writes the final header, flushes it to disk and moves it into place.
  ///
  /// - Throws: ``PitchDSPError/io(path:message:)`` when a write or the rename fails; the
  ///   destination is then untouched.
  public func finish() throws(PitchDSPError) {
    guard let handle else { return }
    do {
      if dataBytes & 1 == 1 { try handle.write(contentsOf: [0]) }
      try handle.seek(toOffset: 0)
      try handle.write(contentsOf: Self.header(for: format, dataBytes: dataBytes))
      try handle.synchronize()
      try handle.close()
    } catch {
      throw .io(path: destination.path, message: "write failed: \(error.localizedDescription)")
    }
    self.handle = nil
    guard rename(temporary.path, destination.path) == 0 else {
      let reason = String(cString: strerror(errno))
      _ = unlink(temporary.path)
      throw .io(path: destination.path, message: "cannot move the finished file into place: \(reason)")
    }
  }

  private func append(_ bytes: [UInt8]) throws(PitchDSPError) {
    do {
      try handle?.write(contentsOf: bytes)
    } catch {
      throw .io(path: destination.path, message: "write failed: \(error.localizedDescription)")
    }
  }

  /// Writes a whole buffer to `url` atomically.
  ///
  /// - Parameters:
  ///   - buffer: The frames to write.
  ///   - url: The destination file URL.
  ///   - encoding: How to store samples; 16-bit integer PCM by default.
  ///   - extensible: Force or forbid an EXTENSIBLE header; `nil` chooses.
  /// - Throws: ``PitchDSPError`` when the file cannot be written.
  public static func write(
    _ buffer: AudioBuffer, to url: URL, encoding: SampleEncoding = .signed16, extensible: Bool? = nil
  ) throws(PitchDSPError) {
    let writer = try WAVWriter(
      url: url, encoding: encoding, channelCount: buffer.channelCount,
      sampleRate: buffer.sampleRate.rounded(), extensible: extensible)
    try writer.write(buffer)
    try writer.finish()
  }

  /// Encodes a whole buffer as the bytes of a WAV file.
  ///
  /// - Parameters:
  ///   - buffer: The frames to encode; its sample rate is rounded to whole Hz.
  ///   - encoding: How to store samples; 16-bit integer PCM by default.
  ///   - extensible: Force or forbid an EXTENSIBLE header; `nil` chooses as the file writer does.
  /// - Returns: The file's bytes.
  public static func encode(
    _ buffer: AudioBuffer, encoding: SampleEncoding = .signed16, extensible: Bool? = nil
  ) -> Data {
    let channelCount = buffer.channelCount
    let useExtensible = extensible ?? (channelCount > 2 || (!encoding.isFloat && encoding.bitsPerSample > 16))
    let format = WAVFormat(
      encoding: encoding, channelCount: channelCount, sampleRate: buffer.sampleRate.rounded(),
      frameCount: buffer.frameCount, isExtensible: useExtensible,
      channelMask: useExtensible ? defaultChannelMask(channelCount) : 0)
    var samples: [UInt8] = []
    encoding.encode(buffer.channels, frames: 0..<buffer.frameCount, appendingTo: &samples)
    var bytes = header(for: format, dataBytes: samples.count)
    bytes += samples
    if samples.count & 1 == 1 { bytes.append(0) }
    return Data(bytes)
  }

  /// The speaker mask for common layouts (mono, stereo, quad, 5.1, 7.1), else 0 (unassigned).
  static func defaultChannelMask(_ channels: Int) -> UInt32 {
    switch channels {
    case 1: 0x4
    case 2: 0x3
    case 4: 0x33
    case 6: 0x3F
    case 8: 0x63F
    default: 0
    }
  }

  /// The header bytes, up to and including the data chunk's size field.
  static func header(for format: WAVFormat, dataBytes: Int) -> [UInt8] {
    var fmt: [UInt8] = []
    let encoding = format.encoding
    let tag: UInt16 = encoding.isFloat ? 3 : 1
    fmt.append16(format.isExtensible ? 0xFFFE : tag)
    fmt.append16(UInt16(format.channelCount))
    fmt.append32(UInt32(format.sampleRate))
    fmt.append32(UInt32(Int(format.sampleRate) * format.bytesPerFrame))
    fmt.append16(UInt16(format.bytesPerFrame))
    fmt.append16(UInt16(encoding.bitsPerSample))
    if format.isExtensible {
      fmt.append16(22)
      fmt.append16(UInt16(format.validBitsPerSample))
      fmt.append32(format.channelMask)
      fmt.append16(tag)
      // The rest of KSDATAFORMAT_SUBTYPE_PCM / _IEEE_FLOAT.
      fmt += [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
    } else if encoding.isFloat {
      fmt.append16(0)
    }
    var out: [UInt8] = Array("RIFF".utf8)
    let factSize = encoding.isFloat ? 12 : 0
    let padded = dataBytes + (dataBytes & 1)
    out.append32(UInt32(4 + 8 + fmt.count + factSize + 8 + padded))
    out += Array("WAVEfmt ".utf8)
    out.append32(UInt32(fmt.count))
    out += fmt
    if encoding.isFloat {
      out += Array("fact".utf8)
      out.append32(4)
      out.append32(UInt32(dataBytes / max(1, format.bytesPerFrame)))
    }
    out += Array("data".utf8)
    out.append32(UInt32(dataBytes))
    return out
  }
}

extension [UInt8] {
  fileprivate mutating func append16(_ v: UInt16) {
    append(UInt8(v & 0xFF))
    append(UInt8(v >> 8))
  }

  fileprivate mutating func append32(_ v: UInt32) {
    for shift in stride(from: 0, to: 32, by: 8) { append(UInt8((v >> UInt32(shift)) & 0xFF)) }
  }
}
