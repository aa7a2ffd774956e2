import Foundation
import PitchDSP

/// The note finder of `etude demo`: splits mono audio into sounding segments by level and
/// estimates each segment's fundamental from its spectrum.
///
/// This is the foundation-stage analysis, deliberately simple: segments are runs of 10 ms hops
/// whose RMS is within 30 dB of the loudest hop; the pitch is the lowest strong spectral peak that
/// explains the strongest peak as one of its first four harmonics, refined by parabolic
/// interpolation of the log magnitude. PitchDSP's pitch trackers replace it as they land.
struct DemoNoteFinder {
  /// One sounding segment and its estimated fundamental.
  struct FoundNote: Codable {
    var onsetSeconds: Double
    var durationSeconds: Double
    var frequencyHz: Double
  }

  let sampleRate: Double
  /// Analysis frame for pitch, in samples (a power of two).
  var frameSize = 4096
  /// Level threshold relative to the loudest hop, in dB.
  var thresholdDB = -30.0
  /// Lowest and highest fundamentals considered, in Hz.
  var minimumHz = 60.0
  var maximumHz = 1500.0

  func findNotes(in samples: [Float]) throws(PitchDSPError) -> [FoundNote] {
    let hop = Int(sampleRate * 0.01)
    let hopCount = samples.count / hop
    let levels = (0..<hopCount).map { h -> Double in
      let slice = samples[(h * hop)..<((h + 1) * hop)]
      return 10 * log10(max(slice.reduce(0) { $0 + Double($1 * $1) } / Double(hop), 1e-20))
    }
    guard let loudest = levels.max() else { return [] }
    let gate = loudest + thresholdDB

    // Runs of hops above the gate, at least 50 ms long.
    var segments: [Range<Int>] = []
    var start: Int?
    for (h, level) in levels.enumerated() {
      if level >= gate, start == nil { start = h }
      if level < gate || h == hopCount - 1, let s = start {
        if h - s >= 5 { segments.append(s..<h) }
        start = nil
      }
    }

    let fft = try SwiftFFTBackend(size: frameSize)
    let window = WindowFunction.hann.makeWindow(count: frameSize)
    return segments.map { segment in
      // Analyze from 30 ms after the onset, zero-padded if the note is short.
      let from = segment.lowerBound * hop + Int(0.03 * sampleRate)
      let to = min(segment.upperBound * hop, from + frameSize)
      var frame = [Float](repeating: 0, count: frameSize)
      for i in 0..<max(0, to - from) { frame[i] = samples[from + i] * window[i] }
      let frequency = fundamental(magnitudes: fft.magnitudes(frame))
      return FoundNote(
        onsetSeconds: Double(segment.lowerBound * hop) / sampleRate,
        durationSeconds: Double(segment.count * hop) / sampleRate,
        frequencyHz: frequency)
    }
  }

  /// The fundamental explaining the strongest peak, in Hz (0 when nothing is found).
  func fundamental(magnitudes: [Float]) -> Double {
    let binHz = sampleRate / Double(frameSize)
    let lo = max(1, Int(minimumHz / binHz))
    let hi = min(magnitudes.count - 2, Int(maximumHz * 4 / binHz))
    guard lo < hi, let strongest = (lo...hi).max(by: { magnitudes[$0] < magnitudes[$1] }),
      magnitudes[strongest] > 0
    else { return 0 }
    // The lowest sub-multiple of the strongest peak that is itself a strong local peak.
    for k in stride(from: 4, through: 1, by: -1) {
      let candidate = Double(strongest) / Double(k)
      let bin = Int(candidate.rounded())
      guard Double(bin) * binHz >= minimumHz, bin >= 1 else { continue }
      let neighbourhood = max(1, bin - 2)...min(magnitudes.count - 2, bin + 2)
      guard let peak = neighbourhood.max(by: { magnitudes[$0] < magnitudes[$1] }) else { continue }
      if magnitudes[peak] >= 0.2 * magnitudes[strongest] {
        return refined(peak, magnitudes) * binHz
      }
    }
    return refined(strongest, magnitudes) * binHz
  }

  /// The peak position refined by a parabola through the log magnitudes around `bin`.
  func refined(_ bin: Int, _ magnitudes: [Float]) -> Double {
    let a = log(Double(max(magnitudes[bin - 1], 1e-12)))
    let b = log(Double(max(magnitudes[bin], 1e-12)))
    let c = log(Double(max(magnitudes[bin + 1], 1e-12)))
    let denominator = a - 2 * b + c
    guard denominator < 0 else { return Double(bin) }
    return Double(bin) + 0.5 * (a - c) / denominator
  }
}
