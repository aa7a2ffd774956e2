/// A seven-note scale pattern: major, the three minors, and the church modes.
public enum Scale: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
  case major
  case naturalMinor
  case harmonicMinor
  case melodicMinor
  case dorian
  case phrygian
  case lydian
  case mixolydian
  case locrian

  /// Ionian is major; aeolian is natural minor.
  public static let ionian = Scale.major
  public static let aeolian = Scale.naturalMinor

  /// Semitones of each degree above the tonic (melodic minor ascending).
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

  /// Whether the third is minor.
  public var isMinor: Bool { semitones[2] == 3 }

  /// The diatonic scale whose key signature this scale uses (harmonic and melodic minor use the
  /// natural minor's).
  var signatureScale: Scale { self == .harmonicMinor || self == .melodicMinor ? .naturalMinor : self }

  /// The name as written in key names: `major`, `minor`, `harmonic minor`, `dorian`, ….
  public var description: String {
    switch self {
    case .naturalMinor: "minor"
    case .harmonicMinor: "harmonic minor"
    case .melodicMinor: "melodic minor"
    default: rawValue
    }
  }
}
