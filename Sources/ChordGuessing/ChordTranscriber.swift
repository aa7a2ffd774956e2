import Foundation
import PitchDSP
import ScoreModel

/// Chord segments of a whole recording: the ``ChordRecognizer``'s analysis and scores, decoded
/// by the Viterbi algorithm over the whole stream instead of causally.
///
/// Push the audio in blocks of any size with ``process(_:)``, then call ``finish()`` for the
/// segments: they cover the stream from 0 to its end without gaps, each with a Harte label.
/// Segment boundaries sit halfway between the centres of the last frame of one chord and the
/// first of the next. The hidden Markov model is the recognizer's (``ChordSmoothing/hiddenMarkov``:
/// chords last ``ChordRecognizer/Configuration/meanChordSeconds`` on average); only the
/// enabled types of the configuration are used. Memory grows with the stream (two bytes per
/// chord state per 46 ms frame: 4 MB for five minutes with the default vocabulary), so this is
/// for files, not for the audio thread.
///
/// ```swift
/// let segments = try ChordTranscriber.segments(for: samples, configuration: .init(sampleRate: 44_100))
/// for segment in segments { print(segment) }   // 0.000  1.950  C:maj …
/// ```
public final class ChordTranscriber {
  /// The configuration.
  public let configuration: Configuration
  /// The recognizer's configuration type.
  public typealias Configuration = ChordRecognizer.Configuration

  private var analysis: ChromaAnalysis
  private var model: ChordModel
  private let mask: UInt32
  private let logStay: [Float]
  private let logBass: [Float]
  private let logChange: [Float]
  private let delta: UnsafeMutableBufferPointer<Float>
  private let next: UnsafeMutableBufferPointer<Float>
  private var backpointers: [Int16] = []
  private var times: [Double] = []
  private var inputFrames = 0
  private var isFinished = false
  /// Onsets, to place segment boundaries on: SuperFlux on the input averaged down to about
  /// 11 kHz.
  private let onsetDetector: SpectralFluxOnsetDetector
  private let decimation: Int
  private var decimationSum: Float = 0
  private var decimationCount = 0
  private var decimated: [Float] = []
  private var onsetScratch: [Onset] = []
  private var onsets: [Onset] = []

  /// Creates a transcriber.
  ///
  /// - Parameter configuration: The recognizer configuration (its smoothing is ignored).
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` for a configuration
  ///   out of range.
  public init(configuration: Configuration) throws(PitchDSPError) {
    try configuration.validate()
    self.configuration = configuration
    analysis = try ChromaAnalysis(configuration: configuration.chroma)
    let model = ChordModel(
      types: configuration.types, allowsInversions: configuration.allowsInversions,
      decision: configuration.decision)
    mask = ChordRecognizer.mask(of: configuration.enabledTypes, in: configuration.types)
    var enabledGroups = 0
    for g in 0..<model.groupCount where model.isEnabled(model.groupStart[g], mask: mask) {
      enabledGroups += 1
    }
    let leave = min(0.25, configuration.chroma.hopSeconds / configuration.meanChordSeconds)
    var stay: [Float] = []
    var bass: [Float] = []
    var change: [Float] = []
    for g in 0..<model.groupCount {
      let n = Double(model.groupSize[g])
      stay.append(Float(log(n > 1 ? 1 - 2 * leave : 1 - leave)))
      bass.append(n > 1 ? Float(log(leave / (n - 1))) : -.infinity)
      change.append(Float(log(leave / Double(max(1, enabledGroups - 1)) / n)))
    }
    logStay = stay
    logBass = bass
    logChange = change
    decimation = max(1, Int(configuration.chroma.sampleRate / Chromagram.Configuration.analysisRate + 0.5))
    // λ = 100 in log₁₀(1 + λ·X): level-independent for input above about −40 dBFS; only the
    // onsets' order of strength near a chord change matters here.
    onsetDetector = try SpectralFluxOnsetDetector(
      configuration: .init(
        sampleRate: configuration.chroma.sampleRate / Double(decimation), hopSeconds: 0.01, logScale: 100))
    delta = .allocate(capacity: model.stateCount)
    delta.initialize(repeating: 0)
    next = .allocate(capacity: model.stateCount)
    next.initialize(repeating: 0)
    self.model = model
  }

  deinit {
    delta.deallocate()
    next.deallocate()
  }

  /// Every type the transcriber can report.
  public var types: [ChordType] { configuration.types }

  /// Consumes a block of mono frames (allocates as the decoding grows).
  ///
  /// - Parameter frames: Mono samples at the configured sample rate, any count; NaN and ±∞
  ///   count as silence.
  public func process(_ frames: UnsafeBufferPointer<Float>) {
    precondition(!isFinished, "call reset() before pushing a new stream")
    inputFrames += frames.count
    var offset = 0
    while analysis.advance(frames, offset: &offset) { step() }
    decimated.removeAll(keepingCapacity: true)
    for x in frames {
      decimationSum += x.isFinite ? x : 0
      decimationCount += 1
      if decimationCount == decimation {
        decimated.append(decimationSum / Float(decimation))
        decimationSum = 0
        decimationCount = 0
      }
    }
    detectOnsets(finishing: false)
  }

  /// Runs the onset detector over ``decimated`` (or finishes it) and keeps its onsets.
  private func detectOnsets(finishing: Bool) {
    let needed = max(
      onsetDetector.maximumOnsets(forFrames: decimated.count), onsetDetector.maximumOnsets(forFrames: 0))
    if onsetScratch.count < needed {
      onsetScratch = [Onset](repeating: Onset(time: 0, strength: 0), count: needed)
    }
    let count = decimated.withUnsafeBufferPointer { block in
      onsetScratch.withUnsafeMutableBufferPointer {
        finishing ? onsetDetector.finish(into: $0) : onsetDetector.process(block, into: $0)
      }
    }
    onsets += onsetScratch[0..<count]
  }

  /// Consumes an array of mono frames.
  ///
  /// - Parameter frames: Mono samples at the configured sample rate.
  public func process(_ frames: [Float]) {
    frames.withUnsafeBufferPointer { process($0) }
  }

  /// Ends the stream and decodes it.
  ///
  /// - Returns: Segments covering `0...duration` with no gaps, in order; empty for an empty
  ///   stream.
  public func finish() -> [ChordSegment] {
    if !isFinished {
      while analysis.advanceFinishing() { step() }
      detectOnsets(finishing: true)
      isFinished = true
    }
    let duration = Double(inputFrames) / configuration.chroma.sampleRate
    guard !times.isEmpty, duration > 0 else { return [] }
    // Backtrack.
    let count = model.stateCount
    var state = 0
    for s in 1..<count where delta[s] > delta[state] { state = s }
    var path = [Int](repeating: 0, count: times.count)
    for frame in stride(from: times.count - 1, through: 0, by: -1) {
      path[frame] = state
      if frame > 0 { state = Int(backpointers[frame * count + state]) }
    }
    var segments: [ChordSegment] = []
    var start = 0.0
    for frame in 0..<times.count {
      let isLast = frame == times.count - 1
      if isLast || path[frame + 1] != path[frame] {
        let end = isLast ? duration : min(duration, (times[frame] + times[frame + 1]) / 2)
        if end > start {
          let s = path[frame]
          let label = ChordLabels.label(
            root: model.stateRoot[s], typeIndex: model.stateType[s],
            bassSemitones: model.stateBassInterval[s],
            types: types)
          if let last = segments.last, last.label == label {
            segments[segments.count - 1].end = end
          } else {
            segments.append(ChordSegment(start: start, end: end, label: label))
          }
          start = end
        }
      }
    }
    return snapped(segments)
  }

  /// Places chord changes on onsets. First, a segment shorter than 0.3 s between two others,
  /// with an onset within 0.15 s of it, is the change itself — frames that straddle it hold
  /// both chords and can fit a third — so it is removed and the change put on the strongest
  /// such onset. Then each remaining boundary moves to the strongest onset within 0.2 s of it
  /// (keeping every segment at least 0.1 s long): a change of chord is played, so it starts
  /// with the onsets of its notes, which a 372 ms analysis frame cannot place to better than
  /// about ±50 ms (it tends to find changes early on decaying sounds, whose fresh attacks
  /// dominate a frame before its centre).
  func snapped(_ segments: [ChordSegment]) -> [ChordSegment] {
    guard segments.count > 1, !onsets.isEmpty else { return segments }
    var result: [ChordSegment] = []
    var index = 0
    while index < segments.count {
      let segment = segments[index]
      if !result.isEmpty, index + 1 < segments.count, segment.end - segment.start < 0.3,
        let onset = strongestOnset(from: segment.start - 0.15, to: segment.end + 0.15),
        onset.time > result[result.count - 1].start + 0.1, onset.time < segments[index + 1].end - 0.1
      {
        let next = segments[index + 1]
        result[result.count - 1].end = onset.time
        if result[result.count - 1].label == next.label {
          result[result.count - 1].end = next.end
        } else {
          result.append(ChordSegment(start: onset.time, end: next.end, label: next.label))
        }
        index += 2
        continue
      }
      result.append(segment)
      index += 1
    }
    for i in 1..<max(1, result.count) {
      let boundary = result[i].start
      let low = max(boundary - 0.2, result[i - 1].start + 0.1)
      let high = min(boundary + 0.2, result[i].end - 0.1)
      guard low < high, let best = strongestOnset(from: low, to: high) else { continue }
      result[i - 1].end = best.time
      result[i].start = best.time
    }
    return result
  }

  /// The strongest onset in `low...high`, if any.
  private func strongestOnset(from low: Double, to high: Double) -> Onset? {
    // Onsets are in time order: binary search for the first at or after `low`.
    var first = 0
    var last = onsets.count
    while first < last {
      let middle = (first + last) / 2
      if onsets[middle].time < low { first = middle + 1 } else { last = middle }
    }
    var best: Onset?
    var j = first
    while j < onsets.count, onsets[j].time <= high {
      if best == nil || onsets[j].strength > best!.strength { best = onsets[j] }
      j += 1
    }
    return best
  }

  /// Forgets the stream, to start an unrelated one.
  public func reset() {
    analysis.reset()
    onsetDetector.reset()
    onsets = []
    decimationSum = 0
    decimationCount = 0
    backpointers = []
    times = []
    inputFrames = 0
    isFinished = false
  }

  /// The chord segments of a whole signal.
  ///
  /// - Parameters:
  ///   - samples: Mono samples at the configured sample rate.
  ///   - configuration: The recognizer configuration.
  /// - Returns: Segments covering the signal.
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` for a configuration
  ///   out of range.
  public static func segments(for samples: [Float], configuration: Configuration) throws(PitchDSPError)
    -> [ChordSegment]
  {
    let transcriber = try ChordTranscriber(configuration: configuration)
    transcriber.process(samples)
    return transcriber.finish()
  }

  /// One Viterbi step for the frame just analyzed.
  private func step() {
    let frame = analysis.result
    model.score(frame, enabledMask: mask)
    let count = model.stateCount
    let emission = model.emission
    let (delta, next) = (self.delta, self.next)
    let frameIndex = times.count
    times.append(frame.time)
    backpointers.append(contentsOf: repeatElement(0, count: count))
    if frameIndex == 0 {
      for s in 0..<count { delta[s] = emission[s] }
      return
    }
    let (groupStart, groupSize, stateGroup) = (model.groupStart, model.groupSize, model.stateGroup)
    let groupCount = model.groupCount
    // Best predecessor overall and within each group.
    var best = 0
    for s in 1..<count where delta[s] > delta[best] { best = s }
    let bestGroup = stateGroup[best]
    let base = frameIndex * count
    logStay.withUnsafeBufferPointer { logStay in
      logBass.withUnsafeBufferPointer { logBass in
        logChange.withUnsafeBufferPointer { logChange in
          backpointers.withUnsafeMutableBufferPointer { pointers in
            for g in 0..<groupCount {
              let first = groupStart[g]
              let end = first + groupSize[g]
              var groupBest = first
              for s in first..<end where delta[s] > delta[groupBest] { groupBest = s }
              let viaBass = delta[groupBest] + logBass[g]
              let viaChange = delta[best] + logChange[g]
              for s in first..<end {
                var value = delta[s] + logStay[g]
                var from = s
                if groupBest != s, viaBass > value {
                  value = viaBass
                  from = groupBest
                }
                if bestGroup != g, viaChange > value {
                  value = viaChange
                  from = best
                }
                next[s] = value + emission[s]
                pointers[base + s] = Int16(from)
              }
            }
          }
        }
      }
    }
    // Keep the scores near 0.
    var top = next[0]
    for s in 1..<count where next[s] > top { top = next[s] }
    for s in 0..<count { delta[s] = max(next[s] - top, -1e30) }
  }
}
