import Foundation

/// Reads headerless interleaved PCM — `s16le` or `f32le` — from standard input, a file or memory,
/// in blocks, mixed down to mono.
///
/// This is how audio is piped into the `etude` tool:
///
/// ```sh
/// sox in.wav -t raw -e signed -b 16 - | etude info - --rate 44100 --format s16le --channels 2
/// ```
///
/// ```swift
/// let reader = try RawPCMReader(handle: .standardInput, format: .s16le, channelCount: 2, sampleRate: 44100)
/// while let block = try reader.readMono(maxFrames: 4096) { meter.process(block) }
/// ```
///
/// From a handle, a read returns as soon as whole frames have arrived, so a live pipe is
/// processed as it comes. A read may end in the middle of a frame; those bytes are kept and
/// completed by the next one. **At the end of the stream, the bytes of an incomplete last frame
/// (a trailing odd byte of `s16le`, or a frame missing some channels) are dropped**: there is no
/// whole sample to decode.
///
/// A reader is not thread-safe; use it from one task at a time.
public final class RawPCMReader {
  /// The sample format; kept as a nested name for source compatibility.
  public typealias Format = RawPCMFormat

  /// The sample format.
  public let format: RawPCMFormat
  /// Channels per frame (interleaved).
  public let channelCount: Int
  /// Frames per second, in Hz, as given by the caller (raw PCM does not say).
  public let sampleRate: Double

  private let source: (Int) throws(PitchDSPError) -> Data
  /// Bytes received but not decoded yet: less than one block plus one frame.
  private var pending: [UInt8] = []
  private var ended = false
  /// The most frames decoded per call, whatever `maxFrames` says (4 MiB of input).
  private let blockFrames: Int

  /// Reads from a file handle, typically `FileHandle.standardInput`; the handle is not closed.
  ///
  /// - Parameters:
  ///   - handle: The source.
  ///   - format: The sample format.
  ///   - channelCount: Channels per frame, 1...4096.
  ///   - sampleRate: Frames per second, in Hz, positive.
  ///   - name: What to call the source in error messages.
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` for bad parameters.
  public convenience init(
    handle: FileHandle, format: RawPCMFormat, channelCount: Int = 1, sampleRate: Double,
    name: String = "standard input"
  ) throws(PitchDSPError) {
    let descriptor = handle.fileDescriptor
    try self.init(format: format, channelCount: channelCount, sampleRate: sampleRate) {
      (count: Int) throws(PitchDSPError) -> Data in
      try Self.readAvailable(descriptor, upTo: count, name: name)
    }
  }

  /// Reads from bytes in memory.
  ///
  /// - Parameters:
  ///   - data: The raw samples.
  ///   - format: The sample format.
  ///   - channelCount: Channels per frame, 1...4096.
  ///   - sampleRate: Frames per second, in Hz, positive.
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` for bad parameters.
  public convenience init(
    data: Data, format: RawPCMFormat, channelCount: Int = 1, sampleRate: Double
  ) throws(PitchDSPError) {
    var offset = data.startIndex
    try self.init(format: format, channelCount: channelCount, sampleRate: sampleRate) {
      (count: Int) throws(PitchDSPError) -> Data in
      let end = offset + min(count, data.endIndex - offset)
      defer { offset = end }
      return data[offset..<end]
    }
  }

  private init(
    format: RawPCMFormat, channelCount: Int, sampleRate: Double,
    source: @escaping (Int) throws(PitchDSPError) -> Data
  ) throws(PitchDSPError) {
    guard channelCount >= 1, channelCount <= WAVHeaderParser.maximumChannelCount else {
      throw .invalidParameter(
        name: "channel count", value: String(channelCount),
        expected: "1...\(WAVHeaderParser.maximumChannelCount)")
    }
    guard sampleRate > 0, sampleRate.isFinite else {
      throw .invalidParameter(
        name: "sample rate", value: String(sampleRate), expected: "a positive number of Hz")
    }
    self.format = format
    self.channelCount = channelCount
    self.sampleRate = sampleRate
    self.source = source
    blockFrames = max(1, (1 << 22) / (channelCount * format.bytesPerSample))
  }

  /// Reads what a descriptor has ready, up to `count` bytes, waiting only until something
  /// arrives; empty at the end of the stream.
  private static func readAvailable(
    _ descriptor: Int32, upTo count: Int, name: String
  ) throws(PitchDSPError) -> Data {
    var data = Data(count: count)
    var failure: Int32 = 0
    let received = data.withUnsafeMutableBytes { raw -> Int in
      guard let base = raw.baseAddress else { return 0 }
      while true {
        let n = read(descriptor, base, raw.count)
        if n >= 0 { return n }
        failure = errno
        if failure != EINTR { return n }
      }
    }
    guard received >= 0 else {
      throw .io(path: name, message: "read failed: \(String(cString: strerror(failure)))")
    }
    data.count = received
    return data
  }

  /// Reads the next block of frames, mixed down to mono (the mean of the channels).
  ///
  /// Returns as soon as at least one whole frame is available.
  ///
  /// - Parameter maxFrames: The most frames to return, at least 1 (a block is also capped at
  ///   4 MiB of input).
  /// - Returns: Between 1 and `maxFrames` samples, or `nil` at the end of the stream.
  /// - Throws: ``PitchDSPError/io(path:message:)`` on a read failure.
  public func readMono(maxFrames: Int) throws(PitchDSPError) -> [Float]? {
    precondition(maxFrames >= 1, "read at least one frame")
    let bytesPerFrame = channelCount * format.bytesPerSample
    let limit = min(maxFrames, blockFrames)
    while pending.count < bytesPerFrame && !ended {
      let chunk = try source(limit * bytesPerFrame - pending.count)
      if chunk.isEmpty { ended = true } else { pending.append(contentsOf: chunk) }
    }
    let frames = min(limit, pending.count / bytesPerFrame)
    guard frames > 0 else {
      pending.removeAll()  // An incomplete last frame: dropped, as documented.
      return nil
    }
    let encoding = format.encoding
    let channels = channelCount
    var mono = [Float](repeating: 0, count: frames)
    pending.withUnsafeBytes { raw in
      mono.withUnsafeMutableBufferPointer { out in
        guard let base = out.baseAddress else { return }
        encoding.decode(raw, frameCount: frames, channel: 0, channelCount: channels, into: base)
        guard channels > 1 else { return }
        var scratch = [Float](repeating: 0, count: frames)
        scratch.withUnsafeMutableBufferPointer { channel in
          guard let scratchBase = channel.baseAddress else { return }
          for c in 1..<channels {
            encoding.decode(raw, frameCount: frames, channel: c, channelCount: channels, into: scratchBase)
            for i in 0..<frames { out[i] += channel[i] }
          }
        }
        let scale = 1 / Float(channels)
        for i in 0..<frames { out[i] *= scale }
      }
    }
    pending.removeFirst(frames * bytesPerFrame)
    return mono
  }
}
