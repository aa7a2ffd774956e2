import Foundation

/// The frames a ``SamplePlayer`` reads, laid out once when the player is made: the trimmed
/// sample, and a copy of the loop's last frames already crossfaded into the audio that leads to
/// the loop start.
///
/// Immutable after `init`, so players copied from one another share it safely across threads.
// @unchecked: the pointers are written only in `init` and freed only in `deinit`.
final class SamplePlaybackTable: @unchecked Sendable {
  /// The trimmed frames.
  let body: UnsafeMutableBufferPointer<Float>
  /// The crossfaded replacement for `body[loopEnd - tail.count ..< loopEnd]` while looping.
  let tail: UnsafeMutableBufferPointer<Float>
  /// Where the loop ends: reaching this frame while looping jumps to `jumpTarget`.
  let loopEnd: Int
  /// Where playback continues after the seam: the loop start, or `crossfade` frames past it when
  /// no audio precedes the loop start (the crossfade then borrows the loop's own first frames).
  let jumpTarget: Int
  /// The loop start as asked for (the first pass plays from here).
  let loopStart: Int

  init(sample: Sample) {
    let frames = sample.trimmedFrames
    let count = frames.count
    body = .allocate(capacity: count)
    _ = body.initialize(from: frames)
    let region = sample.loopRegion
    loopStart = region.lowerBound
    loopEnd = region.upperBound
    let asked = Int((sample.loop.crossfadeSeconds * sample.sampleRate).rounded())
    let crossfade = max(0, min(asked, region.count / 2))
    // Blend source: the `crossfade` frames that lead into the point the seam jumps to.
    let source: Int
    if region.lowerBound >= crossfade {
      source = region.lowerBound - crossfade
      jumpTarget = region.lowerBound
    } else {
      source = region.lowerBound
      jumpTarget = region.lowerBound + crossfade
    }
    tail = .allocate(capacity: crossfade)
    let tailStart = region.upperBound - crossfade
    for i in 0..<crossfade {
      // Raised cosine from just above 0 to exactly 1: the last tail frame is the frame before
      // the jump target, so the seam continues the waveform.
      let w = Float(0.5 - 0.5 * cos(Double.pi * Double(i + 1) / Double(crossfade)))
      tail[i] = body[tailStart + i] * (1 - w) + body[source + i] * w
    }
  }

  deinit {
    body.deallocate()
    tail.deallocate()
  }
}
