import Foundation

/// What a measure says about the order of performance: repeat barlines, volta endings, and the
/// jumps (to coda, fine, da capo, dal segno) from `<sound>` attributes, MusicXML's playback
/// semantics, with their targets from `<sound segno|coda>` or the `<segno>` and `<coda>` marks.
/// Words such as "D.C. al Fine" are read apart (``read(words:)``, into a second set of marks):
/// many files print them without the matching `<sound>`, and a player obeys the words.
struct RepeatMarks: Sendable, Hashable {
  /// A forward repeat at the start of the measure.
  var forward = false
  /// A forward repeat on the measure's right barline: the repeated section starts with the next
  /// measure (some writers put the start-repeat sign at the end of the bar before).
  var forwardAfter = false
  /// A backward repeat at its end, and how many times the section is played.
  var backward = false
  var times = 2
  /// A volta bracket starts here (with its numbers) / stops here.
  var endingStart: [Int]?
  var endingStop = false
  var segno = false
  var coda = false
  var toCoda = false
  var fine = false
  var daCapo = false
  var dalSegno = false

  mutating func read(barline: XMLTree.Element) {
    if let repeatMark = barline.child("repeat") {
      switch repeatMark[attribute: "direction"] {
      case "forward" where barline[attribute: "location"] == "right": forwardAfter = true
      case "forward": forward = true
      case "backward":
        backward = true
        if let count = repeatMark[attribute: "times"].flatMap(Int.init), (1...32).contains(count) { times = count }
      default: break
      }
    }
    if let ending = barline.child("ending") {
      switch ending[attribute: "type"] {
      case "start": endingStart = Self.numbers(ending[attribute: "number"] ?? "1")
      case "stop", "discontinue": endingStop = true
      default: break
      }
    }
    if barline.child("segno") != nil { segno = true }
    if barline.child("coda") != nil { coda = true }
  }

  mutating func read(sound: XMLTree.Element) {
    if sound[attribute: "segno"] != nil { segno = true }
    if sound[attribute: "coda"] != nil { coda = true }
    if sound[attribute: "tocoda"] != nil { toCoda = true }
    if sound[attribute: "fine"] != nil { fine = true }
    if sound[attribute: "dacapo"] == "yes" { daCapo = true }
    if sound[attribute: "dalsegno"] != nil { dalSegno = true }
  }

  /// Reads the jump a `<words>` direction names, as a player would: "D.C.", "Da Capo" (also "…
  /// al Fine", "… al Coda"), "D.S.", "Dal Segno" (likewise), "Fine", "To Coda" (the jump to the
  /// coda), "Coda" (its target) and "Segno". Case, spaces, line breaks and full stops do not
  /// matter; any other text is not a jump.
  ///
  /// - Returns: Whether the text named a jump or a target.
  @discardableResult
  mutating func read(words text: String) -> Bool {
    let key = String(text.lowercased().unicodeScalars.filter { !$0.properties.isWhitespace && $0 != "." }.map(Character.init))
    switch key {
    case "dc", "dacapo", "dcalfine", "dacapoalfine", "dcalcoda", "dacapoalcoda": daCapo = true
    case "ds", "dalsegno", "dsalfine", "dalsegnoalfine", "dsalcoda", "dalsegnoalcoda": dalSegno = true
    case "fine": fine = true
    case "tocoda", "alcoda": toCoda = true
    case "coda": coda = true
    case "segno": segno = true
    default: return false
    }
    return true
  }

  /// These marks with the jumps and targets of `other` added (repeat barlines and endings are
  /// taken from `self`).
  func addingJumps(of other: RepeatMarks) -> RepeatMarks {
    var out = self
    out.segno = segno || other.segno
    out.coda = coda || other.coda
    out.toCoda = toCoda || other.toCoda
    out.fine = fine || other.fine
    out.daCapo = daCapo || other.daCapo
    out.dalSegno = dalSegno || other.dalSegno
    return out
  }

  /// Ending numbers such as `1`, `1, 2` or `1-3`.
  static func numbers(_ text: String) -> [Int] {
    var out: [Int] = []
    for piece in text.split(whereSeparator: { $0 == "," || $0 == " " }) {
      let bounds = piece.split(separator: "-").compactMap { Int($0) }
      if bounds.count == 2, bounds[0] <= bounds[1], bounds[1] - bounds[0] < 32 {
        out += Array(bounds[0]...bounds[1])
      } else if let single = bounds.first {
        out.append(single)
      }
    }
    return out.isEmpty ? [1] : out
  }

  /// The order in which notation measures are played.
  ///
  /// A backward repeat goes back to the forward repeat that opened its section (one since the
  /// previous backward repeat), or to the start of the piece when there is none (as music21
  /// reads a missing start sign), until its section has been played `times` times; going back past other backward repeats plays them again in
  /// full. A volta ending is played on the passes its numbers name and skipped on the others. Da
  /// capo and dal segno jump once to the start or the segno, after which repeats are not taken
  /// again and the last ending of each bracket group is played; "to coda" then jumps to the coda
  /// and fine ends the piece. The result is capped at 64 times the notation's length so that
  /// contradictory marks cannot loop forever.
  static func performanceOrder(_ marks: [RepeatMarks]) -> [Int] {
    let n = marks.count
    // Volta membership: a bracket's numbers from its start to its stop.
    var endings: [[Int]?] = Array(repeating: nil, count: n)
    var open: [Int]?
    for i in 0..<n {
      if let start = marks[i].endingStart { open = start }
      endings[i] = open
      if marks[i].endingStop { open = nil }
    }
    // Per run of consecutive bracketed measures (a group of voltas): its last ending number,
    // its end, and the backward repeat that governs it (the first inside it), whose count of
    // passes tells which ending to play.
    var groupLast = Array(repeating: 0, count: n)
    var groupEnd = Array(repeating: -1, count: n)
    var governing = Array(repeating: -1, count: n)
    var i = 0
    while i < n {
      guard endings[i] != nil else {
        i += 1
        continue
      }
      var j = i
      var last = 0
      var repeatIndex = -1
      while j < n, let numbers = endings[j] {
        last = max(last, numbers.max() ?? 0)
        if repeatIndex < 0, marks[j].backward { repeatIndex = j }
        j += 1
      }
      for k in i..<j {
        groupLast[k] = last
        groupEnd[k] = j - 1
        governing[k] = repeatIndex
      }
      i = j
    }
    // Each backward repeat's section start: the nearest forward repeat since the previous
    // backward repeat (one forward sign opens one section), or else the start of the piece.
    var sectionStarts = Array(repeating: 0, count: n)
    var lastForward = 0
    for k in 0..<n {
      if marks[k].forward || (k > 0 && marks[k - 1].forwardAfter) { lastForward = k }
      sectionStarts[k] = lastForward
      if marks[k].backward { lastForward = 0 }
    }
    let segno = marks.firstIndex { $0.segno }
    let coda = marks.indices.first { marks[$0].coda && !marks[$0].toCoda }

    var order: [Int] = []
    let limit = 64 * max(n, 1) + 1024
    /// Times each backward repeat has sent the player back.
    var taken = Array(repeating: 0, count: n)
    var index = 0
    var jumped = false
    while index < n, order.count < limit {
      let mark = marks[index]
      if let numbers = endings[index] {
        let wanted = jumped ? groupLast[index] : (governing[index] >= 0 ? taken[governing[index]] + 1 : 1)
        let play = numbers.contains(wanted)
        if index == groupEnd[index], governing[index] >= 0, !(play && mark.backward) {
          // Leaving the group: its repeat is done.
          taken[governing[index]] = 0
        }
        if !play {
          index += 1
          continue
        }
      }
      order.append(index)
      if jumped, mark.fine { break }
      if jumped, mark.toCoda, let coda, coda > index {
        index = coda
        continue
      }
      if mark.backward, !jumped {
        if taken[index] < mark.times - 1 {
          taken[index] += 1
          let start = sectionStarts[index]
          // Going back past other repeats plays them again in full.
          for k in start..<index { taken[k] = 0 }
          index = start
          continue
        }
        // Done, unless a later ending of this repeat's group still needs the count.
        if governing[index] != index || groupEnd[index] == index { taken[index] = 0 }
      }
      if !jumped, mark.daCapo {
        jumped = true
        index = 0
        continue
      }
      if !jumped, mark.dalSegno {
        jumped = true
        index = segno ?? 0
        continue
      }
      index += 1
    }
    return order
  }
}
