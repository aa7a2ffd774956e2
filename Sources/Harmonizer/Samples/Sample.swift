/// A piece of mono audio to play through the harmonizer chain: recorded or loaded from a WAV
/// file, trimmed, and optionally looping.
///
/// A sample keeps every frame it was made with; ``trim(startFrame:endFrame:)`` only chooses the
/// part that plays (the seed app's sample editor: two bars around the chosen clip), so a trim can
/// be widened again. The ``loop`` region is counted from the trim start.
///
/// ```swift
/// var sample = try Sample(contentsOf: url, sampleRate: 48_000)
/// try sample.trim(startSeconds: 0.25, endSeconds: 1.5)
/// try sample.setLoop(SampleLoop(isEnabled: true))
/// var player = SamplePlayer(sample: sample)
/// player.start()
/// ```
public struct Sample: Sendable, Hashable {
  /// A name to show (the file name without extension for a loaded sample).
  public var name: String
  /// The sample rate of ``frames``, in Hz.
  public let sampleRate: Double
  /// Every frame, trimmed or not: mono, finite (NaN and ±∞ were replaced by 0).
  public let frames: [Float]
  /// The frames that play: a range of indices into ``frames``, never empty.
  public private(set) var trimmedRange: Range<Int>
  /// How playback loops; its region counts frames from the trim start.
  public private(set) var loop: SampleLoop

  /// Makes a sample from mono frames.
  ///
  /// - Parameters:
  ///   - name: A name to show.
  ///   - sampleRate: The frames' rate in Hz; finite and positive.
  ///   - frames: Mono samples, at least one; NaN and ±∞ become 0.
  ///   - loop: How it loops; off by default. A region that does not fit is an error.
  /// - Throws: ``SampleError/invalidParameter(name:value:expected:)`` for a bad rate or no frames;
  ///   ``SampleError/invalidLoop(start:end:frameCount:)`` for a loop region outside the frames.
  public init(name: String, sampleRate: Double, frames: [Float], loop: SampleLoop = SampleLoop())
    throws(SampleError)
  {
    guard sampleRate.isFinite, sampleRate > 0 else {
      throw .invalidParameter(
        name: "sample rate", value: "\(sampleRate)", expected: "a finite rate above 0 Hz")
    }
    guard !frames.isEmpty else {
      throw .invalidParameter(name: "frames", value: "0", expected: "at least one frame")
    }
    self.name = name
    self.sampleRate = sampleRate
    self.frames = frames.contains { !$0.isFinite } ? frames.map { $0.isFinite ? $0 : 0 } : frames
    self.trimmedRange = 0..<frames.count
    self.loop = SampleLoop()
    try setLoop(loop)
  }

  /// How many frames play (the trimmed length).
  public var trimmedFrameCount: Int { trimmedRange.count }

  /// The frames that play.
  public var trimmedFrames: ArraySlice<Float> { frames[trimmedRange] }

  /// How long the trimmed sample plays once through, in seconds.
  public var durationSeconds: Double { Double(trimmedRange.count) / sampleRate }

  /// The loop's region resolved: the given one, or the whole trimmed sample.
  public var loopRegion: Range<Int> { loop.region ?? 0..<trimmedRange.count }

  /// Chooses the frames that play.
  ///
  /// A loop region that no longer fits inside the new trim is reset to the whole trimmed sample
  /// (the loop stays on or off as it was).
  ///
  /// - Parameters:
  ///   - startFrame: The first frame that plays, an index into ``frames``.
  ///   - endFrame: One past the last frame that plays.
  /// - Throws: ``SampleError/invalidTrim(start:end:frameCount:)`` unless
  ///   `0 <= startFrame < endFrame <= frames.count`.
  public mutating func trim(startFrame: Int, endFrame: Int) throws(SampleError) {
    guard startFrame >= 0, startFrame < endFrame, endFrame <= frames.count else {
      throw .invalidTrim(start: startFrame, end: endFrame, frameCount: frames.count)
    }
    trimmedRange = startFrame..<endFrame
    if let region = loop.region, region.upperBound > trimmedRange.count { loop.region = nil }
  }

  /// Chooses the part that plays, in seconds from the start of the recording (rounded to the
  /// nearest frame).
  ///
  /// - Parameters:
  ///   - startSeconds: Where playback starts; 0 or more.
  ///   - endSeconds: Where it ends; `nil` for the end of the recording.
  /// - Throws: ``SampleError/invalidParameter(name:value:expected:)`` for negative or non-finite
  ///   times; ``SampleError/invalidTrim(start:end:frameCount:)`` when they leave no frame or pass
  ///   the end.
  public mutating func trim(startSeconds: Double, endSeconds: Double? = nil) throws(SampleError) {
    let start = try Self.frame(startSeconds, name: "trim start", sampleRate: sampleRate)
    let end = try endSeconds.map { (seconds) throws(SampleError) in
      try Self.frame(seconds, name: "trim end", sampleRate: sampleRate)
    }
    try trim(startFrame: start, endFrame: end ?? frames.count)
  }

  /// Sets how the sample loops.
  ///
  /// - Parameter loop: The loop; its region counts frames from the trim start.
  /// - Throws: ``SampleError/invalidLoop(start:end:frameCount:)`` when the region is shorter than
  ///   2 frames or reaches past the trimmed sample.
  public mutating func setLoop(_ loop: SampleLoop) throws(SampleError) {
    if let region = loop.region {
      guard region.lowerBound >= 0, region.count >= 2, region.upperBound <= trimmedRange.count else {
        throw .invalidLoop(start: region.lowerBound, end: region.upperBound, frameCount: trimmedRange.count)
      }
    }
    self.loop = loop
  }

  /// Sets how the sample loops, with the region in seconds from the trim start.
  ///
  /// - Parameters:
  ///   - isEnabled: Whether playback repeats.
  ///   - startSeconds: The loop start from the trim start; 0 by default.
  ///   - endSeconds: The loop end from the trim start; `nil` for the end of the trimmed sample.
  ///   - crossfadeSeconds: The seam crossfade, 10 ms by default.
  /// - Throws: ``SampleError/invalidParameter(name:value:expected:)`` for negative or non-finite
  ///   times; ``SampleError/invalidLoop(start:end:frameCount:)`` for a region that does not fit.
  public mutating func setLoop(
    isEnabled: Bool, startSeconds: Double = 0, endSeconds: Double? = nil,
    crossfadeSeconds: Double = SampleLoop.defaultCrossfadeSeconds
  ) throws(SampleError) {
    let start = try Self.frame(startSeconds, name: "loop start", sampleRate: sampleRate)
    let end = try endSeconds.map { (seconds) throws(SampleError) in
      try Self.frame(seconds, name: "loop end", sampleRate: sampleRate)
    }
    let region: Range<Int>? =
      start == 0 && end == nil ? nil : start..<max(start, end ?? trimmedRange.count)
    try setLoop(SampleLoop(isEnabled: isEnabled, region: region, crossfadeSeconds: crossfadeSeconds))
  }

  /// Turns looping on or off, keeping the region and crossfade.
  public var isLooping: Bool {
    get { loop.isEnabled }
    set { loop.isEnabled = newValue }
  }

  /// The nearest frame to a time in seconds.
  static func frame(_ seconds: Double, name: String, sampleRate: Double) throws(SampleError) -> Int {
    guard seconds.isFinite, seconds >= 0, seconds * sampleRate < Double(Int32.max) else {
      throw .invalidParameter(name: name, value: "\(seconds) s", expected: "a finite time of 0 s or more")
    }
    return Int((seconds * sampleRate).rounded())
  }
}
