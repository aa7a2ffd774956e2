/// Planar floating-point audio held in memory: one array of samples per channel.
///
/// Samples are `Float` in the nominal range `-1...1` (values outside it are kept, not clipped).
/// All channels have the same number of frames. Use ``mixedToMono()`` to average the channels
/// before analysis; analyzers in PitchDSP consume mono frames.
///
/// `AudioBuffer` is a value type for files, tests and offline work. The real-time path never
/// creates one: it passes `UnsafeBufferPointer<Float>` views into memory prepared in advance.
public struct AudioBuffer: Sendable, Equatable {
  /// Frames per second, in Hz.
  public var sampleRate: Double
  /// The samples, one array per channel, each `frameCount` long.
  public private(set) var channels: [[Float]]

  /// Creates a buffer from planar channel data.
  ///
  /// - Parameters:
  ///   - sampleRate: Frames per second, in Hz; must be positive.
  ///   - channels: One array per channel; all must have the same length. At least one channel.
  public init(sampleRate: Double, channels: [[Float]]) {
    precondition(sampleRate > 0, "sample rate must be positive")
    precondition(!channels.isEmpty, "an audio buffer has at least one channel")
    precondition(
      channels.allSatisfy { $0.count == channels[0].count },
      "all channels must have the same number of frames")
    self.sampleRate = sampleRate
    self.channels = channels
  }

  /// Creates a mono buffer.
  ///
  /// - Parameters:
  ///   - sampleRate: Frames per second, in Hz; must be positive.
  ///   - mono: The samples of the single channel.
  public init(sampleRate: Double, mono: [Float]) {
    self.init(sampleRate: sampleRate, channels: [mono])
  }

  /// Creates a silent buffer.
  ///
  /// - Parameters:
  ///   - sampleRate: Frames per second, in Hz.
  ///   - channelCount: Number of channels, at least 1.
  ///   - frameCount: Number of frames per channel.
  public init(sampleRate: Double, channelCount: Int, frameCount: Int) {
    precondition(channelCount >= 1 && frameCount >= 0)
    self.init(
      sampleRate: sampleRate,
      channels: Array(repeating: Array(repeating: 0, count: frameCount), count: channelCount))
  }

  /// The number of channels.
  public var channelCount: Int { channels.count }

  /// The number of frames (samples per channel).
  public var frameCount: Int { channels[0].count }

  /// The duration in seconds.
  public var durationSeconds: Double { Double(frameCount) / sampleRate }

  /// The samples of channel 0, or the only channel of a mono buffer.
  public var mono: [Float] { channels[0] }

  /// Returns the buffer with its channels averaged into one.
  ///
  /// - Complexity: O(frames × channels).
  public func mixedToMono() -> AudioBuffer {
    guard channelCount > 1 else { return self }
    let n = frameCount
    let scale = 1 / Float(channelCount)
    var out = [Float](repeating: 0, count: n)
    for channel in channels {
      for i in 0..<n { out[i] += channel[i] }
    }
    for i in 0..<n { out[i] *= scale }
    return AudioBuffer(sampleRate: sampleRate, mono: out)
  }

  /// Appends the frames of another buffer with the same channel count and sample rate.
  ///
  /// - Parameter other: Frames to append; must have the same channel count.
  public mutating func append(_ other: AudioBuffer) {
    precondition(other.channelCount == channelCount, "channel counts differ")
    for c in 0..<channelCount { channels[c].append(contentsOf: other.channels[c]) }
  }

  /// Replaces the samples of one channel.
  ///
  /// - Parameters:
  ///   - samples: The new samples; must be `frameCount` long.
  ///   - index: The channel index.
  public mutating func setChannel(_ samples: [Float], at index: Int) {
    precondition(samples.count == frameCount, "frame count differs")
    channels[index] = samples
  }

  /// Returns frames `range` of every channel.
  ///
  /// - Parameter range: A range of frame indices within `0..<frameCount`.
  public func frames(_ range: Range<Int>) -> AudioBuffer {
    AudioBuffer(sampleRate: sampleRate, channels: channels.map { Array($0[range]) })
  }
}
