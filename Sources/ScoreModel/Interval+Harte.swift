extension Interval {
  /// The interval as a Harte degree: its number, with one `b` or `#` per semitone away from the
  /// major scale's degree (`3` major third, `b3` minor third, `b5` diminished fifth, `bb7`
  /// diminished seventh, `#9` augmented ninth).
  public var harteDegree: String {
    let alteration = semitones - Self.referenceSemitones(number: number)
    let modifier =
      alteration < 0 ? String(repeating: "b", count: -alteration) : String(repeating: "#", count: alteration)
    return modifier + String(number)
  }

  /// Parses a Harte degree such as `3`, `b3`, `#5`, `bb7`, `9`, or returns `nil`.
  ///
  /// - Parameter text: Modifiers (all `b` or all `#`) then a degree number `1...13`.
  public init?(harteDegree text: Substring) {
    let modifiers = text.prefix { $0 == "b" || $0 == "#" }
    let digits = text.dropFirst(modifiers.count)
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits),
      (1...13).contains(number),
      modifiers.allSatisfy({ $0 == modifiers.first })
    else { return nil }
    let alteration = modifiers.first == "b" ? -modifiers.count : modifiers.count
    self.init(number: number, semitones: Self.referenceSemitones(number: number) + alteration)
  }
}
