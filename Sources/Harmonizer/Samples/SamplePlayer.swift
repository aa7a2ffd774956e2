import Foundation

/// Plays a ``Sample`` in real time: start, stop, retrigger, gain, once through or looping.
///
/// Everything is laid out when the player is made (the trimmed frames and the crossfaded loop
/// seam), so ``render(into:)`` and ``render(adding:)`` allocate nothing, take no locks and accept
/// blocks of any size; the output does not depend on how it is split into blocks. ``stop()`` and
/// ``retrigger()`` fade the sound out over ``declickSeconds`` before they take effect, and gain
/// changes glide over ``gainGlideSeconds``, so neither clicks.
///
/// ```swift
/// var player = SamplePlayer(sample: sample)
/// player.gainDB = -6
/// player.start()
/// buffer.withUnsafeMutableBufferPointer { player.render(adding: $0) }
/// ```
public struct SamplePlayer: Sendable {
  /// The sample rate in Hz, the sample's.
  public let sampleRate: Double
  /// How long ``stop()`` and ``retrigger()`` fade out first: 3 ms.
  public static let declickSeconds = 0.003
  /// How long a gain change glides: 10 ms.
  public static let gainGlideSeconds = 0.01

  /// Owns the memory that `body` and `tail` point into (immutable, shared by copies).
  private let table: SamplePlaybackTable
  // Copies of the table's pointers, read on the audio thread without touching the table's
  // reference count. nonisolated(unsafe): the memory is immutable and outlives `self`.
  nonisolated(unsafe) private let body: UnsafeMutableBufferPointer<Float>
  nonisolated(unsafe) private let tail: UnsafeMutableBufferPointer<Float>
  private let loopEnd: Int
  private let jumpTarget: Int
  private let frameCount: Int
  private let declickFrames: Int
  private let glideFrames: Int
  /// The next frame to play, from the trim start.
  public private(set) var positionFrames = 0
  /// Whether the player is sounding (true from ``start()`` until the end, or until a stop's
  /// fade-out has finished).
  public private(set) var isPlaying = false
  /// Whether playback repeats the loop region; a change applies from the next time playback
  /// reaches the loop end.
  public var isLooping: Bool
  /// How many times playback has run off the end (not looping) since the player was made.
  public private(set) var endCount = 0
  private var gainTarget: Float = 1
  private var gainNow: Float = 1
  private var gainStep: Float = 0
  private var gainFramesLeft = 0
  /// Frames left in a stop's or retrigger's fade-out.
  private var declickLeft = 0
  private var fading: Fade = .none

  private enum Fade: Sendable { case none, toStop, toRestart }

  /// Makes a player for a sample (its trim and loop as they are now). Not real-time safe: it
  /// copies the frames.
  ///
  /// - Parameter sample: The sample.
  public init(sample: Sample) {
    let table = SamplePlaybackTable(sample: sample)
    self.table = table
    body = table.body
    tail = table.tail
    loopEnd = table.loopEnd
    jumpTarget = table.jumpTarget
    sampleRate = sample.sampleRate
    frameCount = sample.trimmedFrameCount
    isLooping = sample.loop.isEnabled
    declickFrames = max(1, Int((Self.declickSeconds * sample.sampleRate).rounded()))
    glideFrames = max(1, Int((Self.gainGlideSeconds * sample.sampleRate).rounded()))
  }

  /// The linear gain, 0 or more (1 is unity); a change glides there. NaN and negative values
  /// become 0.
  ///
  /// - Note: Real-time safe.
  public var gain: Float {
    get { gainTarget }
    set {
      let target = newValue.isNaN ? 0 : min(max(0, newValue), 1000)
      gainTarget = target
      gainFramesLeft = glideFrames
      gainStep = (target - gainNow) / Float(glideFrames)
    }
  }

  /// The gain in dB (0 is unity); −∞ and very low values mute.
  ///
  /// - Note: Real-time safe.
  public var gainDB: Float {
    get { gainTarget > 0 ? 20 * log10(gainTarget) : -.infinity }
    set { gain = newValue.isNaN || newValue < -150 ? 0 : pow(10, newValue / 20) }
  }

  /// Starts playing from the trim start; does nothing while already playing (see
  /// ``retrigger()``), except during a stop's fade-out, which then ends in a restart instead.
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func start() {
    if isPlaying {
      if fading == .toStop { fading = .toRestart }
      return
    }
    positionFrames = 0
    fading = .none
    isPlaying = true
  }

  /// Stops after a short fade-out (``declickSeconds``).
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func stop() {
    guard isPlaying else { return }
    if fading == .none { declickLeft = declickFrames }
    fading = .toStop
  }

  /// Plays again from the trim start: a playing sample fades out first (``declickSeconds``), a
  /// stopped one starts at once.
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func retrigger() {
    guard isPlaying else { return start() }
    if fading == .none { declickLeft = declickFrames }
    fading = .toRestart
  }

  /// Writes the next frames into `output`, replacing what it held (silence once stopped).
  ///
  /// - Parameter output: Any number of frames.
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func render(into output: UnsafeMutableBufferPointer<Float>) {
    for i in output.indices { output[i] = next() }
  }

  /// Adds the next frames to `output` (mixing the sample into what is there).
  ///
  /// - Parameter output: Any number of frames.
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func render(adding output: UnsafeMutableBufferPointer<Float>) {
    for i in output.indices { output[i] += next() }
  }

  /// The next output frame.
  @_noLocks
  @inline(__always)
  private mutating func next() -> Float {
    guard isPlaying else { return 0 }
    let tailCount = tail.count
    let frame: Float
    if isLooping, tailCount > 0, positionFrames >= loopEnd - tailCount, positionFrames < loopEnd {
      frame = tail[positionFrames - (loopEnd - tailCount)]
    } else {
      frame = body[positionFrames]
    }
    if gainFramesLeft > 0 {
      gainFramesLeft -= 1
      gainNow = gainFramesLeft == 0 ? gainTarget : gainNow + gainStep
    }
    guard fading != .none else { return advance(frame * gainNow) }
    let value = frame * gainNow * Float(declickLeft) / Float(declickFrames)
    declickLeft -= 1
    if declickLeft <= 0 {
      if fading == .toStop {
        isPlaying = false
      } else {
        positionFrames = 0
      }
      fading = .none
      return value
    }
    return advance(value)
  }

  /// Moves past the frame just played: around the loop, or off the end.
  @_noLocks
  @inline(__always)
  private mutating func advance(_ value: Float) -> Float {
    positionFrames += 1
    if isLooping, positionFrames == loopEnd {
      positionFrames = jumpTarget
    } else if positionFrames >= frameCount {
      positionFrames = 0
      isPlaying = false
      fading = .none
      endCount += 1
    }
    return value
  }
}
