import Foundation
import Testing

/// `etude score`: plain arguments take the quick path past ArgumentParser; the output must be the
/// bytes the standard path prints, and anything else must still get the standard messages.
@Suite struct ScoreCommandTests {
  static let score = """
    <?xml version="1.0" encoding="UTF-8"?>
    <score-partwise version="4.0"><work><work-title>A "quoted" / title</work-title></work>
    <part-list><score-part id="P1"><part-name>Flute</part-name></score-part><score-part id="P2"><part-name>Cello</part-name></score-part></part-list>
    <part id="P1"><measure number="1"><attributes><divisions>2</divisions><time><beats>2</beats><beat-type>4</beat-type></time></attributes>
      <note><pitch><step>E</step><octave>5</octave></pitch><duration>3</duration><type>quarter</type><dot/></note>
      <note><pitch><step>F</step><alter>1</alter><octave>5</octave></pitch><duration>1</duration><type>eighth</type></note>
      <barline location="right"><repeat direction="backward"/></barline></measure></part>
    <part id="P2"><measure number="1"><attributes><divisions>2</divisions></attributes><note><rest/><duration>4</duration></note></measure></part>
    </score-partwise>
    """

  static func file() throws -> (directory: URL, path: String) {
    let directory = try temporaryDirectory()
    let url = directory.appendingPathComponent("two-parts.musicxml")
    try Data(score.utf8).write(to: url)
    return (directory, url.path)
  }

  @Test(arguments: [
    [], ["--no-expand-repeats"], ["--part", "Cello"], ["--tempo-scale", "1.5", "--expand-repeats"],
  ])
  func plainArgumentsPrintWhatTheStandardParserPrints(options: [String]) throws {
    let (directory, path) = try Self.file()
    defer { try? FileManager.default.removeItem(at: directory) }
    let quick = try runEtude(["score", path] + options)
    // "--tempo-scale=1" means the default but is not plain: it goes through ArgumentParser.
    let standard = try runEtude(
      ["score", path] + options + (options.contains("--tempo-scale") ? [] : ["--tempo-scale=1"]))
    #expect(quick.status == 0 && standard.status == 0)
    #expect(quick.out == standard.out)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(quick.out.utf8)) as? [String: Any])
    #expect(json["title"] as? String == "A \"quoted\" / title")
    #expect(quick.out.hasPrefix("{\n  \"measures\" : [\n    {\n      \"durationQuarters\" : \"2\","))
  }

  @Test func errorsAndHelpAreTheStandardOnes() throws {
    let (directory, path) = try Self.file()
    defer { try? FileManager.default.removeItem(at: directory) }
    let unknownPart = try runEtude(["score", path, "--part", "Oboe"])
    #expect(unknownPart.status != 0)
    #expect(unknownPart.err.contains("no part with id or name \"Oboe\"; parts: P1 (Flute), P2 (Cello)"))
    let badScale = try runEtude(["score", path, "--tempo-scale", "0"])
    #expect(badScale.status != 0 && badScale.err.contains("--tempo-scale must be within 0...100"))
    let help = try runEtude(["score", "--help"])
    #expect(help.status == 0 && help.out.contains("--no-expand-repeats"))
    let missing = try runEtude(["score", directory.appendingPathComponent("none.xml").path])
    #expect(missing.status != 0 && missing.err.contains("no such file"))
  }
}
