/// The format of a WAV file: how its samples are stored and how many there are.
public struct WAVFormat: Sendable, Hashable, Codable, CustomStringConvertible {
  /// How each sample is stored.
  public var encoding: SampleEncoding
  /// Channels per frame, at least 1.
  public var channelCount: Int
  /// Frames per second, in Hz.
  public var sampleRate: Double
  /// Frames in the file; for a file whose data size was missing or wrong, the frames actually
  /// present. `nil` only while streaming from a pipe whose header left the size open (it is set
  /// once the reader reaches the end).
  public var frameCount: Int?
  /// Whether the header uses `WAVE_FORMAT_EXTENSIBLE` (format tag 0xFFFE).
  public var isExtensible: Bool
  /// The speaker mask of an EXTENSIBLE header (0 when absent: channels unassigned).
  public var channelMask: UInt32
  /// The meaningful bits of each sample (equal to the container size unless EXTENSIBLE says less).
  public var validBitsPerSample: Int

  /// Creates a format description.
  ///
  /// - Parameters:
  ///   - encoding: How samples are stored.
  ///   - channelCount: Channels per frame.
  ///   - sampleRate: Frames per second, in Hz.
  ///   - frameCount: Frames in the file, if known.
  ///   - isExtensible: Whether the header is EXTENSIBLE.
  ///   - channelMask: The EXTENSIBLE speaker mask.
  ///   - validBitsPerSample: Meaningful bits per sample; defaults to the container size.
  public init(
    encoding: SampleEncoding, channelCount: Int, sampleRate: Double, frameCount: Int? = nil,
    isExtensible: Bool = false, channelMask: UInt32 = 0, validBitsPerSample: Int? = nil
  ) {
    self.encoding = encoding
    self.channelCount = channelCount
    self.sampleRate = sampleRate
    self.frameCount = frameCount
    self.isExtensible = isExtensible
    self.channelMask = channelMask
    self.validBitsPerSample = validBitsPerSample ?? encoding.bitsPerSample
  }

  /// The container size of one sample, in bits (8, 16, 24, 32 or 64).
  public var bitsPerSample: Int { encoding.bitsPerSample }

  /// Bytes per frame (all channels).
  public var bytesPerFrame: Int { channelCount * encoding.bytesPerSample }

  /// The duration in seconds, if the frame count is known.
  public var durationSeconds: Double? { frameCount.map { Double($0) / sampleRate } }

  /// A one-line summary such as `"16-bit integer PCM, 2 channels, 44100 Hz"`.
  public var description: String {
    let rate = sampleRate == sampleRate.rounded() ? String(Int(sampleRate)) : String(sampleRate)
    return "\(encoding)\(isExtensible ? " (EXTENSIBLE)" : ""), \(channelCount) channel"
      + "\(channelCount == 1 ? "" : "s"), \(rate) Hz"
  }
}
