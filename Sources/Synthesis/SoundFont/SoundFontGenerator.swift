/// A SoundFont 2 generator: one synthesis parameter a zone sets (SoundFont 2.04, section 8.1.2).
///
/// The raw value is the generator's number in the file. Amounts are signed 16-bit words in the
/// unit the specification gives each generator: timecents (seconds = 2^(tc/1200)), centibels,
/// cents, absolute cents (Hz = 8.176 * 2^(c/1200)), tenths of a percent, sample frames, or a
/// low/high byte pair for ranges. Generator numbers the specification leaves unused or reserved
/// are read and ignored, as the specification asks.
public enum SoundFontGenerator: UInt16, Sendable, Hashable, CaseIterable, Codable {
  /// Offset in sample frames added to the sample's start (instrument level only).
  case startAddressOffset = 0
  /// Offset in sample frames added to the sample's end (instrument level only).
  case endAddressOffset = 1
  /// Offset in sample frames added to the loop start (instrument level only).
  case startLoopAddressOffset = 2
  /// Offset in sample frames added to the loop end (instrument level only).
  case endLoopAddressOffset = 3
  /// Offset in units of 32768 frames added to the sample's start (instrument level only).
  case startAddressCoarseOffset = 4
  /// Modulation LFO to pitch, cents (read, not synthesized).
  case modLfoToPitch = 5
  /// Vibrato LFO to pitch, cents (read, not synthesized).
  case vibLfoToPitch = 6
  /// Modulation envelope to pitch, cents (read, not synthesized).
  case modEnvToPitch = 7
  /// The low-pass filter's cutoff, absolute cents (13500 ≈ 19.9 kHz, the default, is open).
  case initialFilterFc = 8
  /// The low-pass filter's resonance above the DC gain, centibels (0...960).
  case initialFilterQ = 9
  /// Modulation LFO to filter cutoff, cents (read, not synthesized).
  case modLfoToFilterFc = 10
  /// Modulation envelope to filter cutoff, cents (read, not synthesized).
  case modEnvToFilterFc = 11
  /// Offset in units of 32768 frames added to the sample's end (instrument level only).
  case endAddressCoarseOffset = 12
  /// Modulation LFO to volume, centibels (read, not synthesized).
  case modLfoToVolume = 13
  /// Chorus send, tenths of a percent (read, not synthesized).
  case chorusEffectsSend = 15
  /// Reverb send, tenths of a percent (read, not synthesized).
  case reverbEffectsSend = 16
  /// Pan, tenths of a percent from centre: -500 is hard left, 500 hard right.
  case pan = 17
  /// Modulation LFO delay, timecents (read, not synthesized).
  case delayModLFO = 21
  /// Modulation LFO frequency, absolute cents (read, not synthesized).
  case freqModLFO = 22
  /// Vibrato LFO delay, timecents (read, not synthesized).
  case delayVibLFO = 23
  /// Vibrato LFO frequency, absolute cents (read, not synthesized).
  case freqVibLFO = 24
  /// Modulation envelope delay, timecents (read, not synthesized).
  case delayModEnv = 25
  /// Modulation envelope attack, timecents (read, not synthesized).
  case attackModEnv = 26
  /// Modulation envelope hold, timecents (read, not synthesized).
  case holdModEnv = 27
  /// Modulation envelope decay, timecents (read, not synthesized).
  case decayModEnv = 28
  /// Modulation envelope sustain, tenths of a percent (read, not synthesized).
  case sustainModEnv = 29
  /// Modulation envelope release, timecents (read, not synthesized).
  case releaseModEnv = 30
  /// Key number to modulation envelope hold, timecents per key (read, not synthesized).
  case keynumToModEnvHold = 31
  /// Key number to modulation envelope decay, timecents per key (read, not synthesized).
  case keynumToModEnvDecay = 32
  /// Volume envelope delay before the attack, timecents.
  case delayVolEnv = 33
  /// Volume envelope attack (linear amplitude rise from 0 to peak), timecents.
  case attackVolEnv = 34
  /// Volume envelope hold at peak, timecents.
  case holdVolEnv = 35
  /// Volume envelope decay: the time a full-scale fall would take, timecents.
  case decayVolEnv = 36
  /// Volume envelope sustain level, centibels below peak (0 = peak, 1000 = silent).
  case sustainVolEnv = 37
  /// Volume envelope release: the time a full-scale fall would take, timecents.
  case releaseVolEnv = 38
  /// Timecents per key below key 60 added to the hold time.
  case keynumToVolEnvHold = 39
  /// Timecents per key below key 60 added to the decay time.
  case keynumToVolEnvDecay = 40
  /// The instrument a preset zone plays (an index into the file's instruments; preset level only).
  case instrument = 41
  /// The keys a zone answers to, a low/high byte pair.
  case keyRange = 43
  /// The velocities a zone answers to, a low/high byte pair.
  case velocityRange = 44
  /// Offset in units of 32768 frames added to the loop start (instrument level only).
  case startLoopAddressCoarseOffset = 45
  /// A fixed key number the zone plays as, whatever key was struck (-1 = off).
  case keynum = 46
  /// A fixed velocity the zone plays with, whatever the note's (-1 = off).
  case velocity = 47
  /// Attenuation below full scale, centibels (see ``SoundFontInstrument`` for the 0.4 scale).
  case initialAttenuation = 48
  /// Offset in units of 32768 frames added to the loop end (instrument level only).
  case endLoopAddressCoarseOffset = 50
  /// Pitch offset in semitones.
  case coarseTune = 51
  /// Pitch offset in cents.
  case fineTune = 52
  /// The sample an instrument zone plays (an index into the file's samples; instrument level only).
  case sampleID = 53
  /// How the sample loops: see ``SoundFontSampleMode`` (instrument level only).
  case sampleModes = 54
  /// Cents of pitch per key (100 = equal temperament, 0 = the same pitch on every key).
  case scaleTuning = 56
  /// Voices of the same non-zero class cut each other off (instrument level only).
  case exclusiveClass = 57
  /// The key the sample sounds at its recorded pitch, overriding the sample's (-1 = off;
  /// instrument level only).
  case overridingRootKey = 58

  /// The value a zone has when neither it nor its global zone sets the generator (section 8.1.3).
  public var defaultAmount: Int {
    switch self {
    case .initialFilterFc: 13500
    case .delayModLFO, .delayVibLFO, .delayModEnv, .attackModEnv, .holdModEnv, .decayModEnv, .releaseModEnv,
      .delayVolEnv, .attackVolEnv, .holdVolEnv, .decayVolEnv, .releaseVolEnv:
      -12000
    case .keyRange, .velocityRange: 127 << 8
    case .keynum, .velocity, .overridingRootKey: -1
    case .scaleTuning: 100
    default: 0
    }
  }

  /// Whether a preset zone may set the generator, as an offset added to the instrument's value.
  ///
  /// Sample addresses, sample modes, the exclusive class, the root key, fixed key and velocity
  /// belong to instruments only; the specification asks that they be ignored at preset level.
  public var isAllowedAtPresetLevel: Bool {
    switch self {
    case .startAddressOffset, .endAddressOffset, .startLoopAddressOffset, .endLoopAddressOffset,
      .startAddressCoarseOffset, .endAddressCoarseOffset, .startLoopAddressCoarseOffset, .endLoopAddressCoarseOffset,
      .keynum, .velocity, .sampleID, .sampleModes, .exclusiveClass, .overridingRootKey:
      false
    default: true
    }
  }

  /// Whether the amount is a low/high byte pair (key and velocity ranges).
  public var isRange: Bool { self == .keyRange || self == .velocityRange }
}
