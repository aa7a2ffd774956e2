/// A fixed set of voices of one instrument, started and released by pitch: polyphony with voice
/// stealing.
///
/// All voices are made in `init`; ``noteOn(pitch:velocity:)`` takes a voice in this order:
/// 1. a free (inactive) voice;
/// 2. otherwise the oldest *released* voice (the one whose note started longest ago), which is
///    fading out anyway;
/// 3. otherwise the oldest voice.
///
/// A taken voice restarts at once; the built-in voices make that without a step (the oscillator
/// voice keeps its phase and attacks from its current level; the plucked string fades the old
/// string's last value out over about 3 ms), so stealing does not click.
/// ``noteOff(pitch:)`` releases the oldest unreleased voice started at that exact pitch.
///
/// The allocator is a value: its voices live in storage it owns and copies on the first change
/// after the allocator itself was copied (as `Array` does). Uncopied, ``noteOn(pitch:velocity:)``,
/// ``noteOff(pitch:)``, ``releaseAll()`` and ``render(adding:)`` allocate nothing and take no
/// locks (checked by the benchmarks' malloc counters; the compiler cannot check generic code
/// that is not specialized, so these are not marked `@_noLocks` — the voices' own entry points
/// are).
///
/// ```swift
/// var voices = VoiceAllocator(instrument: Guitar(), polyphony: 6, sampleRate: 44_100)
/// voices.noteOn(pitch: 64, velocity: 100)
/// voices.render(adding: block)
/// voices.noteOff(pitch: 64)
/// ```
///
/// - Note: Real-time safe (see above).
public struct VoiceAllocator<Voice: SynthVoice>: Sendable {
  private var storage: Storage
  private var nextOrder: UInt64 = 1

  /// Makes the voices.
  ///
  /// - Parameters:
  ///   - instrument: The instrument that makes the voices.
  ///   - polyphony: How many notes can sound at once (at least 1; values below are raised to 1).
  ///   - sampleRate: The rate the voices render at, in Hz.
  public init<I: Instrument>(instrument: I, polyphony: Int, sampleRate: Double) where I.Voice == Voice {
    let count = max(1, polyphony)
    storage = Storage(voices: (0..<count).map { _ in instrument.makeVoice(sampleRate: sampleRate) })
  }

  /// How many voices there are.
  public var polyphony: Int { storage.voices.count }

  /// How many voices are sounding (including those fading out after a release).
  public var activeCount: Int {
    var count = 0
    for i in 0..<storage.voices.count where storage.voices[i].isActive { count += 1 }
    return count
  }

  /// Starts a note on a free voice, or steals one (see the type's discussion).
  ///
  /// - Parameters:
  ///   - pitch: The MIDI note number, fractional for microtones.
  ///   - velocity: The MIDI velocity, 1...127 (clamped by the voice).
  /// - Note: Real-time safe.
  public mutating func noteOn(pitch: Double, velocity: Int) {
    makeUnique()
    let voices = storage.voices
    var chosen = -1
    var oldestReleased = -1
    var oldest = 0
    for i in 0..<voices.count {
      if !voices[i].isActive {
        chosen = i
        break
      }
      if voices[i].isReleased && (oldestReleased < 0 || storage.orders[i] < storage.orders[oldestReleased]) {
        oldestReleased = i
      }
      if storage.orders[i] < storage.orders[oldest] { oldest = i }
    }
    if chosen < 0 { chosen = oldestReleased >= 0 ? oldestReleased : oldest }
    voices[chosen].start(pitch: pitch, velocity: velocity)
    // An exclusive class cuts the other voices of the class (SoundFont 2, 8.1.2, generator 57).
    let group = voices[chosen].exclusiveClass
    if group != 0 {
      for i in 0..<voices.count where i != chosen && voices[i].isActive && voices[i].exclusiveClass == group {
        voices[i].release()
      }
    }
    storage.pitches[chosen] = pitch
    storage.orders[chosen] = nextOrder
    nextOrder += 1
  }

  /// Releases the oldest sounding, unreleased voice started at exactly `pitch`; does nothing
  /// if there is none.
  ///
  /// - Parameter pitch: The MIDI note number the note was started with.
  /// - Note: Real-time safe.
  public mutating func noteOff(pitch: Double) {
    makeUnique()
    let voices = storage.voices
    var chosen = -1
    for i in 0..<voices.count
    where voices[i].isActive && !voices[i].isReleased && storage.pitches[i] == pitch
      && (chosen < 0 || storage.orders[i] < storage.orders[chosen])
    {
      chosen = i
    }
    if chosen >= 0 { voices[chosen].release() }
  }

  /// Releases every sounding voice.
  ///
  /// - Note: Real-time safe.
  public mutating func releaseAll() {
    makeUnique()
    let voices = storage.voices
    for i in 0..<voices.count where voices[i].isActive && !voices[i].isReleased {
      voices[i].release()
    }
  }

  /// Adds the sounding voices' next `output.count` frames to `output`.
  ///
  /// - Parameter output: Any number of frames (mono).
  /// - Note: Real-time safe.
  public mutating func render(adding output: UnsafeMutableBufferPointer<Float>) {
    makeUnique()
    let voices = storage.voices
    for i in 0..<voices.count where voices[i].isActive {
      voices[i].render(adding: output)
    }
  }

  /// Gives this allocator its own storage if it shares it with a copy.
  private mutating func makeUnique() {
    if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
  }

  /// The voices and their bookkeeping, in memory allocated once.
  private final class Storage: @unchecked Sendable {
    // @unchecked: reached only through a VoiceAllocator, which copies it before changing it
    // whenever another allocator shares it, so no two owners ever write it.
    let voices: UnsafeMutableBufferPointer<Voice>
    /// The pitch each voice was last started at.
    let pitches: UnsafeMutableBufferPointer<Double>
    /// When each voice was last started (a counter; 0 = never).
    let orders: UnsafeMutableBufferPointer<UInt64>

    init(voices made: [Voice]) {
      voices = .allocate(capacity: made.count)
      _ = voices.initialize(from: made)
      pitches = .allocate(capacity: made.count)
      pitches.initialize(repeating: .nan)
      orders = .allocate(capacity: made.count)
      orders.initialize(repeating: 0)
    }

    func copy() -> Storage {
      let copy = Storage(voices: Array(voices))
      for i in 0..<voices.count {
        copy.pitches[i] = pitches[i]
        copy.orders[i] = orders[i]
      }
      return copy
    }

    deinit {
      voices.deinitialize()
      voices.deallocate()
      pitches.deallocate()
      orders.deallocate()
    }
  }
}
