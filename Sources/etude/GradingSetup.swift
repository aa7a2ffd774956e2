import Foundation
import IssueRanking
import PerformanceAnalysis
import PerformanceTracking
import PitchDSP
import ScoreModel

/// Everything `etude grade` (and the demo) needs to grade a take: tolerances, the instrument's
/// partials, the criterion, the linker, the help videos.
struct GradingSetup {
  var tolerances: Tolerances
  var instrument: String?
  var partials: PartialTable?
  var criterion: any IssueCriterion
  var linker: String
  var catalog: HelpVideoCatalog?

  init(
    instrument: String?, partialsFile: String? = nil, tolerancesFile: String? = nil, level: String? = nil,
    criterion: String = "overall", linker: String = "alignment", videosFile: String? = nil
  ) throws {
    if let tolerancesFile {
      tolerances = try Tolerances(json: Data(contentsOf: URL(fileURLWithPath: tolerancesFile)), level: level)
    } else if let level {
      guard let builtIn = Tolerances.level(named: level) else {
        throw PerformanceAnalysisError.unknownLevel(name: level, available: Tolerances.builtInLevels.map(\.name))
      }
      tolerances = builtIn
    } else {
      tolerances = .intermediate
    }
    self.instrument = instrument
    if let partialsFile {
      let data = try Data(contentsOf: URL(fileURLWithPath: partialsFile))
      do {
        partials = try JSONDecoder().decode(PartialTable.self, from: data)
      } catch {
        throw PerformanceAnalysisError.invalidJSON(reason: "partial table \(partialsFile): \(error)")
      }
    } else {
      partials = instrument.flatMap { PartialTable.named($0) }
    }
    self.criterion = IssueCriteria.named(criterion) ?? OverallCriterion()
    self.linker = linker
    if let videosFile {
      catalog = try HelpVideoCatalog(json: Data(contentsOf: URL(fileURLWithPath: videosFile)))
    }
  }

  /// Grades a take of `samples` against `score`; `latencySeconds` nil = measure it.
  func grade(score: Score, samples: [Float], sampleRate: Double, latencySeconds: Double?) throws -> GradingResult {
    let tracker = PerformanceTracker(
      notes: PerformanceNote.melody(of: score), linker: linker == "window" ? WindowLinker() : AlignmentLinker(),
      tuning: Tuning(a4Hz: tolerances.pitch.a4Hz))
    let (alignment, estimates) = try tracker.track(samples, sampleRate: sampleRate, latencySeconds: latencySeconds)
    return result(score: score, alignment: alignment, estimates: estimates, latencyMeasured: latencySeconds == nil,
      audioSeconds: Double(samples.count) / sampleRate)
  }

  /// Grades a take followed as it would be live: a score clock and the live tracker fed
  /// 512-frame blocks, as an audio callback would; then the tracker's final linking.
  func gradeLive(score: Score, samples: [Float], sampleRate: Double, latencySeconds: Double) throws -> GradingResult {
    var configuration = LivePerformanceTracker.Configuration()
    configuration.latencySeconds = latencySeconds
    let tracker = try LivePerformanceTracker(
      notes: PerformanceNote.melody(of: score), sampleRate: sampleRate, configuration: configuration, maximumFrames: 512)
    let clock = ScoreClock(score: score)
    samples.withUnsafeBufferPointer { all in
      var offset = 0
      while offset < all.count {
        let count = min(512, all.count - offset)
        tracker.process(UnsafeBufferPointer(rebasing: all[offset..<(offset + count)]), clock: clock)
        offset += count
      }
    }
    // The follower's links as they were made, before finishing revisits them.
    let links = tracker.notes.indices.compactMap { position -> LiveLinks.Link? in
      guard let (link, decided) = tracker.link(forNote: position) else { return nil }
      return .init(
        index: tracker.notes[position].index, onsetSeconds: link.startSeconds - latencySeconds, cents: link.cents,
        decidedAfterSeconds: decided - link.startSeconds)
    }
    let (alignment, estimates) = tracker.finish(samples: samples)
    var graded = result(score: score, alignment: alignment, estimates: estimates, latencyMeasured: false,
      audioSeconds: Double(samples.count) / sampleRate)
    graded.live = LiveLinks(trackerLatencySeconds: tracker.latencySeconds, links: links)
    return graded
  }

  /// Grades and ranks an alignment made elsewhere (the live tracker's).
  func result(
    score: Score, alignment: PerformanceAlignment, estimates: [PitchEstimate], latencyMeasured: Bool,
    audioSeconds: Double
  ) -> GradingResult {
    let grades = PerformanceGrader(tolerances: tolerances).grade(alignment, partials: partials, pitchTrack: estimates)
    var catalog = self.catalog
    let issues = IssueRanker(criterion: criterion).rank(grades, catalog: &catalog)
    var graded = GradingResult(
      title: score.title, tolerances: tolerances, instrument: instrument, criterion: criterion.name,
      latencySeconds: alignment.latencySeconds, latencyMeasured: latencyMeasured, grades: grades, issues: issues,
      estimates: estimates, audioSeconds: audioSeconds)
    graded.barStarts = score.measures.map { (Int($0.number) ?? $0.notationIndex + 1, $0.onsetSeconds) }
    return graded
  }
}

/// A graded take with what the outputs show.
struct GradingResult {
  var title: String
  var tolerances: Tolerances
  var instrument: String?
  var criterion: String
  var latencySeconds: Double
  var latencyMeasured: Bool
  var grades: PerformanceGrades
  var issues: [PerformanceIssue]
  var estimates: [PitchEstimate]
  var audioSeconds: Double
  var scoreFile: String?
  var audioFile: String?
  /// With `--live`: the follower's links as they were made.
  var live: LiveLinks?
  /// Where each bar starts on the score's time line, in performance order (repeats played
  /// again appear again); empty when unknown.
  var barStarts: [(measure: Int, seconds: Double)] = []
}

/// The score follower's links during a live run (score time line: the CLI's clock runs at the
/// written tempo with no count-in).
struct LiveLinks {
  struct Link {
    var index: Int
    var onsetSeconds: Double
    var cents: Double
    var decidedAfterSeconds: Double
  }
  var trackerLatencySeconds: Double
  var links: [Link]
}
