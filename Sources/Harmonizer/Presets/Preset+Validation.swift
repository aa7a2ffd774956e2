import Foundation

extension Preset {
  /// The longest description kept: 4096 bytes of UTF-8.
  public static let maximumDescriptionBytes = 4096
  /// The most slots in a rack: 16.
  public static let maximumRackSlots = 16

  /// Checks every value against its range; a ``PresetStore`` does this before saving and after
  /// loading.
  ///
  /// - Throws: ``PresetError/invalidValue(field:value:expected:)`` naming the first value out of
  ///   range by its JSON path (such as `voices[2].pan`).
  public func validate() throws(PresetError) {
    guard description.utf8.count <= Self.maximumDescriptionBytes else {
      throw .invalidValue(
        field: "description", value: "\(description.utf8.count) bytes",
        expected: "at most \(Self.maximumDescriptionBytes) bytes")
    }
    guard voices.count <= Self.maximumVoices else {
      throw .invalidValue(
        field: "voices", value: "\(voices.count) voices", expected: "at most \(Self.maximumVoices)")
    }
    for (index, voice) in voices.enumerated() {
      let field = "voices[\(index)]"
      switch voice.pitch {
      case .interval(let semitones): try Self.check(semitones, in: -24...24, "\(field).interval", "semitones")
      case .note(let midi): try Self.check(Double(midi), in: 0...127, "\(field).note", "a MIDI note number")
      case .degree(let steps):
        guard (-15...15).contains(steps), steps != 0 else {
          throw .invalidValue(field: "\(field).degree", value: "\(steps)", expected: "-15...15 but not 0")
        }
      }
      try Self.check(voice.level, in: 0...1, "\(field).level", "a level")
      try Self.check(voice.pan, in: -1...1, "\(field).pan", "a pan")
    }
    try Self.check(autoTune.retuneMilliseconds, in: 0...1000, "autoTune.retuneMilliseconds", "milliseconds")
    try Self.check(volumes.inputDB, in: PresetVolumes.range, "volumes.inputDB", "dB")
    try Self.check(volumes.outputDB, in: PresetVolumes.range, "volumes.outputDB", "dB")
    try Self.check(volumes.sampleDB, in: PresetVolumes.range, "volumes.sampleDB", "dB")
    try validateRack()
    try validateSequencer()
    if let sample { try Self.validate(sample) }
  }

  private func validateRack() throws(PresetError) {
    guard rack.count <= Self.maximumRackSlots else {
      throw .invalidValue(
        field: "rack", value: "\(rack.count) slots", expected: "at most \(Self.maximumRackSlots)")
    }
    for (index, slot) in rack.enumerated() {
      guard Self.isIdentifier(slot.effect) else {
        throw .invalidValue(
          field: "rack[\(index)].effect", value: "\"\(slot.effect)\"",
          expected: "an effect name such as delay (a letter, then letters or digits)")
      }
      for (key, value) in slot.parameters.sorted(by: { $0.key < $1.key }) {
        let field = "rack[\(index)].parameters[\"\(key)\"]"
        let parts = key.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == slot.effect, Self.isIdentifier(String(parts[1])) else {
          throw .invalidValue(
            field: field, value: "a key",
            expected: "\"\(slot.effect).parameter\", such as \"\(slot.effect).mix\"")
        }
        guard value.isFinite else {
          throw .invalidValue(field: field, value: Self.number(value), expected: "a finite number")
        }
      }
    }
  }

  private func validateSequencer() throws(PresetError) {
    try Self.check(sequencer.tempoBPM, in: 20...400, "sequencer.tempoBPM", "beats per minute")
    guard sequencer.steps.count <= 1024 else {
      throw .invalidValue(
        field: "sequencer.steps", value: "\(sequencer.steps.count) steps", expected: "at most 1024")
    }
    for (index, step) in sequencer.steps.enumerated() {
      let field = "sequencer.steps[\(index)]"
      guard step.beats.isFinite, step.beats > 0, step.beats <= 64 else {
        throw .invalidValue(
          field: "\(field).beats", value: Self.number(step.beats), expected: "beats in 0 < beats <= 64")
      }
      guard step.notes.count <= 16 else {
        throw .invalidValue(
          field: "\(field).notes", value: "\(step.notes.count) notes", expected: "at most 16")
      }
      for (n, note) in step.notes.enumerated() where !(0...127).contains(note) {
        throw .invalidValue(
          field: "\(field).notes[\(n)]", value: "\(note)", expected: "a MIDI note number 0...127")
      }
    }
  }

  private static func validate(_ sample: PresetSampleReference) throws(PresetError) {
    if let problem = PresetStore.problem(withSamplePath: sample.file) {
      throw .invalidValue(field: "sample.file", value: "\"\(sample.file)\"", expected: problem)
    }
    try check(sample.trimStartSeconds, in: 0...86_400, "sample.trimStartSeconds", "seconds")
    if let end = sample.trimEndSeconds {
      guard end.isFinite, end > sample.trimStartSeconds, end <= 86_400 else {
        throw .invalidValue(
          field: "sample.trimEndSeconds", value: number(end), expected: "seconds after trimStartSeconds")
      }
    }
    try check(sample.loop.startSeconds, in: 0...86_400, "sample.loop.startSeconds", "seconds")
    if let end = sample.loop.endSeconds {
      guard end.isFinite, end > sample.loop.startSeconds, end <= 86_400 else {
        throw .invalidValue(
          field: "sample.loop.endSeconds", value: number(end), expected: "seconds after startSeconds")
      }
    }
    try check(sample.loop.crossfadeSeconds, in: 0...1, "sample.loop.crossfadeSeconds", "seconds")
  }

  private static func check(
    _ value: Double, in range: ClosedRange<Double>, _ field: String, _ unit: String
  ) throws(PresetError) {
    guard value.isFinite, range.contains(value) else {
      throw .invalidValue(
        field: field, value: number(value),
        expected: "\(unit) in \(number(range.lowerBound))...\(number(range.upperBound))")
    }
  }

  /// A number as JSON would show it: `99`, not `99.0`.
  static func number(_ value: Double) -> String {
    value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
  }

  private static func isIdentifier(_ text: String) -> Bool {
    let scalars = Array(text.unicodeScalars)
    guard let first = scalars.first, scalars.count <= 64, first.isASCII, first.properties.isAlphabetic else {
      return false
    }
    return scalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
  }
}
