import Foundation
import PitchDSP
import ScoreModel

/// A take followed while it is played: audio frames (and, optionally, the score clock the
/// student plays along with) in, a ``LivePerformanceState`` out after every call; at the end,
/// the same ``PerformanceAlignment`` the offline ``PerformanceTracker`` makes.
///
/// Each ``process(_:)`` call runs live probabilistic YIN (a fixed look-ahead), the note
/// segmenter with the offline tracker's thresholds (``SoundTracker/Configuration``), and a
/// ``ScoreFollower`` that links each sound to a note as the sound ends. With a clock
/// (``process(_:clock:)``), the tracker advances it by the frames' duration and takes each note's
/// start event as the moment that note was due (plus ``Configuration/latencySeconds``), so a
/// count-in or a tempo scale is followed; an app's own score player (any ``ScoreEventSource``,
/// one that pauses or jumps) hands its events to ``process(_:events:clockSeconds:)``.
///
/// ```swift
/// let tracker = try LivePerformanceTracker(notes: notes, sampleRate: 48_000)
/// let clock = ScoreClock(score: score, countInBeats: 4)
/// // In the audio callback:
/// tracker.process(frames, clock: clock)
/// let state = tracker.state          // pitch, due note, cents, last link, counts
/// // When the take is over (not on the audio thread):
/// let alignment = tracker.finish().alignment
/// ```
///
/// ``finish(samples:)`` ends the stream and hands every sound to ``PerformanceTracker/link(_:latencySeconds:refiner:)``
/// — the offline linking, which revisits the follower's greedy choices — after moving the
/// sounds onto the score's time line through the clock's note starts. Given the recorded
/// samples, it also refines the sounds' boundaries on the audio as the offline tracker does.
///
/// - Note: ``process(_:)`` and ``process(_:clock:)`` are real-time safe: they allocate nothing,
///   take no locks and accept any frame count (longer blocks are cut into
///   ``maximumFrames``-frame pieces). Read ``state`` on the thread that calls `process`.
public final class LivePerformanceTracker {
  /// What the tracker looks for.
  public struct Configuration: Sendable, Hashable {
    /// The segmentation and pitch range (the offline tracker's; the range is fitted to the
    /// notes unless ``fitsRange`` is off).
    public var sounds = SoundTracker.Configuration()
    /// Whether the pitch range is fitted to the notes.
    public var fitsRange = true
    /// How much later than the score the audio runs (the input's latency), in seconds.
    public var latencySeconds = 0.0
    /// The follower's costs (the offline linker's).
    public var costs = AlignmentLinker.Costs()
    /// The most notes one sound may skip.
    public var maximumSkip = 4
    /// The live pitch tracker's look-ahead, in hops (1...64).
    public var lookAheadHops = 8
    /// The longest take kept for ``LivePerformanceTracker/finish(samples:)``, in seconds:
    /// the pitch track is stored in memory allocated up front (about 3 MB per 10 minutes).
    public var maximumSeconds = 1200.0

    /// The default configuration.
    public init() {}
  }

  /// The notes, in score order.
  public let notes: [PerformanceNote]
  /// The configuration.
  public let configuration: Configuration
  /// The sample rate, in Hz.
  public let sampleRate: Double
  /// The largest block one pass analyzes (longer calls are cut).
  public let maximumFrames: Int
  /// The state after the last call.
  public private(set) var state = LivePerformanceState()

  private let soundConfiguration: SoundTracker.Configuration
  private let estimatorOwner: ProbabilisticYINEstimator
  private let segmenterOwner: NoteSegmenter
  /// The score follower (read its counts on the thread that calls `process`).
  public let follower: ScoreFollower
  // Unretained views of the owned objects, for the audio path (no reference counting there).
  private let estimator: Unmanaged<ProbabilisticYINEstimator>
  private let segmenter: Unmanaged<NoteSegmenter>
  private let followerView: Unmanaged<ScoreFollower>
  private let minimumSoundSeconds: Double
  private let latency: Double
  private let scratch: UnsafeMutableBufferPointer<PitchEstimate>
  private let events: UnsafeMutableBufferPointer<TimedScoreEvent>
  /// The pitch track so far (for ``finish(samples:)``).
  private let track: UnsafeMutableBufferPointer<PitchEstimate>
  private var trackCount = 0
  /// When each note was due on the audio's time line (NaN until its start event).
  private let dueSeconds: UnsafeMutableBufferPointer<Double>
  /// Each note's live link and when it was made (seconds of audio processed; NaN: none).
  private let links: UnsafeMutableBufferPointer<ScoreFollower.Link>
  private let decidedSeconds: UnsafeMutableBufferPointer<Double>
  /// Position in ``notes`` of each score note index (−1: not graded).
  private let positionOfScoreNote: UnsafeMutableBufferPointer<Int>
  private var framesSeen = 0
  private var usesClock = false
  /// The next note whose expected start (no clock) has not been reached.
  private var scheduleNext = 0

  /// Creates a tracker; allocates all its memory.
  ///
  /// - Parameters:
  ///   - notes: The notes, in score order (``PerformanceNote/melody(of:)``).
  ///   - sampleRate: The audio's sample rate, in Hz.
  ///   - configuration: What it looks for.
  ///   - maximumFrames: The largest block analyzed in one pass (any call size works).
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` for a sample rate or
  ///   range that cannot be analyzed.
  public init(
    notes: [PerformanceNote], sampleRate: Double, configuration: Configuration = Configuration(),
    maximumFrames: Int = 4096
  ) throws(PitchDSPError) {
    self.notes = notes
    self.configuration = configuration
    self.sampleRate = sampleRate
    self.maximumFrames = max(1, maximumFrames)
    var sounds = configuration.sounds
    if configuration.fitsRange {
      sounds = PerformanceTracker(notes: notes, configuration: sounds).fittedConfiguration(sampleRate: sampleRate)
    }
    soundConfiguration = sounds
    let pitch = sounds.pitchConfiguration(sampleRate: sampleRate)
    // The offline grader's decoder settings, whose segmentation rules this one shares.
    let estimator = try SoundTracker.liveEstimator(pitch: pitch, lagFrames: configuration.lookAheadHops)
    estimatorOwner = estimator
    self.estimator = Unmanaged.passUnretained(estimator)
    let segmenter = NoteSegmenter(configuration: sounds.segmenter)
    segmenterOwner = segmenter
    self.segmenter = Unmanaged.passUnretained(segmenter)
    let follower = ScoreFollower(
      notes: notes, latencySeconds: configuration.latencySeconds, costs: configuration.costs,
      maximumSkip: configuration.maximumSkip)
    self.follower = follower
    followerView = Unmanaged.passUnretained(follower)
    minimumSoundSeconds = sounds.minimumSeconds
    latency = configuration.latencySeconds
    scratch = .allocate(capacity: estimator.maximumEstimates(forFrames: self.maximumFrames) + 1)
    events = .allocate(capacity: 64)
    events.initialize(repeating: TimedScoreEvent(seconds: 0, event: .barStart(measure: 0)))
    let capacity = Int(configuration.maximumSeconds / max(1e-3, pitch.hopSeconds)) + 64
    track = .allocate(capacity: max(64, capacity))
    dueSeconds = .allocate(capacity: max(1, notes.count))
    dueSeconds.initialize(repeating: .nan)
    links = .allocate(capacity: max(1, notes.count))
    links.initialize(repeating: ScoreFollower.Link(note: -1, startSeconds: 0, offsetSeconds: 0, cents: 0))
    decidedSeconds = .allocate(capacity: max(1, notes.count))
    decidedSeconds.initialize(repeating: .nan)
    let highest = notes.map(\.index).max() ?? 0
    positionOfScoreNote = .allocate(capacity: highest + 1)
    positionOfScoreNote.initialize(repeating: -1)
    for (position, note) in notes.enumerated() where note.index >= 0 { positionOfScoreNote[note.index] = position }
    state.nextNote = follower.nextNote
  }

  deinit {
    scratch.deallocate()
    events.deallocate()
    track.deallocate()
    dueSeconds.deallocate()
    links.deallocate()
    decidedSeconds.deallocate()
    positionOfScoreNote.deallocate()
  }

  /// The delay from a sound to the estimates that show it: the live pitch tracker's latency,
  /// in seconds. A sound is linked once it has ended and this has passed.
  public var latencySeconds: Double { estimatorOwner.latencySeconds }

  /// Analyzes the next frames of a take played against the score's own timing (score time 0 at
  /// the first frame, plus the configured latency).
  ///
  /// - Parameter frames: Mono samples, any count.
  /// - Note: Real-time safe.
  @_noLocks
  public func process(_ frames: UnsafeBufferPointer<Float>) {
    var offset = 0
    while offset < frames.count {
      let count = min(maximumFrames, frames.count - offset)
      let chunk = UnsafeBufferPointer(rebasing: frames[offset..<(offset + count)])
      scheduleDueNotes(until: Double(framesSeen + count) / sampleRate)
      analyze(chunk)
      offset += count
    }
  }

  /// Analyzes the next frames of a take played along with a ``ScoreClock``: the clock is
  /// advanced by the frames' duration, and each note start it passes tells when that note was
  /// due.
  ///
  /// - Parameters:
  ///   - frames: Mono samples, any count.
  ///   - clock: The score clock.
  /// - Note: Real-time safe.
  @_noLocks
  public func process(_ frames: UnsafeBufferPointer<Float>, clock: ScoreClock) {
    var offset = 0
    while offset < frames.count {
      let count = min(maximumFrames, frames.count - offset)
      let chunk = UnsafeBufferPointer(rebasing: frames[offset..<(offset + count)])
      let before = clock.position
      var remaining = Double(count) / sampleRate
      while true {
        let written = clock.advance(bySeconds: remaining, into: events)
        receive(UnsafeBufferPointer(rebasing: events[0..<written]), clockSecondsAtFirstFrame: before)
        remaining = 0
        if written < events.count { break }
      }
      analyze(chunk)
      offset += count
    }
  }

  /// Analyzes the next frames of a take played along with an app's own score player (any
  /// ``ScoreEventSource``): the events it reported for these frames, and its position when
  /// their first frame was played.
  ///
  /// - Parameters:
  ///   - frames: Mono samples, any count.
  ///   - events: The player's events during these frames, in time order.
  ///   - clockSeconds: The player's position at the first frame, in its seconds.
  /// - Note: Real-time safe.
  @_noLocks
  public func process(
    _ frames: UnsafeBufferPointer<Float>, events: UnsafeBufferPointer<TimedScoreEvent>, clockSeconds: Double
  ) {
    receive(events, clockSecondsAtFirstFrame: clockSeconds)
    var offset = 0
    while offset < frames.count {
      let count = min(maximumFrames, frames.count - offset)
      analyze(UnsafeBufferPointer(rebasing: frames[offset..<(offset + count)]))
      offset += count
    }
  }

  /// Takes a block's score events: clock time `clockSeconds` is the block's first frame.
  @_noLocks
  private func receive(_ timed: UnsafeBufferPointer<TimedScoreEvent>, clockSecondsAtFirstFrame clockSeconds: Double) {
    usesClock = true
    let blockStart = Double(framesSeen) / sampleRate
    for event in timed { receive(event, at: blockStart + (event.seconds - clockSeconds)) }
  }

  @_noLocks
  private func receive(_ timed: TimedScoreEvent, at seconds: Double) {
    switch timed.event {
    case .noteStart(let note):
      guard note >= 0, note < positionOfScoreNote.count else { return }
      let position = positionOfScoreNote[note]
      guard position >= 0 else { return }
      let due = seconds + latency
      dueSeconds[position] = due
      let pitched = followerView._withUnsafeGuaranteedRef { follower in
        follower.noteDue(position, atSeconds: due)
        return follower.soundingPitch(ofNote: position) >= 0
      }
      if pitched { state.dueNote = position }
    case .noteEnd(let note):
      guard note >= 0, note < positionOfScoreNote.count else { return }
      if let due = state.dueNote, positionOfScoreNote[note] == due { state.dueNote = nil }
    case .barStart, .countIn:
      break
    }
  }

  /// Without a clock: the notes whose expected start (plus the latency) falls before `seconds`
  /// become due.
  @_noLocks
  private func scheduleDueNotes(until seconds: Double) {
    let follower = followerView
    while scheduleNext < dueSeconds.count {
      let position = scheduleNext
      let due = follower._withUnsafeGuaranteedRef { $0.scoreStart(ofNote: position) } + latency
      guard due <= seconds else { break }
      dueSeconds[position] = due
      let pitched = follower._withUnsafeGuaranteedRef { follower in
        follower.noteDue(position, atSeconds: due)
        return follower.soundingPitch(ofNote: position) >= 0
      }
      state.dueNote = pitched ? position : nil
      scheduleNext += 1
    }
    if let due = state.dueNote, follower._withUnsafeGuaranteedRef({ $0.scoreEnd(ofNote: due) }) + latency <= seconds {
      state.dueNote = nil
    }
  }

  @_noLocks
  private func analyze(_ chunk: UnsafeBufferPointer<Float>) {
    let output = scratch
    let produced = estimator._withUnsafeGuaranteedRef { $0.process(chunk, into: output) }
    framesSeen += chunk.count
    for k in 0..<produced { consume(scratch[k]) }
  }

  @_noLocks
  private func consume(_ estimate: PitchEstimate) {
    if trackCount < track.count {
      track[trackCount] = estimate
      trackCount += 1
    }
    state.seconds = estimate.time
    state.frequencyHz = estimate.frequencyHz
    state.levelDBFS = estimate.levelDBFS
    if let segment = segmenter._withUnsafeGuaranteedRef({ $0.process(estimate) }) { conclude(segment) }
    state.isSounding = segmenter._withUnsafeGuaranteedRef { $0.isSounding }
    var duePitch = -1
    if let due = state.dueNote { duePitch = followerView._withUnsafeGuaranteedRef { $0.soundingPitch(ofNote: due) } }
    if state.dueNote != nil, estimate.frequencyHz > 0, duePitch >= 0 {
      // RT-audited: libm's log2 is a pure function; it neither allocates nor locks.
      state.centsFromDueNote =
        _unsafePerformance { 1200 * log2(estimate.frequencyHz / 440) } + 6900 - Double(duePitch) * 100
    } else if state.dueNote == nil {
      state.centsFromDueNote = nil
    }
  }

  @_noLocks
  private func conclude(_ segment: NoteSegment) {
    guard segment.frequencyHz > 0, segment.end - segment.start >= minimumSoundSeconds else { return }
    state.sounds += 1
    let (link, next, linked, skipped, extra) = followerView._withUnsafeGuaranteedRef { follower in
      let link = follower.follow(start: segment.start, end: segment.end, frequencyHz: segment.frequencyHz)
      return (link, follower.nextNote, follower.linkedCount, follower.skippedCount, follower.extraCount)
    }
    if let link {
      state.lastLink = link
      links[link.note] = link
      decidedSeconds[link.note] = Double(framesSeen) / sampleRate
    }
    state.nextNote = next
    state.linkedNotes = linked
    state.missedNotes = skipped
    state.extraSounds = extra
  }

  /// The live link of a note (position in ``notes``) and when it was made, in seconds of audio
  /// processed; `nil` while the note has none.
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public func link(forNote note: Int) -> (link: ScoreFollower.Link, decidedAtSeconds: Double)? {
    guard note >= 0, note < decidedSeconds.count, !decidedSeconds[note].isNaN else { return nil }
    return (links[note], decidedSeconds[note])
  }

  /// Forgets the take, to follow a new one from the start (nothing is reallocated).
  public func reset() {
    estimatorOwner.reset()
    segmenterOwner.reset()
    follower.reset()
    state = LivePerformanceState()
    state.nextNote = follower.nextNote
    trackCount = 0
    for i in 0..<dueSeconds.count {
      dueSeconds[i] = .nan
      decidedSeconds[i] = .nan
    }
    framesSeen = 0
    usesClock = false
    scheduleNext = 0
  }

  /// Ends the take: the estimates still held back and the sound still sounding are analyzed,
  /// and every sound is linked by the offline linking.
  ///
  /// Not real-time safe: it allocates, and it runs the offline linking.
  ///
  /// - Parameter samples: The take as recorded, to refine the sounds' boundaries on the audio
  ///   (`nil`: the boundaries the pitch track gives).
  /// - Returns: The alignment, on the score's time line through the clock's note starts, and
  ///   the pitch track (audio time).
  public func finish(samples: [Float]? = nil) -> (alignment: PerformanceAlignment, estimates: [PitchEstimate]) {
    let produced = estimatorOwner.finish(into: scratch)
    for k in 0..<produced { consume(scratch[k]) }
    if let segment = segmenterOwner.finish() { conclude(segment) }
    let estimates = Array(UnsafeBufferPointer(rebasing: track[0..<trackCount]))
    let audio = samples ?? []
    let take = audio.isEmpty ? nil : SoundBoundaryRefiner(samples: audio, sampleRate: sampleRate)
    var sounds = SoundTracker(configuration: soundConfiguration).sounds(from: estimates, refiner: take)
    let map = ScoreTimeMap(notes: notes, dueSeconds: Array(dueSeconds), latencySeconds: configuration.latencySeconds)
    let identity = !usesClock || map.isIdentity
    if !identity { sounds = sounds.map(map.mapped) }
    let refiner = identity ? take : nil
    let alignment = PerformanceTracker(notes: notes, configuration: soundConfiguration).link(
      sounds, latencySeconds: configuration.latencySeconds, refiner: refiner)
    return (alignment, estimates)
  }
}
