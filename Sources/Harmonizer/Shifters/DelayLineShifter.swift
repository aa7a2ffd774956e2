/// A low-latency pitch shifter: two read taps sweep a delay line at the rate the shift asks
/// for, and take turns, crossfaded, each time one reaches the end of its window (the scheme of
/// the Eventide H910, of Faust's `transpose` and of AudioKit's `PitchShifter`).
///
/// Reading a delay line whose delay changes by `1 − r` samples per sample plays the input back
/// `r` times as fast, so every frequency is multiplied by `r = 2^(semitones / 12)`; the delay can
/// only drift so far, so a second tap starts a window away and takes over during a crossfade.
/// Where a plain shifter jumps by exactly one window, this one chooses the jump (from half a
/// window to a whole one) at which the signal at the new tap is most like the signal at the old
/// tap (see the splice finder): the taps are then in phase while they overlap, so splices neither
/// dip in level nor bend the pitch. Between splices the output pitch is exact.
///
/// It keeps no model of the voice: formants move with the pitch (a "chipmunk" voice up, a large
/// one down), and noise and chords shift as well as single notes.
///
/// **Latency.** The taps move within `3 ... 3 + window` samples of delay; ``latencySamples`` is
/// the middle, `3 + window / 2`, where a tap rests when the shift is 0 and around which it
/// sweeps otherwise (so sounds come out up to half a window earlier or later than that, varying).
/// With the default 40 ms window: 885 samples at 44.1 kHz, 963 at 48 kHz.
///
/// A class because it owns preallocated memory; `Sendable` so that it can be handed to the audio
/// thread, but used from one thread at a time.
///
/// ```swift
/// let shifter = try DelayLineShifter(sampleRate: 48000, semitones: 4)
/// // In the audio callback, any block size:
/// shifter.process(input, into: output)
/// ```
public final class DelayLineShifter: PitchShifter, @unchecked Sendable {
  /// The sample rate, in Hz.
  public let sampleRate: Double
  /// The window, crossfade and glide.
  public let configuration: Configuration
  /// The span the taps sweep, in samples.
  public let windowSamples: Int
  /// The crossfade at a splice, in samples (shorter at large shifts).
  public let crossfadeSamples: Int

  /// The output's lag behind the input, in samples: the middle of the taps' range,
  /// `3 + windowSamples / 2`. It is exact at 0 semitones; with a shift, the lag sweeps around it
  /// by up to half a window.
  public let latencySamples: Int

  private let minimumDelay = 3.0
  private let maximumDelay: Double
  private let ring: SampleRing
  private let fade: RaisedCosine
  private let splicer: SpliceFinder
  private var glide: SemitoneGlide
  /// ``Configuration/maximumSemitones``, kept apart so the audio path reads a plain value.
  private let maximumSemitones: Double
  /// The absolute index of the next input sample.
  private var written = 0
  /// The sounding tap's delay, and the incoming tap's during a crossfade, in samples.
  private var delay: Double
  private var incomingDelay = 0.0
  /// The crossfade's progress, 0...1, and its step per sample; not fading when `fadeStep` is 0.
  private var fadePosition = 0.0
  private var fadeStep = 0.0

  /// Creates a shifter and allocates all its memory.
  ///
  /// - Parameters:
  ///   - sampleRate: The sample rate, in Hz (8 kHz...384 kHz).
  ///   - semitones: The starting shift (reached at once, without a glide).
  ///   - configuration: Window, crossfade and glide.
  /// - Throws: ``HarmonizerError/invalidParameter(name:value:expected:)`` for values out of range.
  public init(sampleRate: Double, semitones: Double = 0, configuration: Configuration = .init())
    throws(HarmonizerError)
  {
    try configuration.validate(sampleRate: sampleRate)
    self.sampleRate = sampleRate
    self.configuration = configuration
    windowSamples = max(8, Int((configuration.windowSeconds * sampleRate).rounded()))
    crossfadeSamples = max(
      2, min(windowSamples / 2, Int((configuration.crossfadeSeconds * sampleRate).rounded())))
    maximumDelay = minimumDelay + Double(windowSamples)
    latencySamples = Int(minimumDelay) + windowSamples / 2
    delay = Double(latencySamples)
    let compared = max(32, min(512, crossfadeSamples))
    ring = .allocate(minimumCapacity: windowSamples + compared + 16)
    fade = .allocate()
    splicer = SpliceFinder(length: compared, maximumJump: windowSamples)
    glide = SemitoneGlide(
      semitones: 0, timeConstantSeconds: configuration.glideSeconds, sampleRate: sampleRate)
    maximumSemitones = configuration.maximumSemitones
    glide.setTarget(semitones, limit: configuration.maximumSemitones)
    glide.settle()
  }

  deinit {
    ring.deallocate()
    fade.deallocate()
    splicer.deallocate()
  }

  /// The shift in semitones (positive up; clamped to ±``Configuration/maximumSemitones``; a
  /// non-finite value is ignored). A change glides in over ``Configuration/glideSeconds``.
  public var semitones: Double {
    get { glide.target }
    @_noLocks set { glide.setTarget(newValue, limit: maximumSemitones) }
  }

  /// Shifts a block of samples.
  ///
  /// - Parameters:
  ///   - input: Mono samples, any count; NaN and ±∞ are treated as 0.
  ///   - output: Room for `input.count` samples (extra room is left untouched).
  /// - Note: Real-time safe: no allocation, no locks. The output does not depend on how the
  ///   stream is cut into blocks.
  @_noLocks
  public func process(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
    let count = min(input.count, output.count)
    for i in 0..<count {
      let x = input[i]
      ring[written] = x.isFinite ? x : 0
      output[i] = step()
      written += 1
    }
  }

  /// Forgets the signal: silence in the delay line, the tap back in the middle, the glide
  /// settled on the current target.
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public func reset() {
    ring.clear()
    written = 0
    delay = Double(latencySamples)
    fadeStep = 0
    fadePosition = 0
    glide.settle()
  }

  /// One output sample, for the input sample just written at `written`.
  @_noLocks
  @inline(__always)
  private func step() -> Float {
    let rate = 1 - glide.step()  // delay change per sample
    delay = min(maximumDelay, max(minimumDelay, delay + rate))
    let now = Double(written)
    if fadeStep > 0 {
      incomingDelay = min(maximumDelay, max(minimumDelay, incomingDelay + rate))
      let g = fade.rising(fadePosition)
      let out = (1 - g) * ring.interpolated(at: now - delay) + g * ring.interpolated(at: now - incomingDelay)
      fadePosition += fadeStep
      if fadePosition >= 1 {
        delay = incomingDelay
        fadeStep = 0
      }
      return out
    }
    if rate != 0 {
      // Fade within a quarter of the window at most, so both taps stay in range.
      let fadeLength = min(Double(crossfadeSamples), 0.25 * Double(windowSamples) / abs(rate))
      let travel = abs(rate) * (fadeLength + 1)
      if rate < 0, delay - travel <= minimumDelay {
        startSplice(backward: true, fadeLength: fadeLength)
      } else if rate > 0, delay + travel >= maximumDelay {
        startSplice(backward: false, fadeLength: fadeLength)
      }
    }
    return ring.interpolated(at: now - delay)
  }

  /// Starts a crossfade to a tap a chosen jump away: backward (longer delay) when the delay is
  /// shrinking, forward when it grows.
  @_noLocks
  private func startSplice(backward: Bool, fadeLength: Double) {
    let room = backward ? maximumDelay - delay : delay - minimumDelay
    let maximumJump = Int(room)
    let minimumJump = max(1, maximumJump - windowSamples / 2)
    let centre = written - Int(delay + 0.5)
    let jump = splicer.bestJump(
      in: ring, centre: centre, backward: backward, minimumJump: minimumJump, maximumJump: maximumJump)
    incomingDelay = backward ? delay + jump : delay - jump
    fadePosition = 0
    fadeStep = 1 / max(1, fadeLength)
  }
}
