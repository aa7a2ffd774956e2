import Foundation
import PitchDSP

/// A plucked string: the extended Karplus–Strong model of Jaffe and Smith (1983), as in Julius
/// O. Smith's *Physical Audio Signal Processing*, tuned exactly.
///
/// A pluck fills the string's delay line with one period of excitation: seeded white noise,
/// passed through a one-pole *dynamic-level* lowpass that is darker the softer the velocity,
/// then through a *pick-position* comb `x[n] − x[n − β·P]` (`β` the pick position as a fraction
/// of the string from the bridge, `P` the period in samples), which notches the harmonics a pluck
/// at that point cannot excite, and finally made zero-mean. The loop then recirculates it through:
/// - the delay line, `N` samples;
/// - the *damping/brightness* loop filter, a linear-phase three-tap FIR
///   `g·(h₁ + h₀·z⁻¹ + h₁·z⁻²)` with `h₀ = (1 + B)/2`, `h₁ = (1 − B)/4` (`B` the brightness): its
///   delay is exactly one sample at every frequency, its gain falls with frequency (less for a
///   brighter string), and `g` sets the fundamental's decay time;
/// - the *stiffness* (dispersion) filter, four first-order allpasses `(a + z⁻¹)/(1 + a·z⁻¹)` with
///   `a = −0.85·stiffness` (weaker on strings too short to hold their delay in half a period):
///   higher partials are delayed less, so they come out sharp, as on a stiff string;
/// - the *tuning* allpass, a first-order Thiran-style fractional delay whose coefficient is
///   solved for the exact phase delay needed at the fundamental.
///
/// **Tuning.** The loop's period at the fundamental `f0` must be `P = sampleRate / f0` samples.
/// The voice computes the actual phase delay at `ω0 = 2π·f0 / sampleRate` of every loop filter
/// (1 sample for the FIR, the exact phase delay of each dispersion allpass), takes the integer
/// delay `N` that leaves a remainder `D` in `0.5 ..< 1.5`, and sets the tuning allpass to
/// `a = sin(ω0·(1 − D)/2) / sin(ω0·(1 + D)/2)`, whose phase delay at `ω0` is exactly `D`. The
/// fundamental is then within 0.1 cent of its target over E2...E6 at 44.1 and 48 kHz (the tests
/// assert 2 cents).
///
/// **Limits.** The delay line holds 4096 samples (allocated when the voice is made), so the lowest
/// pitch is about `sampleRate / 4000` (11 Hz at 44.1 kHz, 48 Hz at 192 kHz); the highest is
/// `sampleRate / 8`. Pitches outside are clamped.
///
/// **Release.** ``release()`` damps the string (as a fretting hand lifting off): the loop gain
/// drops so the fundamental dies in 80 ms. The voice turns inactive once its output has stayed
/// below −94 dBFS for about 50 ms. A restart while sounding fades the old string's last output
/// value out over about 3 ms instead of jumping from it.
///
/// The noise is a SplitMix64 sequence seeded from the voice's seed, the note's pitch and
/// velocity and how many notes the voice has played, so renders are repeatable.
///
/// - Note: ``start(pitch:velocity:)``, ``release()`` and ``render(adding:)`` are real-time safe:
///   they allocate nothing and take no locks (the delay line is copied only when a copy of the
///   voice shares it, which the ``VoiceAllocator`` never makes; its benchmarks count 0 mallocs).
///   ``release()`` is checked by the compiler (`@_noLocks`); the other two touch the delay line's
///   reference, which the compiler's check does not allow, and are checked by the benchmarks.
public struct PluckedStringVoice: SynthVoice {
  /// The delay line's capacity, in samples.
  public static var delayCapacity: Int { @_noLocks get { 4096 } }

  /// The sample rate, in Hz.
  public let sampleRate: Double
  /// Where the string is plucked, as a fraction of its length from the bridge, `0.02...0.5`.
  public let pickPosition: Double
  /// How fast the string dies out, `0...1`: 0 rings longest (about 8 s at E2), 1 dies within a
  /// few tenths of a second.
  public let damping: Double
  /// How stiff the string is, `0...1`: 0 is an ideal string with exactly harmonic partials.
  public let stiffness: Double
  /// How slowly the high partials die relative to the low ones, `0...1`: 1 keeps them as long as
  /// the fundamental, 0 is the darkest (the original Karplus–Strong average).
  public let brightness: Double
  /// The linear gain of a note at velocity 127.
  public let gain: Double
  /// The noise seed.
  public let seed: UInt64
  /// The pitch of the current (or last) note, as a MIDI note number.
  public private(set) var pitch: Double = 69

  private var memory = CopyOnWriteMemory<Float>(repeating: 0, count: 4096)
  private var length = 1
  private var position = 0
  // Loop filter (three-tap FIR) state and coefficients.
  private var fir1: Float = 0
  private var fir2: Float = 0
  private var h0: Float = 1
  private var h1: Float = 0
  private var loopGain: Float = 0
  // Dispersion: four first-order allpasses.
  private var dispersion: Float = 0
  private var d1x: Float = 0, d1y: Float = 0, d2x: Float = 0, d2y: Float = 0
  private var d3x: Float = 0, d3y: Float = 0, d4x: Float = 0, d4y: Float = 0
  // Tuning allpass.
  private var tuning: Float = 0
  private var tuningIn: Float = 0
  private var tuningOut: Float = 0
  // Release, de-click, silence detection.
  private var releaseLoopGain: Float = 0
  private var declick: Float = 0
  private var declickCoefficient: Float = 0
  private var follower: Float = 0
  private var followerCoefficient: Float = 0
  private var lastOutput: Float = 0
  private var framesSinceStart = 0
  private var noteCount: UInt64 = 0
  private var active = false
  private var released = false

  /// Creates a silent string.
  ///
  /// - Parameters:
  ///   - sampleRate: The rate, in Hz (44100 if not finite and positive).
  ///   - pickPosition: The pluck point, a fraction of the string from the bridge (default
  ///     0.13; clamped to `0.02...0.5`).
  ///   - damping: `0...1` (default 0.35).
  ///   - stiffness: `0...1` (default 0.15).
  ///   - brightness: `0...1` (default 0.5).
  ///   - gain: The linear gain at velocity 127 (default 0.3).
  ///   - seed: The noise seed.
  ///
  /// NaN parameters take their defaults; others are clamped to their ranges.
  public init(
    sampleRate: Double, pickPosition: Double = 0.13, damping: Double = 0.35, stiffness: Double = 0.15,
    brightness: Double = 0.5, gain: Double = 0.3, seed: UInt64 = 0x5EED_6174_7461_7200
  ) {
    func clamp(_ value: Double, _ range: ClosedRange<Double>, _ fallback: Double) -> Double {
      value.isNaN ? fallback : min(range.upperBound, max(range.lowerBound, value))
    }
    self.sampleRate = sampleRate.isFinite && sampleRate > 0 ? sampleRate : 44_100
    self.pickPosition = clamp(pickPosition, 0.02...0.5, 0.13)
    self.damping = clamp(damping, 0...1, 0.35)
    self.stiffness = clamp(stiffness, 0...1, 0.15)
    self.brightness = clamp(brightness, 0...1, 0.5)
    self.gain = gain.isFinite ? max(0, gain) : 0.3
    self.seed = seed
    declickCoefficient = Float(exp(-1 / (0.001 * self.sampleRate)))
    // The silence follower falls 60 dB in 50 ms.
    followerCoefficient = Float(pow(10, -3 / (0.05 * self.sampleRate)))
  }

  /// Whether the string is still sounding.
  public var isActive: Bool { active }

  /// Whether ``release()`` has been called since the last start.
  public var isReleased: Bool { released }

  /// The fundamental frequency the current note is tuned to, in Hz (after clamping).
  public var frequencyHz: Double { PitchMath.frequencyHz(pitch: pitch) }

  /// Plucks the string at `pitch` (A4 = 440 Hz).
  ///
  /// - Parameters:
  ///   - pitch: The MIDI note number, fractional for microtones; clamped to the playable range.
  ///   - velocity: The MIDI velocity, `1...127`: loudness `(velocity/127)²` and the brightness of
  ///     the pluck.
  /// - Note: Real-time safe.
  public mutating func start(pitch: Double, velocity: Int) {
    if !isKnownUniquelyReferenced(&memory) { memory = memory.copy() }
    let line = memory.elements
    declick = active ? lastOutput : 0
    let lowest = sampleRate / Double(Self.delayCapacity - 96)
    let highest = sampleRate / 8
    var f0 = PitchMath.frequencyHz(pitch: pitch.isFinite ? pitch : 69)
    f0 = min(highest, max(lowest, f0))
    self.pitch = PitchMath.pitch(frequencyHz: f0)
    let velocity = min(127, max(1, velocity))
    noteCount &+= 1

    let period = sampleRate / f0
    let omega = 2 * Double.pi * f0 / sampleRate
    // Loop filter: linear phase, one sample of delay, unit gain at DC.
    let b = brightness
    h0 = Float((1 + b) / 2)
    h1 = Float((1 - b) / 4)
    // RT-audited: cos, sin, atan2, pow and log2 are pure libm functions (no allocation, no locks).
    let firGainAtF0 = _unsafePerformance { (1 + b) / 2 + (1 - b) / 2 * cos(omega) }
    // Dispersion: four allpasses with a = −0.85·stiffness, made weaker on short strings so that
    // they take at most half of the period (their low-frequency delay is (1 − a)/(1 + a) each).
    var a = -0.85 * stiffness
    let budget = max(1, (period - 1.5) / 2 / 4)
    if (1 - a) / (1 + a) > budget { a = (1 - budget) / (1 + budget) }
    let dispersionDelay = 4 * Self.allpassPhaseDelay(coefficient: a, omega: omega)
    dispersion = Float(a)
    // Integer delay and the fractional remainder in 0.5 ..< 1.5 for the tuning allpass.
    let remainder = period - 1 - dispersionDelay
    length = max(2, min(Self.delayCapacity, Int(remainder - 0.5)))
    let fractional = remainder - Double(length)
    tuning = Float(
      _unsafePerformance { sin(omega * (1 - fractional) / 2) / sin(omega * (1 + fractional) / 2) })
    // Decay: the fundamental's 60 dB time, shorter for higher notes.
    let t60 = (0.3 + 7.7 * (1 - damping) * (1 - damping)) * _unsafePerformance { (82.41 / f0).squareRoot() }
    let perPeriod = _unsafePerformance { pow(10, -3 / (f0 * max(0.05, t60))) }
    loopGain = Float(min(0.99999, perPeriod / max(1e-6, firGainAtF0)))
    let mutedPerPeriod = _unsafePerformance { pow(10, -3 / (f0 * 0.08)) }
    releaseLoopGain = min(loopGain, Float(mutedPerPeriod / max(1e-6, firGainAtF0)))

    // Excitation: seeded noise, dynamic-level lowpass, pick-position comb, zero mean, peak 1.
    var state =
      seed ^ (UInt64(bitPattern: Int64(self.pitch * 1000 + 0.5)) &* 0x9E37_79B9_7F4A_7C15)
      ^ (UInt64(velocity) << 40) ^ (noteCount &* 0xD1B5_4A32_D192_ED03)
    let darkness = Float(0.05 + 0.85 * (1 - Double(velocity) / 127))
    var smoothed: Float = 0
    for n in 0..<length {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      z ^= z >> 31
      let white = Float(Double(z >> 11) * 0x1p-53 * 2 - 1)
      smoothed = (1 - darkness) * white + darkness * smoothed
      line[n] = smoothed
    }
    let pick = max(1, min(length - 1, Int(pickPosition * period + 0.5)))
    var n = length - 1
    while n >= pick {
      line[n] -= line[n - pick]
      n -= 1
    }
    var mean: Float = 0
    for n in 0..<length { mean += line[n] }
    mean /= Float(length)
    var peak: Float = 0
    for n in 0..<length {
      line[n] -= mean
      peak = max(peak, abs(line[n]))
    }
    let scale = Float(gain * PitchMath.velocityGain(velocity)) / max(peak, 1e-9)
    for n in 0..<length { line[n] *= scale }

    position = 0
    fir1 = 0
    fir2 = 0
    (d1x, d1y, d2x, d2y, d3x, d3y, d4x, d4y) = (0, 0, 0, 0, 0, 0, 0, 0)
    tuningIn = 0
    tuningOut = 0
    follower = scale * peak
    framesSinceStart = 0
    active = true
    released = false
  }

  /// Damps the string: it dies out within about 100 ms.
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func release() {
    guard active else { return }
    released = true
    loopGain = releaseLoopGain
  }

  /// Adds the next `output.count` frames to `output`; nothing once the string is silent.
  ///
  /// - Parameter output: Any number of frames.
  /// - Note: Real-time safe.
  public mutating func render(adding output: UnsafeMutableBufferPointer<Float>) {
    guard active else { return }
    if !isKnownUniquelyReferenced(&memory) { memory = memory.copy() }
    let line = memory.elements
    let silence: Float = 2e-5
    for i in output.indices {
      let y = line[position]
      // Loop filter (one sample of delay), then dispersion, then tuning.
      var v = loopGain * (h1 * (y + fir2) + h0 * fir1)
      fir2 = fir1
      fir1 = y
      // Four first-order allpasses, y = a·x + x₋₁ − a·y₋₁.
      let a = dispersion
      d1y = a * (v - d1y) + d1x
      d1x = v
      d2y = a * (d1y - d2y) + d2x
      d2x = d1y
      d3y = a * (d2y - d3y) + d3x
      d3x = d2y
      d4y = a * (d3y - d4y) + d4x
      d4x = d3y
      v = d4y
      let tuned = tuning * v + tuningIn - tuning * tuningOut
      tuningIn = v
      tuningOut = tuned
      line[position] = tuned
      position += 1
      if position >= length { position = 0 }

      let sample = y + declick
      declick *= declickCoefficient
      output[i] += sample
      lastOutput = sample
      follower = max(abs(sample), follower * followerCoefficient)
      framesSinceStart += 1
      if follower < silence && framesSinceStart > length {
        active = false
        declick = 0
        lastOutput = 0
        return
      }
    }
  }

  /// The phase delay, in samples, of the allpass `(a + z⁻¹)/(1 + a·z⁻¹)` at `omega` radians per
  /// sample.
  @_noLocks
  static func allpassPhaseDelay(coefficient a: Double, omega: Double) -> Double {
    // RT-audited: sin, cos and atan2 are pure libm functions.
    _unsafePerformance {
      let phase = -atan2(sin(omega), a + cos(omega)) + atan2(a * sin(omega), 1 + a * cos(omega))
      return -phase / omega
    }
  }
}
