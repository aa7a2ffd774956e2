// libFuzzer entry point for the grading JSON parsers: tolerances (PerformanceAnalysis), brass
// partial tables (PerformanceAnalysis, Codable) and help-video catalogs (IssueRanking). Any bytes
// either load or throw the parser's error (PerformanceAnalysisError; DecodingError for a partial
// table); whatever loads must validate, survive its own encoding, and grade and rank a small take.
//
// Built by `Fuzz/run.sh grading` into the IssueRanking module (ScoreModel, PitchDSP,
// PerformanceTracking and PerformanceAnalysis linked beside it).
import Foundation
import PerformanceAnalysis
import PerformanceTracking
import PitchDSP
import ScoreModel

/// A short take to grade with whatever loaded: on time, late, missed, sharp, an octave off, a
/// rest with sound in it, and a transposing (B♭) part so that partial tables apply.
private let take: PerformanceAlignment = {
  let pitches: [Int?] = [70, 72, 74, nil, 65, 77, 70, 58]
  let notes = pitches.enumerated().map { i, midi in
    PerformanceNote(
      index: i, measure: 1 + i / 4, expectedStart: 0.5 * Double(i), expectedDuration: 0.45,
      writtenPitch: midi.flatMap { MIDINote(rawValue: $0 + 2) },
      soundingPitch: midi.flatMap { MIDINote(rawValue: $0) },
      articulation: PerformanceNote.Articulation.allCases[i % 5], x: 40 * Double(i), y: 10)
  }
  let played: [(Int, Double, Double, Double)] = [  // note, delay, semitones, seconds
    (0, 0, 0, 0.4), (1, 0.08, 0.3, 0.2), (4, -0.03, 12, 0.45), (5, 0.01, 3.86, 0.1), (6, 0.2, 0, 0.9),
    (7, 0, -12, 0.3),
  ]
  var sounds = played.map { i, delay, semitones, seconds in
    let start = notes[i].expectedStart + delay
    let hz = 440 * pow(2, (Double(notes[i].soundingPitch!.rawValue) + semitones - 69) / 12)
    let track = (0..<40).map {
      PerformanceSound.PitchPoint(
        time: start + 0.01 * Double($0), frequencyHz: hz * (1 + 0.001 * Double($0 % 7)))
    }
    return PerformanceSound(
      start: start, end: start + seconds, frequencyHz: hz, pitchTrack: track, peakLevelDBFS: -12)
  }
  sounds.append(PerformanceSound(start: 1.6, end: 1.8, frequencyHz: 300, peakLevelDBFS: -20))
  sounds.sort { $0.start < $1.start }
  return PerformanceAlignment(notes: notes, sounds: sounds, latencySeconds: 0, linker: WindowLinker())
}()

/// A pitch track that hears the missed D (note 2) where it was due, for the missed rule.
private let pitchTrack: [PitchEstimate] = (0..<400).map { i in
  let t = 0.01 * Double(i)
  let heard = t >= 1.0 && t < 1.4
  return PitchEstimate(
    time: t, frequencyHz: heard ? 587.33 : 0, confidence: heard ? 0.9 : 0, levelDBFS: heard ? -20 : -80)
}

/// Grades and ranks the take with every criterion, handing out the catalog's videos.
private func gradeAndRank(_ tolerances: Tolerances, _ partials: PartialTable?, _ catalog: HelpVideoCatalog?) {
  let grades = PerformanceGrader(tolerances: tolerances).grade(take, partials: partials, pitchTrack: pitchTrack)
  precondition(grades.overallScore >= 0 && grades.overallScore <= 100, "overall score out of range")
  var catalog = catalog
  let navigation = ScoreNavigation(
    viewportWidth: 200, viewportHeight: 100, contentWidth: 400, contentHeight: 100)
  for name in IssueCriteria.names {
    let issues = IssueRanker(criterion: IssueCriteria.named(name)!).rank(
      grades, catalog: &catalog, includesCorrect: true)
    precondition(issues.count == take.notes.count, "one issue per note")
    precondition(
      zip(issues, issues.dropFirst()).allSatisfy { $0.score >= $1.score }, "issues not worst first")
    for issue in issues { _ = navigation.target(for: issue) }
  }
}

/// The level names worth asking a tolerances file for: its own, a built-in one, and one that is
/// nowhere.
private func levelNames(in data: Data) -> [String?] {
  var names: [String?] = [nil, "beginner", "missing"]
  if let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
    let levels = root["levels"] as? [String: Any]
  {
    names += levels.keys.sorted().prefix(4).map { Optional($0) }
  }
  return names
}

private func fuzzTolerances(_ data: Data) {
  for level in levelNames(in: data) {
    do {
      let tolerances = try Tolerances(json: data, level: level)
      do {
        try tolerances.validate()
      } catch {
        preconditionFailure("loaded tolerances do not validate: \(error)")
      }
      let encoded: Data
      do {
        encoded = try JSONEncoder().encode(tolerances)
      } catch {
        preconditionFailure("loaded tolerances do not encode: \(error)")
      }
      do {
        let reread = try Tolerances(json: encoded)
        precondition(reread == tolerances, "tolerances changed through write and read")
      } catch {
        preconditionFailure("encoded tolerances do not load: \(error)")
      }
      gradeAndRank(tolerances, nil, nil)
    } catch {
      _ = error.description
    }
  }
}

private func fuzzPartialTable(_ data: Data) {
  let table: PartialTable
  do {
    table = try JSONDecoder().decode(PartialTable.self, from: data)
  } catch {
    precondition(error is DecodingError, "a partial table failed with \(type(of: error))")
    return
  }
  do {
    let reread = try JSONDecoder().decode(PartialTable.self, from: JSONEncoder().encode(table))
    precondition(reread == table, "partial table changed through write and read")
  } catch {
    preconditionFailure("a loaded partial table does not survive its encoding: \(error)")
  }
  for combination in table.combinations.prefix(16) {
    for (n, written) in combination.partials.prefix(32) {
      _ = combination.naturalCents(ofPartial: n)
      if let fingering = table.fingering(written: written) {
        precondition(
          fingering.combination.partials[fingering.partial] == written, "fingering without its note")
      }
      for offset in [-12.0, -0.3, 0, 0.14, 7, 12] {
        _ = table.partial(
          playedWrittenMIDI: Double(written) + offset, expectedWritten: written, toleranceCents: 40)
      }
    }
  }
  gradeAndRank(.intermediate, table, nil)
}

private func fuzzCatalog(_ data: Data) {
  let catalog: HelpVideoCatalog
  do {
    catalog = try HelpVideoCatalog(json: data)
  } catch {
    _ = error.description
    return
  }
  do {
    let reread = try HelpVideoCatalog(json: JSONEncoder().encode(catalog))
    precondition(
      reread.videos == catalog.videos && reread.alerts == catalog.alerts,
      "catalog changed through write and read")
  } catch {
    preconditionFailure("a loaded catalog does not survive its encoding: \(error)")
  }
  var rotating = catalog
  for (name, list) in catalog.videos.prefix(16) {
    let rating = Rating(name)
    var last: String?
    for _ in 0..<(2 * min(list.count, 16) + 1) {
      let video = rotating.nextVideo(for: rating)
      precondition((video == nil) == list.isEmpty, "a video from an empty list, or none from a full one")
      if Set(list).count >= 2 { precondition(video != last, "the same video twice in a row") }
      last = video
    }
    _ = catalog.alert(for: rating)
  }
  gradeAndRank(.intermediate, nil, catalog)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGrading(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let data = Data(bytes: start, count: count)
  fuzzTolerances(data)
  fuzzPartialTable(data)
  fuzzCatalog(data)
  return 0
}
