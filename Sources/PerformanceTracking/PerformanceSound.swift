import Foundation
import PitchDSP

/// One sound the student made: when it started and ended, its pitch over time, its stable pitch
/// and how loud it was.
///
/// Times are seconds on the audio's time line (the take's first sample is 0); the linker moves
/// them onto the score's time line by the latency.
public struct PerformanceSound: Sendable, Hashable, Codable {
  /// One voiced point of the sound's pitch track.
  public struct PitchPoint: Sendable, Hashable, Codable {
    /// The time, in seconds.
    public var time: Double
    /// The frequency, in Hz.
    public var frequencyHz: Double

    /// Creates a point.
    public init(time: Double, frequencyHz: Double) {
      self.time = time
      self.frequencyHz = frequencyHz
    }
  }

  /// How the sound began.
  public typealias Boundary = NoteSegment.Boundary

  /// The start, in seconds.
  public var start: Double
  /// The end, in seconds.
  public var end: Double
  /// The stable pitch: the median frequency after the attack, in Hz (0 when unpitched).
  public var frequencyHz: Double
  /// The voiced estimates inside the sound, in time order.
  public var pitchTrack: [PitchPoint]
  /// The highest level reached, in dBFS.
  public var peakLevelDBFS: Double
  /// How it began: after quiet, or by a change of pitch (legato).
  public var boundary: Boundary
  /// When its attack began, when that is later than ``start``; `nil` otherwise. A note played
  /// again at the pitch of the one before it, under that one's release, starts where the
  /// previous note stopped (the two stay contiguous, as pieces of one held note would, for the
  /// score to join or split), while its attack, found on its harmonics, began later.
  public var attack: Double?
  /// Where the pitch track still heard the sound, when that is later than ``end``; `nil`
  /// otherwise. A refined end cuts what follows the note's release line: the release itself,
  /// the room's ring, or a quieter note played again at the same pitch that the level did not
  /// set apart (the score's repair looks there for a note it misses).
  public var heardUntil: Double?

  /// Creates a sound.
  ///
  /// - Parameters:
  ///   - start: The start, in seconds.
  ///   - end: The end, in seconds.
  ///   - frequencyHz: The stable pitch, in Hz (0 when unpitched).
  ///   - pitchTrack: The voiced points inside it.
  ///   - peakLevelDBFS: The highest level, in dBFS.
  ///   - boundary: How it began.
  public init(
    start: Double, end: Double, frequencyHz: Double, pitchTrack: [PitchPoint] = [], peakLevelDBFS: Double,
    boundary: Boundary = .onset
  ) {
    self.start = start
    self.end = end
    self.frequencyHz = frequencyHz
    self.pitchTrack = pitchTrack
    self.peakLevelDBFS = peakLevelDBFS
    self.boundary = boundary
  }

  /// The length, in seconds.
  public var duration: Double { end - start }

  /// When the note was heard to begin: ``attack`` if known, else ``start``, in seconds.
  public var onset: Double { attack ?? start }

  /// `true` when the sound has a pitch.
  public var isPitched: Bool { frequencyHz > 0 }

  /// The sound with every time moved by `transform`: ``start``, ``end``, ``attack`` and the
  /// points of ``pitchTrack`` (the end kept at or after the start). `transform` must not go
  /// back in time (a later time maps to a later or equal one).
  ///
  /// - Parameter transform: A time in seconds to its new value, such as `{ $0 - latency }` to
  ///   move a sound onto the score's time line.
  public func mapped(_ transform: (Double) -> Double) -> PerformanceSound {
    var moved = self
    moved.start = transform(start)
    moved.end = max(moved.start, transform(end))
    moved.attack = attack.map(transform)
    moved.heardUntil = heardUntil.map(transform)
    moved.pitchTrack = pitchTrack.map { PitchPoint(time: transform($0.time), frequencyHz: $0.frequencyHz) }
    return moved
  }

  /// The stable pitch of ``pitchTrack``: the median frequency of its points from
  /// `attackSeconds` after ``start`` on (of every point when none is that late), in Hz; `nil`
  /// when the track is empty.
  ///
  /// - Parameter attackSeconds: The attack left out, in seconds.
  public func stableFrequency(skippingAttack attackSeconds: Double) -> Double? {
    let body = pitchTrack.filter { $0.time >= start + attackSeconds }.map(\.frequencyHz)
    return SoundTracker.median(body.isEmpty ? pitchTrack.map(\.frequencyHz) : body)
  }

  /// How widely ``pitchTrack`` spreads from `attackSeconds` after ``start`` on: the
  /// interquartile range of its points, in cents; 0 with fewer than four points.
  ///
  /// - Parameter attackSeconds: The attack left out, in seconds.
  func pitchSpreadCents(skippingAttack attackSeconds: Double) -> Double {
    let cents = pitchTrack.filter { $0.time >= start + attackSeconds }.map { 1200 * log2($0.frequencyHz) }.sorted()
    guard cents.count >= 4 else { return 0 }
    return cents[cents.count * 3 / 4] - cents[cents.count / 4]
  }

  /// Whether the sound's stable pitch is within `cents` of `frequencyHz`; `false` when either is
  /// unpitched (not above 0).
  func isAtPitch(_ frequencyHz: Double, withinCents cents: Double) -> Bool {
    self.frequencyHz > 0 && frequencyHz > 0 && abs(1200 * log2(self.frequencyHz / frequencyHz)) <= cents
  }
}
