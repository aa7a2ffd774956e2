/// Something that shifts the pitch of a live signal: the seam where the harmonizer's voices and
/// the auto-tuner plug in a shifting method.
///
/// A shifter holds all its state (delay lines, analysis buffers), sized when it is made, so that
/// ``process(_:into:)`` allocates nothing and takes no locks: it runs on the audio thread, on
/// blocks of any size. Output lags input by ``latencySamples``. Etude's shifters,
/// ``DelayLineShifter`` and ``PSOLAShifter``, are final classes because they own preallocated
/// memory; they are `Sendable` so they can be handed to the audio thread, and are used from one
/// thread at a time.
public protocol PitchShifter: Sendable {
  /// The sample rate, in Hz, fixed when the shifter is made.
  var sampleRate: Double { get }

  /// The shift in semitones (positive up, fractional allowed); a change is applied smoothly.
  var semitones: Double { get set }

  /// How many samples the output lags the input, for the current configuration.
  var latencySamples: Int { get }

  /// Shifts `input` into `output` (the same count of frames; any count). No allocation, no locks.
  mutating func process(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>)

  /// Forgets the signal so far, as if just made (the shift stays).
  mutating func reset()
}
