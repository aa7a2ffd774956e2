import Foundation

/// Links notes to sounds by an order-preserving alignment (dynamic programming over notes and
/// sounds) that yields matches, missed notes and extra sounds, and tolerates tempo drift.
///
/// The cost of an alignment adds:
/// - for each missed note ``Costs/missedNote``, for each extra sound ``Costs/extraSound``;
/// - for each match, how far the sound's pitch is from the note's (nothing within
///   ``Costs/samePitchCents``, ``Costs/octave`` for an octave, ``Costs/otherPitch`` for a
///   semitone or two, ``Costs/farPitch`` beyond: a wrong note played in time is still the
///   student's attempt at that note), and ``Costs/tooShort`` for a blip against a long note;
/// - between consecutive matches, how much the time between the two sounds differs from the
///   time between the two notes, relative to ``Costs/intervalToleranceSeconds`` plus
///   ``Costs/intervalToleranceRatio`` of the written interval, squared and capped at
///   ``Costs/intervalCap`` — so a drifting tempo costs little, note by note, and a single early
///   or late note costs at most twice the cap;
/// - for the first match, the same interval cost from the score's start (time 0 on both time
///   lines, after the latency);
/// - a weak pull towards the score's absolute times beyond ``Costs/absoluteSlackSeconds``.
///
/// Consecutive matches may skip up to ``maximumSkip`` notes and sounds with the interval cost;
/// a longer gap (a passage not played, a burst of noise) re-anchors at ``Costs/reanchor`` (never
/// less than ``Costs/intervalCap``, so that a re-anchor never undercuts a direct transition and
/// a stray sound cannot be linked to a note out of time for less than the interval it breaks).
/// Only sounds within ``bandSeconds`` (plus ``bandRatio`` of the note's time) of a note's
/// expected start are considered for it.
///
/// - Complexity: O(notes · candidates · maximumSkip²).
public struct AlignmentLinker: ScoreLinker {
  /// The costs an alignment adds up; tunable, in units of one missed note ≈ 4.
  public struct Costs: Sendable, Hashable, Codable {
    /// A note with no sound.
    public var missedNote: Double = 4
    /// A sound with no note.
    public var extraSound: Double = 3
    /// A match whose pitch is within ``samePitchCents`` of the note's costs nothing.
    public var samePitchCents: Double = 60
    /// A match an octave (or several) away.
    public var octave: Double = 1
    /// A match a semitone or two away (a wrong note).
    public var otherPitch: Double = 2
    /// A match further away (not an octave): more likely another sound than the note.
    public var farPitch: Double = 3.5
    /// A match whose sound lasts less than ``shortRatio`` of the note's written value (for a
    /// note written longer than a quarter of a second): more likely a stray sound.
    public var tooShort: Double = 1.5
    /// The sounded/written ratio below which ``tooShort`` applies.
    public var shortRatio: Double = 0.3
    /// The interval tolerance's fixed part, in seconds.
    public var intervalToleranceSeconds: Double = 0.04
    /// The interval tolerance's part proportional to the written interval.
    public var intervalToleranceRatio: Double = 0.12
    /// The highest cost one interval can add.
    public var intervalCap: Double = 3
    /// Absolute deviations up to this cost nothing, in seconds.
    public var absoluteSlackSeconds: Double = 0.3
    /// The cost per second of absolute deviation beyond the slack.
    public var absolutePerSecond: Double = 1
    /// The cost of re-anchoring after a long gap (at least ``intervalCap`` is charged).
    public var reanchor: Double = 3

    /// Creates the default costs.
    public init() {}
  }

  /// The costs.
  public var costs: Costs
  /// The most notes (and sounds) skipped between two matches before the gap re-anchors.
  public var maximumSkip: Int
  /// The search band around a note's expected start, in seconds.
  public var bandSeconds: Double
  /// The part of the note's time added to the band (for drift), as a ratio.
  public var bandRatio: Double

  /// Creates the linker.
  ///
  /// - Parameters:
  ///   - costs: The costs.
  ///   - maximumSkip: The most notes or sounds skipped between two matches, 1...32.
  ///   - bandSeconds: The search band, in seconds.
  ///   - bandRatio: The band's growth with time, as a ratio.
  public init(costs: Costs = Costs(), maximumSkip: Int = 6, bandSeconds: Double = 2, bandRatio: Double = 0.12) {
    self.costs = costs
    self.maximumSkip = min(32, max(1, maximumSkip))
    self.bandSeconds = bandSeconds
    self.bandRatio = bandRatio
  }

  /// The cost of matching a sound of `frequencyHz` to a note of `midi`.
  @_noLocks
  static func pitchCost(frequencyHz: Double, midi: Int, _ costs: Costs) -> Double {
    guard frequencyHz > 0 else { return costs.otherPitch }
    // RT-audited: libm's log2 is a pure function; it neither allocates nor locks.
    let cents = _unsafePerformance { 1200 * log2(frequencyHz / 440) } + 6900 - Double(midi) * 100
    if abs(cents) <= costs.samePitchCents { return 0.2 * abs(cents) / costs.samePitchCents }
    // The nearest semitone, halves away from zero (as `rounded()`).
    let semitones = Int(cents / 100 + (cents >= 0 ? 0.5 : -0.5))
    let fromOctave = abs(cents - Double(semitones / 12 * 12) * 100)
    if semitones % 12 == 0 || fromOctave <= costs.samePitchCents { return costs.octave }
    return abs(semitones) <= 2 ? costs.otherPitch : costs.farPitch
  }

  /// The cost of matching a sound of `seconds` to a note written `written` seconds long.
  @_noLocks
  static func durationCost(seconds: Double, written: Double, _ costs: Costs) -> Double {
    written > 0.25 && seconds < costs.shortRatio * written ? costs.tooShort : 0
  }

  func intervalCost(expected: Double, played: Double) -> Double {
    let tolerance = costs.intervalToleranceSeconds + costs.intervalToleranceRatio * max(0, expected)
    let z = (played - expected) / tolerance
    return min(costs.intervalCap, z * z)
  }

  public func link(notes: [PerformanceNote], sounds: [PerformanceSound], latencySeconds: Double) -> [Int?] {
    let pitched = notes.indices.filter { !notes[$0].isRest && notes[$0].soundingPitch != nil }
    let n = pitched.count
    let m = sounds.count
    var result = [Int?](repeating: nil, count: notes.count)
    guard n > 0, m > 0 else { return result }
    let expected = pitched.map { notes[$0].expectedStart }
    let midi = pitched.map { notes[$0].soundingPitch!.rawValue }
    let written = pitched.map { notes[$0].expectedDuration }
    let played = sounds.map { $0.start - latencySeconds }

    // Candidate sounds per note: those in the band, as a range of sound indices.
    var candidates: [Range<Int>] = []
    candidates.reserveCapacity(n)
    for i in 0..<n {
      let band = bandSeconds + bandRatio * max(0, expected[i])
      let low = played.partitioningIndex { $0 >= expected[i] - band }
      let high = played.partitioningIndex { $0 > expected[i] + band }
      candidates.append(low..<max(low, high))
    }

    // cost[i][j - base[i]]: the best alignment of notes 0...i and sounds 0...j ending with i↔j.
    let infinity = Double.infinity
    var cost: [[Double]] = candidates.map { [Double](repeating: infinity, count: $0.count) }
    var from: [[Int]] = candidates.map { [Int](repeating: -1, count: $0.count) }  // packed (i', j') or -1 = start
    // For re-anchoring after a long gap: per sound index j', the least of
    // cost(i', j') − missed·i' − extra·j' over the notes processed so far.
    var anchorBySound = [(value: Double, packed: Int)](repeating: (infinity, -1), count: m)

    func packed(_ i: Int, _ j: Int) -> Int { i * m + j }

    for i in 0..<n {
      let range = candidates[i]
      // Prefix minimum over sound index of the anchors of notes < i (excluding those within the
      // skip window is unnecessary: a re-anchor only ever costs more than a direct transition).
      var prefix = [(value: Double, packed: Int)](repeating: (infinity, -1), count: range.count)
      if !range.isEmpty {
        var running: (value: Double, packed: Int) = (infinity, -1)
        for j in 0..<range.lowerBound where anchorBySound[j].value < running.value { running = anchorBySound[j] }
        for (k, j) in range.enumerated() {
          prefix[k] = running
          if anchorBySound[j].value < running.value { running = anchorBySound[j] }
        }
      }
      for (k, j) in range.enumerated() {
        let local = Self.pitchCost(frequencyHz: sounds[j].frequencyHz, midi: midi[i], costs)
          + Self.durationCost(seconds: sounds[j].duration, written: written[i], costs)
          + costs.absolutePerSecond * max(0, abs(played[j] - expected[i]) - costs.absoluteSlackSeconds)
        // From the start: every earlier note missed, every earlier sound extra, and the interval
        // from the score's start (the audio's, less the latency): the first match is timed too,
        // so that a stray sound well before the first note is not taken for it.
        var best = costs.missedNote * Double(i) + costs.extraSound * Double(j)
          + intervalCost(expected: expected[i], played: played[j])
        var bestFrom = -1
        // Re-anchoring after a long gap.
        let anchor = prefix[k]
        if anchor.packed >= 0 {
          let value =
            anchor.value + costs.missedNote * Double(i - 1) + costs.extraSound * Double(j - 1)
            + max(costs.reanchor, costs.intervalCap)
          if value < best {
            best = value
            bestFrom = anchor.packed
          }
        }
        // Direct transitions from recent matches.
        for i2 in stride(from: i - 1, through: max(0, i - 1 - maximumSkip), by: -1) {
          let range2 = candidates[i2]
          let skipNotes = costs.missedNote * Double(i - i2 - 1)
          let lowJ = max(range2.lowerBound, j - 1 - maximumSkip)
          let highJ = min(range2.upperBound, j)
          guard lowJ < highJ else { continue }
          for j2 in lowJ..<highJ {
            let previous = cost[i2][j2 - range2.lowerBound]
            guard previous < infinity else { continue }
            let value =
              previous + skipNotes + costs.extraSound * Double(j - j2 - 1)
              + intervalCost(expected: expected[i] - expected[i2], played: played[j] - played[j2])
            if value < best {
              best = value
              bestFrom = packed(i2, j2)
            }
          }
        }
        cost[i][k] = best + local
        from[i][k] = bestFrom
      }
      // This note's matches become anchors for later notes: value − missed·i − extra·j.
      for (k, j) in range.enumerated() where cost[i][k] < infinity {
        let value = cost[i][k] - costs.missedNote * Double(i) - costs.extraSound * Double(j)
        if value < anchorBySound[j].value { anchorBySound[j] = (value, packed(i, j)) }
      }
    }

    // The best end: a last match, then every later note missed and sound extra.
    var bestTotal = costs.missedNote * Double(n) + costs.extraSound * Double(m)
    var last = -1
    for i in 0..<n {
      for (k, j) in candidates[i].enumerated() where cost[i][k] < infinity {
        let total = cost[i][k] + costs.missedNote * Double(n - 1 - i) + costs.extraSound * Double(m - 1 - j)
        if total < bestTotal {
          bestTotal = total
          last = packed(i, j)
        }
      }
    }
    while last >= 0 {
      let i = last / m
      let j = last % m
      result[pitched[i]] = j
      last = from[i][j - candidates[i].lowerBound]
    }
    return result
  }
}
