/// A tablature staff's open strings, from MusicXML `<staff-details>`: how many lines it has, the
/// pitch of each line's open string (lines count from the bottom, as `<staff-tuning line>` does)
/// and the capo's fret.
struct StringTuning: Sendable, Hashable {
  var lines: Int
  /// MIDI number of each line's open string, by line (1 = the bottom line, the lowest string).
  var openStrings: [Int: Int] = [:]
  var capo = 0

  /// Standard six-string guitar tuning, E2 A2 D3 G3 B3 E4: what a tablature note is read with when
  /// its staff gives no `<staff-tuning>`.
  static let standardGuitar = StringTuning(lines: 6, openStrings: [1: 40, 2: 45, 3: 50, 4: 55, 5: 59, 6: 64])

  /// Reads `<staff-lines>`, `<staff-tuning>` and `<capo>` (values out of range are ignored).
  mutating func read(_ details: XMLTree.Element) {
    if let count = details.text(of: "staff-lines").flatMap(Int.init), (1...16).contains(count) {
      lines = count
    }
    for tuning in details.children("staff-tuning") {
      guard let line = tuning[attribute: "line"].flatMap(Int.init), (1...16).contains(line),
        let step = tuning.text(of: "tuning-step"), let first = step.uppercased().first,
        let letter = Letter(character: first),
        let octave = tuning.text(of: "tuning-octave").flatMap(Int.init), (-1...9).contains(octave)
      else { continue }
      let alter = tuning.text(of: "tuning-alter").flatMap(Double.init).map { Int($0.rounded()) } ?? 0
      openStrings[line] = (octave + 1) * 12 + letter.naturalPitchClass + max(-3, min(3, alter))
    }
    if let fret = details.text(of: "capo").flatMap(Int.init), (0...24).contains(fret) { capo = fret }
  }
}
