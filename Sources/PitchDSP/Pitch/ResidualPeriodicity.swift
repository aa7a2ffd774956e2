import Foundation

/// The periodicity left in a frame once one period is cancelled: de Cheveigné's cancellation
/// model, `y[n] = x[n] − g·x[n − T]`, which removes every partial of a note of period `T` (and
/// whatever else lies on its harmonics), followed by the YIN function `d′(τ)` of `y`.
///
/// When a new note starts under the release of the previous one (a legato change, where the old
/// note can stay the louder for 30–250 ms), the mixture's `d′` dips at the old period, or at a
/// period the two share, and hardly at the new one; cancelling the old period leaves the new
/// note alone. The gain `g` is the least-squares fit over the analysis window, so a decaying
/// note is cancelled as well as a steady one. Steady noise passes the cancellation filter too,
/// and fills the residual's dips as it fills the frame's: where the frame's `d(τ)` is discounted
/// for the learned noise (``PitchConfiguration/noiseCompensation``), so is the residual's, for
/// that noise through the same filter.
///
/// Allocated once by ``PeriodicityAnalysis``; ``PeriodicityAnalysis/cancelPeriod(_:)`` fills it
/// for the last analyzed frame without allocating.
struct ResidualPeriodicity {
  /// The residual frame (first the delayed copy, then the residual).
  let frame: UnsafeMutableBufferPointer<Float>
  /// The residual's cross spectrum.
  let spectrumARe: UnsafeMutableBufferPointer<Float>
  let spectrumAIm: UnsafeMutableBufferPointer<Float>
  let correlation: UnsafeMutableBufferPointer<Float>
  /// The learned steady noise's power spectrum through the cancellation filter (its imaginary
  /// part zero) and its correlation: what the noise adds to the residual's `d(τ)`.
  let noiseSpectrum: UnsafeMutableBufferPointer<Float>
  let noiseZeros: UnsafeMutableBufferPointer<Float>
  let noiseCorrelation: UnsafeMutableBufferPointer<Float>
  let prefixEnergy: UnsafeMutableBufferPointer<Double>
  /// `d′(τ)` of the residual, for `τ` in `0...maximumLag + 1`.
  let difference: UnsafeMutableBufferPointer<Float>

  init(plan: PeriodicityPlan) {
    frame = .zeroed(plan.fftSize)
    let bins = plan.fftSize / 2 + 1
    spectrumARe = .zeroed(bins)
    spectrumAIm = .zeroed(bins)
    correlation = .zeroed(plan.fftSize)
    noiseSpectrum = .zeroed(bins)
    noiseZeros = .zeroed(bins)
    noiseCorrelation = .zeroed(plan.fftSize)
    prefixEnergy = .zeroed(plan.fftSize + 1)
    difference = .zeroed(plan.maximumLag + 2)
  }

  func deallocate() {
    for b in [
      frame, spectrumARe, spectrumAIm, correlation, noiseSpectrum, noiseZeros, noiseCorrelation, difference,
    ] {
      b.deallocate()
    }
    prefixEnergy.deallocate()
  }
}

extension PeriodicityAnalysis {
  /// Cancels the period `lag` (analysis samples, fractional) from the last analyzed frame and
  /// computes the residual's `d′(τ)` into ``residual``'s `difference`.
  ///
  /// The gain and the residual's energies come from the exact residual: the delayed copy
  /// `x[n − T]` is read from the ring (which keeps the longest period's worth of samples before
  /// each frame) with 4-point Lagrange interpolation. Its correlation comes from the frame's cross
  /// spectrum with one inverse transform: an approximation (see the body).
  ///
  /// - Complexity: One inverse FFT (two where the learned noise is discounted) and O(frame) work:
  ///   about a third of the frame's analysis.
  /// - Returns: The residual's energy over the analysis window as a share of the frame's (0 when
  ///   the frame is silent or `lag` is out of range).
  @_noLocks
  func cancelPeriod(_ lag: Double) -> Double {
    let n = plan.frameLength
    let margin = plan.lagMargin
    let w = plan.windowLength
    guard !isSilent, lag >= 2, lag < Double(plan.maximumLag) else { return 0 }
    let mask = ringCapacity - 1
    let whole = Int(lag)
    let t = lag - Double(whole)
    // Lagrange weights: samples n − whole + 1, n − whole, n − whole − 1 and n − whole − 2 sit at
    // s = −1, 0, 1, 2 after n − whole; the delayed sample is at s = t.
    let c0 = -t * (t - 1) * (t - 2) / 6
    let c1 = (t + 1) * (t - 1) * (t - 2) / 2
    let c2 = -(t + 1) * t * (t - 2) / 2
    let c3 = (t + 1) * t * (t - 1) / 6
    let start = lastFrameStart
    let past = residual.frame
    var cross = 0.0
    var power = 0.0
    for i in 0..<n {
      let p = start + i - whole
      // The weights sum to 1: the frame's mean comes off the delayed copy as it came off the frame.
      let value =
        c0 * Double(ring[(p + 1) & mask]) + c1 * Double(ring[p & mask]) + c2 * Double(ring[(p - 1) & mask])
        + c3 * Double(ring[(p - 2) & mask]) - Double(frameMean)
      past[i] = Float(value)
      if i >= margin, i < margin + w {
        cross += Double(frame[i]) * value
        power += value * value
      }
    }
    guard power > 0 else { return 0 }
    let gain = Float(max(0, min(1.2, cross / power)))
    let prefix = residual.prefixEnergy
    var sum = 0.0
    prefix[0] = 0
    for i in 0..<n {
      let y = frame[i] - gain * past[i]
      past[i] = y
      sum += Double(y) * Double(y)
      prefix[i + 1] = sum
    }
    let frameEnergy = prefixEnergy[margin + w] - prefixEnergy[margin]
    let windowEnergy = prefix[margin + w] - prefix[margin]
    let share = frameEnergy > 0 ? windowEnergy / frameEnergy : 0
    let d = residual.difference
    guard windowEnergy > frameEnergy * 1e-6 else {
      d.update(repeating: 1)
      return share
    }
    // The residual's correlation from the frame's cross spectrum C = conj(A)·B (still in
    // `spectrumA`): cancelling period T multiplies A and B by (1 − g·e^(−iωT)), so C by
    // |1 − g·e^(−iωT)|² = 1 + g² − 2g·cos(ωT). The delay this applies is circular, and to the
    // window as cut (its first T samples miss their delayed copy, which spills past its end):
    // an approximation that left the evaluation's figures as the exact residual's did, at a third
    // of its cost.
    let half = plan.fftSize / 2
    let r = residual
    let g = Double(gain)
    let angle = 2 * Double.pi * lag / Double(plan.fftSize)
    // RT-audited: libm's cos and sin are pure functions; they neither allocate nor lock.
    let (stepCos, stepSin) = _unsafePerformance { (cos(angle), sin(angle)) }
    var c = 1.0
    var s = 0.0
    let (cRe, cIm) = (spectrumARe, spectrumAIm)
    // The steady noise the frame's d(τ) was discounted for passes the same filter.
    let compensation = isCompensated ? configuration.noiseCompensation : 0
    let noisePower = noiseFloor.power
    for k in 0...half {
      let factor = Float(1 + g * g - 2 * g * c)
      r.spectrumARe[k] = cRe[k] * factor
      r.spectrumAIm[k] = cIm[k] * factor
      if compensation > 0 { r.noiseSpectrum[k] = noisePower[k] * factor }
      let nextC = c * stepCos - s * stepSin
      s = s * stepCos + c * stepSin
      c = nextC
    }
    let fft = self.fft
    fft._withUnsafeGuaranteedRef {
      $0.inverseReal(
        real: UnsafeBufferPointer(r.spectrumARe), imaginary: UnsafeBufferPointer(r.spectrumAIm),
        output: r.correlation)
    }
    if compensation > 0 {
      fft._withUnsafeGuaranteedRef {
        $0.inverseReal(
          real: UnsafeBufferPointer(r.noiseSpectrum), imaginary: UnsafeBufferPointer(r.noiseZeros),
          output: r.noiseCorrelation)
      }
    }
    let size = plan.fftSize
    let noiseZero = Double(r.noiseCorrelation[0])
    var cumulative = 0.0
    d[0] = 1
    for tau in 1...margin {
      let correlationSum = Double(r.correlation[tau]) + Double(r.correlation[size - tau])
      let shiftedEnergy = shiftedWindowEnergy(prefix, margin: margin, window: w, lag: tau)
      var value = max(0, windowEnergy + shiftedEnergy - correlationSum)
      if compensation > 0 {
        value = Self.discountingNoise(
          value, zero: noiseZero, atLag: Double(r.noiseCorrelation[tau]), scale: noiseScale[tau],
          compensation: compensation)
      }
      cumulative += value
      d[tau] = cumulative > 0 ? Float(value * Double(tau) / cumulative) : 1
    }
    return share
  }
}

/// `a ← conj(a)·b` over the bins of two spectra held as real and imaginary parts, four bins at a
/// time: the cross spectrum whose inverse transform is the correlation of `a`'s signal with `b`'s.
@_noLocks
func multiplyConjugate(
  _ aRe: UnsafeMutableBufferPointer<Float>, _ aIm: UnsafeMutableBufferPointer<Float>,
  by bRe: UnsafeMutableBufferPointer<Float>, _ bIm: UnsafeMutableBufferPointer<Float>
) {
  let bins = aRe.count
  let quads = bins / 4
  let (pARe, pAIm) = (UnsafeMutableRawPointer(aRe.baseAddress!), UnsafeMutableRawPointer(aIm.baseAddress!))
  let (pBRe, pBIm) = (UnsafeRawPointer(bRe.baseAddress!), UnsafeRawPointer(bIm.baseAddress!))
  for q in 0..<quads {
    let offset = q &* 4 &* MemoryLayout<Float>.stride
    let ar = pARe.loadUnaligned(fromByteOffset: offset, as: SIMD4<Float>.self)
    let ai = pAIm.loadUnaligned(fromByteOffset: offset, as: SIMD4<Float>.self)
    let br = pBRe.loadUnaligned(fromByteOffset: offset, as: SIMD4<Float>.self)
    let bi = pBIm.loadUnaligned(fromByteOffset: offset, as: SIMD4<Float>.self)
    pARe.storeBytes(of: ar * br + ai * bi, toByteOffset: offset, as: SIMD4<Float>.self)
    pAIm.storeBytes(of: ar * bi - ai * br, toByteOffset: offset, as: SIMD4<Float>.self)
  }
  for k in (4 * quads)..<bins {
    let re = aRe[k] * bRe[k] + aIm[k] * bIm[k]
    let im = aRe[k] * bIm[k] - aIm[k] * bRe[k]
    aRe[k] = re
    aIm[k] = im
  }
}
