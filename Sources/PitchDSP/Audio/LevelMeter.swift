import Foundation

/// Measures the peak and RMS level of mono frames as they stream past.
///
/// Feed it frames of any count with ``process(_:)``; read ``peak``, ``rms`` and their dBFS values
/// at any time. Non-finite samples (NaN, ±∞) are counted in ``nonFiniteCount`` and left out of the
/// levels, so a corrupt stretch of audio cannot poison the measurement.
public struct LevelMeter: FrameProcessor, Sendable, Equatable {
  /// The sample rate of the frames, in Hz (used only for ``durationSeconds``).
  public var sampleRate: Double
  /// The largest absolute sample value seen.
  public private(set) var peak: Float = 0
  /// The number of finite samples measured.
  public private(set) var frameCount = 0
  /// The number of NaN or infinite samples skipped.
  public private(set) var nonFiniteCount = 0
  /// The number of samples at or beyond full scale (|x| ≥ 1).
  public private(set) var clippedCount = 0
  private var sumOfSquares = 0.0

  /// Creates a meter with nothing measured.
  ///
  /// - Parameter sampleRate: The frames' sample rate, in Hz.
  public init(sampleRate: Double) {
    self.sampleRate = sampleRate
  }

  /// Measures a block of frames.
  ///
  /// - Parameter frames: Mono samples, any count.
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func process(_ frames: UnsafeBufferPointer<Float>) {
    var blockSum = 0.0
    var blockPeak = peak
    var finite = 0
    var clipped = 0
    for x in frames where x.isFinite {
      let magnitude = abs(x)
      blockPeak = max(blockPeak, magnitude)
      blockSum += Double(x) * Double(x)
      finite += 1
      if magnitude >= 1 { clipped += 1 }
    }
    peak = blockPeak
    sumOfSquares += blockSum
    frameCount += finite
    clippedCount += clipped
    nonFiniteCount += frames.count - finite
  }

  /// The root-mean-square level of the finite samples, linear (0 when nothing was measured).
  public var rms: Double { frameCount == 0 ? 0 : (sumOfSquares / Double(frameCount)).squareRoot() }

  /// The peak in dBFS (0 dBFS = full scale, 1.0); `-infinity` for silence.
  public var peakDBFS: Double { Self.decibels(Double(peak)) }

  /// The RMS level in dBFS (a full-scale sine reads about −3.01 dBFS); `-infinity` for silence.
  public var rmsDBFS: Double { Self.decibels(rms) }

  /// The measured duration in seconds.
  public var durationSeconds: Double { Double(frameCount + nonFiniteCount) / sampleRate }

  /// Converts a linear amplitude to dBFS.
  ///
  /// - Parameter amplitude: A linear amplitude, 1 = full scale.
  /// - Returns: `20·log10(amplitude)`, or `-infinity` for 0.
  public static func decibels(_ amplitude: Double) -> Double {
    amplitude > 0 ? 20 * log10(amplitude) : -.infinity
  }
}
