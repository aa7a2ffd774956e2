/// A seven-note scale pattern: major, the three minors, and the church modes.
///
/// Prints as key names write it (`major`, `minor`, `harmonic minor`, `dorian`); encodes in JSON as
/// its case name (`"naturalMinor"`).
public enum Scale: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
  /// Major (ionian): 0 2 4 5 7 9 11.
  case major
  /// Natural minor (aeolian): 0 2 3 5 7 8 10.
  case naturalMinor
  /// Harmonic minor, natural minor with a raised seventh: 0 2 3 5 7 8 11.
  case harmonicMinor
  /// Melodic minor, ascending form (raised sixth and seventh): 0 2 3 5 7 9 11.
  case melodicMinor
  /// Dorian: 0 2 3 5 7 9 10.
  case dorian
  /// Phrygian: 0 1 3 5 7 8 10.
  case phrygian
  /// Lydian: 0 2 4 6 7 9 11.
  case lydian
  /// Mixolydian: 0 2 4 5 7 9 10.
  case mixolydian
  /// Locrian: 0 1 3 5 6 8 10.
  case locrian

  /// Ionian, the same scale as ``major``.
  public static let ionian = Scale.major
  /// Aeolian, the same scale as ``naturalMinor``.
  public static let aeolian = Scale.naturalMinor

  /// Semitones of each degree above the tonic, seven values from 0 (melodic minor ascending).
  public var semitones: [Int] {
    switch self {
    case .major: [0, 2, 4, 5, 7, 9, 11]
    case .naturalMinor: [0, 2, 3, 5, 7, 8, 10]
    case .harmonicMinor: [0, 2, 3, 5, 7, 8, 11]
    case .melodicMinor: [0, 2, 3, 5, 7, 9, 11]
    case .dorian: [0, 2, 3, 5, 7, 9, 10]
    case .phrygian: [0, 1, 3, 5, 7, 8, 10]
    case .lydian: [0, 2, 4, 6, 7, 9, 11]
    case .mixolydian: [0, 2, 4, 5, 7, 9, 10]
    case .locrian: [0, 1, 3, 5, 6, 8, 10]
    }
  }

  /// Whether the third is minor (the minors, dorian, phrygian, locrian).
  public var isMinor: Bool { semitones[2] == 3 }

  /// The diatonic scale whose key signature this scale uses (harmonic and melodic minor use the
  /// natural minor's).
  var signatureScale: Scale { self == .harmonicMinor || self == .melodicMinor ? .naturalMinor : self }

  /// How many fifths the parent major's tonic lies from this scale's tonic on the line of fifths
  /// (D dorian: −2, so C major; A minor: −3).
  var fifthsToParentMajor: Int {
    switch signatureScale {
    case .lydian: 1
    case .mixolydian: -1
    case .dorian: -2
    case .naturalMinor: -3
    case .phrygian: -4
    case .locrian: -5
    default: 0
    }
  }

  /// The name as written in key names: `major`, `minor`, `harmonic minor`, `dorian`, ….
  public var description: String {
    switch self {
    case .naturalMinor: "minor"
    case .harmonicMinor: "harmonic minor"
    case .melodicMinor: "melodic minor"
    default: rawValue
    }
  }

  /// Reads a scale name as keys write it: ``description``, the case name, `natural minor`,
  /// `ionian`, `aeolian`, and the short `maj`/`min`, in any case; `nil` otherwise.
  ///
  /// - Parameter name: The name.
  public init?(name: String) {
    let lowered = name.lowercased()
    switch lowered {
    case "maj", "ionian": self = .major
    case "min", "aeolian", "natural minor", "naturalminor": self = .naturalMinor
    case "harmonicminor": self = .harmonicMinor
    case "melodicminor": self = .melodicMinor
    default:
      guard let scale = Scale.allCases.first(where: { $0.description == lowered }) else { return nil }
      self = scale
    }
  }
}
