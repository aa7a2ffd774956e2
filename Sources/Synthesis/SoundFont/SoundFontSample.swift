/// A sample header of a SoundFont (the specification's 46-byte `shdr` record).
///
/// Positions are sample frames from the start of the file's sample data; the end and the loop
/// end are exclusive (the frame at `loopEnd` is the one that would follow `loopEnd - 1` in a
/// seamless loop, the same as the frame at `loopStart`).
public struct SoundFontSample: Sendable, Hashable {
  /// The sample's name, up to 20 characters.
  public var name: String
  /// The first frame.
  public var start: Int
  /// One past the last frame.
  public var end: Int
  /// The loop's first frame.
  public var loopStart: Int
  /// One past the loop's last frame.
  public var loopEnd: Int
  /// The rate the sample was recorded at, in Hz.
  public var sampleRate: Int
  /// The MIDI key the sample sounds at when played at its own rate (255: unpitched, read as 60).
  public var originalPitch: Int
  /// Cents to add to the pitch on playback, -99...99.
  public var pitchCorrection: Int
  /// The index of the other half of a stereo pair (or of the next sample of a linked chain).
  public var link: Int
  /// The raw `sfSampleType` word: 1 mono, 2 right, 4 left, 8 linked; 0x8000 flags a ROM sample.
  public var type: Int

  /// Makes a sample header.
  public init(
    name: String, start: Int, end: Int, loopStart: Int, loopEnd: Int, sampleRate: Int, originalPitch: Int,
    pitchCorrection: Int, link: Int, type: Int
  ) {
    self.name = name
    self.start = start
    self.end = end
    self.loopStart = loopStart
    self.loopEnd = loopEnd
    self.sampleRate = sampleRate
    self.originalPitch = originalPitch
    self.pitchCorrection = pitchCorrection
    self.link = link
    self.type = type
  }

  /// Whether the sample lives in a sound card's ROM rather than in the file (such zones are silent).
  public var isROM: Bool { type & 0x8000 != 0 }
}
