/// A key press on an app's keyboard: which note, how hard, when it went down and up.
public struct Tap: Sendable, Hashable, Codable {
  /// The MIDI note number, 0–127.
  public var note: Int
  /// The velocity, 1–127.
  public var velocity: Int
  /// When the key went down, in seconds (any clock, such as seconds since recording started).
  public var press: Double
  /// When the key went up, in seconds on the same clock.
  public var release: Double

  /// Creates a tap.
  public init(note: Int, velocity: Int = 127, press: Double, release: Double) {
    self.note = note
    self.velocity = velocity
    self.press = press
    self.release = release
  }
}
