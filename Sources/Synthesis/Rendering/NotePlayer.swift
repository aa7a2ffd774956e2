/// Plays a list of notes with one instrument, a block at a time, starting and releasing each
/// note at its exact frame.
///
/// The notes are turned into frame-stamped note-ons and note-offs in `init` (a note starts at
/// frame `round(startSeconds · sampleRate)` and is released at `round(endSeconds · sampleRate)`;
/// at one frame, releases come before starts). ``render(into:)`` splits each block at the events
/// inside it, so the output does not depend on the block sizes: blocks of 1, 64 or 4096 frames
/// give the same samples. Notes with a start that is not finite or negative are skipped; a
/// duration that is not finite or negative counts as 0 (the note starts and is released at the
/// same frame). `channel` and `program` are ignored: one player plays one part.
///
/// Like ``VoiceAllocator`` (which it uses), the player is a value whose storage is copied on the
/// first change after a copy; uncopied, ``render(into:)`` allocates nothing and takes no locks.
///
/// ```swift
/// var player = NotePlayer(notes: try Tab(parsing: "(\"13\",1)|(\"12\",1)").notes(),
///                         instrument: Guitar(), sampleRate: 44_100, polyphony: 6)
/// while !player.isFinished { player.render(into: block) }   // in the audio callback
/// let song = player.renderAll()                              // or offline
/// ```
public struct NotePlayer<Voice: SynthVoice>: Sendable {
  /// The sample rate, in Hz.
  public let sampleRate: Double
  /// When the last note is released, in seconds (0 without notes).
  public let durationSeconds: Double

  private var voices: VoiceAllocator<Voice>
  private let initialVoices: VoiceAllocator<Voice>
  private let events: ScheduledEvents
  private var nextEvent = 0
  /// Frames rendered so far.
  public private(set) var framePosition = 0

  /// Lays out the notes and makes the voices.
  ///
  /// - Parameters:
  ///   - notes: The notes, in any order.
  ///   - instrument: The instrument that plays them.
  ///   - sampleRate: The rate, in Hz (44100 if not finite and positive).
  ///   - polyphony: How many notes can sound at once (at least 1); more overlapping notes steal
  ///     voices as ``VoiceAllocator`` describes.
  public init<I: Instrument>(notes: [NoteEvent], instrument: I, sampleRate: Double, polyphony: Int)
  where I.Voice == Voice {
    let rate = sampleRate.isFinite && sampleRate > 0 ? sampleRate : 44_100
    self.sampleRate = rate
    var laid: [(frame: Int, isStart: Bool, order: Int, pitch: Double, velocity: Int)] = []
    var end = 0.0
    for (order, note) in notes.enumerated() where note.startSeconds.isFinite && note.startSeconds >= 0 {
      let duration = note.durationSeconds.isFinite ? max(0, note.durationSeconds) : 0
      let startFrame = Self.frame(note.startSeconds, rate)
      let endFrame = max(startFrame, Self.frame(note.startSeconds + duration, rate))
      laid.append((startFrame, true, order, note.pitch, note.velocity))
      laid.append((endFrame, false, order, note.pitch, note.velocity))
      end = max(end, note.startSeconds + duration)
    }
    // Time order; at one frame, releases first, then starts; otherwise the notes' order.
    laid.sort { a, b in
      if a.frame != b.frame { return a.frame < b.frame }
      if a.isStart != b.isStart { return !a.isStart }
      return a.order < b.order
    }
    events = ScheduledEvents(laid.map { ScheduledEvent(frame: $0.frame, isStart: $0.isStart, pitch: $0.pitch, velocity: $0.velocity) })
    durationSeconds = end
    voices = VoiceAllocator(instrument: instrument, polyphony: polyphony, sampleRate: rate)
    initialVoices = voices
  }

  /// Whether every note has been started and released and every voice has fallen silent.
  public var isFinished: Bool { nextEvent >= events.count && voices.activeCount == 0 }

  /// How many voices are sounding.
  public var activeCount: Int { voices.activeCount }

  /// Writes the next `output.count` frames, replacing what was there, starting and releasing
  /// notes at their exact frames within the block.
  ///
  /// - Parameter output: Any number of frames (mono).
  /// - Note: Real-time safe (see the type's discussion).
  public mutating func render(into output: UnsafeMutableBufferPointer<Float>) {
    for i in output.indices { output[i] = 0 }
    var offset = 0
    while offset < output.count {
      let now = framePosition + offset
      while nextEvent < events.count && events[nextEvent].frame <= now {
        let event = events[nextEvent]
        if event.isStart {
          voices.noteOn(pitch: event.pitch, velocity: event.velocity)
        } else {
          voices.noteOff(pitch: event.pitch)
        }
        nextEvent += 1
      }
      var end = output.count
      if nextEvent < events.count { end = min(end, events[nextEvent].frame - framePosition) }
      voices.render(adding: UnsafeMutableBufferPointer(rebasing: output[offset..<end]))
      offset = end
    }
    framePosition += output.count
  }

  /// Renders the whole song from its start, offline, and returns it (allocates; not for the
  /// audio thread). This player is not changed.
  ///
  /// Rendering goes on after the last note's release until every voice is silent, for at most
  /// `tailSeconds`.
  ///
  /// - Parameter tailSeconds: The longest time rendered after the last release, in seconds
  ///   (default 2; negative or NaN count as 0).
  /// - Returns: The mono samples, from time 0 to the last sound (at most
  ///   ``durationSeconds`` + `tailSeconds`).
  public func renderAll(tailSeconds: Double = 2) -> [Float] {
    var player = self
    player.voices = initialVoices
    player.nextEvent = 0
    player.framePosition = 0
    let tail = tailSeconds.isFinite ? max(0, tailSeconds) : 0
    let lastEventFrame = events.count > 0 ? events[events.count - 1].frame : 0
    let limit = max(lastEventFrame, Self.frame(durationSeconds, sampleRate)) + Self.frame(tail, sampleRate)
    var samples: [Float] = []
    samples.reserveCapacity(min(limit, Int(600 * sampleRate)))
    var block = [Float](repeating: 0, count: 4096)
    block.withUnsafeMutableBufferPointer { buffer in
      while player.framePosition < limit && !player.isFinished {
        let n = min(buffer.count, limit - player.framePosition)
        let part = UnsafeMutableBufferPointer(rebasing: buffer[0..<n])
        player.render(into: part)
        samples.append(contentsOf: part)
      }
    }
    return samples
  }

  private static func frame(_ seconds: Double, _ rate: Double) -> Int {
    let frames = (seconds * rate).rounded()
    return frames.isFinite ? Int(min(Double(Int.max / 4), max(0, frames))) : 0
  }
}

/// A note-on or note-off at a frame, for ``NotePlayer``.
struct ScheduledEvent: Sendable {
  var frame: Int
  var isStart: Bool
  var pitch: Double
  var velocity: Int
}

/// A ``NotePlayer``'s laid-out events, in memory allocated once and never changed.
final class ScheduledEvents: @unchecked Sendable {
  // @unchecked: written only in `init`, read-only afterwards.
  private let buffer: UnsafeMutableBufferPointer<ScheduledEvent>
  /// How many events there are.
  let count: Int

  init(_ events: [ScheduledEvent]) {
    buffer = .allocate(capacity: max(1, events.count))
    _ = buffer.initialize(from: events)
    count = events.count
  }

  subscript(index: Int) -> ScheduledEvent { buffer[index] }

  deinit { buffer.deallocate() }
}
