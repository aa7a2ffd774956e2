import Foundation

/// Reads WAV files (RIFF/WAVE, RF64 and BW64), streaming the samples in blocks.
///
/// Decodes integer PCM (8-bit unsigned, 16, 24 and 32-bit signed), IEEE float (32 and 64-bit) and
/// their `WAVE_FORMAT_EXTENSIBLE` forms, with any channel count (up to 4096) and sample rate.
/// Integers are scaled to `-1...1`: 8-bit as (x − 128)/128, 16-bit as x/32768, 24-bit as x/2²³,
/// 32-bit as x/2³¹. Unknown chunks (`LIST`, `fact`, `bext`, `JUNK`, …, with their pad bytes) are
/// skipped.
///
/// **Lenient about the data size.** A data size of 0 or 0xFFFFFFFF (left by streaming writers
/// that never patched the header), or one larger than the file, is replaced by the frames
/// actually present: the reader reads to the end of the file and ``dataSizeWasRepaired`` says so.
/// A partial frame at the end is dropped.
///
/// **Strict about the header.** A truncated or impossible header throws ``PitchDSPError`` naming
/// the byte offset (``PitchDSPError/truncated(offset:needed:available:context:)``,
/// ``PitchDSPError/invalidHeader(offset:reason:)``,
/// ``PitchDSPError/unsupportedEncoding(formatTag:bitsPerSample:)``). Nothing a header says makes
/// the reader allocate more than the block asked for, or loop without consuming input.
///
/// One parser serves files, pipes (``init(handle:name:)``) and bytes in memory (``init(data:)``).
///
/// ```swift
/// let reader = try WAVReader(url: url)
/// print(reader.format)  // "16-bit integer PCM, 2 channels, 44100 Hz"
/// while let block = try reader.readMono(maxFrames: 4096) { tracker.process(block) }
/// ```
///
/// A reader is not thread-safe; use it from one task at a time.
public final class WAVReader {
  /// The file's format. `frameCount` is the number of whole frames present (after any repair of
  /// the data size); it is `nil` only for a pipe whose header left the size open, until the
  /// reader reaches the end.
  public private(set) var format: WAVFormat
  /// Whether the declared data size was missing (0 or 0xFFFFFFFF) or ran past the end of the
  /// file, so the reader reads to the end instead.
  public private(set) var dataSizeWasRepaired: Bool
  /// The byte offset of the first sample in the file.
  public let dataOffset: Int

  private let stream: ByteStream
  /// Frames not read yet, or `Int.max` while reading a pipe to its end.
  private var framesLeft: Int
  private var framesRead = 0
  /// The largest block read at once from a source of unknown length, in bytes.
  private static let unknownLengthBlockBytes = 1 << 22

  /// Opens the WAV file at `url` and reads its header.
  ///
  /// - Parameter url: A file URL.
  /// - Throws: ``PitchDSPError/fileNotFound(path:)``, ``PitchDSPError/io(path:message:)`` when
  ///   the file cannot be opened, or a header error (see the type's discussion).
  public convenience init(url: URL) throws(PitchDSPError) {
    try self.init(stream: ByteStream(url: url))
  }

  /// Reads a WAV file held in memory.
  ///
  /// - Parameter data: The whole file (or its beginning; a cut-off file is read up to the cut).
  /// - Throws: A header error (see the type's discussion).
  public convenience init(data: Data) throws(PitchDSPError) {
    try self.init(stream: ByteStream(data: data))
  }

  /// Reads a WAV stream from an open handle — a regular file or a pipe such as
  /// `FileHandle.standardInput` — starting at its current offset. The handle is not closed.
  ///
  /// From a pipe, a placeholder data size leaves ``WAVFormat/frameCount`` `nil` until the end.
  ///
  /// - Parameters:
  ///   - handle: The source, positioned at the `RIFF` header.
  ///   - name: What to call it in error messages.
  /// - Throws: ``PitchDSPError/io(path:message:)`` on a read failure, or a header error.
  public convenience init(handle: FileHandle, name: String = "standard input") throws(PitchDSPError) {
    try self.init(stream: ByteStream(handle: handle, name: name))
  }

  init(stream: ByteStream) throws(PitchDSPError) {
    self.stream = stream
    let header = try WAVHeaderParser.parse(stream)
    let bytesPerFrame = header.format.bytesPerFrame
    var format = header.format
    if let available = stream.remaining {
      let dataBytes: Int
      if let declared = header.declaredDataSize, declared <= available {
        dataBytes = declared
        dataSizeWasRepaired = false
      } else {
        dataBytes = available
        dataSizeWasRepaired = true
      }
      framesLeft = dataBytes / bytesPerFrame
      format.frameCount = framesLeft
    } else if let declared = header.declaredDataSize {
      // A pipe with a real size: trust it, and correct it if the pipe ends first.
      framesLeft = declared / bytesPerFrame
      format.frameCount = framesLeft
      dataSizeWasRepaired = false
    } else {
      framesLeft = .max
      format.frameCount = nil
      dataSizeWasRepaired = true
    }
    self.format = format
    dataOffset = header.dataOffset
  }

  /// Frames not read yet; `nil` while reading a pipe of unknown length.
  public var remainingFrames: Int? { framesLeft == .max ? nil : framesLeft }

  /// Reads the next block of frames, all channels.
  ///
  /// - Parameter maxFrames: The most frames to return, at least 1.
  /// - Returns: Between 1 and `maxFrames` frames, or `nil` at the end of the data.
  /// - Throws: ``PitchDSPError/io(path:message:)`` on a read failure.
  public func read(maxFrames: Int) throws(PitchDSPError) -> AudioBuffer? {
    guard let (bytes, frames) = try readBlock(maxFrames: maxFrames) else { return nil }
    let channelCount = format.channelCount
    let encoding = format.encoding
    let channels = bytes.withUnsafeBytes { raw in
      (0..<channelCount).map { c in
        [Float](unsafeUninitializedCapacity: frames) { out, initialized in
          if let base = out.baseAddress {
            encoding.decode(raw, frameCount: frames, channel: c, channelCount: channelCount, into: base)
          }
          initialized = frames
        }
      }
    }
    return AudioBuffer(sampleRate: format.sampleRate, channels: channels)
  }

  /// Reads the next block of frames mixed down to mono (the mean of the channels).
  ///
  /// - Parameter maxFrames: The most frames to return, at least 1.
  /// - Returns: Between 1 and `maxFrames` samples, or `nil` at the end of the data.
  /// - Throws: ``PitchDSPError/io(path:message:)`` on a read failure.
  public func readMono(maxFrames: Int) throws(PitchDSPError) -> [Float]? {
    guard let (bytes, frames) = try readBlock(maxFrames: maxFrames) else { return nil }
    let channelCount = format.channelCount
    let encoding = format.encoding
    return bytes.withUnsafeBytes { raw in
      var mono = [Float](repeating: 0, count: frames)
      var scratch = [Float](repeating: 0, count: channelCount > 1 ? frames : 0)
      mono.withUnsafeMutableBufferPointer { out in
        guard let base = out.baseAddress else { return }
        encoding.decode(raw, frameCount: frames, channel: 0, channelCount: channelCount, into: base)
        guard channelCount > 1 else { return }
        scratch.withUnsafeMutableBufferPointer { channel in
          guard let scratchBase = channel.baseAddress else { return }
          for c in 1..<channelCount {
            encoding.decode(raw, frameCount: frames, channel: c, channelCount: channelCount, into: scratchBase)
            for i in 0..<frames { out[i] += channel[i] }
          }
        }
        let scale = 1 / Float(channelCount)
        for i in 0..<frames { out[i] *= scale }
      }
      return mono
    }
  }

  /// Reads the raw bytes of up to `maxFrames` whole frames; `nil` at the end.
  private func readBlock(maxFrames: Int) throws(PitchDSPError) -> (Data, Int)? {
    precondition(maxFrames >= 1, "read at least one frame")
    let bytesPerFrame = format.bytesPerFrame
    var want = min(maxFrames, framesLeft)
    if stream.length == nil { want = min(want, max(1, Self.unknownLengthBlockBytes / bytesPerFrame)) }
    guard want > 0 else { return nil }
    let bytes = try stream.read(want * bytesPerFrame)
    let frames = bytes.count / bytesPerFrame
    framesRead += frames
    if frames < want {
      // The source ended early (a cut-off pipe, or a file that shrank): what was read is all.
      if framesLeft == .max || format.frameCount != framesRead { dataSizeWasRepaired = true }
      framesLeft = 0
      format.frameCount = framesRead
    } else if framesLeft != .max {
      framesLeft -= frames
    }
    return frames > 0 ? (bytes, frames) : nil
  }

  /// Reads a whole WAV file.
  ///
  /// - Parameter url: A file URL.
  /// - Returns: All frames, all channels.
  /// - Throws: ``PitchDSPError`` when the file cannot be read or its header is malformed.
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
