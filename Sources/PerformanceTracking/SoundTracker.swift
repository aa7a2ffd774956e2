import Foundation
import PitchDSP

/// Finds the sounds of a take: pitch-tracks the audio, cuts the track into sounds (level above
/// the noise floor with hysteresis, legato splits on a change of pitch, re-attacks), drops
/// fragments, joins back the swells of a held note, refines each sound's start and end on the
/// audio itself, and drops the room's ring after a note.
///
/// The offline entry point, ``sounds(in:sampleRate:)``, decodes the whole take's best pitch path
/// (pYIN with its hidden Markov model); ``LivePerformanceTracker`` runs the same segmentation
/// on a live pitch track.
public struct SoundTracker: Sendable {
  /// What the tracker looks for; every threshold is tunable.
  public struct Configuration: Sendable, Hashable, Codable {
    /// The lowest pitch searched, in Hz.
    public var minimumFrequencyHz: Double = 40
    /// The highest pitch searched, in Hz.
    public var maximumFrequencyHz: Double = 2000
    /// The time between pitch estimates, in seconds.
    public var hopSeconds: Double = 0.01
    /// The segmentation thresholds: a sound starts 9 dB above the noise floor (3 dB when
    /// pitched) and lasts while 2 dB above it (lower than the segmenter's defaults, so that a take at 10 dB SNR still
    /// segments; the boundaries are refined on the audio afterwards).
    public var segmenter: NoteSegmenter.Configuration = {
      var configuration = NoteSegmenter.Configuration()
      configuration.onDecibels = 9
      configuration.voicedOnDecibels = 3
      configuration.offDecibels = 2
      return configuration
    }()
    /// A sound is cut this far under its loud part's level after its last loud point (the ring
    /// of a room or a long release is not the note), in dB; the end is then refined on the audio.
    public var tailDecibels: Double = 20
    /// Whether starts and ends are refined on the audio (``SoundBoundaryRefiner``).
    public var refinesBoundaries = true
    /// The shortest sound kept, in seconds.
    public var minimumSeconds: Double = 0.06
    /// Sounds whose peak lies more than this far below the take's typical sound are dropped
    /// (the ring of a room, a breath), in dB.
    public var quietestDecibels: Double = 30
    /// A sound lasting this long or less (on the pitch track's hops) that runs into a longer one
    /// at a harmonic interval is part of it (a pitch tracker's octave error in an attack or a
    /// release), in seconds.
    public var blipSeconds: Double = 0.1
    /// A sound's attack read an octave off (a breathy or slow attack, before the note's own
    /// period dominates the pitch tracker's window) may last this long and still be folded into
    /// the note it starts, in seconds.
    public var octaveAttackSeconds: Double = 0.15
    /// A sound no longer than ``blipSeconds`` that starts from quiet and runs straight into a
    /// longer one within this many cents of it is that note's attack scooped into pitch (a
    /// violin's or a voice's slide up into the note, a brass player's lip), in cents.
    public var scoopCents: Double = 400
    /// A sound at the previous sound's pitch (within ``mergeCents``) that starts this soon after
    /// it ends and is ``echoDecibels`` quieter is the room's echo of it, in seconds.
    public var echoSeconds: Double = 0.8
    /// How much quieter than the sound before an echo is, in dB.
    public var echoDecibels: Double = 15
    /// A sound at the previous sound's pitch, starting within ``echoSeconds`` of its end, at
    /// least this much quieter and never holding its level (under a third of its frames within
    /// 6 dB of its own peak) is the room ringing on after the note, in dB.
    public var ringDecibels: Double = 6
    /// A sound at the pitch of a sound before the last that rises less than this at its start
    /// (no attack of its own) can be the room ringing with that one, in dB.
    public var ringAttackDecibels: Double = 3
    /// A sound that starts within ``ringEndSeconds`` of the last sound's end and peaks this far
    /// under the level where that sound ended is the room ringing on (with the last sound, or
    /// with one before it when it has no attack of its own), however it holds its level: a
    /// room's modes swell a few dB as they beat, a note played again comes back to the level
    /// of the playing, in dB.
    public var ringEndDecibels: Double = 6
    /// How soon after the last sound's end ``ringEndDecibels`` applies, in seconds.
    public var ringEndSeconds: Double = 0.3
    /// A split of a held pitch is a new note when, on the note's harmonics, the level falls by
    /// at least this much before it, in dB (the swell of a vibrato or a bow: up to about 9 dB
    /// from crest to trough; a note stopped and played again: 11 dB or more) ...
    public var breakDecibels: Double = 10
    /// ... or rises after it by this much more than it fell, in dB (the same note played again
    /// louder).
    public var louderDecibels: Double = 4.5
    /// Such a split may also leave a gap up to this long, in seconds: the level sagged under the
    /// sound threshold for a moment (a held note under noise), while on the note's harmonics it
    /// fell by less than ``breakDecibels``.
    public var swellGapSeconds: Double = 0.055
    /// Two sounds in a row closer than this in pitch, with no dip in level between them, are
    /// one sound split by a glitch of the pitch track, in cents.
    public var mergeCents: Double = 50
    /// A note played again at the same pitch under the previous one's release is timed at its
    /// attack (``PerformanceSound/attack``, found on its harmonics under the old note's decay)
    /// when the harmonics fell by at least this much before it; by less, where the previous
    /// note stopped, in dB. (A flute's or a trumpet's repeat 30–45 ms after the release began
    /// falls 6–10 dB; timed at the stop it read 20–60 ms early.)
    public var repeatAttackDecibels: Double = 6
    /// A note an octave above a note that had stopped, timed under that note's decay, keeps its
    /// attack as ``repeatAttackDecibels`` says when it began at most this long after the old
    /// note stopped, in seconds (a detached leap; later, with the level held across, the rise
    /// found was a legato note's swell, 70–120 ms after it began).
    public var octaveLeapAttackSeconds: Double = 0.06
    /// A sound whose pitch lies further than this from the tuning's nearest semitone, or whose
    /// pitch track spreads wider (interquartile range), is read again from its spectrum
    /// (``SoundBoundaryRefiner/harmonicPitch(of:searchCents:stepCents:attackSeconds:longestSeconds:)``),
    /// and the spectrum's pitch replaces the pitch track's when the two differ by more than
    /// this: under a room's ring the track's frames mix the note with the notes before it (a
    /// flute's G5 under a B5's ring read 80–120 cents sharp), in cents. Used by
    /// ``PerformanceTracker``, which knows the tuning.
    public var spectralCheckCents: Double = 20

    /// Creates the default configuration.
    public init() {}

    enum CodingKeys: String, CodingKey {
      case minimumFrequencyHz, maximumFrequencyHz, hopSeconds, segmenter, tailDecibels, refinesBoundaries
      case minimumSeconds, quietestDecibels, blipSeconds, octaveAttackSeconds, scoopCents, echoSeconds, echoDecibels
      case ringDecibels, ringAttackDecibels, ringEndDecibels, ringEndSeconds, breakDecibels, louderDecibels
      case swellGapSeconds, mergeCents, repeatAttackDecibels, octaveLeapAttackSeconds, spectralCheckCents
    }

    /// Decodes a configuration; a setting absent from the data keeps its default, so that a
    /// configuration saved before a setting was added still loads.
    public init(from decoder: any Decoder) throws {
      self.init()
      let container = try decoder.container(keyedBy: CodingKeys.self)
      func update<Value: Decodable>(_ value: inout Value, _ key: CodingKeys) throws {
        value = try container.decodeIfPresent(Value.self, forKey: key) ?? value
      }
      try update(&minimumFrequencyHz, .minimumFrequencyHz)
      try update(&maximumFrequencyHz, .maximumFrequencyHz)
      try update(&hopSeconds, .hopSeconds)
      try update(&segmenter, .segmenter)
      try update(&tailDecibels, .tailDecibels)
      try update(&refinesBoundaries, .refinesBoundaries)
      try update(&minimumSeconds, .minimumSeconds)
      try update(&quietestDecibels, .quietestDecibels)
      try update(&blipSeconds, .blipSeconds)
      try update(&octaveAttackSeconds, .octaveAttackSeconds)
      try update(&scoopCents, .scoopCents)
      try update(&echoSeconds, .echoSeconds)
      try update(&echoDecibels, .echoDecibels)
      try update(&ringDecibels, .ringDecibels)
      try update(&ringAttackDecibels, .ringAttackDecibels)
      try update(&ringEndDecibels, .ringEndDecibels)
      try update(&ringEndSeconds, .ringEndSeconds)
      try update(&breakDecibels, .breakDecibels)
      try update(&louderDecibels, .louderDecibels)
      try update(&swellGapSeconds, .swellGapSeconds)
      try update(&mergeCents, .mergeCents)
      try update(&repeatAttackDecibels, .repeatAttackDecibels)
      try update(&octaveLeapAttackSeconds, .octaveLeapAttackSeconds)
      try update(&spectralCheckCents, .spectralCheckCents)
    }

    /// A pitch range fitted to the notes expected: a little over an octave below the lowest (for
    /// octave errors and lower partials) to a little over an octave above the highest.
    ///
    /// - Parameters:
    ///   - lowestHz: The lowest expected frequency, in Hz.
    ///   - highestHz: The highest expected frequency, in Hz.
    ///   - sampleRate: The take's sample rate (the top stays under a quarter of it).
    public mutating func fitRange(lowestHz: Double, highestHz: Double, sampleRate: Double) {
      minimumFrequencyHz = max(30, lowestHz / 2.1)
      maximumFrequencyHz = min(sampleRate / 4, max(highestHz * 2.1, minimumFrequencyHz * 4))
    }
  }

  /// The configuration.
  public var configuration: Configuration

  /// Creates a tracker.
  ///
  /// - Parameter configuration: What it looks for.
  public init(configuration: Configuration = Configuration()) {
    self.configuration = configuration
  }

  /// The pitch track and the sounds of a whole take.
  ///
  /// - Parameters:
  ///   - samples: The take, mono.
  ///   - sampleRate: Its sample rate, in Hz.
  /// - Returns: The pitch estimates and the sounds, in time order.
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` for a range the sample
  ///   rate cannot analyze.
  public func track(_ samples: [Float], sampleRate: Double) throws(PitchDSPError) -> (
    estimates: [PitchEstimate], sounds: [PerformanceSound]
  ) {
    try track(samples, sampleRate: sampleRate, refiner: SoundBoundaryRefiner(samples: samples, sampleRate: sampleRate))
  }

  /// ``track(_:sampleRate:)`` with the refiner over `samples` given (made once per take: it
  /// decimates the take).
  func track(_ samples: [Float], sampleRate: Double, refiner: SoundBoundaryRefiner) throws(PitchDSPError) -> (
    estimates: [PitchEstimate], sounds: [PerformanceSound]
  ) {
    let pitch = configuration.pitchConfiguration(sampleRate: sampleRate)
    try pitch.validate()
    let estimator = try Self.offlineEstimator(pitch: pitch, frameCount: samples.count)
    let estimates = estimator.estimates(for: samples.map { $0.isFinite ? $0 : 0 })
    return (estimates, sounds(from: estimates, refiner: samples.isEmpty ? nil : refiner))
  }

  /// The sounds of a whole take.
  ///
  /// - Parameters:
  ///   - samples: The take, mono.
  ///   - sampleRate: Its sample rate, in Hz.
  /// - Returns: The sounds, in time order.
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` for a range the sample
  ///   rate cannot analyze.
  public func sounds(in samples: [Float], sampleRate: Double) throws(PitchDSPError) -> [PerformanceSound] {
    try track(samples, sampleRate: sampleRate).sounds
  }

  /// The sounds of a pitch track, refined on `samples` when given.
  ///
  /// - Parameters:
  ///   - estimates: The pitch track, in time order.
  ///   - samples: The audio it came from, for refining boundaries (empty: no refinement).
  ///   - sampleRate: The audio's sample rate, in Hz.
  /// - Returns: The sounds, in time order.
  public func sounds(from estimates: [PitchEstimate], samples: [Float], sampleRate: Double) -> [PerformanceSound] {
    sounds(from: estimates, refiner: samples.isEmpty ? nil : SoundBoundaryRefiner(samples: samples, sampleRate: sampleRate))
  }

  /// ``sounds(from:samples:sampleRate:)`` with the refiner over the audio given (`nil`: no
  /// refinement).
  func sounds(from estimates: [PitchEstimate], refiner: SoundBoundaryRefiner?) -> [PerformanceSound] {
    let segments = NoteSegmenter(configuration: configuration.segmenter).segments(of: estimates)
    var sounds = segments.map { segment in
      PerformanceSound(
        start: segment.start, end: segment.end, frequencyHz: segment.frequencyHz,
        pitchTrack: Self.points(of: estimates, from: segment.start, to: segment.end),
        peakLevelDBFS: segment.peakLevelDBFS, boundary: segment.boundary)
    }
    // Fragments and blips go before refining, so that they do not bound their neighbours.
    sounds = cleaned(merged(sounds, estimates: estimates))
    if let refiner {
      sounds = joiningSwells(sounds, refiner: refiner)
      if configuration.refinesBoundaries { sounds = refined(sounds, estimates: estimates, refiner: refiner) }
    }
    return cleaned(withoutRings(sounds, estimates: estimates))
  }

  /// Drops the room's ring after a note: a sound at the pitch of the sound kept before it,
  /// starting within ``Configuration/echoSeconds`` of its end (or of the ring already dropped
  /// after it), ``Configuration/ringDecibels`` quieter and never holding its level (a
  /// reverberant tail swells and fades as the room's modes beat, and re-attacks appear in it;
  /// a note played again holds its level), or ``Configuration/echoDecibels`` quieter. A sound at
  /// the pitch of an earlier kept sound that ended within ``Configuration/echoSeconds`` (the
  /// room still ringing with the note before the last) goes by the same levels when it has no
  /// attack of its own (its level rises less than ``Configuration/ringAttackDecibels`` at its
  /// start). Either is also the ring when it starts within ``Configuration/ringEndSeconds`` of
  /// the last kept sound's end and peaks ``Configuration/ringEndDecibels`` under the level
  /// there, even if it holds its level (a reverberant tail re-tracked as a sound, its modes
  /// beating, was reported as an extra sound).
  func withoutRings(_ sounds: [PerformanceSound], estimates: [PitchEstimate]) -> [PerformanceSound] {
    var kept: [PerformanceSound] = []
    var ringing = -Double.infinity  // the end of the last ring dropped after `kept.last`
    // Whether `sound` is the room ringing on with `source`: its pitch, and quieter by the rule.
    func rings(_ sound: PerformanceSound, after source: PerformanceSound) -> Bool {
      guard sound.isAtPitch(source.frequencyHz, withinCents: configuration.mergeCents) else { return false }
      let first = estimates.partitioningIndex { $0.time >= sound.start - 1e-9 }
      let end = estimates.partitioningIndex { $0.time > sound.end + 1e-9 }
      let levels = estimates[first..<end].map(\.levelDBFS).filter(\.isFinite)
      guard let peak = levels.max(), peak <= source.peakLevelDBFS - configuration.ringDecibels else { return false }
      if peak <= source.peakLevelDBFS - configuration.echoDecibels
        || Double(levels.filter { $0 >= peak - 6 }.count) < Double(levels.count) / 3
      {
        return true
      }
      // Well under where the last sound stopped, soon after.
      guard let lastEnd = kept.last?.end, sound.start - lastEnd <= configuration.ringEndSeconds else { return false }
      let endLevel = estimates[max(0, estimates.partitioningIndex { $0.time >= lastEnd - 1e-9 } - 1)].levelDBFS
      return endLevel.isFinite && peak <= endLevel - configuration.ringEndDecibels
    }
    for sound in sounds {
      if let last = kept.last, sound.start - max(last.end, ringing) <= configuration.echoSeconds,
        rings(sound, after: last)
      {
        ringing = sound.end
        continue
      }
      // The room still ringing with a note before the last: its pitch, no attack of its own.
      let earlier = kept.dropLast().reversed().prefix { sound.start - $0.end <= configuration.echoSeconds }
      if earlier.contains(where: { rings(sound, after: $0) }),
        !Self.rises(estimates, at: sound.start, byDecibels: configuration.ringAttackDecibels)
      {
        continue
      }
      kept.append(sound)
      ringing = -.infinity
    }
    return kept
  }

  /// The voiced estimates in `[from, to]`.
  static func points(of estimates: [PitchEstimate], from: Double, to: Double) -> [PerformanceSound.PitchPoint] {
    let first = estimates.partitioningIndex { $0.time >= from - 1e-9 }
    var points: [PerformanceSound.PitchPoint] = []
    var i = first
    while i < estimates.count, estimates[i].time <= to + 1e-9 {
      if estimates[i].frequencyHz > 0 {
        points.append(.init(time: estimates[i].time, frequencyHz: estimates[i].frequencyHz))
      }
      i += 1
    }
    return points
  }

  /// Joins a legato split that came back to the same pitch with no re-attack (a glitch), and
  /// a blip at a harmonic interval (an octave, a twelfth, a fifth) that runs into a longer sound
  /// with no gap: the tracker's octave error in an attack or a release, part of that sound.
  func merged(_ sounds: [PerformanceSound], estimates: [PitchEstimate]) -> [PerformanceSound] {
    joiningGlitches(absorbingHarmonicBlips(sounds), estimates: estimates)
  }

  /// Joins each legato split that came back to the same pitch with no re-attack: a glitch of
  /// the pitch track, or an octave error it made that the octave check has since undone.
  func joiningGlitches(_ sounds: [PerformanceSound], estimates: [PitchEstimate]) -> [PerformanceSound] {
    var result: [PerformanceSound] = []
    for sound in sounds {
      if let last = result.last, sound.boundary == .pitchChange,
        sound.start - last.end <= 2.5 * configuration.hopSeconds,
        sound.isAtPitch(last.frequencyHz, withinCents: configuration.mergeCents),
        !Self.rises(estimates, at: sound.start, byDecibels: configuration.segmenter.reattackDecibels)
      {
        result[result.count - 1] = joined(last, sound)
      } else {
        result.append(sound)
      }
    }
    return result
  }

  /// Two sounds in a row as one: the first's start, the second's end, both pitch tracks, the
  /// louder peak, and the pitch the median after the attack (of all points when none is later).
  func joined(_ first: PerformanceSound, _ second: PerformanceSound) -> PerformanceSound {
    var joined = first
    joined.end = second.end
    joined.pitchTrack += second.pitchTrack
    joined.peakLevelDBFS = max(first.peakLevelDBFS, second.peakLevelDBFS)
    joined.frequencyHz =
      joined.stableFrequency(skippingAttack: configuration.segmenter.attackSeconds) ?? first.frequencyHz
    return joined
  }

  /// Joins a sound split from the one before it at the same pitch by a swell of level that is
  /// no break between notes: on the note's harmonics the level falls little before the split
  /// (the level swings of a vibrato, a bow's pressure) and rises after it no more than it fell,
  /// unlike a note stopped and played again or played again louder
  /// (``SoundBoundaryRefiner/dip(at:frequencyHz:)``, ``Configuration/breakDecibels``,
  /// ``Configuration/louderDecibels``). The two may be up to ``Configuration/swellGapSeconds``
  /// apart.
  func joiningSwells(_ sounds: [PerformanceSound], refiner: SoundBoundaryRefiner) -> [PerformanceSound] {
    var result: [PerformanceSound] = []
    for sound in sounds {
      if let last = result.last, sound.boundary == .onset,
        sound.start - last.end <= configuration.swellGapSeconds,
        sound.isAtPitch(last.frequencyHz, withinCents: configuration.mergeCents)
      {
        let dip = refiner.dip(at: sound.start, frequencyHz: last.frequencyHz)
        if dip.fall < configuration.breakDecibels, dip.rise - dip.fall < configuration.louderDecibels {
          result[result.count - 1] = joined(last, sound)
          continue
        }
      }
      result.append(sound)
    }
    return result
  }

  /// Folds each blip no longer than ``Configuration/blipSeconds`` that touches a longer sound
  /// (no gap, split only by a change of pitch) into that sound when it is the tracker's error
  /// or part of the note's own attack or release: at a harmonic interval from it, a glide (a
  /// scoop into the note, a fall after it) whose pitch moves towards it by 20 cents or more and
  /// stays within a whole tone of it, or, before it, an attack from quiet within
  /// ``Configuration/scoopCents`` of it (a sample's scoop up from 240 cents flat read as two
  /// pitches, the note then timed 55 ms late, where its pitch arrived) or gliding into it from
  /// further away (``isAttackGlide(_:into:arrivingWithin:)``). Before the sound, the
  /// sound starts at the blip; after it, the sound ends with the blip. The blip's pitch points
  /// are dropped.
  func absorbingHarmonicBlips(_ sounds: [PerformanceSound]) -> [PerformanceSound] {
    let touching = 2.5 * configuration.hopSeconds
    func isBlip(_ sound: PerformanceSound, of other: PerformanceSound, before: Bool) -> Bool {
      // The attack of a note read an octave off: it starts the sound and leads into the note,
      // which lasts longer (1.2 times as long at least: the live tracker's causal track read the
      // first 100–120 ms of FluidR3's flute A5s and G5s an octave low, their breath too strong
      // in odd harmonics for the octave check, and the notes themselves lasted 130–200 ms).
      if before, sound.boundary == .onset, sound.duration < configuration.octaveAttackSeconds,
        other.duration > 1.2 * sound.duration, sound.frequencyHz > 0, other.frequencyHz > 0,
        abs(abs(1200 * log2(sound.frequencyHz / other.frequencyHz)) - 1200) <= 40
      {
        return true
      }
      // Durations fall on the track's hops: one of exactly `blipSeconds` counts, whichever way
      // its floating-point difference rounds (a 100 ms scoop counted at 2.83–2.93 s and not at
      // 0.2–0.3 s).
      guard sound.duration < configuration.blipSeconds + 0.5 * configuration.hopSeconds,
        other.duration > sound.duration
      else { return false }
      if before, sound.boundary == .onset,
        sound.isAtPitch(other.frequencyHz, withinCents: configuration.scoopCents)
          || Self.isAttackGlide(sound, into: other.frequencyHz, arrivingWithin: configuration.mergeCents)
      {
        return true
      }
      return Self.isHarmonicInterval(sound.frequencyHz, other.frequencyHz)
        || Self.isGlide(sound, towards: other.frequencyHz, fromStart: before)
    }
    var result: [PerformanceSound] = []
    var i = 0
    while i < sounds.count {
      let sound = sounds[i]
      if i + 1 < sounds.count, sounds[i + 1].boundary == .pitchChange, sounds[i + 1].start - sound.end <= touching,
        isBlip(sound, of: sounds[i + 1], before: true)
      {
        var next = sounds[i + 1]
        next.start = sound.start
        next.boundary = sound.boundary
        next.peakLevelDBFS = max(next.peakLevelDBFS, sound.peakLevelDBFS)
        result.append(next)
        i += 2
        continue
      }
      if let last = result.last, sound.boundary == .pitchChange, sound.start - last.end <= touching,
        isBlip(sound, of: last, before: false)
      {
        result[result.count - 1].end = sound.end
        result[result.count - 1].peakLevelDBFS = max(last.peakLevelDBFS, sound.peakLevelDBFS)
        i += 1
        continue
      }
      result.append(sound)
      i += 1
    }
    return result
  }

  /// The pitch tracker's noise compensation for sounds (``PitchConfiguration/noiseCompensation``):
  /// off. On the grading evaluation's takes (noisy ones included) the grades came out the same
  /// with the default 0.8, at a tenth more CPU (0.91 s for the 3-minute take against 0.82 s):
  /// the segmentation gates sounds by level and the noisy notes there are loud enough.
  static let noiseCompensation = 0.0

  /// Whether the pitch tracker follows a note under the previous one's louder release from its
  /// start (``ProbabilisticYINEstimator/findsNewestNote``): not for sounds. The rules that split,
  /// merge and refine sounds were measured on the track without it; with it, in
  /// `Evaluation/grading` (diagnose.py), the wrong "any error" flags rose from 27 / 27 / 15 to
  /// 28 / 33 / 17 (FluidR3 / MuseScore / TimGM6mb: onsets moved both ways, extra sounds in
  /// reverb).
  static let findsNewestNote = false

  /// How much of a pitch candidate's probability also counts an octave above and below
  /// (``ProbabilisticYINEstimator/octaveConfusionProbability``): none for sounds, offline and
  /// live, whose rules were measured without it. With the estimator's default 0.05 (ab6e341), in
  /// `Evaluation/grading`, the MuseScore set's wrong "any error" flags rose from 27 to 29
  /// (any-error F1 0.981 → 0.97999, under the 0.98 target; drift timing 0.982 → 0.975, top issue
  /// 1.000 → 0.994, cents error 2.2 → 2.6) and TimGM6mb's from 15 to 16, FluidR3's unchanged
  /// (found in stop 43 by bisecting). Live, without ``restEntryProbability``, it raised the
  /// missed F1 (0.943 → 0.949) but the cents error too (2.3 → 3.1) and the score follower's wrong
  /// links (24 → 25).
  static let octaveConfusionProbability = 0.0

  /// The probability that a pitch after unvoiced frames starts anywhere in the range
  /// (``ProbabilisticYINEstimator/restEntryProbability``): none for sounds, offline and live, whose
  /// rules were measured without it. With the default 0.001 (fb57b44), in `Evaluation/grading`,
  /// the holdouts' extra F1 fell from 0.944 to 0.935 (MuseScore) and 0.953 to 0.948 (TimGM6mb),
  /// and the live grader's missed F1 from 0.943 to 0.930, its top issue from 1.000 to 0.994 and
  /// its cents error rose from 2.3 to 3.0 (found in stop 43 by bisecting).
  static let restEntryProbability = 0.0

  /// Whether the pitch tracker's decimator band-limits to the partials a period needs
  /// (``PitchConfiguration/limitsBandToPartials``): not for sounds, whose rules were measured
  /// without it. With it, in `Evaluation/grading` (FluidR3 set), the wrong "any error" flags rose
  /// from 17 to 20 (any-error F1 0.981 → 0.979; onsets and durations in noise and reverb moved),
  /// while the pitch evaluation's noisy renders gained.
  static let limitsBandToPartials = false

  /// Whether the pitch tracker high-passes below its range first
  /// (``PitchConfiguration/removesRumble``): not for sounds, whose rules were measured without
  /// it. With it, in `Evaluation/grading`, the MuseScore set's wrong "any error" flags rose by one
  /// (early and extra flags in noisy and reverberant takes) and FluidR3's "missed" flags by one
  /// (missed F1 0.943 → 0.937).
  static let removesRumble = false

  /// Whether a blip's pitch glides into (or, after a sound, away from) `frequency`: every
  /// point within 200 cents of it, and the end nearer it than the start by 20 cents or more
  /// (reversed for a blip after the sound).
  static func isGlide(_ blip: PerformanceSound, towards frequency: Double, fromStart: Bool) -> Bool {
    let cents = blip.pitchTrack.map { 1200 * log2($0.frequencyHz / frequency) }
    guard cents.count >= 2, cents.allSatisfy({ abs($0) <= 200 }) else { return false }
    let approach = abs(cents.first!) - abs(cents.last!)
    return fromStart ? approach >= 20 : approach <= -20
  }

  /// Whether a blip's pitch glides into `frequency`, as a note's first frames do while its
  /// attack still fills the pitch tracker's window (a flute's A5 read 1270, 1160, 920 Hz on its
  /// way in): every point nearer it than the one before until one lies within `cents` of it,
  /// 100 cents nearer in all, and the points after that within `cents` of it too.
  static func isAttackGlide(_ blip: PerformanceSound, into frequency: Double, arrivingWithin cents: Double) -> Bool {
    let distances = blip.pitchTrack.map { abs(1200 * log2($0.frequencyHz / frequency)) }
    guard !distances.isEmpty else { return false }
    let glide = distances[...(distances.firstIndex { $0 <= cents } ?? distances.count - 1)]
    guard glide.count >= 2, distances[glide.endIndex...].allSatisfy({ $0 <= cents }) else { return false }
    return zip(glide, glide.dropFirst()).allSatisfy { $0 > $1 } && glide.first! - glide.last! >= 100
  }

  /// Whether two pitches lie an octave, a twelfth, two octaves or a fifth apart (within 40
  /// cents): the intervals a pitch tracker jumps by when it takes a harmonic for the note.
  static func isHarmonicInterval(_ a: Double, _ b: Double) -> Bool {
    guard a > 0, b > 0 else { return false }
    let cents = abs(1200 * log2(a / b))
    return [701.955, 1200, 1901.955, 2400].contains { abs(cents - $0) <= 40 }
  }

  /// Refined ends (against the next sound as tracked), then starts (against the previous
  /// sound's refined end: only a note still sounding makes a start legato).
  func refined(
    _ input: [PerformanceSound], estimates: [PitchEstimate], refiner: SoundBoundaryRefiner
  ) -> [PerformanceSound] {
    // Octave leaps the pitch track did not see, then sub-octave errors: the boundaries follow
    // the notes' real harmonics. A note whose attack the track read an octave low (longer than
    // a blip, so not folded in before) is one sound again once the check has lifted the attack.
    let split = input.flatMap { sound -> [PerformanceSound] in
      guard let leap = refiner.octaveLeap(in: sound) else { return [sound] }
      var first = sound
      var second = sound
      first.end = leap.seconds
      second.start = leap.seconds
      second.boundary = .pitchChange
      first.pitchTrack = sound.pitchTrack.filter { $0.time < leap.seconds }
      second.pitchTrack = sound.pitchTrack.filter { $0.time >= leap.seconds }
      var upper = leap.upperFirst ? first : second
      upper.frequencyHz *= 2
      upper.pitchTrack = upper.pitchTrack.map { .init(time: $0.time, frequencyHz: $0.frequencyHz * 2) }
      if leap.upperFirst { first = upper } else { second = upper }
      return [first, second]
    }
    let checked = split.indices.map { i in
      let sound = split[i]
      var checked = sound
      // The note before, if it may still ring under this one: its partials say nothing of
      // this sound's octave (a C4's 2nd harmonic is the 3rd of an F3 read under an F4).
      let ringing = i > 0 && split[i - 1].end > sound.start - refiner.ringSeconds ? split[i - 1].frequencyHz : nil
      let frequency = refiner.octaveChecked(sound, ringing: ringing)
      if frequency != sound.frequencyHz {
        checked.frequencyHz = frequency
        checked.pitchTrack = sound.pitchTrack.map { .init(time: $0.time, frequencyHz: $0.frequencyHz * 2) }
      }
      return checked
    }
    let sounds = joiningGlitches(checked, estimates: estimates)
    var result = sounds
    for i in result.indices {
      let next = i + 1 < sounds.count ? sounds[i + 1] : nil
      var sound = sounds[i]
      let release = Self.release(of: sound, estimates: estimates, tailDecibels: configuration.tailDecibels)
      sound.end = release.end
      result[i].end = max(
        sounds[i].start + 0.01, refiner.end(of: sound, before: next, lookingBackTo: release.lastLoud - 0.3))
      if sounds[i].end > result[i].end { result[i].heardUntil = sounds[i].end }
    }
    for i in result.indices {
      let start = refiner.start(of: sounds[i], after: i > 0 ? result[i - 1] : nil)
      // Never before the previous sound's start, never after its own end.
      let floor = i > 0 ? result[i - 1].start + 0.02 : 0
      result[i].start = min(max(start, floor), result[i].end - 0.01)
      // A note an octave above the one before, read at its pitch under that note's ring
      // (every harmonic of the upper note is one of the lower's): lifted by its attack.
      if i > 0, sounds[i].isAtPitch(sounds[i - 1].frequencyHz, withinCents: configuration.mergeCents),
        refiner.attacksAnOctaveHigher(sounds[i].frequencyHz, at: result[i].start)
      {
        result[i].frequencyHz *= 2
        result[i].pitchTrack = result[i].pitchTrack.map { .init(time: $0.time, frequencyHz: $0.frequencyHz * 2) }
      }
      // A legato leap the new note's harmonics cannot time (an octave up shares them all with
      // the old note), or the same pitch split again: when the previous note stopped before
      // this start and the sound never dipped in between, the note began when the previous one
      // stopped (so that pieces of one held note stay contiguous for the score's repair).
      if i > 0, !refiner.hasClearHarmonics(of: sounds[i].frequencyHz, near: sounds[i - 1].frequencyHz) {
        let stop = result[i - 1].end
        if result[i].start - stop > 0.02, stop > sounds[i].start - 0.3,
          Self.heldWithoutDip(estimates, from: stop, to: result[i].start)
        {
          // The same pitch again (or its octave, soon after the stop), and its harmonics fell
          // before it: the note played again under the previous one's release. It stays
          // contiguous for the repair, and is timed at its attack (``PerformanceSound/attack``).
          let octaveLeap =
            SoundBoundaryRefiner.isOctave(sounds[i].frequencyHz, above: sounds[i - 1].frequencyHz)
            && stop < sounds[i].start && result[i].start - stop <= configuration.octaveLeapAttackSeconds
          if sounds[i].isAtPitch(sounds[i - 1].frequencyHz, withinCents: configuration.mergeCents) || octaveLeap,
            refiner.dip(at: result[i].start, frequencyHz: sounds[i].frequencyHz).fall
              >= configuration.repeatAttackDecibels
          {
            result[i].attack = result[i].start
          }
          result[i].start = stop
        }
      }
    }
    // One note at a time: a note ends at the latest where the next one begins (an end measured
    // on harmonics the next note shares, or found before the next note's start was refined,
    // ran past it: a legato note's end read 20–30 ms late at the 90th percentile).
    for i in result.indices.dropLast() where result[i + 1].start > result[i].start + 0.01 {
      result[i].end = min(result[i].end, result[i + 1].start)
      // (What the pitch track heard past the new end is still ``PerformanceSound/heardUntil``.)
      if sounds[i].end > result[i].end, result[i].heardUntil == nil { result[i].heardUntil = sounds[i].end }
    }
    return result
  }

  /// Where a sound's tail begins: the room's reverberation or a long release keeps a note
  /// voiced long after it stopped. The note's loud part is the span above its 90th-percentile
  /// level less 8 dB; the sound is cut where, after the last loud point, the level falls
  /// `tailDecibels` under that level (or left as it is when it never does).
  ///
  /// - Returns: The cut, and the time of the last loud point (the sound's end when there are
  ///   too few estimates to tell).
  static func release(
    of sound: PerformanceSound, estimates: [PitchEstimate], tailDecibels: Double
  ) -> (end: Double, lastLoud: Double) {
    let first = estimates.partitioningIndex { $0.time >= sound.start - 1e-9 }
    let last = estimates.partitioningIndex { $0.time > sound.end + 1e-9 }
    guard last - first >= 10 else { return (sound.end, sound.end) }
    let levels = estimates[first..<last].map { $0.levelDBFS.isFinite ? $0.levelDBFS : -200 }
    let top = levels.sorted()[levels.count * 9 / 10]
    guard let lastLoud = levels.lastIndex(where: { $0 >= top - 8 }) else { return (sound.end, sound.end) }
    let loud = estimates[first + lastLoud].time
    guard let quiet = levels[lastLoud...].firstIndex(where: { $0 < top - tailDecibels }) else { return (sound.end, loud) }
    return (estimates[first + quiet].time, loud)
  }

  /// Whether the level rises by `byDecibels` from its lowest point within 60 ms before `time` to
  /// its highest within 80 ms after the lowest point: a new attack.
  static func rises(_ estimates: [PitchEstimate], at time: Double, byDecibels: Double) -> Bool {
    let first = estimates.partitioningIndex { $0.time >= time - 0.06 }
    let last = estimates.partitioningIndex { $0.time > time + 0.02 }
    guard first < last else { return false }
    var lowest = first
    for i in first..<last where estimates[i].levelDBFS < estimates[lowest].levelDBFS { lowest = i }
    let end = estimates.partitioningIndex { $0.time > estimates[lowest].time + 0.08 }
    guard lowest + 1 < end, estimates[lowest].levelDBFS.isFinite else { return lowest + 1 < end }
    let highest = estimates[(lowest + 1)..<end].map(\.levelDBFS).max() ?? -.infinity
    return highest - estimates[lowest].levelDBFS >= byDecibels
  }

  /// Whether the level between two times stays within 6 dB of the quieter of its ends' levels
  /// (no silence between two notes).
  static func heldWithoutDip(_ estimates: [PitchEstimate], from: Double, to: Double) -> Bool {
    let first = estimates.partitioningIndex { $0.time >= from - 0.03 }
    let last = estimates.partitioningIndex { $0.time > to + 0.03 }
    guard last - first >= 2 else { return false }
    let levels = estimates[first..<last].map { $0.levelDBFS.isFinite ? $0.levelDBFS : -200 }
    let ends = min(levels.first!, levels.last!)
    return levels.min()! >= ends - 6
  }

  /// Drops unpitched sounds, sounds too short, sounds far quieter than the take's typical one,
  /// and echoes: a sound at the pitch of the one before, starting within
  /// ``Configuration/echoSeconds`` of its end and ``Configuration/echoDecibels`` quieter.
  func cleaned(_ sounds: [PerformanceSound]) -> [PerformanceSound] {
    let pitched = sounds.filter { $0.frequencyHz > 0 && $0.duration >= configuration.minimumSeconds }
    guard let typical = Self.median(pitched.map(\.peakLevelDBFS)) else { return [] }
    var kept: [PerformanceSound] = []
    for sound in pitched where sound.peakLevelDBFS >= typical - configuration.quietestDecibels {
      // The room's echo of the sound before: its pitch, soon after it, far quieter.
      if let last = kept.last, sound.start - last.end <= configuration.echoSeconds,
        sound.peakLevelDBFS <= last.peakLevelDBFS - configuration.echoDecibels,
        sound.isAtPitch(last.frequencyHz, withinCents: configuration.mergeCents)
      {
        continue
      }
      kept.append(sound)
    }
    return kept
  }

  /// The median of some values, or `nil` when there are none.
  static func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }
}

extension SoundTracker {
  /// The offline pYIN estimator for sounds, for a signal of `frameCount` frames: the decoder
  /// without the newest-note candidates, the octave confusion or the entry anywhere after a rest
  /// (``findsNewestNote``, ``octaveConfusionProbability``, ``restEntryProbability``), as sounds
  /// were measured with.
  static func offlineEstimator(pitch: PitchConfiguration, frameCount: Int) throws(PitchDSPError)
    -> ProbabilisticYINEstimator
  {
    try ProbabilisticYINEstimator.offline(
      configuration: pitch, frameCount: frameCount, findsNewestNote: findsNewestNote,
      octaveConfusionProbability: octaveConfusionProbability, restEntryProbability: restEntryProbability)
  }

  /// The live pYIN estimator for sounds, deciding each frame `lagFrames` hops after it, with the
  /// offline one's decoder settings (``offlineEstimator(pitch:frameCount:)``) and harmonic leaps
  /// off, as offline: with them (Evaluation/grading/live.py) partial, extra and drift-timing F1
  /// rose but the top issue fell from 0.981 to 0.974 and the cents error rose from 3.2 to 4.0.
  /// Both keep the default octave blip (``ProbabilisticYINEstimator/octaveBlipSeconds``); the live
  /// decoder's (stop 45) left every live grading figure as it was and gave the score follower 2
  /// more right links (2,703) and 2 fewer wrong ones.
  static func liveEstimator(pitch: PitchConfiguration, lagFrames: Int) throws(PitchDSPError)
    -> ProbabilisticYINEstimator
  {
    try ProbabilisticYINEstimator(
      configuration: pitch, lagFrames: lagFrames, harmonicLeapProbability: 0, findsNewestNote: findsNewestNote,
      octaveConfusionProbability: octaveConfusionProbability, restEntryProbability: restEntryProbability)
  }
}

extension SoundTracker.Configuration {
  /// The pitch tracker's configuration for sounds at `sampleRate`, offline and live: this range
  /// and hop, with the noise compensation, the band limit and the rumble filter set as sounds
  /// were measured with (``SoundTracker/noiseCompensation``, ``SoundTracker/limitsBandToPartials``,
  /// ``SoundTracker/removesRumble``).
  func pitchConfiguration(sampleRate: Double) -> PitchConfiguration {
    var pitch = PitchConfiguration(
      sampleRate: sampleRate, minimumFrequencyHz: minimumFrequencyHz, maximumFrequencyHz: maximumFrequencyHz,
      hopSeconds: hopSeconds)
    pitch.noiseCompensation = SoundTracker.noiseCompensation
    pitch.limitsBandToPartials = SoundTracker.limitsBandToPartials
    pitch.removesRumble = SoundTracker.removesRumble
    return pitch
  }
}
