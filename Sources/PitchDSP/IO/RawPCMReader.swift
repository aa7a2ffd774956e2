import Foundation

/// Reads headerless interleaved PCM — `s16le` or `f32le` — from standard input, a file or memory,
/// in blocks, mixed down to mono.
///
/// This is how audio is piped into the `etude` tool (`sox in.wav -t raw -e signed -b 16 - | etude
/// pitch - --rate 44100`). Blocks may end in the middle of a frame; the partial frame is kept and
/// completed by the next read. Bytes of a frame left incomplete at the end of the stream are
/// dropped (there is no sample to decode).
public final class RawPCMReader {
  /// A raw PCM sample format.
  public enum Format: String, Sendable, Hashable, CaseIterable, Codable {
    /// Signed 16-bit little-endian integers.
    case s16le
    /// 32-bit little-endian IEEE floats.
    case f32le

    /// The matching sample encoding.
    public var encoding: SampleEncoding { self == .s16le ? .signed16 : .float32 }
  }

  /// The sample format.
  public let format: Format
  /// Channels per frame (interleaved).
  public let channelCount: Int
  /// Frames per second, in Hz, as given by the caller.
  public let sampleRate: Double

  private let read: (Int) throws(PitchDSPError) -> Data
  private var pending: [UInt8] = []
  private var ended = false

  /// Reads from a file handle, typically `FileHandle.standardInput`.
  ///
  /// - Parameters:
  ///   - handle: The source.
  ///   - format: The sample format.
  ///   - channelCount: Channels per frame, at least 1.
  ///   - sampleRate: Frames per second, in Hz.
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` for bad parameters.
  public convenience init(
    handle: FileHandle, format: Format, channelCount: Int = 1, sampleRate: Double
  ) throws(PitchDSPError) {
    try self.init(format: format, channelCount: channelCount, sampleRate: sampleRate) {
      (count: Int) throws(PitchDSPError) -> Data in
      do {
        return try handle.read(upToCount: count) ?? Data()
      } catch {
        throw .io(path: "standard input", message: "read failed: \(error.localizedDescription)")
      }
    }
  }

  /// Reads from bytes in memory.
  ///
  /// - Parameters:
  ///   - data: The raw samples.
  ///   - format: The sample format.
  ///   - channelCount: Channels per frame, at least 1.
  ///   - sampleRate: Frames per second, in Hz.
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` for bad parameters.
  public convenience init(
    data: Data, format: Format, channelCount: Int = 1, sampleRate: Double
  ) throws(PitchDSPError) {
    var offset = data.startIndex
    try self.init(format: format, channelCount: channelCount, sampleRate: sampleRate) {
      (count: Int) throws(PitchDSPError) -> Data in
      let end = min(data.endIndex, offset + count)
      defer { offset = end }
      return data[offset..<end]
    }
  }

  private init(
    format: Format, channelCount: Int, sampleRate: Double,
    read: @escaping (Int) throws(PitchDSPError) -> Data
  ) throws(PitchDSPError) {
    guard channelCount >= 1, channelCount <= 4096 else {
      throw .invalidParameter(name: "channel count", value: String(channelCount), expected: "1...4096")
    }
    guard sampleRate > 0, sampleRate.isFinite else {
      throw .invalidParameter(
        name: "sample rate", value: String(sampleRate), expected: "a positive number of Hz")
    }
    self.format = format
    self.channelCount = channelCount
    self.sampleRate = sampleRate
    self.read = read
  }

  /// Reads the next block of frames, mixed down to mono.
  ///
  /// Returns as soon as some whole frames are available, so a live pipe is processed as it
  /// arrives.
  ///
  /// - Parameter maxFrames: The most frames to return, at least 1.
  /// - Returns: Between 1 and `maxFrames` samples, or `nil` at the end of the stream.
  /// - Throws: ``PitchDSPError/io(path:message:)`` on a read failure.
  public func readMono(maxFrames: Int) throws(PitchDSPError) -> [Float]? {
    precondition(maxFrames >= 1, "read at least one frame")
    let bytesPerFrame = channelCount * format.encoding.bytesPerSample
    while pending.count < bytesPerFrame && !ended {
      let chunk = try read(maxFrames * bytesPerFrame - pending.count)
      if chunk.isEmpty { ended = true } else { pending += chunk }
    }
    let frames = min(maxFrames, pending.count / bytesPerFrame)
    guard frames > 0 else {
      pending.removeAll()
      return nil
    }
    let encoding = format.encoding
    let channels = channelCount
    var mono = [Float](repeating: 0, count: frames)
    pending.withUnsafeBytes { raw in
      var channel = [Float](repeating: 0, count: frames)
      for c in 0..<channels {
        channel.withUnsafeMutableBufferPointer { out in
          encoding.decode(raw, frameCount: frames, channel: c, channelCount: channels, into: out.baseAddress!)
        }
        for i in 0..<frames { mono[i] += channel[i] }
      }
    }
    if channels > 1 {
      let scale = 1 / Float(channels)
      for i in 0..<frames { mono[i] *= scale }
    }
    pending.removeFirst(frames * bytesPerFrame)
    return mono
  }
}
