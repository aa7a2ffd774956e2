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
  /// Set once a write to the temporary file failed: the file is then incomplete and must never
  /// be moved into place.
  private var failure: PitchDSPError?

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
    try Self.validate(channelCount: channelCount, sampleRate: sampleRate)
    format = Self.format(
      encoding: encoding, channelCount: channelCount, sampleRate: sampleRate, frameCount: 0,
      extensible: extensible)
    destination = url
    let directory = url.deletingLastPathComponent()
    temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory),
      isDirectory.boolValue
    else { throw .fileNotFound(path: directory.path) }
    guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
      throw .io(path: url.path, message: "cannot create a file in \(directory.path)")
    }
    do {
      handle = try FileHandle(forWritingTo: temporary)
    } catch {
      _ = unlink(temporary.path)
      throw .io(path: url.path, message: "cannot open for writing: \(error.localizedDescription)")
    }
    try append(Self.header(for: format, dataBytes: 0))
  }

  deinit {
    // Dropped without finish(): remove the temporary file (nothing to report to from deinit).
    discard()
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
      guard dataBytes + bytes.count <= Self.maximumDataBytes else {
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
  /// Calling it again does nothing.
  ///
  /// - Throws: ``PitchDSPError/io(path:message:)`` when a write (now or in an earlier
  ///   ``write(_:)``) or the rename fails; the temporary file is then deleted and the destination
  ///   is untouched.
  public func finish() throws(PitchDSPError) {
    guard let handle else { return }
    if let failure {
      discard()
      throw failure
    }
    do {
      if dataBytes & 1 == 1 { try handle.write(contentsOf: [0]) }
      try handle.seek(toOffset: 0)
      try handle.write(contentsOf: Self.header(for: format, dataBytes: dataBytes))
      try handle.synchronize()
    } catch {
      discard()
      throw .io(path: destination.path, message: "write failed: \(error.localizedDescription)")
    }
    self.handle = nil
    do {
      try handle.close()
    } catch {
      _ = unlink(temporary.path)
      throw .io(path: destination.path, message: "close failed: \(error.localizedDescription)")
    }
    guard rename(temporary.path, destination.path) == 0 else {
      let reason = String(cString: strerror(errno))
      _ = unlink(temporary.path)
      throw .io(path: destination.path, message: "cannot move the finished file into place: \(reason)")
    }
  }

  /// Closes and deletes the temporary file; the destination is untouched.
  private func discard() {
    guard let handle else { return }
    // The file is being thrown away: a failure to close it has no consequence to report.
    handle.closeFile()
    self.handle = nil
    _ = unlink(temporary.path)
  }

  private func append(_ bytes: [UInt8]) throws(PitchDSPError) {
    if let failure { throw failure }
    guard let handle else {
      throw .invalidParameter(name: "writer state", value: "finished", expected: "a writer not yet finished")
    }
    do {
      try handle.write(contentsOf: bytes)
    } catch {
      let failure = PitchDSPError.io(
        path: destination.path, message: "write failed: \(error.localizedDescription)")
      self.failure = failure
      throw failure
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
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` when the sample rate or
  ///   channel count cannot be stored in a WAV header, or the data would reach 4 GiB.
  public static func encode(
    _ buffer: AudioBuffer, encoding: SampleEncoding = .signed16, extensible: Bool? = nil
  ) throws(PitchDSPError) -> Data {
    let sampleRate = buffer.sampleRate.rounded()
    try validate(channelCount: buffer.channelCount, sampleRate: sampleRate)
    let format = format(
      encoding: encoding, channelCount: buffer.channelCount, sampleRate: sampleRate,
      frameCount: buffer.frameCount, extensible: extensible)
    let (dataBytes, overflow) = buffer.frameCount.multipliedReportingOverflow(by: format.bytesPerFrame)
    guard !overflow, dataBytes <= maximumDataBytes else {
      throw .invalidParameter(
        name: "WAV data size", value: "\(buffer.frameCount) frames", expected: "under 4 GiB")
    }
    var bytes = header(for: format, dataBytes: dataBytes)
    bytes.reserveCapacity(bytes.count + dataBytes + 1)
    encoding.encode(buffer.channels, frames: 0..<buffer.frameCount, appendingTo: &bytes)
    if dataBytes & 1 == 1 { bytes.append(0) }
    return Data(bytes)
  }

  /// The most sample bytes a (RIFF, not RF64) WAV file holds, leaving room for the header.
  static let maximumDataBytes = Int(UInt32.max) - 256

  /// Checks that a channel count and sample rate fit a WAV header.
  static func validate(channelCount: Int, sampleRate: Double) throws(PitchDSPError) {
    guard channelCount >= 1, channelCount <= WAVHeaderParser.maximumChannelCount else {
      throw .invalidParameter(
        name: "channel count", value: String(channelCount),
        expected: "1...\(WAVHeaderParser.maximumChannelCount)")
    }
    guard sampleRate >= 1, sampleRate <= Double(UInt32.max), sampleRate == sampleRate.rounded() else {
      throw .invalidParameter(
        name: "sample rate", value: String(sampleRate), expected: "a whole number of Hz from 1 to 4294967295")
    }
  }

  /// The format to write: EXTENSIBLE when asked, or by default for more than two channels or
  /// integer samples deeper than 16 bits.
  static func format(
    encoding: SampleEncoding, channelCount: Int, sampleRate: Double, frameCount: Int, extensible: Bool?
  ) -> WAVFormat {
    let useExtensible = extensible ?? (channelCount > 2 || (!encoding.isFloat && encoding.bitsPerSample > 16))
    return WAVFormat(
      encoding: encoding, channelCount: channelCount, sampleRate: sampleRate, frameCount: frameCount,
      isExtensible: useExtensible, channelMask: useExtensible ? defaultChannelMask(channelCount) : 0)
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
    // The byte rate is informational; a rate × frame size beyond 32 bits saturates.
    fmt.append32(UInt32(clamping: Int(format.sampleRate) * format.bytesPerFrame))
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
