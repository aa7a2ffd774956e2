/// A guitar: plucked strings (extended Karplus–Strong) or the Sound Track seed's simple timbre,
/// in a tuning.
///
/// ```swift
/// let guitar = Guitar(damping: 0.5, brightness: 0.3)
/// let pitch = guitar.tuning.pitch(string: 1, fret: 3)!        // G4
/// var player = NotePlayer(notes: notes, instrument: guitar, sampleRate: 44_100, polyphony: 6)
/// ```
///
/// The parameters are those of ``PluckedStringVoice`` (the simple timbre uses only ``gain`` and
/// ``ringSeconds``); NaN values take the defaults and others are clamped to their ranges when a
/// voice is made.
public struct Guitar: Instrument, Hashable, Codable {
  /// Which sound the guitar makes (default ``GuitarTimbre/plucked``).
  public var timbre: GuitarTimbre
  /// The tuning that tab positions are read in (default ``GuitarTuning/standard``).
  public var tuning: GuitarTuning
  /// Where the strings are plucked, as a fraction of the string from the bridge, `0.02...0.5`.
  public var pickPosition: Double
  /// How fast notes die out, `0...1` (0 rings longest).
  public var damping: Double
  /// How stiff the strings are, `0...1` (0: exactly harmonic partials).
  public var stiffness: Double
  /// How long the high partials ring relative to the fundamental, `0...1` (1 brightest).
  public var brightness: Double
  /// The linear gain of a note at velocity 127.
  public var gain: Double
  /// How long a note of the simple timbre rings if never released, in seconds.
  public var ringSeconds: Double
  /// The seed of the plucks' noise (renders are repeatable for a seed).
  public var seed: UInt64

  /// Creates a guitar.
  ///
  /// - Parameters:
  ///   - timbre: Plucked string or the seed's simple timbre.
  ///   - tuning: The tuning.
  ///   - pickPosition: The pluck point, `0.02...0.5` of the string from the bridge (default 0.13).
  ///   - damping: `0...1` (default 0.35).
  ///   - stiffness: `0...1` (default 0.15).
  ///   - brightness: `0...1` (default 0.5).
  ///   - gain: The linear gain at velocity 127 (default 0.3).
  ///   - ringSeconds: The simple timbre's ring time, in seconds (default 2).
  ///   - seed: The noise seed.
  public init(
    timbre: GuitarTimbre = .plucked, tuning: GuitarTuning = .standard, pickPosition: Double = 0.13,
    damping: Double = 0.35, stiffness: Double = 0.15, brightness: Double = 0.5, gain: Double = 0.3,
    ringSeconds: Double = 2, seed: UInt64 = 0x5EED_6174_7461_7200
  ) {
    self.timbre = timbre
    self.tuning = tuning
    self.pickPosition = pickPosition
    self.damping = damping
    self.stiffness = stiffness
    self.brightness = brightness
    self.gain = gain
    self.ringSeconds = ringSeconds
    self.seed = seed
  }

  /// Makes a silent voice.
  ///
  /// - Parameter sampleRate: The rate, in Hz.
  public func makeVoice(sampleRate: Double) -> GuitarVoice {
    GuitarVoice(
      timbre: timbre,
      plucked: PluckedStringVoice(
        sampleRate: sampleRate, pickPosition: pickPosition, damping: damping, stiffness: stiffness,
        brightness: brightness, gain: gain, seed: seed),
      simple: SimpleGuitarVoice(sampleRate: sampleRate, ringSeconds: ringSeconds, gain: gain * 4 / 3))
  }
}
