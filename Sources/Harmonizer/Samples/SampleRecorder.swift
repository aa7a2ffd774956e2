import Foundation

/// Records the input into a buffer allocated up front, then hands the take over as a
/// ``Sample``.
///
/// ``process(_:)`` runs on the audio thread: it allocates nothing, takes no locks, accepts
/// blocks of any size, and stores NaN or infinite input samples as 0. Recording stops by itself
/// when the buffer is full. With a ``triggerLevelDB`` the recorder, once armed, waits for the
/// input to reach that level and keeps the ``preRollSeconds`` before it, so the attack is not cut.
///
/// ```swift
/// let recorder = try SampleRecorder(sampleRate: 48_000, maximumSeconds: 10, triggerLevelDB: -30)
/// recorder.start()                      // armed: waits for the voice
/// // audio thread: input.withUnsafeBufferPointer { recorder.process($0) }
/// recorder.stop()
/// let take = try recorder.finish(name: "take 1")
/// ```
///
/// A recorder belongs to one thread at a time (the audio thread while recording); hand it over,
/// with its state, between ``process(_:)`` calls.
public final class SampleRecorder {
  /// Where a recorder is in a take.
  public enum State: Sendable, Hashable {
    /// Not recording; ``SampleRecorder/process(_:)`` ignores the input.
    case idle
    /// Waiting for the input to reach the trigger level.
    case armed
    /// Storing the input.
    case recording
    /// Stopped by itself: the buffer is full.
    case full
  }

  /// The input's sample rate in Hz.
  public let sampleRate: Double
  /// The longest take, in frames.
  public let maximumFrames: Int
  /// The input level that starts a take, in dBFS (a single sample's magnitude), or `nil` to
  /// record from ``start()`` at once.
  public let triggerLevelDB: Float?
  /// How much audio before the trigger a triggered take keeps, in seconds.
  public let preRollSeconds: Double
  /// Where the recorder is.
  public private(set) var state: State = .idle
  /// Frames stored in the current take.
  public private(set) var recordedFrames = 0

  private let buffer: UnsafeMutableBufferPointer<Float>
  private let preRoll: UnsafeMutableBufferPointer<Float>
  private var preRollWrite = 0
  private var preRollFilled = 0
  private let triggerLevel: Float

  /// Makes a recorder and allocates its buffer.
  ///
  /// - Parameters:
  ///   - sampleRate: The input's rate in Hz; finite and positive.
  ///   - maximumSeconds: The longest take in seconds; positive, at most one hour.
  ///   - triggerLevelDB: The level in dBFS (at most 0) at which an armed recorder starts; `nil`
  ///     (the default) records from ``start()``.
  ///   - preRollSeconds: With a trigger, how much audio before it to keep; 20 ms by default.
  /// - Throws: ``SampleError/invalidParameter(name:value:expected:)`` for a value out of range.
  public init(
    sampleRate: Double, maximumSeconds: Double, triggerLevelDB: Float? = nil, preRollSeconds: Double = 0.02
  ) throws(SampleError) {
    guard sampleRate.isFinite, sampleRate > 0, sampleRate <= 1_536_000 else {
      throw .invalidParameter(name: "sample rate", value: "\(sampleRate)", expected: "0 < rate <= 1536000 Hz")
    }
    guard maximumSeconds.isFinite, maximumSeconds > 0, maximumSeconds <= 3600 else {
      throw .invalidParameter(
        name: "maximum length", value: "\(maximumSeconds) s", expected: "0 < seconds <= 3600")
    }
    if let triggerLevelDB {
      guard triggerLevelDB.isFinite, triggerLevelDB <= 0 else {
        throw .invalidParameter(
          name: "trigger level", value: "\(triggerLevelDB) dB", expected: "a finite level <= 0 dBFS")
      }
    }
    guard preRollSeconds.isFinite, preRollSeconds >= 0, preRollSeconds < maximumSeconds else {
      throw .invalidParameter(
        name: "pre-roll", value: "\(preRollSeconds) s", expected: "0 <= seconds < the maximum length")
    }
    self.sampleRate = sampleRate
    self.maximumFrames = max(1, Int((maximumSeconds * sampleRate).rounded()))
    self.triggerLevelDB = triggerLevelDB
    self.preRollSeconds = triggerLevelDB == nil ? 0 : preRollSeconds
    self.triggerLevel = triggerLevelDB.map { pow(10, $0 / 20) } ?? 0
    buffer = .allocate(capacity: maximumFrames)
    buffer.initialize(repeating: 0)
    preRoll = .allocate(capacity: Int((self.preRollSeconds * sampleRate).rounded()))
    preRoll.initialize(repeating: 0)
  }

  deinit {
    buffer.deallocate()
    preRoll.deallocate()
  }

  /// Begins a take, discarding any frames not yet taken by ``finish(name:)``: armed with a
  /// trigger level, recording at once without.
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public func start() {
    recordedFrames = 0
    preRollWrite = 0
    preRollFilled = 0
    state = triggerLevelDB == nil ? .recording : .armed
  }

  /// Ends the take (or stops waiting for the trigger); the frames stay for ``finish(name:)``.
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public func stop() {
    if state != .full { state = .idle }
  }

  /// Takes the next input frames: stored while recording, watched for the trigger while armed,
  /// ignored otherwise.
  ///
  /// - Parameter input: Mono samples, any count; NaN and ±∞ are stored as 0.
  /// - Note: Real-time safe.
  @_noLocks
  public func process(_ input: UnsafeBufferPointer<Float>) {
    var index = 0
    if state == .armed {
      while index < input.count {
        let value = input[index].isFinite ? input[index] : 0
        if abs(value) >= triggerLevel {
          beginTriggeredTake()
          break
        }
        if preRoll.count > 0 {
          preRoll[preRollWrite] = value
          preRollWrite = preRollWrite + 1 == preRoll.count ? 0 : preRollWrite + 1
          preRollFilled = min(preRollFilled + 1, preRoll.count)
        }
        index += 1
      }
    }
    guard state == .recording else { return }
    while index < input.count, recordedFrames < maximumFrames {
      let value = input[index]
      buffer[recordedFrames] = value.isFinite ? value : 0
      recordedFrames += 1
      index += 1
    }
    if recordedFrames == maximumFrames { state = .full }
  }

  /// Copies the pre-roll, oldest first, to the start of the take and starts recording.
  @_noLocks
  private func beginTriggeredTake() {
    let count = min(preRollFilled, maximumFrames - 1)
    var read = (preRollWrite - count + preRoll.count) % max(1, preRoll.count)
    for i in 0..<count {
      buffer[i] = preRoll[read]
      read = read + 1 == preRoll.count ? 0 : read + 1
    }
    recordedFrames = count
    state = .recording
  }

  /// Ends the take and returns it as a sample (untrimmed, not looping); the recorder is then
  /// idle and empty. Not real-time safe: it copies the frames.
  ///
  /// - Parameter name: The sample's name.
  /// - Returns: The recorded frames at ``sampleRate``.
  /// - Throws: ``SampleError/invalidParameter(name:value:expected:)`` when nothing was recorded
  ///   (never started, or the trigger level was never reached).
  public func finish(name: String) throws(SampleError) -> Sample {
    state = .idle
    let count = recordedFrames
    recordedFrames = 0
    guard count > 0 else {
      throw .invalidParameter(name: "recording", value: "0 frames", expected: "at least one recorded frame")
    }
    return try Sample(name: name, sampleRate: sampleRate, frames: Array(buffer[0..<count]))
  }
}
