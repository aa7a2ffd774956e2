/// Renders a ``Song`` to mono audio: each part through a ``NotePlayer`` of its instrument, the
/// parts mixed.
///
/// Offline and deterministic: the same song and instruments give the same samples. The mix is
/// scaled down only when it would clip (its peak above ``ceiling``); otherwise the instruments'
/// own levels stand.
public struct SongRenderer: Sendable {
  /// The sample rate to render at, in Hz.
  public var sampleRate: Double
  /// The voices each part may sound at once (a note beyond steals one).
  public var polyphony: Int
  /// How long the audio runs on after the last note ends, for releases and rings, in seconds
  /// (it stops sooner when everything is silent).
  public var tailSeconds: Double
  /// The highest peak the mix may reach; a louder mix is scaled down to it.
  public var ceiling: Float

  /// A renderer.
  ///
  /// - Parameters:
  ///   - sampleRate: The sample rate, in Hz (clamped to 8 kHz…384 kHz).
  ///   - polyphony: Voices per part, at least 1.
  ///   - tailSeconds: The tail after the last note, at least 0.
  ///   - ceiling: The mix's highest peak, 0…1.
  public init(
    sampleRate: Double = 44_100, polyphony: Int = 32, tailSeconds: Double = 2, ceiling: Float = 0.98
  ) {
    self.sampleRate = sampleRate.isFinite ? min(384_000, max(8_000, sampleRate)) : 44_100
    self.polyphony = max(1, polyphony)
    self.tailSeconds = tailSeconds.isFinite ? max(0, tailSeconds) : 0
    self.ceiling = ceiling.isFinite ? min(1, max(0, ceiling)) : 0.98
  }

  /// Renders every part of `song` with one instrument; percussion parts (channel 9) are left
  /// out, as a pitched instrument cannot play them.
  ///
  /// - Parameters:
  ///   - song: The notes.
  ///   - instrument: The instrument of every part.
  /// - Returns: The mono samples, from 0 s to the end of the last note's tail.
  public func render<I: Instrument>(_ song: Song, instrument: I) -> [Float] {
    render(song) { part in part.isPercussion ? nil : instrument }
  }

  /// Renders each part of `song` with the instrument `instrument(for:)` chooses for it.
  ///
  /// - Parameters:
  ///   - song: The notes.
  ///   - instrument: The instrument of a part, or `nil` to leave the part out; it may throw (a
  ///     SoundFont without the part's program), which ends the rendering.
  /// - Returns: The mono samples, from 0 s to the end of the last note's tail.
  public func render<E: Error>(
    _ song: Song, instrument: (Song.Part) throws(E) -> (any Instrument)?
  ) throws(E) -> [Float] {
    var mix: [Float] = []
    for part in song.parts {
      guard let sound = try instrument(part) else { continue }
      let samples = renderPart(part, with: sound)
      if samples.count > mix.count {
        mix.append(contentsOf: repeatElement(0, count: samples.count - mix.count))
      }
      for (i, sample) in samples.enumerated() { mix[i] += sample }
    }
    let peak = mix.reduce(Float(0)) { max($0, abs($1)) }
    if peak > ceiling, peak.isFinite {
      let gain = ceiling / peak
      for i in mix.indices { mix[i] *= gain }
    }
    return mix
  }

  /// One part through a player of its instrument's voices.
  private func renderPart<I: Instrument>(_ part: Song.Part, with instrument: I) -> [Float] {
    NotePlayer(notes: part.notes, instrument: instrument, sampleRate: sampleRate, polyphony: polyphony)
      .renderAll(tailSeconds: tailSeconds)
  }
}
