/// One playable layer of a preset: a preset zone and one of its instrument's zones combined,
/// with every generator resolved to the value a voice uses.
///
/// Resolution follows SoundFont 2.04 section 9.4: an instrument zone's generator overrides its
/// instrument's global zone, which overrides the default; a preset zone's (or else its preset's
/// global zone's) generator is then *added* to it, for the generators a preset may set; key and
/// velocity ranges are the intersection of both levels'. Sums are clamped to the ranges of
/// section 8.1.3. Sample positions are absolute frame indices into the font's sample data,
/// already clamped to the sample's own frames.
public struct SoundFontRegion: Sendable, Hashable {
  /// The keys that play the region.
  public var keyRange: ClosedRange<Int>
  /// The velocities that play the region.
  public var velocityRange: ClosedRange<Int>
  /// The index of the sample header played.
  public var sampleIndex: Int
  /// The first frame played (sample start plus the start offsets).
  public var start: Int
  /// One past the last frame.
  public var end: Int
  /// The loop's first frame.
  public var loopStart: Int
  /// One past the loop's last frame.
  public var loopEnd: Int
  /// How the sample loops (``SoundFontSampleMode/noLoop`` when the loop is shorter than 2 frames
  /// or falls outside the played frames).
  public var sampleMode: SoundFontSampleMode
  /// The rate the sample was recorded at, in Hz.
  public var sampleRate: Double
  /// The key at which the sample plays at its recorded pitch: `overridingRootKey`, else the
  /// sample's original pitch (60 when unpitched), less its pitch correction in semitones.
  public var rootKey: Double
  /// Cents per key (`scaleTuning`, 100 normally).
  public var scaleTuning: Double
  /// `coarseTune` × 100 + `fineTune`, cents.
  public var tuningCents: Double
  /// The fixed key number of the `keynum` generator, or -1.
  public var fixedKey: Int
  /// The fixed velocity of the `velocity` generator, or -1.
  public var fixedVelocity: Int
  /// The `initialAttenuation` generator, centibels, 0...1440 (before the 0.4 scale voices apply).
  public var initialAttenuation: Double
  /// Pan, -500 (left)...500 (right).
  public var pan: Double
  /// Volume envelope delay, timecents.
  public var delayVolEnv: Double
  /// Volume envelope attack, timecents.
  public var attackVolEnv: Double
  /// Volume envelope hold, timecents.
  public var holdVolEnv: Double
  /// Volume envelope decay, timecents.
  public var decayVolEnv: Double
  /// Volume envelope sustain, centibels below peak, 0...1440.
  public var sustainVolEnv: Double
  /// Volume envelope release, timecents.
  public var releaseVolEnv: Double
  /// Timecents per key below 60 added to the hold.
  public var keynumToVolEnvHold: Double
  /// Timecents per key below 60 added to the decay.
  public var keynumToVolEnvDecay: Double
  /// Filter cutoff, absolute cents, 1500...13500.
  public var initialFilterFc: Double
  /// Filter resonance, centibels, 0...960.
  public var initialFilterQ: Double
  /// The exclusive class (0 = none).
  public var exclusiveClass: Int

  /// Whether a key and a velocity play this region.
  ///
  /// - Parameters:
  ///   - key: A MIDI key, 0...127.
  ///   - velocity: A MIDI velocity, 1...127.
  @_noLocks
  public func contains(key: Int, velocity: Int) -> Bool {
    key >= keyRange.lowerBound && key <= keyRange.upperBound && velocity >= velocityRange.lowerBound
      && velocity <= velocityRange.upperBound
  }
}
