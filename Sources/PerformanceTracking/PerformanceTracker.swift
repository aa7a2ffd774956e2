import Foundation
import PitchDSP
import ScoreModel

/// A whole take linked to its score, offline: the audio in, the ``PerformanceAlignment`` out
/// (matches, missed notes, extra sounds, local tempo).
///
/// The steps: the pitch range is fitted to the notes (``SoundTracker/Configuration/fitRange(lowestHz:highestHz:sampleRate:)``),
/// the sounds are found (``SoundTracker``: pYIN's best path, segmentation, boundaries refined on
/// the audio), the latency is the one given or measured from the take
/// (``LatencyCalibration``), the sounds are linked (``ScoreLinker``, by default
/// ``AlignmentLinker``), repaired where the score shows the segmentation went wrong
/// (``ScoreInformedRepair``) and linked again.
///
/// ```swift
/// let score = try Score(contentsOf: url)
/// let tracker = PerformanceTracker(notes: PerformanceNote.melody(of: score))
/// let alignment = try tracker.track(samples, sampleRate: 44_100, latencySeconds: 0.04)
/// ```
///
/// ``LivePerformanceTracker`` runs the same segmentation live, with a score follower; its
/// ``LivePerformanceTracker/finish(samples:)`` ends in the same linking as this.
public struct PerformanceTracker: Sendable {
  /// The notes, in score order (rests included).
  public var notes: [PerformanceNote]
  /// How sounds are found; its pitch range is fitted to the notes when tracking.
  public var configuration: SoundTracker.Configuration
  /// How sounds are linked to notes.
  public var linker: any ScoreLinker
  /// The local tempo fit.
  public var trend: TempoTrend
  /// Whether the score-informed repair runs (on by default).
  public var repairs: Bool
  /// The tuning the notes' frequencies are taken in (for fitting the pitch range).
  public var tuning: Tuning

  /// Creates a tracker.
  ///
  /// - Parameters:
  ///   - notes: The notes, in score order (see ``PerformanceNote/melody(of:)``).
  ///   - configuration: How sounds are found.
  ///   - linker: How sounds are linked to notes.
  ///   - trend: The local tempo fit.
  ///   - repairs: Whether to repair the segmentation against the score.
  ///   - tuning: The tuning of the notes.
  public init(
    notes: [PerformanceNote], configuration: SoundTracker.Configuration = .init(),
    linker: any ScoreLinker = AlignmentLinker(), trend: TempoTrend = TempoTrend(), repairs: Bool = true,
    tuning: Tuning = .standard
  ) {
    self.notes = notes
    self.configuration = configuration
    self.linker = linker
    self.trend = trend
    self.repairs = repairs
    self.tuning = tuning
  }

  /// The sound configuration for a take at `sampleRate`: the pitch range fitted to the notes.
  public func fittedConfiguration(sampleRate: Double) -> SoundTracker.Configuration {
    var fitted = configuration
    let frequencies = notes.compactMap { $0.soundingPitch.map { tuning.frequencyHz(of: $0) } }
    if let low = frequencies.min(), let high = frequencies.max() {
      fitted.fitRange(lowestHz: low, highestHz: high, sampleRate: sampleRate)
    }
    return fitted
  }

  /// A take linked to the notes.
  ///
  /// - Parameters:
  ///   - samples: The take, mono.
  ///   - sampleRate: Its sample rate, in Hz.
  ///   - latencySeconds: How much later than the score the audio runs, in seconds; `nil`
  ///     measures it from the take (``LatencyCalibration``; 0 when too few notes link).
  /// - Returns: The alignment and the pitch track it came from.
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` for a sample rate the
  ///   pitch range cannot be analyzed at.
  public func track(
    _ samples: [Float], sampleRate: Double, latencySeconds: Double?
  ) throws(PitchDSPError) -> (alignment: PerformanceAlignment, estimates: [PitchEstimate]) {
    let refiner = SoundBoundaryRefiner(samples: samples, sampleRate: sampleRate)
    let tracked = try SoundTracker(configuration: fittedConfiguration(sampleRate: sampleRate)).track(
      samples, sampleRate: sampleRate, refiner: refiner)
    return (link(tracked.sounds, latencySeconds: latencySeconds, refiner: refiner), tracked.estimates)
  }

  /// A take read from a WAV file (mixed down to mono), linked to the notes.
  ///
  /// - Parameters:
  ///   - url: The WAV file.
  ///   - latencySeconds: The latency, or `nil` to measure it.
  /// - Returns: The alignment and the pitch track.
  /// - Throws: ``PitchDSPError`` for a file that cannot be read.
  public func track(
    contentsOf url: URL, latencySeconds: Double?
  ) throws(PitchDSPError) -> (alignment: PerformanceAlignment, estimates: [PitchEstimate]) {
    let reader = try WAVReader(url: url)
    var samples: [Float] = []
    samples.reserveCapacity(reader.format.frameCount ?? 0)
    while let block = try reader.readMono(maxFrames: 65536) { samples += block }
    return try track(samples, sampleRate: reader.format.sampleRate, latencySeconds: latencySeconds)
  }

  /// Sounds found elsewhere (a live tracker), linked to the notes: latency, linking, repair,
  /// and doubtful pitches checked against the spectrum (``checkedPitch(of:refiner:)``).
  ///
  /// - Parameters:
  ///   - sounds: The sounds, in time order, on the audio's time line.
  ///   - latencySeconds: The latency, or `nil` to measure it.
  ///   - refiner: The take's audio, for repairs that look for re-attacks and for checking
  ///     pitches (`nil`: joins only, pitches as tracked).
  /// - Returns: The alignment.
  public func link(
    _ sounds: [PerformanceSound], latencySeconds: Double?, refiner: SoundBoundaryRefiner?
  ) -> PerformanceAlignment {
    let latency =
      latencySeconds ?? LatencyCalibration.estimate(notes: notes, sounds: sounds, linker: linker) ?? 0
    let first = PerformanceAlignment(
      notes: notes, sounds: sounds, latencySeconds: latency, linker: linker, trend: trend)
    guard repairs || refiner != nil else { return first }
    var repaired = repairs ? ScoreInformedRepair().repaired(first, refiner: refiner) : sounds
    if let refiner { repaired = repaired.map { checkedPitch(of: $0, refiner: refiner) } }
    return PerformanceAlignment(
      notes: notes, sounds: repaired, latencySeconds: latency, linker: linker, trend: trend)
  }

  /// A sound whose pitch lies off the tuning's semitones, or whose pitch track spreads (its
  /// interquartile range), by more than ``SoundTracker/Configuration/spectralCheckCents``, with
  /// the pitch of its spectrum when the two disagree by more than that (the pitch track mixed
  /// in another note); otherwise the sound as it is.
  func checkedPitch(of sound: PerformanceSound, refiner: SoundBoundaryRefiner) -> PerformanceSound {
    let limit = configuration.spectralCheckCents
    guard let nearest = tuning.nearestNote(frequencyHz: sound.frequencyHz) else { return sound }
    guard abs(nearest.cents) > limit
      || sound.pitchSpreadCents(skippingAttack: configuration.segmenter.attackSeconds) > limit,
      let spectral = refiner.harmonicPitch(of: sound), abs(1200 * log2(spectral / sound.frequencyHz)) > limit
    else { return sound }
    var checked = sound
    checked.frequencyHz = spectral
    return checked
  }
}
