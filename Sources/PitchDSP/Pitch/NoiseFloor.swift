/// The steady noise under a signal, per frequency bin, for the difference function to discount.
///
/// It learns only from frames in which the difference function finds no period (no dip of `d′`
/// under ``PeriodicityAnalysis/noiseFrameDepth``): the hiss or hum between and around the notes.
/// Its power spectrum is averaged over those frames with a time constant of about half a second
/// of noise, so it follows noise that changes and is never taught a note, however long the note
/// is held. The noise's autocorrelation (the inverse transform of that spectrum) is what it adds
/// to `d(τ)`, and ``PeriodicityAnalysis`` takes a share of it away, so a note under steady noise
/// dips as it would under less.
///
/// Memory is allocated in `init` and freed by ``deallocate()`` (its owner's `deinit`);
/// ``learn(_:)`` and ``correlation(using:into:)`` allocate nothing and take no locks.
struct NoiseFloor {
  /// The weight of the estimate so far when a noise frame comes in (about 50 frames' memory).
  let memory: Float = 0.98
  /// Noise frames needed before the estimate is used.
  let framesNeeded = 10

  let bins: Int
  /// The average power per bin (real part of a spectrum) and zeros (its imaginary part).
  let power: UnsafeMutableBufferPointer<Float>
  private let zeros: UnsafeMutableBufferPointer<Float>
  /// Noise frames learned from.
  private(set) var frames = 0
  /// Whether a frame was learned since ``correlation(using:into:)`` last ran (else it would
  /// give the same correlation again).
  private(set) var hasChanged = false

  init(bins: Int) {
    self.bins = bins
    power = .zeroed(bins)
    zeros = .zeroed(bins)
  }

  /// Frees the memory (once, by the owner).
  func deallocate() {
    power.deallocate()
    zeros.deallocate()
  }

  /// Learns from one noise frame's power spectrum (`size/2 + 1` bins).
  @_noLocks
  mutating func learn(_ frame: UnsafeMutableBufferPointer<Float>) {
    // The plain mean at first, then an exponential one.
    let weight = min(memory, Float(frames) / Float(frames + 1))
    for k in 0..<bins { power[k] = weight * power[k] + (1 - weight) * frame[k] }
    frames += 1
    hasChanged = true
  }

  /// The noise's autocorrelation over one window, `C(τ)` at index `τ` (and `−τ` at `size − τ`).
  @_noLocks
  mutating func correlation(using fft: Unmanaged<SwiftFFTBackend>, into output: UnsafeMutableBufferPointer<Float>) {
    hasChanged = false
    let (re, im) = (UnsafeBufferPointer(power), UnsafeBufferPointer(zeros))
    fft._withUnsafeGuaranteedRef { $0.inverseReal(real: re, imaginary: im, output: output) }
  }

  /// Forgets the noise.
  mutating func reset() {
    power.update(repeating: 0)
    frames = 0
    hasChanged = false
  }
}
