import Foundation
import IssueRanking
import PerformanceAnalysis
import PerformanceTracking

/// The JSON `etude grade` prints (schema `etude-grades/1`).
struct GradesJSON: Encodable {
  struct Timing: Encodable {
    var rating: String
    var offsetMs: Double
    var localRating: String
    var localOffsetMs: Double
  }

  struct Duration: Encodable {
    var rating: String
    var ratio: Double
    var expectedRatio: Double
  }

  struct Pitch: Encodable {
    var rating: String
    var cents: Double
    var frequencyHz: Double
    var playedPitch: String?
    var waveringCents: Double?
  }

  struct Rest: Encodable {
    var rating: String
    var soundSeconds: Double
  }

  struct Note: Encodable {
    var index: Int
    var measure: Int
    var status: String
    var writtenPitch: Int?
    var soundingPitch: Int?
    var articulation: String
    var expectedOnsetSeconds: Double
    var expectedDurationSeconds: Double
    var onsetSeconds: Double?
    var offsetSeconds: Double?
    var timing: Timing?
    var duration: Duration?
    var pitch: Pitch?
    var rest: Rest?
    var scores: [String: Double]
    var severity: Double
    var x: Double?
    var y: Double?
  }

  struct Extra: Encodable {
    var onsetSeconds: Double
    var offsetSeconds: Double
    var frequencyHz: Double
  }

  struct Issue: Encodable {
    var index: Int
    var measure: Int
    var criterion: String
    var category: String
    var rating: String
    var score: Double
    var videoId: String?
    var alert: String?
    var x: Double?
    var y: Double?
  }

  struct Trend: Encodable {
    var pitchClass: String
    var notes: Int
    var meanCents: Double
    var message: String?
  }

  var schema = "etude-grades/1"
  var title: String
  var score: String?
  var audio: String?
  var instrument: String?
  var level: String
  var criterion: String
  var latencyMs: Double
  var latencyMeasured: Bool
  var audioSeconds: Double
  var tempoDriftPercent: Double
  var overallScore: Double
  var notes: [Note]
  var extraSounds: [Extra]
  var issues: [Issue]
  var bars: [PerformanceGrades.BarSummary]
  var intonation: [Trend]
  /// With `--live`: what the score follower decided while the take ran.
  var live: Live?

  /// The follower's live links: which note each sound was taken for, when the sound started
  /// (score time line) and how long after it the link was made.
  struct Live: Encodable {
    struct Link: Encodable {
      var index: Int
      var onsetSeconds: Double
      var cents: Double
      var decidedAfterSeconds: Double
    }
    var latencySeconds: Double
    var links: [Link]
  }

  init(_ result: GradingResult) {
    let grades = result.grades
    func round(_ value: Double, _ digits: Double = 1000) -> Double { (value * digits).rounded() / digits }
    title = result.title
    score = result.scoreFile
    audio = result.audioFile
    instrument = result.instrument
    level = result.tolerances.name
    criterion = result.criterion
    latencyMs = round(result.latencySeconds * 1000, 10)
    latencyMeasured = result.latencyMeasured
    audioSeconds = round(result.audioSeconds)
    tempoDriftPercent = round(grades.tempoDrift * 100, 100)
    overallScore = round(grades.overallScore, 10)
    notes = grades.notes.map { graded in
      let note = graded.note
      let timing = graded.grade(.timing).map {
        Timing(
          rating: $0.rating.rawValue, offsetMs: round($0.measurements["offsetMs"] ?? 0, 10),
          localRating: $0.labels["localRating"] ?? $0.rating.rawValue,
          localOffsetMs: round($0.measurements["localOffsetMs"] ?? 0, 10))
      }
      let duration = graded.grade(.duration).map {
        Duration(
          rating: $0.rating.rawValue, ratio: round($0.measurements["ratio"] ?? 0),
          expectedRatio: $0.measurements["expectedRatio"] ?? 1)
      }
      let pitch = graded.grade(.pitch).map {
        Pitch(
          rating: $0.rating.rawValue, cents: round($0.measurements["cents"] ?? 0, 10),
          frequencyHz: round($0.measurements["frequencyHz"] ?? 0, 100), playedPitch: $0.labels["playedPitch"],
          waveringCents: $0.measurements["waveringCents"].map { round($0, 10) })
      }
      let rest = graded.grade(.rest).map {
        Rest(rating: $0.rating.rawValue, soundSeconds: round($0.measurements["soundSeconds"] ?? 0))
      }
      var scores: [String: Double] = [:]
      for grade in graded.grades { scores[grade.category.rawValue] = grade.score }
      if graded.status == .missed { scores["missed"] = graded.score }
      return Note(
        index: note.index, measure: note.measure, status: graded.status.rawValue,
        writtenPitch: note.writtenPitch?.rawValue, soundingPitch: note.soundingPitch?.rawValue,
        articulation: note.articulation.rawValue, expectedOnsetSeconds: round(note.expectedStart),
        expectedDurationSeconds: round(note.expectedDuration),
        onsetSeconds: graded.sound.map { round($0.onset) },
        offsetSeconds: graded.sound.map { round($0.end) }, timing: timing, duration: duration,
        pitch: pitch, rest: rest, scores: scores, severity: graded.score, x: note.x, y: note.y)
    }
    extraSounds = grades.extraSounds.map {
      Extra(onsetSeconds: round($0.onset), offsetSeconds: round($0.end), frequencyHz: round($0.frequencyHz, 100))
    }
    issues = result.issues.map {
      Issue(
        index: $0.index, measure: $0.measure, criterion: $0.criterion, category: $0.category, rating: $0.rating.rawValue,
        score: $0.score, videoId: $0.videoID, alert: $0.alert, x: $0.x, y: $0.y)
    }
    bars = grades.bars
    intonation = grades.intonation.map {
      Trend(pitchClass: $0.pitchClass, notes: $0.notes, meanCents: round($0.meanCents, 10), message: $0.message)
    }
    live = result.live.map { live in
      Live(
        latencySeconds: round(live.trackerLatencySeconds),
        links: live.links.map {
          .init(
            index: $0.index, onsetSeconds: round($0.onsetSeconds), cents: round($0.cents, 10),
            decidedAfterSeconds: round($0.decidedAfterSeconds))
        })
    }
  }

  func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self)
  }
}
