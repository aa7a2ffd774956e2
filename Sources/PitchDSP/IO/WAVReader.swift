import Foundation

/// Reads WAV files (RIFF/WAVE and RF64), streaming the samples in blocks.
///
/// Decodes integer PCM (8-bit unsigned, 16, 24 and 32-bit signed), IEEE float (32 and 64-bit) and
/// their `WAVE_FORMAT_EXTENSIBLE` forms, with any channel count and sample rate. Unknown chunks
/// (`LIST`, `fact`, `bext`, …) are skipped. A data size of 0 or 0xFFFFFFFF (left by streaming
/// writers) or larger than the file is repaired to the frames actually present, and
/// ``dataSizeWasRepaired`` says so.
///
/// Malformed headers throw ``PitchDSPError`` naming the byte offset; the reader never allocates
/// more than one block's worth of memory on the word of a header.
///
/// ```swift
/// let reader = try WAVReader(url: url)
/// while let block = try reader.read(maxFrames: 4096) { analyze(block.mixedToMono()) }
/// ```
public final class WAVReader {
  /// The file's format; `frameCount` is the number of frames present.
  public let format: WAVFormat
  /// Whether the declared data size was missing, a placeholder or beyond the end of the file.
  public let dataSizeWasRepaired: Bool
  /// The byte offset of the first sample.
  public let dataOffset: Int

  private let stream: ByteStream
  private var framesLeft: Int

  /// Opens the WAV file at `url` and reads its header.
  ///
  /// - Parameter url: A file URL.
  /// - Throws: ``PitchDSPError`` when the file cannot be read or its header is malformed.
  public convenience init(url: URL) throws(PitchDSPError) {
    try self.init(stream: ByteStream(url: url))
  }

  /// Reads a WAV file held in memory.
  ///
  /// - Parameter data: The whole file.
  /// - Throws: ``PitchDSPError`` when the header is malformed.
  public convenience init(data: Data) throws(PitchDSPError) {
    try self.init(stream: ByteStream(data: data))
  }

  init(stream: ByteStream) throws(PitchDSPError) {
    self.stream = stream
    let header = try WAVHeaderParser.parse(stream)
    let available = stream.remaining ?? 0
    let bytesPerFrame = header.format.bytesPerFrame
    var repaired = false
    var dataBytes = header.declaredDataSize
    if dataBytes == nil || dataBytes! > available {
      dataBytes = available
      repaired = true
    }
    framesLeft = dataBytes! / bytesPerFrame
    var format = header.format
    format.frameCount = framesLeft
    self.format = format
    dataOffset = header.dataOffset
    dataSizeWasRepaired = repaired
  }

  /// Frames not read yet.
  public var remainingFrames: Int { framesLeft }

  /// Reads the next block of frames, all channels.
  ///
  /// - Parameter maxFrames: The most frames to return, at least 1.
  /// - Returns: Between 1 and `maxFrames` frames, or `nil` at the end of the data.
  /// - Throws: ``PitchDSPError/io(path:message:)`` on a read failure.
  public func read(maxFrames: Int) throws(PitchDSPError) -> AudioBuffer? {
    let channels = try readChannels(maxFrames: maxFrames)
    return channels.map { AudioBuffer(sampleRate: format.sampleRate, channels: $0) }
  }

  /// Reads the next block of frames mixed down to mono (the mean of the channels).
  ///
  /// - Parameter maxFrames: The most frames to return, at least 1.
  /// - Returns: Between 1 and `maxFrames` samples, or `nil` at the end of the data.
  /// - Throws: ``PitchDSPError/io(path:message:)`` on a read failure.
  public func readMono(maxFrames: Int) throws(PitchDSPError) -> [Float]? {
    guard let channels = try readChannels(maxFrames: maxFrames) else { return nil }
    guard channels.count > 1 else { return channels[0] }
    var mono = channels[0]
    let scale = 1 / Float(channels.count)
    for channel in channels.dropFirst() {
      for i in mono.indices { mono[i] += channel[i] }
    }
    for i in mono.indices { mono[i] *= scale }
    return mono
  }

  private func readChannels(maxFrames: Int) throws(PitchDSPError) -> [[Float]]? {
    precondition(maxFrames >= 1, "read at least one frame")
    let want = min(maxFrames, framesLeft)
    guard want > 0 else { return nil }
    let bytesPerFrame = format.bytesPerFrame
    let bytes = try stream.read(want * bytesPerFrame)
    let frames = bytes.count / bytesPerFrame
    guard frames > 0 else {
      framesLeft = 0
      return nil
    }
    framesLeft = frames < want ? 0 : framesLeft - frames
    let channelCount = format.channelCount
    let encoding = format.encoding
    return bytes.withUnsafeBytes { raw in
      (0..<channelCount).map { c in
        [Float](unsafeUninitializedCapacity: frames) { out, initialized in
          encoding.decode(
            raw, frameCount: frames, channel: c, channelCount: channelCount,
            into: out.baseAddress!)
          initialized = frames
        }
      }
    }
  }

  /// Reads a whole WAV file.
  ///
  /// - Parameter url: A file URL.
  /// - Returns: All frames, all channels.
  /// - Throws: ``PitchDSPError`` when the file cannot be read or is malformed.
  public static func readAll(url: URL) throws(PitchDSPError) -> AudioBuffer {
    try WAVReader(url: url).readRemaining()
  }

  /// Reads a whole WAV file held in memory.
  ///
  /// - Parameter data: The whole file.
  /// - Returns: All frames, all channels.
  /// - Throws: ``PitchDSPError`` when the header is malformed.
  public static func readAll(data: Data) throws(PitchDSPError) -> AudioBuffer {
    try WAVReader(data: data).readRemaining()
  }

  /// Reads every frame not read yet.
  ///
  /// - Returns: The remaining frames (possibly none), all channels.
  /// - Throws: ``PitchDSPError/io(path:message:)`` on a read failure.
  public func readRemaining() throws(PitchDSPError) -> AudioBuffer {
    var all = AudioBuffer(sampleRate: format.sampleRate, channelCount: format.channelCount, frameCount: 0)
    while let block = try read(maxFrames: 1 << 16) { all.append(block) }
    return all
  }
}
