import Foundation

/// Follows a take through the score while it is played: each sound, as it ends, is linked to
/// the note it most likely was, in score order, allowing for skipped notes, extra sounds and a
/// tempo that drifts from the score's.
///
/// The follower keeps a pointer to the next note it expects. A finished sound may be that note,
/// one of the ``maximumSkip`` notes after it (the notes in between were missed), or no note at
/// all (an extra sound); the choice costs, in ``AlignmentLinker/Costs`` units as the offline
/// linker counts them: a missed note per note skipped whose time is not yet over, the distance of the sound's pitch from
/// the note's (``AlignmentLinker``'s pitch cost), a blip against a long note, and the distance
/// of its start from when the note was due on the student's tempo — the note's due time (from
/// the score clock, or predicted from the last due times) plus the median offset of the last
/// linked notes — squared against the interval tolerance and capped. The cheapest choice wins.
/// A greedy, causal version of the offline alignment: ``PerformanceTracker`` revisits every
/// choice once the take is over.
///
/// Times are seconds on the audio's time line; ``noteDue(_:atSeconds:)`` says when a note was
/// due there (its start event, plus the input latency).
///
/// - Note: ``noteDue(_:atSeconds:)``, ``follow(start:end:frequencyHz:)`` and
///   ``expectedSeconds(ofNote:)`` are real-time safe; memory is allocated in `init`.
public final class ScoreFollower {
  /// A sound linked to a note.
  public struct Link: Sendable, Hashable, Codable {
    /// The note's position in the notes the follower was made with.
    public var note: Int
    /// The sound's start, in seconds of audio.
    public var startSeconds: Double
    /// How far the sound's start was from when the note was due, in seconds (positive: late).
    public var offsetSeconds: Double
    /// How far the sound's pitch was from the note's, in cents.
    public var cents: Double
  }

  /// The costs of each choice.
  public let costs: AlignmentLinker.Costs
  /// The most notes one sound may skip.
  public let maximumSkip: Int
  /// How far from a note's expected time a sound may start and still be linked to it, in seconds.
  public let bandSeconds: Double
  /// The number of notes.
  public let noteCount: Int
  /// A note whose expected time is this far behind a sound's start (or half the way to the
  /// next note, if more) is over: passing it costs nothing more, in seconds.
  public let overdueSeconds = 0.15

  private let scoreStarts: UnsafeMutableBufferPointer<Double>
  private let writtenSeconds: UnsafeMutableBufferPointer<Double>
  /// Sounding MIDI note, or −1 for a rest.
  private let pitches: UnsafeMutableBufferPointer<Int>
  /// When each note was due on the audio's time line (NaN until known).
  private let dueSeconds: UnsafeMutableBufferPointer<Double>
  /// The offsets of the last linked notes (a ring), for the local tempo.
  private let recentOffsets: UnsafeMutableBufferPointer<Double>
  private let sortScratch: UnsafeMutableBufferPointer<Double>
  private var recentCount = 0
  private var recentNext = 0
  /// The last two notes whose due times are known: the anchor of predictions.
  private var anchor = (note: -1, seconds: 0.0)
  private var previousAnchor = (note: -1, seconds: 0.0)
  private let latencySeconds: Double

  /// The next note the follower expects (``noteCount`` when the score is done).
  public private(set) var nextNote = 0
  /// The last note linked, or `nil`.
  public private(set) var lastLinkedNote: Int?
  /// How many notes were linked, skipped (missed) and how many sounds were extra.
  public private(set) var linkedCount = 0
  /// Notes passed over by a later link (missed).
  public private(set) var skippedCount = 0
  /// Sounds linked to no note.
  public private(set) var extraCount = 0

  /// Creates a follower; allocates its memory.
  ///
  /// - Parameters:
  ///   - notes: The notes, in score order (rests are never linked).
  ///   - latencySeconds: How much later than the score the audio runs, for notes whose due time
  ///     is predicted from the score before any is known.
  ///   - costs: The costs (the offline linker's by default).
  ///   - maximumSkip: The most notes one sound may skip, 0...32.
  ///   - bandSeconds: The search band around a note's expected time, in seconds.
  public init(
    notes: [PerformanceNote], latencySeconds: Double = 0, costs: AlignmentLinker.Costs = .init(), maximumSkip: Int = 4,
    bandSeconds: Double = 1
  ) {
    self.costs = costs
    self.maximumSkip = min(32, max(0, maximumSkip))
    self.bandSeconds = bandSeconds
    self.latencySeconds = latencySeconds
    noteCount = notes.count
    scoreStarts = .allocate(capacity: max(1, notes.count))
    writtenSeconds = .allocate(capacity: max(1, notes.count))
    pitches = .allocate(capacity: max(1, notes.count))
    dueSeconds = .allocate(capacity: max(1, notes.count))
    for (i, note) in notes.enumerated() {
      scoreStarts[i] = note.expectedStart
      writtenSeconds[i] = note.expectedDuration
      pitches[i] = note.soundingPitch.map { Int($0.rawValue) } ?? -1
      dueSeconds[i] = .nan
    }
    recentOffsets = .allocate(capacity: 5)
    recentOffsets.initialize(repeating: 0)
    sortScratch = .allocate(capacity: 5)
    sortScratch.initialize(repeating: 0)
    skipRests()
  }

  deinit {
    scoreStarts.deallocate()
    writtenSeconds.deallocate()
    pitches.deallocate()
    dueSeconds.deallocate()
    recentOffsets.deallocate()
    sortScratch.deallocate()
  }

  /// Says when a note was due on the audio's time line (its start event from the score clock,
  /// plus the input latency).
  ///
  /// - Parameters:
  ///   - note: The note's position in the notes.
  ///   - seconds: When it was due, in seconds of audio.
  /// - Note: Real-time safe.
  @_noLocks
  public func noteDue(_ note: Int, atSeconds seconds: Double) {
    guard note >= 0, note < noteCount, seconds.isFinite else { return }
    dueSeconds[note] = seconds
    if note != anchor.note {
      previousAnchor = anchor
      anchor = (note, seconds)
    }
  }

  /// When a note is expected on the audio's time line: its due time when known, else predicted
  /// from the last two known due times (the clock's rate), else from the score and the latency.
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public func expectedSeconds(ofNote note: Int) -> Double {
    let due = dueSeconds[note]
    if !due.isNaN { return due }
    guard anchor.note >= 0 else { return scoreStarts[note] + latencySeconds }
    var rate = 1.0
    if previousAnchor.note >= 0 {
      let scoreSpan = scoreStarts[anchor.note] - scoreStarts[previousAnchor.note]
      let audioSpan = anchor.seconds - previousAnchor.seconds
      if scoreSpan > 0.05, audioSpan > 0 { rate = min(8, max(0.125, audioSpan / scoreSpan)) }
    }
    return anchor.seconds + (scoreStarts[note] - scoreStarts[anchor.note]) * rate
  }

  /// The student's offset from the due times lately: the median of the last linked notes'
  /// offsets (0 before any).
  ///
  /// - Note: Real-time safe.
  public var localOffsetSeconds: Double { medianRecentOffset() }

  @_noLocks
  private func medianRecentOffset() -> Double {
    guard recentCount > 0 else { return 0 }
    for i in 0..<recentCount { sortScratch[i] = recentOffsets[i] }
    // Insertion sort of at most five values.
    for i in 1..<max(1, recentCount) {
      let value = sortScratch[i]
      var j = i - 1
      while j >= 0, sortScratch[j] > value {
        sortScratch[j + 1] = sortScratch[j]
        j -= 1
      }
      sortScratch[j + 1] = value
    }
    let middle = recentCount / 2
    return recentCount % 2 == 1 ? sortScratch[middle] : (sortScratch[middle - 1] + sortScratch[middle]) / 2
  }

  /// Links a finished sound to a note, or to none (an extra sound).
  ///
  /// - Parameters:
  ///   - start: The sound's start, in seconds of audio.
  ///   - end: Its end.
  ///   - frequencyHz: Its stable pitch (0 when unpitched).
  /// - Returns: The link, or `nil` for an extra sound.
  /// - Note: Real-time safe.
  @_noLocks
  public func follow(start: Double, end: Double, frequencyHz: Double) -> Link? {
    let local = medianRecentOffset()
    var best = costs.extraSound
    var chosen = -1
    var skipped = 0
    var skipCost = 0.0
    var note = nextNote
    var previousExpected: Double? = nil
    if let last = lastLinkedNote { previousExpected = expectedSeconds(ofNote: last) }
    while note < noteCount, skipped <= maximumSkip {
      guard pitches[note] >= 0 else {
        note += 1
        continue
      }
      let expected = expectedSeconds(ofNote: note) + local
      if start < expected - bandSeconds { break }
      if start <= expected + bandSeconds {
        var interval = 0.0
        if let previousExpected { interval = max(0, expected - local - previousExpected) }
        let tolerance = costs.intervalToleranceSeconds + costs.intervalToleranceRatio * interval
        let z = (start - expected) / tolerance
        let cost =
          skipCost
          + AlignmentLinker.pitchCost(frequencyHz: frequencyHz, midi: pitches[note], costs)
          + AlignmentLinker.durationCost(seconds: end - start, written: writtenSeconds[note], costs)
          + min(costs.intervalCap, z * z)
        if cost < best {
          best = cost
          chosen = note
        }
      }
      // Passing this note costs a missed note, unless its time is over anyway (the sound
      // starts past half the way to the next note): then linking elsewhere and calling the
      // sound extra both leave it missed.
      var following = note + 1
      while following < noteCount, pitches[following] < 0 { following += 1 }
      let gap = following < noteCount ? expectedSeconds(ofNote: following) + local - expected : 0
      if start - expected <= max(overdueSeconds, 0.5 * gap) { skipCost += costs.missedNote }
      skipped += 1
      note += 1
    }
    guard chosen >= 0 else {
      extraCount += 1
      return nil
    }
    var passed = 0
    for k in nextNote..<chosen where pitches[k] >= 0 { passed += 1 }
    skippedCount += passed
    linkedCount += 1
    let offset = start - expectedSeconds(ofNote: chosen)
    recentOffsets[recentNext] = offset
    recentNext = (recentNext + 1) % 5
    recentCount = min(5, recentCount + 1)
    lastLinkedNote = chosen
    nextNote = chosen + 1
    skipRests()
    // RT-audited: libm's log2 is a pure function; it neither allocates nor locks.
    let cents = frequencyHz > 0 ? _unsafePerformance { 1200 * log2(frequencyHz / 440) } + 6900 - Double(pitches[chosen]) * 100 : 0
    return Link(note: chosen, startSeconds: start, offsetSeconds: offset, cents: cents)
  }

  /// A note's expected start on the score's time line, in seconds.
  @_noLocks
  func scoreStart(ofNote note: Int) -> Double { scoreStarts[note] }

  /// A note's expected end on the score's time line, in seconds.
  @_noLocks
  func scoreEnd(ofNote note: Int) -> Double { scoreStarts[note] + writtenSeconds[note] }

  /// A note's sounding MIDI number, or −1 for a rest.
  @_noLocks
  func soundingPitch(ofNote note: Int) -> Int { pitches[note] }

  /// Forgets the take (due times, links, counts).
  public func reset() {
    for i in 0..<noteCount { dueSeconds[i] = .nan }
    recentCount = 0
    recentNext = 0
    anchor = (-1, 0)
    previousAnchor = (-1, 0)
    nextNote = 0
    lastLinkedNote = nil
    linkedCount = 0
    skippedCount = 0
    extraCount = 0
    skipRests()
  }

  @_noLocks
  private func skipRests() {
    while nextNote < noteCount, pitches[nextNote] < 0 { nextNote += 1 }
  }
}
