/// One round of a Simon-style quiz: a few steps of a composition that the player must tap back.
///
/// A step is the set of notes that start together, so a chord is one step (Moodles' round 4
/// asks for three notes at once). Make rounds with ``Composition/quizRounds(by:chordWindow:)``
/// and judge a player's taps with ``check(_:options:)``.
public struct QuizRound: Sendable, Hashable, Codable {
  /// The round's number, from 1.
  public var number: Int
  /// The steps, in order.
  public var steps: [Step]

  /// Notes that start together.
  public struct Step: Sendable, Hashable, Codable {
    /// When the step starts, in beats from the start of the composition.
    public var beat: Double
    /// When the step starts, in seconds from the start of the composition.
    public var seconds: Double
    /// The MIDI note numbers, sorted, without repeats.
    public var notes: [Int]

    /// Creates a step.
    public init(beat: Double, seconds: Double, notes: [Int]) {
      self.beat = beat
      self.seconds = seconds
      self.notes = Array(Set(notes)).sorted()
    }
  }

  /// Creates a round.
  public init(number: Int, steps: [Step]) {
    self.number = number
    self.steps = steps
  }

  /// How ``check(_:options:)`` judges.
  public struct CheckOptions: Sendable, Hashable, Codable {
    /// Taps whose presses lie within this many seconds of a step's first tap belong to that step
    /// (a chord is never tapped perfectly together).
    public var chordWindow: Double
    /// How far, in seconds, a step may come early or late. Timing counts from the player's first
    /// step, so the player may start whenever they like. `nil` checks notes and order only.
    public var timingTolerance: Double?

    /// Creates options: a 120 ms chord window and a 250 ms timing tolerance by default.
    public init(chordWindow: Double = 0.12, timingTolerance: Double? = 0.25) {
      self.chordWindow = chordWindow
      self.timingTolerance = timingTolerance
    }
  }

  /// The verdict on one step.
  public struct StepResult: Sendable, Hashable, Codable {
    /// The step's index in the round (steps beyond the round's are extra taps).
    public var index: Int
    /// The expected notes (empty for an extra step).
    public var expected: [Int]
    /// The notes the player tapped (empty for a missed step).
    public var played: [Int]
    /// What happened.
    public var verdict: Verdict
    /// Played minus expected time, in seconds, relative to the first step (negative: early);
    /// `nil` when there is nothing to compare.
    public var timingError: Double?
  }

  /// What happened at a step.
  public enum Verdict: String, Sendable, Hashable, Codable {
    /// The right notes, in time.
    case correct
    /// Notes missing or wrong.
    case wrongNotes
    /// The right notes, too early.
    case early
    /// The right notes, too late.
    case late
    /// Nothing was played for this step.
    case missed
    /// Notes played after the round was complete.
    case extra
  }

  /// The verdict on a whole round.
  public struct Result: Sendable, Hashable, Codable {
    /// One entry per expected step, then one per extra step.
    public var steps: [StepResult]
    /// `true` when every expected step is correct and nothing extra was played.
    public var passed: Bool { steps.allSatisfy { $0.verdict == .correct } }
  }

  /// Judges a player's taps against this round.
  ///
  /// Taps are grouped into steps by their press times (``CheckOptions/chordWindow``); the
  /// player's n-th step is compared with the round's n-th step: its set of notes, then its time
  /// relative to the first step. Playing the right notes in the wrong order makes those steps
  /// wrong.
  ///
  /// - Parameters:
  ///   - taps: The player's taps, in any order; times in seconds on any clock.
  ///   - options: Chord window and timing tolerance.
  /// - Returns: A verdict per step.
  public func check(_ taps: [Tap], options: CheckOptions = .init()) -> Result {
    let played = Self.steps(of: taps, chordWindow: options.chordWindow)
    var results: [StepResult] = []
    let origin = (expected: steps.first?.seconds ?? 0, played: played.first?.seconds ?? 0)
    for (index, step) in steps.enumerated() {
      guard index < played.count else {
        results.append(StepResult(index: index, expected: step.notes, played: [], verdict: .missed, timingError: nil))
        continue
      }
      let attempt = played[index]
      let error = (attempt.seconds - origin.played) - (step.seconds - origin.expected)
      var verdict = Verdict.correct
      if attempt.notes != step.notes {
        verdict = .wrongNotes
      } else if let tolerance = options.timingTolerance, abs(error) > tolerance {
        verdict = error < 0 ? .early : .late
      }
      results.append(StepResult(index: index, expected: step.notes, played: attempt.notes, verdict: verdict, timingError: error))
    }
    for index in steps.count..<max(steps.count, played.count) {
      results.append(StepResult(index: index, expected: [], played: played[index].notes, verdict: .extra, timingError: nil))
    }
    return Result(steps: results)
  }

  /// Groups taps into steps: sorted by press, a tap within `chordWindow` seconds of the current
  /// step's first tap joins it.
  static func steps(of taps: [Tap], chordWindow: Double) -> [(seconds: Double, notes: [Int])] {
    var out: [(seconds: Double, notes: [Int])] = []
    for tap in taps.filter({ $0.press.isFinite }).sorted(by: { ($0.press, $0.note) < ($1.press, $1.note) }) {
      if let last = out.last, tap.press - last.seconds <= chordWindow {
        if !last.notes.contains(tap.note) {
          out[out.count - 1].notes = (last.notes + [tap.note]).sorted()
        }
      } else {
        out.append((tap.press, [tap.note]))
      }
    }
    return out
  }
}

extension Composition {
  /// How to slice a composition into quiz rounds.
  public enum QuizSlicing: Sendable, Hashable {
    /// So many bars per round (bars from the time signatures; 4/4 when there are none).
    case bars(Int)
    /// So many steps per round.
    case steps(Int)
  }

  /// Slices the composition into quiz rounds.
  ///
  /// Notes (chords and sequences expanded) whose starts lie within `chordWindow` beats of a
  /// step's first note form one step. A bar with no note gives no round.
  ///
  /// - Parameters:
  ///   - slicing: By bars or by step counts (at least 1 per round).
  ///   - chordWindow: In beats; notes this close form one step.
  /// - Returns: The rounds, numbered from 1.
  public func quizRounds(by slicing: QuizSlicing, chordWindow: Double = 1.0 / 32) -> [QuizRound] {
    let map = tempoMap
    var steps: [QuizRound.Step] = []
    for note in notes {
      if let last = steps.last, note.time - last.beat <= chordWindow {
        steps[steps.count - 1] = QuizRound.Step(beat: last.beat, seconds: last.seconds, notes: last.notes + [note.number])
      } else {
        steps.append(QuizRound.Step(beat: note.time, seconds: map.seconds(atBeat: note.time), notes: [note.number]))
      }
    }
    var groups: [[QuizRound.Step]] = []
    switch slicing {
    case .steps(let count):
      let size = max(1, count)
      groups = stride(from: 0, to: steps.count, by: size).map { Array(steps[$0..<min($0 + size, steps.count)]) }
    case .bars(let count):
      let bars = BarCounter(timeSignatures)
      let size = max(1, count)
      var byRound: [Int: [QuizRound.Step]] = [:]
      for step in steps { byRound[(bars.measure(atBeat: step.beat) - 1) / size, default: []].append(step) }
      groups = byRound.keys.sorted().map { byRound[$0]! }
    }
    return groups.enumerated().map { QuizRound(number: $0.offset + 1, steps: $0.element) }
  }
}
