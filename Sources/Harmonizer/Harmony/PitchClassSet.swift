import ScoreModel

/// A set of pitch classes in twelve bits: a key's scale or a chord's tones, small and fixed so
/// that the audio thread can snap and step through it without allocating.
public struct PitchClassSet: Sendable, Hashable, Codable {
  /// Bit `c` set when pitch class `c` (0 = C … 11 = B) is a member.
  public var mask: UInt16

  /// The set whose bits are `mask` (bits above 11 are ignored).
  public init(mask: UInt16) { self.mask = mask & 0xFFF }

  /// The set of these pitch classes.
  public init(_ classes: some Sequence<PitchClass>) {
    var mask: UInt16 = 0
    for c in classes { mask |= 1 << UInt16(c.rawValue) }
    self.mask = mask
  }

  /// The scale of `key` (its seven degrees).
  public init(key: Key) {
    self.init(key.scale.semitones.map { key.tonic.pitchClass.transposed(by: $0) })
  }

  /// The tones of `chord`, its bass included.
  public init(chord: Chord) {
    self.init(chord.pitchClasses + [chord.bassPitchClass])
  }

  /// The set with every pitch class (the chromatic scale).
  public static let chromatic = PitchClassSet(mask: 0xFFF)

  /// Whether the set has no member.
  public var isEmpty: Bool { @_noLocks get { mask == 0 } }

  /// Whether the MIDI note `note` belongs to the set.
  @inline(__always)
  @_noLocks
  public func contains(note: Int) -> Bool {
    mask & (1 << UInt16(((note % 12) + 12) % 12)) != 0
  }

  /// The member nearest to `pitch` (a fractional MIDI pitch), the lower of two at the same
  /// distance; `nil` for an empty set.
  @_noLocks
  public func nearest(to pitch: Double) -> Int? {
    guard !isEmpty, pitch.isFinite, abs(pitch) < 1e6 else { return nil }
    let base = Int(_unsafePerformance { pitch.rounded() })
    var best = Int.min
    var offset = -6
    while offset <= 6 {
      let note = base + offset
      if contains(note: note) {
        if best == Int.min || abs(Double(note) - pitch) < abs(Double(best) - pitch) { best = note }
      }
      offset += 1
    }
    return best == Int.min ? nil : best
  }

  /// The member `steps` members above `note` (below for negative steps), counting `note`'s own
  /// place as 0 whether or not it is a member; `note` itself for an empty set or 0 steps.
  @_noLocks
  public func member(from note: Int, steps: Int) -> Int {
    guard !isEmpty, steps != 0 else { return note }
    var current = note
    var left = abs(steps)
    let direction = steps > 0 ? 1 : -1
    while left > 0 {
      current += direction
      if contains(note: current) { left -= 1 }
    }
    return current
  }
}
