extension Resampler {
  /// Converts a whole buffer to another sample rate, time-aligned with the input.
  ///
  /// Unlike the streaming path, the filter's delay is compensated exactly (also for fractional
  /// output positions): output frame `j` of every channel is centred on input time
  /// `j · buffer.sampleRate / rate`, so an event at `t` seconds in the input is at `t` seconds in
  /// the output. The output has `⌈frameCount · rate / buffer.sampleRate⌉` frames (for whole-number
  /// rates). Before the first and after the last input frame the input is taken as silence.
  /// A buffer already at `rate` is returned unchanged (non-finite samples included).
  ///
  /// - Parameters:
  ///   - buffer: The audio to convert, any channel count.
  ///   - rate: The output sample rate in Hz; finite, positive, within 1/256 … 256 × the input rate.
  ///   - quality: The filter preset; ``Quality/standard`` by default.
  /// - Returns: A buffer at `rate` with the same channel count. NaN and ±∞ samples become 0.
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` for a bad rate.
  /// - Complexity: O(frames × channels × taps).
  public static func resample(
    _ buffer: AudioBuffer, to rate: Double, quality: Quality = .standard
  ) throws(PitchDSPError) -> AudioBuffer {
    if rate == buffer.sampleRate { return buffer }
    let frameCount = buffer.frameCount
    let resampler = try Resampler(
      inputRate: buffer.sampleRate, outputRate: rate, quality: quality,
      maximumInputFrames: max(frameCount, 1), compensatesLatency: true)
    let capacity =
      resampler.maximumOutputFrames(forInputFrames: frameCount) + resampler.maximumFlushFrames
    var channels: [[Float]] = []
    channels.reserveCapacity(buffer.channelCount)
    for channel in buffer.channels {
      resampler.reset()
      var out = [Float](repeating: 0, count: capacity)
      let written = channel.withUnsafeBufferPointer { input in
        out.withUnsafeMutableBufferPointer { output in
          let head = resampler.process(input: input, output: output)
          let tail = resampler.flush(output: UnsafeMutableBufferPointer(rebasing: output[head...]))
          return head + tail
        }
      }
      out.removeLast(out.count - written)
      channels.append(out)
    }
    return AudioBuffer(sampleRate: rate, channels: channels)
  }
}
