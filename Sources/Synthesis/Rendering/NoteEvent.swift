/// One note of a song, in seconds: when it starts, how long it lasts, its pitch and loudness, and
/// which part plays it.
///
/// The currency between the tab reader, the MIDI and score importers and the renderers. In JSON,
/// `channel` and `program` may be left out (they default to 0).
public struct NoteEvent: Sendable, Hashable, Codable {
  /// When the note starts, in seconds from the start of the song.
  public var startSeconds: Double
  /// How long the note is held, in seconds (the release comes after).
  public var durationSeconds: Double
  /// The MIDI note number, fractional for microtones (60 is middle C).
  public var pitch: Double
  /// The MIDI velocity, 1...127.
  public var velocity: Int
  /// The MIDI channel (part) that plays the note, 0...15.
  public var channel: Int
  /// The General MIDI program (instrument) of the part, 0...127.
  public var program: Int

  /// Creates a note.
  ///
  /// - Parameters:
  ///   - startSeconds: The start, in seconds.
  ///   - durationSeconds: The length, in seconds.
  ///   - pitch: The MIDI note number.
  ///   - velocity: The MIDI velocity, 1...127.
  ///   - channel: The MIDI channel, 0...15 (default 0).
  ///   - program: The General MIDI program, 0...127 (default 0).
  public init(
    startSeconds: Double, durationSeconds: Double, pitch: Double, velocity: Int, channel: Int = 0,
    program: Int = 0
  ) {
    self.startSeconds = startSeconds
    self.durationSeconds = durationSeconds
    self.pitch = pitch
    self.velocity = velocity
    self.channel = channel
    self.program = program
  }

  /// When the note is released, in seconds: `startSeconds + durationSeconds`.
  public var endSeconds: Double { startSeconds + durationSeconds }

  private enum CodingKeys: String, CodingKey {
    case startSeconds, durationSeconds, pitch, velocity, channel, program
  }

  /// Decodes a note; `channel` and `program` are optional (0 when absent).
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` when a required field is missing or has the wrong type.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    startSeconds = try container.decode(Double.self, forKey: .startSeconds)
    durationSeconds = try container.decode(Double.self, forKey: .durationSeconds)
    pitch = try container.decode(Double.self, forKey: .pitch)
    velocity = try container.decode(Int.self, forKey: .velocity)
    channel = try container.decodeIfPresent(Int.self, forKey: .channel) ?? 0
    program = try container.decodeIfPresent(Int.self, forKey: .program) ?? 0
  }
}
