import Foundation

/// Approximate note transcription (Mauch and Dixon 2010): the non-negative combination of
/// harmonic note profiles that best explains a whitened log-frequency spectrum, in the least
/// squares sense.
///
/// The dictionary has one column per note from MIDI 28 (E1) to MIDI 96 (C7): the log-frequency
/// spectrum a harmonic tone on that note would produce (20 partials, partial `h` of amplitude
/// `shape^(h−1)`), computed through the same spectral kernels as the analysis itself, so a low
/// note's smearing over neighbouring bins is part of its profile. The solver is Lawson and
/// Hanson's active-set algorithm on the normal equations (the Gram matrix `EᵀE` is tabulated
/// once): it adds the note with the largest gradient, solves the unconstrained problem on the
/// active notes by Cholesky factorization, and steps back whenever a coefficient would turn
/// negative. Memory is allocated in `init`; ``solve(_:)`` allocates nothing.
struct NoteTranscription: ~Copyable {
  let noteCount: Int
  /// Profiles per note (one per spectral shape); column `note · profileCount + p`.
  let profileCount: Int
  let columnCount: Int
  let lowestNote: Int
  let binCount: Int
  /// The most notes active at once, and the most notes added per frame.
  let maximumActive = 48
  let maximumIterations = 96

  /// Column-sparse dictionary: note `n` has entries `starts[n]..<starts[n + 1]`.
  private let starts: UnsafeMutableBufferPointer<Int>
  private let bins: UnsafeMutableBufferPointer<Int>
  private let values: UnsafeMutableBufferPointer<Float>
  /// `EᵀE`, `noteCount × noteCount`, row-major.
  private let gram: UnsafeMutableBufferPointer<Double>

  /// The activations of the last ``solve(_:)``, one per note (summed over the profiles).
  let activations: UnsafeMutableBufferPointer<Float>
  /// The fundamental each note's activations predict, one per note: `Σ_p x[n, p] · a[p, 1]`.
  let expectedFundamentals: UnsafeMutableBufferPointer<Float>
  /// The first partial's amplitude in each profile.
  private let fundamentalAmplitudes: UnsafeMutableBufferPointer<Double>
  /// `‖E·x‖² / ‖y‖²` for the last solve: the fraction of the spectrum the notes explain.
  private(set) var explainedFraction: Float = 0

  private let b: UnsafeMutableBufferPointer<Double>
  private let x: UnsafeMutableBufferPointer<Double>
  private let z: UnsafeMutableBufferPointer<Double>
  private let gradient: UnsafeMutableBufferPointer<Double>
  private let isActive: UnsafeMutableBufferPointer<Bool>
  private let isBlocked: UnsafeMutableBufferPointer<Bool>
  private let active: UnsafeMutableBufferPointer<Int>
  private let factor: UnsafeMutableBufferPointer<Double>
  private let rhs: UnsafeMutableBufferPointer<Double>
  /// Rows of the Cholesky factor that are valid for the current active list.
  private var factored = 0

  /// Builds the dictionary and its Gram matrix.
  ///
  /// - Parameters:
  ///   - lowestNote: The lowest note, MIDI.
  ///   - highestNote: The highest note, MIDI.
  ///   - binCount: Bins of the log-frequency spectrum.
  ///   - shape: Partial `h` has amplitude `shape^(h−1)`.
  ///   - referenceHz: A4 at tuning 0.
  ///   - binRange: The log bins a partial at a frequency can reach.
  ///   - response: What a log bin reads from a unit-amplitude sinusoid at a frequency.
  init(
    lowestNote: Int, highestNote: Int, binCount: Int, profiles: [[Double]], referenceHz: Double,
    topFrequencyHz: Double, binRange: (Double) -> ClosedRange<Int>, response: (Int, Double) -> Double
  ) {
    self.lowestNote = lowestNote
    self.binCount = binCount
    let notes = highestNote - lowestNote + 1
    noteCount = notes
    profileCount = profiles.count
    let n = notes * profiles.count
    columnCount = n
    var columns: [[(Int, Float)]] = []
    var dense = [Double](repeating: 0, count: n * binCount)
    for note in 0..<n {
      let amplitudes = profiles[note % profiles.count]
      let f0 = referenceHz * pow(2, Double(note / profiles.count + lowestNote - 69) / 12)
      var column = [Double](repeating: 0, count: binCount)
      for (index, amplitude) in amplitudes.prefix(20).enumerated() where amplitude > 0 {
        let f = Double(index + 1) * f0
        if f > topFrequencyHz { break }
        for bin in binRange(f) where bin >= 0 && bin < binCount {
          column[bin] += amplitude * response(bin, f)
        }
      }
      let peak = column.max() ?? 0
      var entries: [(Int, Float)] = []
      for (bin, v) in column.enumerated() where v > 1e-4 * peak {
        entries.append((bin, Float(v)))
        dense[note * binCount + bin] = Double(Float(v))
      }
      columns.append(entries)
    }
    let total = columns.reduce(0) { $0 + $1.count }
    starts = .allocate(capacity: n + 1)
    bins = .allocate(capacity: max(1, total))
    values = .allocate(capacity: max(1, total))
    bins.initialize(repeating: 0)
    values.initialize(repeating: 0)
    var offset = 0
    for (note, column) in columns.enumerated() {
      starts.initializeElement(at: note, to: offset)
      for (bin, v) in column {
        bins[offset] = bin
        values[offset] = v
        offset += 1
      }
    }
    starts.initializeElement(at: n, to: offset)
    gram = .allocate(capacity: n * n)
    gram.initialize(repeating: 0)
    for a in 0..<n {
      for (bin, v) in columns[a] {
        for c in 0..<n { gram[a * n + c] += Double(v) * dense[c * binCount + bin] }
      }
    }
    activations = .allocate(capacity: notes)
    activations.initialize(repeating: 0)
    expectedFundamentals = .allocate(capacity: notes)
    expectedFundamentals.initialize(repeating: 0)
    fundamentalAmplitudes = .allocate(capacity: profiles.count)
    for (p, profile) in profiles.enumerated() {
      fundamentalAmplitudes.initializeElement(
        at: p, to: (profile.first ?? 0) / max(1e-12, profile.max() ?? 1))
    }
    b = .allocate(capacity: n)
    b.initialize(repeating: 0)
    x = .allocate(capacity: n)
    x.initialize(repeating: 0)
    z = .allocate(capacity: n)
    z.initialize(repeating: 0)
    gradient = .allocate(capacity: n)
    gradient.initialize(repeating: 0)
    isActive = .allocate(capacity: n)
    isActive.initialize(repeating: false)
    isBlocked = .allocate(capacity: n)
    isBlocked.initialize(repeating: false)
    active = .allocate(capacity: n)
    active.initialize(repeating: 0)
    factor = .allocate(capacity: maximumActive * maximumActive)
    factor.initialize(repeating: 0)
    rhs = .allocate(capacity: n)
    rhs.initialize(repeating: 0)
  }

  deinit {
    starts.deallocate()
    bins.deallocate()
    values.deallocate()
    gram.deallocate()
    activations.deallocate()
    expectedFundamentals.deallocate()
    fundamentalAmplitudes.deallocate()
    b.deallocate()
    x.deallocate()
    z.deallocate()
    gradient.deallocate()
    isActive.deallocate()
    isBlocked.deallocate()
    active.deallocate()
    factor.deallocate()
    rhs.deallocate()
  }

  /// The dictionary column of note `index` (tests only; allocates).
  func profile(note index: Int) -> [(bin: Int, value: Float)] {
    (starts[index]..<starts[index + 1]).map { (bins[$0], values[$0]) }
  }

  /// Finds the non-negative activations `x` minimizing `‖E·x − y‖²`; writes them to
  /// ``activations`` and sets ``explainedFraction``.
  ///
  /// - Parameter y: The whitened log-frequency spectrum, ``binCount`` non-negative values.
  @_noLocks
  mutating func solve(_ y: UnsafeMutableBufferPointer<Float>) {
    let n = columnCount
    var energy = 0.0
    for j in 0..<binCount { energy += Double(y[j]) * Double(y[j]) }
    var largest = 0.0
    for note in 0..<n {
      var sum = 0.0
      for e in starts[note]..<starts[note + 1] { sum += Double(values[e]) * Double(y[bins[e]]) }
      b[note] = sum
      gradient[note] = sum
      x[note] = 0
      isActive[note] = false
      isBlocked[note] = false
      if sum > largest { largest = sum }
    }
    explainedFraction = 0
    guard energy > 0, largest > 0 else {
      for note in 0..<noteCount {
        activations[note] = 0
        expectedFundamentals[note] = 0
      }
      return
    }
    // Stop when no note correlates with what is left to explain by more than 1 % of the
    // largest correlation: the notes it would add are too weak to matter.
    let tolerance = 0.01 * largest
    var count = 0
    factored = 0
    var iterations = 0
    while iterations < maximumIterations, count < maximumActive {
      iterations += 1
      // The inactive note that would most reduce the error.
      var best = -1
      var bestValue = tolerance
      for note in 0..<n where !isActive[note] {
        if !isBlocked[note], gradient[note] > bestValue {
          best = note
          bestValue = gradient[note]
        }
      }
      if best < 0 { break }
      isActive[best] = true
      active[count] = best
      count += 1
      var inner = 0
      while inner < maximumIterations {
        inner += 1
        guard solveActive(count: count) else {
          // Numerically dependent on the active notes: leave it out for this frame.
          count = removeActive(best, count: count)
          isBlocked[best] = true
          break
        }
        var allPositive = true
        for i in 0..<count where z[active[i]] <= 0 { allPositive = false }
        if allPositive {
          for i in 0..<count { x[active[i]] = z[active[i]] }
          break
        }
        // Step from x toward z as far as non-negativity allows, and drop the notes that hit 0.
        var alpha = 1.0
        for i in 0..<count {
          let note = active[i]
          if z[note] <= 0 {
            let denominator = x[note] - z[note]
            let step = denominator > 0 ? x[note] / denominator : 0
            if step < alpha { alpha = step }
          }
        }
        for i in 0..<count {
          let note = active[i]
          x[note] += alpha * (z[note] - x[note])
        }
        var i = 0
        while i < count {
          let note = active[i]
          if x[note] <= 1e-12 * largest {
            x[note] = 0
            if note == best, alpha == 0 { isBlocked[note] = true }
            count = removeActive(note, count: count)
          } else {
            i += 1
          }
        }
        if count == 0 { break }
      }
      // The gradient b − G·x, a column of G (a row: it is symmetric) at a time.
      for row in 0..<n { gradient[row] = b[row] }
      for i in 0..<count {
        let note = active[i]
        let value = x[note]
        let column = note * n
        for row in 0..<n { gradient[row] -= gram[column + row] * value }
      }
    }
    var explained = 0.0
    for note in 0..<noteCount {
      var sum = 0.0
      var fundamental = 0.0
      for p in 0..<profileCount {
        sum += x[note * profileCount + p]
        fundamental += x[note * profileCount + p] * fundamentalAmplitudes[p]
      }
      activations[note] = Float(sum)
      expectedFundamentals[note] = Float(fundamental)
    }
    for column in 0..<n { explained += x[column] * b[column] }
    explainedFraction = Float(max(0, min(1, explained / energy)))
  }

  /// Removes `note` from the active list; returns the new count. The Cholesky factor stays
  /// valid for the notes before it.
  @_noLocks
  private mutating func removeActive(_ note: Int, count: Int) -> Int {
    isActive[note] = false
    var i = 0
    while i < count, active[i] != note { i += 1 }
    guard i < count else { return count }
    for j in i..<(count - 1) { active[j] = active[j + 1] }
    if factored > i { factored = i }
    return count - 1
  }

  /// Solves `G_PP · z_P = b_P` over the `count` active notes by Cholesky factorization (with a
  /// ridge of 10⁻⁹ of the diagonal), extending the factor of the first ``factored`` notes row by
  /// row; returns `false` if the system is not positive definite.
  @_noLocks
  private mutating func solveActive(count: Int) -> Bool {
    let n = columnCount
    let p = count
    let stride = maximumActive
    while factored < p {
      let i = factored
      let gi = active[i]
      for j in 0...i {
        let gj = active[j]
        var sum = gram[gi * n + gj]
        if i == j { sum *= 1 + 1e-9 }
        for k in 0..<j { sum -= factor[i * stride + k] * factor[j * stride + k] }
        if i == j {
          guard sum > 1e-10 * gram[gi * n + gi] else { return false }
          // RT-audited: a square root is one instruction; it neither allocates nor locks.
          factor[i * stride + i] = _unsafePerformance { sum.squareRoot() }
        } else {
          factor[i * stride + j] = sum / factor[j * stride + j]
        }
      }
      factored += 1
    }
    // L·v = b, then Lᵀ·z = v.
    for i in 0..<p {
      var sum = b[active[i]]
      for k in 0..<i { sum -= factor[i * stride + k] * rhs[k] }
      rhs[i] = sum / factor[i * stride + i]
    }
    var i = p - 1
    while i >= 0 {
      var sum = rhs[i]
      for k in (i + 1)..<p { sum -= factor[k * stride + i] * z[active[k]] }
      z[active[i]] = sum / factor[i * stride + i]
      i -= 1
    }
    return true
  }
}
