import Foundation

/// The Sound Track seed's guitar: a sine at the note's frequency times the seed's fitted guitar
/// envelope.
///
/// The seed fitted the loudness curve of a recorded guitar note with
/// `e(x) = 0.7 − x/(10π) + ½·(1 − x/(6π))·sin(x)·e^(−x)` and multiplied its sine by it. Here `x`
/// is time scaled so that the linear part reaches zero at ``ringSeconds``:
/// `x = 7π · t / ringSeconds`, `t` the seconds since the note started, clamped to `0...7π`. So a
/// note starts at 0.7 (with a short bump of the damped-sine term over the first tenth of the ring
/// time), falls almost linearly, and is silent at `ringSeconds`; `e` is clamped at 0, so it is
/// never negative (the damped-sine term dips below the line by less than 10⁻⁸ near 7π) and
/// always finite. The sine starts at phase 0, so the 0.7 start is not a step.
///
/// ``release()`` fades the note out exponentially (10 ms time constant, silent within about
/// 90 ms). A restart while sounding (a stolen voice) fades the old note's last output value out
/// over about 3 ms instead of jumping from it.
///
/// - Note: ``start(pitch:velocity:)``, ``release()`` and ``render(adding:)`` are real-time safe.
public struct SimpleGuitarVoice: SynthVoice {
  /// The sample rate, in Hz.
  public let sampleRate: Double
  /// The time the fitted envelope takes to reach silence, in seconds.
  public let ringSeconds: Double
  /// The linear gain of a note at velocity 127 (the envelope's 0.7 peak included).
  public let gain: Double

  private var oscillator: Oscillator
  private var x = 0.0
  private var xStep = 0.0
  private var amplitude: Float = 0
  private var releaseGain: Float = 1
  private var releaseCoefficient: Float = 1
  private var releaseFactor: Float = 1
  private var active = false
  private var released = false
  private var lastOutput: Float = 0
  // sin(x)·e^(−x) = Im(e^((i − 1)·x)), advanced by one complex multiplication per frame.
  private var bumpReal = 1.0
  private var bumpImaginary = 0.0
  private var bumpStepReal = 1.0
  private var bumpStepImaginary = 0.0
  private var declick: Float = 0
  private var declickFactor: Float = 0

  /// Creates a silent voice.
  ///
  /// - Parameters:
  ///   - sampleRate: The rate, in Hz.
  ///   - ringSeconds: How long a note rings if never released, in seconds (default 2; NaN or
  ///     below 0.05 s gives 2 and 0.05 s).
  ///   - gain: The linear gain at velocity 127 (default 0.4).
  public init(sampleRate: Double, ringSeconds: Double = 2, gain: Double = 0.4) {
    oscillator = Oscillator(waveform: .sine, frequencyHz: 440, sampleRate: sampleRate)
    self.sampleRate = oscillator.sampleRate
    self.ringSeconds = ringSeconds.isNaN ? 2 : min(3600, max(0.05, ringSeconds))
    self.gain = gain.isFinite ? max(0, gain) : 0.4
    xStep = 7 * Double.pi / (self.ringSeconds * self.sampleRate)
    releaseFactor = Float(exp(-1 / (0.01 * self.sampleRate)))
    declickFactor = Float(exp(-1 / (0.001 * self.sampleRate)))
    bumpStepReal = exp(-xStep) * cos(xStep)
    bumpStepImaginary = exp(-xStep) * sin(xStep)
  }

  /// The seed's envelope at `x` (clamped to `0...7π`), clamped at 0.
  ///
  /// - Parameter x: The scaled time.
  /// - Returns: `max(0, 0.7 − x/(10π) + ½(1 − x/(6π))·sin(x)·e^(−x))`.
  @_noLocks
  public static func envelope(_ x: Double) -> Double {
    let x = x.isNaN ? 0 : min(7 * Double.pi, max(0, x))
    // RT-audited: sin and exp are pure libm functions.
    let bump = x < 40 ? _unsafePerformance { sin(x) * exp(-x) } : 0
    return max(0, 0.7 - x / (10 * Double.pi) + 0.5 * (1 - x / (6 * Double.pi)) * bump)
  }

  /// Whether the note is still sounding.
  public var isActive: Bool { active }

  /// Whether ``release()`` has been called since the last start.
  public var isReleased: Bool { released }

  /// Starts a note at `pitch` (A4 = 440 Hz) from phase 0.
  ///
  /// - Parameters:
  ///   - pitch: The MIDI note number.
  ///   - velocity: The MIDI velocity, clamped to `1...127`; loudness `(velocity/127)²`.
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func start(pitch: Double, velocity: Int) {
    // A restart while sounding fades the old note's last value out over about 3 ms.
    declick = active ? lastOutput : 0
    oscillator.phase = 0
    oscillator.jump(toFrequency: PitchMath.frequencyHz(pitch: pitch))
    amplitude = Float(gain / 0.7 * PitchMath.velocityGain(velocity))
    x = 0
    bumpReal = 1
    bumpImaginary = 0
    releaseGain = 1
    releaseCoefficient = 1
    active = true
    released = false
  }

  /// Fades the note out (10 ms time constant).
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func release() {
    guard active else { return }
    released = true
    releaseCoefficient = releaseFactor
  }

  /// Adds the next `output.count` frames to `output`.
  ///
  /// - Parameter output: Any number of frames.
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func render(adding output: UnsafeMutableBufferPointer<Float>) {
    guard active, !output.isEmpty else { return }
    var block = oscillator.beginBlock(frameCount: output.count)
    for i in output.indices {
      let line = 0.7 - x / (10 * Double.pi)
      let bump = 0.5 * (1 - x / (6 * Double.pi)) * bumpImaginary
      (bumpReal, bumpImaginary) = (
        bumpReal * bumpStepReal - bumpImaginary * bumpStepImaginary,
        bumpReal * bumpStepImaginary + bumpImaginary * bumpStepReal
      )
      let e = Float(max(0, line + bump)) * releaseGain * amplitude
      let sample = e * oscillator.nextSample(&block) + declick
      declick *= declickFactor
      output[i] += sample
      lastOutput = sample
      x += xStep
      releaseGain *= releaseCoefficient
      if x >= 7 * Double.pi || releaseGain < 1e-4 {
        active = false
        lastOutput = 0
        return
      }
    }
  }
}
