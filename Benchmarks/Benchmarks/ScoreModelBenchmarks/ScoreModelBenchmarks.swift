import Benchmark
import Foundation
import ScoreModel

/// The MusicXML files of the evaluation corpus (`Evaluation/musicxml/collect.sh`), or of the
/// directory in `ETUDE_MUSICXML_CORPUS`; empty when neither exists.
let corpus: [Data] = {
  let root =
    ProcessInfo.processInfo.environment["ETUDE_MUSICXML_CORPUS"]
    ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../Evaluation/musicxml/work/corpus").standardized.path
  guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
  var files: [Data] = []
  for case let path as String in walker where [".xml", ".musicxml", ".mxl"].contains(where: path.lowercased().hasSuffix) {
    if let data = FileManager.default.contents(atPath: root + "/" + path) { files.append(data) }
  }
  return files
}()

/// A synthetic 4-part, 200-measure score with ties, chords and a repeat, so that the benchmark
/// runs without the corpus.
let syntheticScore: Data = {
  var parts = ""
  var list = ""
  for p in 1...4 {
    list += "<score-part id=\"P\(p)\"><part-name>Part \(p)</part-name></score-part>"
    parts += "<part id=\"P\(p)\">"
    for m in 1...200 {
      parts += "<measure number=\"\(m)\">"
      if m == 1 { parts += "<attributes><divisions>4</divisions><time><beats>4</beats><beat-type>4</beat-type></time></attributes>" }
      if m == 101 { parts += "<barline location=\"left\"><repeat direction=\"forward\"/></barline>" }
      for k in 0..<8 {
        let step = ["C", "D", "E", "F", "G", "A", "B"][(m + k + p) % 7]
        let tie = k == 7 ? "<tie type=\"start\"/>" : (k == 0 && m > 1 ? "<tie type=\"stop\"/>" : "")
        parts += "<note default-x=\"\(20 + k * 30)\"><pitch><step>\(step)</step><octave>\(3 + p / 2)</octave></pitch><duration>2</duration>\(tie)<voice>1</voice><type>eighth</type></note>"
      }
      if m == 150 { parts += "<barline location=\"right\"><repeat direction=\"backward\"/></barline>" }
      parts += "</measure>"
    }
    parts += "</part>"
  }
  return Data("<?xml version=\"1.0\"?><score-partwise><part-list>\(list)</part-list>\(parts)</score-partwise>".utf8)
}()

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .throughput], timeUnits: .microseconds, scalingFactor: .one,
    maxDuration: .seconds(5), maxIterations: 200)

  Benchmark("MusicXML read synthetic 4 parts 200 measures") { benchmark in
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { blackHole(try Score(musicXML: syntheticScore)) }
    benchmark.stopMeasurement()
  }
  guard !corpus.isEmpty else { return }
  // The whole evaluation corpus, one iteration = every file read (repeats expanded, ties merged).
  Benchmark("MusicXML read corpus") { benchmark in
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      for data in corpus { blackHole(try? Score(musicXML: data)) }
    }
    benchmark.stopMeasurement()
  }
}
