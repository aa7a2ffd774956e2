import Foundation
import ScoreModel
import Testing
import _TestSupport

@testable import PerformanceTracking

/// The live tracker on synthesized takes: fed in blocks of any size, with or without a score
/// clock, it follows every note as it is played and ends with the offline linking.
@Suite struct LivePerformanceTrackerTests {
  static let rate = 44_100.0

  /// A score of eight quarter notes at 120 per minute after a bar of rest (a count-in bar): C4
  /// up the C major scale to C5, each due at 2 + k/2 seconds.
  static let musicXML = """
    <?xml version="1.0" encoding="UTF-8"?>
    <score-partwise version="4.0">
      <part-list><score-part id="P1"><part-name>Trumpet</part-name></score-part></part-list>
      <part id="P1">
        <measure number="1">
          <attributes><divisions>1</divisions><time><beats>4</beats><beat-type>4</beat-type></time></attributes>
          <direction><sound tempo="120"/></direction>
          <note><rest/><duration>4</duration></note>
        </measure>
        <measure number="2">
          <note><pitch><step>C</step><octave>4</octave></pitch><duration>1</duration></note>
          <note><pitch><step>D</step><octave>4</octave></pitch><duration>1</duration></note>
          <note><pitch><step>E</step><octave>4</octave></pitch><duration>1</duration></note>
          <note><pitch><step>F</step><octave>4</octave></pitch><duration>1</duration></note>
        </measure>
        <measure number="3">
          <note><pitch><step>G</step><octave>4</octave></pitch><duration>1</duration></note>
          <note><pitch><step>A</step><octave>4</octave></pitch><duration>1</duration></note>
          <note><pitch><step>B</step><octave>4</octave></pitch><duration>1</duration></note>
          <note><pitch><step>C</step><octave>5</octave></pitch><duration>1</duration></note>
        </measure>
      </part>
    </score-partwise>
    """

  static func score() throws -> Score { try Score(musicXML: Data(musicXML.utf8)) }

  /// A brass-like take of `notes`: each pitched note at `offset + stretch · start` for 0.42 s
  /// (`stretch` of its written length), eight partials, a 15 ms attack and a 40 ms release,
  /// except the notes in `skipping`; then a second of silence.
  static func take(
    _ notes: [PerformanceNote], offset: Double = 0, stretch: Double = 1, skipping: Set<Int> = []
  ) -> [Float] {
    let generator = SignalGenerator(sampleRate: rate)
    let end = (notes.map(\.expectedEnd).max() ?? 0) * stretch + offset + 1
    var samples = [Float](repeating: 0, count: Int(end * rate))
    for (i, note) in notes.enumerated() where !note.isRest && !skipping.contains(i) {
      let seconds = 0.84 * note.expectedDuration * stretch
      let tone = generator.harmonicTone(
        fundamentalHz: SyntheticTake.hz(Int(note.soundingPitch!.rawValue)),
        partialAmplitudes: (1...8).map { pow(0.7, Double($0 - 1)) }, length: .seconds(seconds))
      let gains = ADSREnvelope(attackSeconds: 0.015, decaySeconds: 0.05, sustainLevel: 0.8, releaseSeconds: 0.04)
        .gains(frameCount: tone.count, sampleRate: rate)
      let first = Int((offset + note.expectedStart * stretch) * rate)
      for n in tone.indices where first + n < samples.count { samples[first + n] += 0.1 * tone[n] * gains[n] }
    }
    return samples
  }

  /// Feeds `samples` in blocks of `block` frames, with the clock when given.
  static func run(
    _ tracker: LivePerformanceTracker, _ samples: [Float], block: Int, clock: ScoreClock? = nil,
    watch: (LivePerformanceState) -> Void = { _ in }
  ) {
    samples.withUnsafeBufferPointer { all in
      var offset = 0
      while offset < all.count {
        let count = min(block, all.count - offset)
        let frames = UnsafeBufferPointer(rebasing: all[offset..<(offset + count)])
        if let clock { tracker.process(frames, clock: clock) } else { tracker.process(frames) }
        watch(tracker.state)
        offset += count
      }
    }
  }

  @Test(arguments: [1, 441, 512, 4096, 8192])
  func everyNoteIsFollowedWhateverTheBlockSize(block: Int) throws {
    let notes = PerformanceNote.melody(of: try Self.score())
    let samples = Self.take(notes)
    let tracker = try LivePerformanceTracker(notes: notes, sampleRate: Self.rate, maximumFrames: 4096)
    var seenLinks: [Int] = []
    Self.run(tracker, samples, block: block) { state in
      if let link = state.lastLink, seenLinks.last != link.note { seenLinks.append(link.note) }
    }
    // Live: every note linked in order as it ended, none missed, no extra sound.
    #expect(seenLinks == Array(1...8))
    let state = tracker.state
    #expect(state.linkedNotes == 8 && state.missedNotes == 0 && state.extraSounds == 0)
    // At the end: the offline linking agrees, onsets within 20 ms, pitch within 5 cents.
    let alignment = tracker.finish(samples: samples).alignment
    for i in 1...8 {
      let sound = try #require(alignment.sound(forNote: i), "note \(i)")
      #expect(abs(sound.start - notes[i].expectedStart) < 0.02, "note \(i) starts at \(sound.start)")
      let cents = 1200 * log2(sound.frequencyHz / SyntheticTake.hz(Int(notes[i].soundingPitch!.rawValue)))
      #expect(abs(cents) < 5, "note \(i): \(cents) cents")
    }
    #expect(alignment.extraSoundIndices.isEmpty)
  }

  @Test func theStateShowsTheDueNoteAndHowFarThePitchIsFromIt() throws {
    let notes = PerformanceNote.melody(of: try Self.score())
    let samples = Self.take(notes)
    let tracker = try LivePerformanceTracker(notes: notes, sampleRate: Self.rate)
    var checked = 0
    Self.run(tracker, samples, block: 256) { state in
      // Well inside note 3 (E4, due 3.0 to 3.5 s; estimates lag by the tracker's latency).
      guard state.seconds > 3.15, state.seconds < 3.3 else { return }
      #expect(state.dueNote == 3)
      #expect(state.isSounding)
      #expect(abs(state.centsFromDueNote ?? 99) < 5)
      checked += 1
    }
    #expect(checked > 5)
    #expect(tracker.latencySeconds > 0.05 && tracker.latencySeconds < 0.2)
  }

  @Test func aClockWithACountInAndASlowerTempoIsFollowedOnTheScoresTimeLine() throws {
    let score = try Self.score()
    let notes = PerformanceNote.melody(of: score)
    // Four beats of count-in at 0.8 × the tempo: 2.5 s; score time t is due at 2.5 + t / 0.8.
    let clock = ScoreClock(score: score, tempoScale: 0.8, countInBeats: 4)
    let samples = Self.take(notes, offset: clock.countInSeconds, stretch: 1 / 0.8)
    let tracker = try LivePerformanceTracker(notes: notes, sampleRate: Self.rate)
    Self.run(tracker, samples, block: 512, clock: clock)
    #expect(tracker.state.linkedNotes == 8)
    let alignment = tracker.finish(samples: samples).alignment
    for i in 1...8 {
      let sound = try #require(alignment.sound(forNote: i))
      // Mapped back onto the score's time line.
      #expect(abs(sound.start - notes[i].expectedStart) < 0.02, "note \(i) at \(sound.start)")
      #expect(abs(sound.duration - 0.84 * notes[i].expectedDuration) < 0.05, "note \(i) lasts \(sound.duration)")
    }
  }

  @Test func aMissedNoteAndTheLatencyAreHandledLive() throws {
    let notes = PerformanceNote.melody(of: try Self.score())
    let samples = Self.take(notes, offset: 0.05, skipping: [4])
    var configuration = LivePerformanceTracker.Configuration()
    configuration.latencySeconds = 0.05
    let tracker = try LivePerformanceTracker(notes: notes, sampleRate: Self.rate, configuration: configuration)
    Self.run(tracker, samples, block: 512)
    #expect(tracker.state.linkedNotes == 7 && tracker.state.missedNotes == 1)
    let alignment = tracker.finish(samples: samples).alignment
    #expect(alignment.soundIndices[4] == nil)
    #expect(alignment.soundIndices.compactMap { $0 }.count == 7)
    #expect(abs(alignment.onset(ofSound: alignment.soundIndices[5]!) - notes[5].expectedStart) < 0.02)
  }

  @Test func nonFiniteSamplesAndSilenceDoNotPoisonTheTake() throws {
    let notes = PerformanceNote.melody(of: try Self.score())
    var samples = Self.take(notes)
    // NaN and infinities through the count-in and a burst inside note 2.
    for n in stride(from: 1000, to: 60_000, by: 7) { samples[n] = n % 2 == 0 ? .nan : .infinity }
    for n in Int(2.6 * Self.rate)..<Int(2.61 * Self.rate) { samples[n] = -.infinity }
    let tracker = try LivePerformanceTracker(notes: notes, sampleRate: Self.rate)
    Self.run(tracker, samples, block: 512)
    let alignment = tracker.finish().alignment
    for i in [4, 5, 6, 7, 8] { #expect(alignment.sound(forNote: i) != nil, "note \(i)") }
    #expect(tracker.state.frequencyHz.isFinite)
  }

  @Test func resetFollowsASecondTakeFromTheStart() throws {
    let notes = PerformanceNote.melody(of: try Self.score())
    let samples = Self.take(notes)
    let tracker = try LivePerformanceTracker(notes: notes, sampleRate: Self.rate)
    Self.run(tracker, samples, block: 1024)
    let first = tracker.finish(samples: samples).alignment.soundIndices
    tracker.reset()
    #expect(tracker.state.linkedNotes == 0 && tracker.state.nextNote == 1)
    Self.run(tracker, samples, block: 1024)
    #expect(tracker.state.linkedNotes == 8)
    #expect(tracker.finish(samples: samples).alignment.soundIndices == first)
  }
}
