import Foundation

/// Triangular filters on a logarithmic frequency grid, over the bins of a real FFT: the
/// filterbank SuperFlux sums its magnitudes with.
///
/// The band edges lie on the grid `440 Hz · 2^(k / bandsPerOctave)` from the grid frequency at
/// or below the minimum to the one at or above the maximum (lowered to below Nyquist), each
/// rounded to the nearest FFT bin; edges that round to the same bin are merged, so low bands,
/// narrower than a bin apart, become single bins. Band `b` rises linearly from 0 at edge `b` to 1
/// at edge `b + 1` and falls back to 0 at edge `b + 2` (heights 1, not area-normalized).
struct LogFrequencyFilterbank {
  /// The first FFT bin of each band.
  let firstBins: [Int]
  /// The weights of each band, from its first bin on.
  let weights: [[Float]]

  var bandCount: Int { firstBins.count }

  init(configuration: SpectralFluxOnsetDetector.Configuration) {
    let size = configuration.frameSize
    let binHz = configuration.sampleRate / Double(size)
    let nyquistBin = size / 2
    let perOctave = Double(configuration.bandsPerOctave)
    let low = Int((perOctave * log2(configuration.minimumFrequencyHz / 440)).rounded(.down))
    let high = Int((perOctave * log2(configuration.maximumFrequencyHz / 440)).rounded(.up))
    var edges: [Int] = []
    if low <= high {
      for k in low...high {
        let bin = Int((440 * pow(2, Double(k) / perOctave) / binHz).rounded())
        guard bin < nyquistBin else { break }
        if bin >= 0, bin != edges.last { edges.append(bin) }
      }
    }
    var firstBins: [Int] = []
    var weights: [[Float]] = []
    if edges.count >= 3 {
      for b in 0..<(edges.count - 2) {
        let (start, mid, stop) = (edges[b], edges[b + 1], edges[b + 2])
        firstBins.append(start)
        weights.append(
          (start..<stop).map { bin in
            bin < mid
              ? Float(bin - start) / Float(mid - start)
              : 1 - Float(bin - mid) / Float(stop - mid)
          })
      }
    }
    self.firstBins = firstBins
    self.weights = weights
  }
}
