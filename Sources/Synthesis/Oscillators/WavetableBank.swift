import Foundation
import PitchDSP

/// The band-limited single-cycle tables every ``Oscillator`` reads: built once, never freed,
/// never written after they are built, shared by every oscillator at every sample rate.
///
/// For each of the sawtooth, square and triangle there is one table per harmonic count `H` in
/// ``harmonicCounts`` (every count from 1 to 16, then six per octave up to 1024), holding the
/// shape's first `H` harmonics exactly (an inverse FFT of the ideal Fourier series, truncated),
/// and a silent table below them. The sine has one table. Tables hold ``tableSize`` points plus
/// one guard point (a copy of point 0) so linear interpolation never wraps.
///
/// A table with `H` harmonics played at `f` Hz and rate `fs` aliases nothing when `H·f < fs/2`;
/// ``Oscillator`` picks, per block, the two neighbouring tables that both satisfy this and
/// crossfades them by where the frequency lies between them, so the timbre moves smoothly with
/// the frequency. Linear interpolation of a 4096-point table leaves images of harmonic `h` at
/// `4096 ± h` weighted by about `(h / (4096 − h))²`; the largest table (1024 harmonics) keeps them
/// below −79 dB for a sawtooth, and the tables used above 100 Hz at 44.1 kHz (at most about 200
/// harmonics) below −90 dB.
final class WavetableBank: @unchecked Sendable {
  // @unchecked: the memory is written only in `init`, before the bank is published, and never
  // freed or written again, so sharing it between threads is safe.

  /// Points per cycle (a power of two).
  static var tableSize: Int { WavetableLayout.tableSize }
  /// Floats per stored table (the cycle plus one guard point).
  static var stride: Int { WavetableLayout.stride }

  /// The bank every oscillator shares, built on first use (a few milliseconds).
  static let shared = WavetableBank()

  /// The harmonic counts of the band-limited tables, ascending (1...16, then six per octave to 1024).
  let harmonicCounts: UnsafeMutableBufferPointer<Double>
  /// All tables: the sine, then per shaped waveform a silent table followed by one table per
  /// harmonic count.
  let storage: UnsafeMutableBufferPointer<Float>

  private init() {
    var counts = Array(1...16).map(Double.init)
    for step in 1...36 {
      counts.append((16 * exp2(Double(step) / 6)).rounded())
    }
    harmonicCounts = .allocate(capacity: counts.count)
    _ = harmonicCounts.initialize(from: counts)
    let perShape = counts.count + 1
    storage = .allocate(capacity: (1 + 3 * perShape) * Self.stride)
    storage.initialize(repeating: 0)

    let size = Self.tableSize
    let fft: SwiftFFTBackend
    do { fft = try SwiftFFTBackend(size: size) } catch { fatalError("FFT of \(size) points: \(error)") }
    var real = [Float](repeating: 0, count: size / 2 + 1)
    var imaginary = real
    var cycle = [Float](repeating: 0, count: size)
    func write(table index: Int, shape: Waveform, harmonics: Int) {
      for k in 0...(size / 2) {
        real[k] = 0
        // A sine component a·sin(2πkn/N) is the bin X[k] = −i·a·N/2 (the inverse is scaled by 1/N).
        imaginary[k] = k >= 1 && k <= harmonics ? Float(-shape.harmonicAmplitude(k) * Double(size) / 2) : 0
      }
      real.withUnsafeBufferPointer { r in
        imaginary.withUnsafeBufferPointer { i in
          cycle.withUnsafeMutableBufferPointer { fft.inverseReal(real: r, imaginary: i, output: $0) }
        }
      }
      let base = index * Self.stride
      for n in 0..<size { storage[base + n] = cycle[n] }
      storage[base + size] = cycle[0]
    }
    write(table: 0, shape: .sine, harmonics: 1)
    for (s, shape) in [Waveform.sawtooth, .square, .triangle].enumerated() {
      // Table 1 + s·perShape stays silent.
      for (h, count) in counts.enumerated() {
        write(table: 1 + s * perShape + 1 + h, shape: shape, harmonics: Int(count))
      }
    }
  }
}

/// The bank's table geometry, as a plain namespace the audio path can read without touching the
/// bank's class metadata.
enum WavetableLayout {
  /// Points per cycle (a power of two).
  static var tableSize: Int { @_noLocks get { 4096 } }
  /// Floats per stored table (the cycle plus one guard point).
  static var stride: Int { @_noLocks get { 4097 } }
}
