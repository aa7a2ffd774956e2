import Foundation

/// Where the bins of the log-frequency spectrum sit, and the kernels that compute them from an
/// FFT frame: three bins per semitone from MIDI 27 (E♭1) to MIDI 107 (B7), bin `3·(m − 27)`
/// centred on MIDI note `m`. Set-up code only (allocates); the kernels are copied into
/// ``SparseRows`` for the audio thread.
struct LogFrequencyLayout {
  let analysisRate: Double
  let frameSize: Int
  let referenceHz: Double
  /// MIDI pitch of bin 0.
  let lowestMIDI = 20.0
  let binsPerSemitone = 3
  let binCount = 3 * 87 + 1
  /// The notes of the transcription: A0 to C7.
  let lowestNote = 21
  let highestNote = 96
  /// Tuning steps of `stepCents` from −50 to +50 cents: kernels are tabulated for each.
  let stepCents = 5.0
  var tuningSteps: Int { Int(100 / stepCents) + 1 }

  /// Hz per FFT bin.
  var binHz: Double { analysisRate / Double(frameSize) }

  /// The MIDI pitch (fractional) at the centre of log bin `bin`, before tuning.
  func midi(ofBin bin: Int) -> Double { lowestMIDI + Double(bin) / Double(binsPerSemitone) }

  /// The tuning, in cents, of step `step`.
  func cents(ofStep step: Int) -> Double { -50 + Double(step) * stepCents }

  /// The centre frequency of `bin` at `cents` from the reference, in Hz.
  func centreHz(ofBin bin: Int, cents: Double) -> Double {
    referenceHz * pow(2, (midi(ofBin: bin) - 69) / 12 + cents / 1200)
  }

  /// The shape of a Hann window's transform, `δ` bins (of its own length) from its centre,
  /// signed, 0.5 at `δ = 0`: `0.5·sinc(δ) + 0.25·sinc(δ − 1) + 0.25·sinc(δ + 1)`.
  static func hannShape(_ delta: Double) -> Double {
    0.5 * sinc(delta) + 0.25 * sinc(delta - 1) + 0.25 * sinc(delta + 1)
  }

  /// `sin(πx) / (πx)`.
  static func sinc(_ x: Double) -> Double {
    abs(x) < 1e-9 ? 1 : sin(Double.pi * x) / (Double.pi * x)
  }

  // MARK: - STFT mapping

  /// The weights of `bin` over Hann-windowed FFT magnitudes at `cents`: a raised cosine in
  /// frequency, a third of a semitone (at least one FFT bin) to each side of the centre, scaled
  /// so that a unit-amplitude sinusoid at the centre gives exactly 1.
  func fftRow(bin: Int, cents: Double) -> [(column: Int, weight: Float)] {
    let centre = centreHz(ofBin: bin, cents: cents)
    let halfWidth = max(centre * (pow(2, 1.0 / 36) - 1), binHz)
    let first = max(1, Int(((centre - halfWidth) / binHz).rounded(.up)))
    let last = min(frameSize / 2 - 1, Int(((centre + halfWidth) / binHz).rounded(.down)))
    guard first <= last else { return [] }
    var raw: [(Int, Double)] = []
    var response = 0.0
    for k in first...last {
      let x = (Double(k) * binHz - centre) / halfWidth
      guard abs(x) < 1 else { continue }
      let c = cos(Double.pi / 2 * x)
      raw.append((k, c * c))
      response += c * c * 2 * abs(Self.hannShape(Double(k) - centre / binHz))
    }
    guard response > 0 else { return [] }
    // A unit sinusoid's Hann-windowed magnitude peaks at N/4.
    let scale = 4 / (Double(frameSize) * response)
    return raw.map { ($0.0, Float($0.1 * scale)) }
  }

  /// What `bin` reads at tuning 0 from a unit-amplitude sinusoid at `frequencyHz`, given its
  /// STFT row at tuning 0.
  func fftResponse(row: [(column: Int, weight: Float)], frequencyHz: Double) -> Double {
    var sum = 0.0
    for (k, w) in row {
      let delta = Double(k) - frequencyHz / binHz
      guard abs(delta) < 4 else { continue }
      sum += Double(w) * Double(frameSize) / 4 * 2 * abs(Self.hannShape(delta))
    }
    return sum
  }

  // MARK: - Constant-Q kernels

  /// The constant-Q quality factor for 36 bins per octave.
  static let quality = 1 / (pow(2, 1.0 / 36) - 1)

  /// The window length of `bin`'s constant-Q kernel, in samples (at most a frame).
  func constantQLength(centreHz: Double) -> Double {
    min(Double(frameSize), Self.quality * analysisRate / centreHz)
  }

  /// The spectral kernel of `bin` at `cents`: weights over the complex spectrum of the
  /// unwindowed frame such that `|Σ X[k]·w[k]|` is the magnitude of the frame, centred and
  /// Hann-windowed over the kernel's length, at the bin's frequency; a unit sinusoid there
  /// gives 1. Entries within three of the kernel's own bins of the centre.
  func constantQRow(bin: Int, cents: Double) -> [(column: Int, weight: Float)] {
    let centre = centreHz(ofBin: bin, cents: cents)
    let length = constantQLength(centreHz: centre)
    // u = (k·Δf − f)·L / fs: the distance in the kernel's own bins.
    let spread = 3 * analysisRate / length / binHz
    let first = max(0, Int((centre / binHz - spread).rounded(.up)))
    let last = min(frameSize / 2, Int((centre / binHz + spread).rounded(.down)))
    guard first <= last else { return [] }
    var row: [(column: Int, weight: Float)] = []
    for k in first...last {
      let u = (Double(k) * binHz - centre) * length / analysisRate
      guard abs(u) < 3 else { continue }
      // The kernel is centred on the frame's middle sample: a factor (−1)^k.
      let sign = k % 2 == 0 ? 1.0 : -1.0
      row.append((k, Float(4 / Double(frameSize) * sign * Self.hannShape(u))))
    }
    return row
  }

  /// What constant-Q `bin` reads at tuning 0 from a unit-amplitude sinusoid at `frequencyHz`.
  func constantQResponse(bin: Int, frequencyHz: Double) -> Double {
    let centre = centreHz(ofBin: bin, cents: 0)
    let u = (frequencyHz - centre) * constantQLength(centreHz: centre) / analysisRate
    return abs(u) < 3 ? 2 * abs(Self.hannShape(u)) : 0
  }
}
