/// A chord: a root, a type and an optional bass note, printed and parsed in Harte syntax.
///
/// `C:maj`, `A:min7`, `G:7/3` (G7 with B in the bass), `Db:hdim7`, `C:(1,3,#5,b7)`. The bass is an
/// interval above the root, as Harte writes it (`/3`, `/b7`, `/5`); it may also be a note outside
/// the chord (`C:maj/b7`). Encodes in JSON as its Harte label (`"G:7/3"`). For `N` (no chord)
/// and `X` (unknown), see ``ChordLabel``.
public struct Chord: Sendable, Hashable, Codable, CustomStringConvertible, LosslessStringConvertible {
  /// The root.
  public var root: NoteName
  /// The chord type.
  public var type: ChordType
  /// The bass as an interval above the root; `nil` in root position.
  public var bass: Interval?

  /// Creates a chord.
  ///
  /// - Parameters:
  ///   - root: The root.
  ///   - type: The type.
  ///   - bass: The bass as an interval above the root; `nil` (or a unison) for root position.
  public init(_ root: NoteName, _ type: ChordType, bass: Interval? = nil) {
    self.root = root
    self.type = type
    self.bass = bass == .perfectUnison ? nil : bass
  }

  /// Creates a chord over a bass note (C major over E is `C:maj/3`; over B♭, `C:maj/b7`).
  ///
  /// The interval is counted by letters from the root, so the bass keeps its spelling
  /// (C major over G♯ is `/#5`, over A♭ `/b6`).
  ///
  /// - Parameters:
  ///   - root: The root.
  ///   - type: The type.
  ///   - bassNote: The lowest note; the root itself means root position.
  /// - Throws: ``ScoreModelError/invalidValue(what:value:expected:)`` when the bass is no
  ///   nameable interval above the root (such as C over B♯♯).
  public init(_ root: NoteName, _ type: ChordType, bassNote: NoteName) throws(ScoreModelError) {
    let letters = (bassNote.letter.rawValue - root.letter.rawValue + 7) % 7
    let semitones = bassNote.pitchClass.semitones(above: root.pitchClass)
    // An interval within the octave: a "second" of 11 semitones is a diminished one of −1.
    let candidates = [semitones, semitones - 12, semitones + 12].compactMap {
      Interval(number: letters + 1, semitones: $0)
    }
    guard let interval = candidates.first else {
      throw .invalidValue(
        what: "bass note", value: bassNote.description, expected: "a note a nameable interval above \(root)")
    }
    self.init(root, type, bass: interval)
  }

  /// Parses a Harte label for a chord (not `N` or `X`; use ``ChordLabel`` for those).
  ///
  /// - Parameter text: The label, such as `G:7/3`.
  /// - Throws: ``ScoreModelError/parse(text:offset:expected:)`` naming the character at fault.
  public init(harte text: String) throws(ScoreModelError) {
    guard case .chord(let chord) = try ChordLabel(harte: text) else {
      throw .parse(text: text, offset: 0, expected: "a chord (a root letter A-G), not \"\(text)\"")
    }
    self = chord
  }

  /// Parses a Harte label such as `A:min7`, or returns `nil`.
  ///
  /// - Parameter description: The label.
  public init?(_ description: String) {
    do { try self.init(harte: description) } catch { return nil }
  }

  /// Decodes a chord from its Harte label, such as `"G:7/3"`.
  ///
  /// - Throws: `DecodingError.dataCorrupted` when the string is not a chord label.
  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    do { try self.init(harte: text) } catch {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: error.description))
    }
  }

  /// Encodes the chord as its Harte label, such as `"G:7/3"`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(harte)
  }

  /// The Harte label, such as `G:7/3`; always with a colon and type (`C:maj`, never `C`).
  public var harte: String {
    "\(root):\(type)" + (bass.map { "/" + $0.harteDegree } ?? "")
  }

  /// The Harte label.
  public var description: String { harte }

  /// The pitch classes sounding in the chord, root first in ``ChordType/intervals`` order, then
  /// the bass if it is not a chord tone.
  public var pitchClasses: [PitchClass] {
    var classes = type.intervals.map { root.pitchClass.transposed(by: $0.semitones) }
    if let bass = bass {
      let b = root.pitchClass.transposed(by: bass.semitones)
      if !classes.contains(b) { classes.append(b) }
    }
    return classes
  }

  /// The pitch class of the lowest note.
  public var bassPitchClass: PitchClass { root.pitchClass.transposed(by: bass?.semitones ?? 0) }

  /// The lowest note, spelled from the root (`G:7/3` → B), or `nil` beyond three sharps or flats.
  public var bassNote: NoteName? { bass.map { root.transposed(up: $0) } ?? root }

  /// The inversion: 0 in root position, 1 with the second chord tone in the bass (the third of a
  /// triad), 2 with the third, …; `nil` when the bass is not a chord tone.
  public var inversion: Int? {
    guard let bass else { return 0 }
    let bassClass = PitchClass(bass.semitones)
    return type.intervals.firstIndex { PitchClass($0.semitones) == bassClass }
  }

  /// The chord's notes spelled from the root (C:min7 → C, Eb, G, Bb), leaving out any that would
  /// need more than three sharps or flats.
  public var noteNames: [NoteName] { type.intervals.compactMap { root.transposed(up: $0) } }
}
