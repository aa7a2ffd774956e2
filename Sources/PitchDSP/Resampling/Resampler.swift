/// A streaming, band-limited sample-rate converter: a Kaiser-windowed sinc filter evaluated as a
/// polyphase filter bank, for any ratio between 1/256 and 256.
///
/// ## Design
///
/// Output sample `j` is the input convolved with a windowed sinc centred at input time
/// `τⱼ = j · inputRate / outputRate` (minus ``latencyFrames`` in streaming use). The sinc's cutoff
/// follows the *lower* of the two Nyquist frequencies, so downsampling does not alias and
/// upsampling leaves no images; see ``Quality`` for the passband, stop band and filter length of
/// each preset.
///
/// The filter is tabulated once, in `init`, in one of two ways:
///
/// - **Exact rational polyphase** (the usual case). When both rates are whole numbers and the
///   reduced ratio `inputRate / outputRate = M / L` has `L ≤ 2048` phases (44100→48000 needs 160,
///   48000→44100 147, 44100→16000 160, 8000→96000 12), every output position falls exactly on one
///   of `L` tabulated phases: one dot product per output, no interpolation error, and time is
///   tracked in integers, so there is no drift however long the stream.
/// - **Interpolated polyphase** otherwise (fractional rates, or awkward ratios such as
///   44100→44101). The ratio is held in 32.32 fixed point (drift below 10⁻⁹), the filter is
///   tabulated at 512 phases per input sample, and each output linearly interpolates between the
///   dot products of the two nearest phases. Interpolation error stays below −100 dB, so the
///   stop-band guarantee holds; the cost is two dot products per output.
///
/// Exact tables are preferred because they are both cheaper per output and exact; the fallback
/// keeps any ratio possible. Equal rates bypass the filter entirely (a copy, zero latency).
///
/// The input is kept in a power-of-two ring written twice (at `k` and `k + capacity`), so the
/// taps of every output are one contiguous run of memory and the convolution is a plain SIMD dot
/// product over contiguous floats.
///
/// ## Real-time contract
///
/// `init` allocates everything (filter table and input history). ``process(input:output:)``,
/// ``flush(output:)`` and ``reset()`` allocate nothing, lock nothing and retain nothing
/// (checked by the compiler with `@_noLocks`). ``process(input:output:)`` accepts any number of
/// input frames, including 0 and 1, and produces the same output however the stream is split into
/// blocks: the work is done one input sample at a time, so results are bit-identical.
///
/// Non-finite input samples (NaN, ±∞) are replaced by 0 on entry, so a burst of garbage produces
/// a short silent gap (the filter's length) and never poisons the history.
///
/// One instance converts one channel; use one instance per channel (they can be created from the
/// same rates and quality, the table is small).
///
/// ```swift
/// let resampler = try Resampler(inputRate: 44_100, outputRate: 16_000)
/// var out = [Float](repeating: 0, count: resampler.maximumOutputFrames(forInputFrames: 512))
/// let written = block.withUnsafeBufferPointer { input in
///   out.withUnsafeMutableBufferPointer { resampler.process(input: input, output: $0) }
/// }
/// ```
public final class Resampler {
  /// The input sample rate, in Hz.
  public let inputRate: Double
  /// The output sample rate, in Hz.
  public let outputRate: Double
  /// The filter quality preset.
  public let quality: Quality
  /// The largest input block the host said it would pass; ``maximumOutputFrames`` is sized from it.
  /// ``process(input:output:)`` accepts larger blocks too, given a large enough output buffer.
  public let maximumInputFrames: Int

  /// The delay of the output relative to the input, in **input** frames (the filter's group
  /// delay: half its length). An input event at input frame `k` appears in the output at output
  /// frame `(k + latencyFrames) · outputRate / inputRate`. Zero when the rates are equal.
  public let latencyFrames: Int

  /// Taps on each side of the filter centre, in input samples (0 when the rates are equal).
  public let halfLength: Int
  /// Taps per output sample (per dot product), `2 × halfLength`.
  public var tapCount: Int { 2 * halfLength }
  /// Whether the ratio is handled by an exact rational polyphase table (`true`) or by
  /// interpolating between tabulated phases (`false`). See the type's discussion.
  public let usesExactPhases: Bool
  /// The number of rows in the polyphase table.
  public let phaseCount: Int

  // Time, in input samples, of the next output: `position + fraction / denominator`, with
  // `position` biased by `capacity` so window starts are never negative.
  private var position: Int
  private var fraction: Int
  private let denominator: Int
  private let stepWhole: Int
  private let stepFraction: Int
  // Absolute (biased) index of the next input sample to be written.
  private var nextInput: Int
  // Absolute index one past the last real input, once `flush` has started; −1 otherwise.
  private var streamEnd: Int
  // Initial time offset: `latencyFrames` for streaming, 0 for the offline aligned path.
  private let startDelay: Int

  private let isIdentity: Bool
  private let capacity: Int  // power of two ≥ tapCount
  private let mask: Int
  private let ring: UnsafeMutablePointer<Float>  // 2 × capacity
  private let table: UnsafeMutablePointer<Float>  // phaseCount × tapCount
  private let interpolationShift: Int  // fraction >> shift = phase row (interpolated mode)
  private let interpolationScale: Float

  /// The number of phases tabulated per input sample in interpolated mode when upsampling
  /// (downsampling by `r` uses `512 / r`, rounded up to a power of two, at least 16).
  static let interpolatedPhases = 512
  /// The largest exact phase count, and the largest exact table (floats).
  static let maximumExactPhases = 2048
  static let maximumExactTable = 1 << 21

  /// Creates a resampler; allocates the filter table and the input history.
  ///
  /// - Parameters:
  ///   - inputRate: The input sample rate in Hz; finite and positive.
  ///   - outputRate: The output sample rate in Hz; finite and positive, with
  ///     `outputRate / inputRate` in `1/256 ... 256`.
  ///   - quality: The filter preset; ``Quality/standard`` by default.
  ///   - maximumInputFrames: The largest block the host will pass to ``process(input:output:)``,
  ///     at least 1; used for ``maximumOutputFrames``.
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` for a bad rate, ratio or
  ///   block size.
  /// - Complexity: O(phases × taps) to build the table: under a millisecond for common ratios.
  public convenience init(
    inputRate: Double, outputRate: Double, quality: Quality = .standard,
    maximumInputFrames: Int = 4096
  ) throws(PitchDSPError) {
    try self.init(
      inputRate: inputRate, outputRate: outputRate, quality: quality,
      maximumInputFrames: maximumInputFrames, compensatesLatency: false)
  }

  /// The designated initializer. With `compensatesLatency`, output frame `j` is centred on input
  /// time `j · inputRate / outputRate` exactly (no delay: the first outputs wait for input
  /// instead), which the offline ``resample(_:to:quality:)`` uses. With a `bandRate` below the
  /// lower of the two rates, the filter also band-limits: it stops at that rate's Nyquist
  /// frequency (``PeriodicityAnalysis``'s decimator keeps out broadband noise above the partials
  /// it needs).
  init(
    inputRate: Double, outputRate: Double, quality: Quality, maximumInputFrames: Int,
    compensatesLatency: Bool, bandRate: Double? = nil
  ) throws(PitchDSPError) {
    guard inputRate.isFinite, inputRate > 0 else {
      throw Self.invalid("inputRate", inputRate, "a finite sample rate > 0 Hz")
    }
    guard outputRate.isFinite, outputRate > 0 else {
      throw Self.invalid("outputRate", outputRate, "a finite sample rate > 0 Hz")
    }
    let ratio = outputRate / inputRate
    guard ratio >= 1.0 / 256, ratio <= 256 else {
      throw Self.invalid(
        "outputRate", outputRate, "within 1/256 ... 256 × the input rate \(inputRate) Hz")
    }
    guard maximumInputFrames >= 1 else {
      throw Self.invalid("maximumInputFrames", maximumInputFrames, "at least 1")
    }
    self.inputRate = inputRate
    self.outputRate = outputRate
    self.quality = quality
    self.maximumInputFrames = maximumInputFrames
    streamEnd = -1

    if inputRate == outputRate {
      isIdentity = true
      halfLength = 0
      latencyFrames = 0
      startDelay = 0
      usesExactPhases = true
      phaseCount = 1
      denominator = 1
      stepWhole = 1
      stepFraction = 0
      capacity = 1
      mask = 0
      ring = .allocate(capacity: 2)
      ring.initialize(repeating: 0, count: 2)
      table = .allocate(capacity: 1)
      table.initialize(to: 1)
      interpolationShift = 0
      interpolationScale = 0
      position = 0
      fraction = 0
      nextInput = 0
      return
    }
    isIdentity = false

    let design = KaiserSincDesign(
      quality: quality, inputRate: inputRate, outputRate: outputRate, bandRate: bandRate)
    halfLength = design.halfLength
    latencyFrames = design.halfLength
    startDelay = compensatesLatency ? 0 : design.halfLength
    let taps = design.tapCount

    // Exact rational ratio M / L (input step per output = M / L input samples)?
    var exact: (m: Int, l: Int)? = nil
    if inputRate == inputRate.rounded(), outputRate == outputRate.rounded(),
      inputRate < 1e12, outputRate < 1e12
    {
      let a = Int(inputRate)
      let b = Int(outputRate)
      let g = Self.gcd(a, b)
      let (m, l) = (a / g, b / g)
      if l <= Self.maximumExactPhases, l * taps <= Self.maximumExactTable { exact = (m, l) }
    }
    let rows: [Float]
    if let exact {
      usesExactPhases = true
      phaseCount = exact.l
      denominator = exact.l
      stepWhole = exact.m / exact.l
      stepFraction = exact.m % exact.l
      rows = design.makeTable(rowCount: exact.l, phaseDivisor: exact.l)
      interpolationShift = 0
      interpolationScale = 0
    } else {
      usesExactPhases = false
      // Downsampling stretches the filter by 1/scale input samples, so it is smoother and needs
      // proportionally fewer phases for the same interpolation error (and the table stays small).
      var phases = Self.interpolatedPhases
      while phases > 16, Double(phases / 2) >= Double(Self.interpolatedPhases) * design.scale {
        phases /= 2
      }
      phaseCount = phases + 1
      denominator = 1 << 32
      let step = Int((inputRate / outputRate * Double(1 << 32)).rounded())
      stepWhole = step >> 32
      stepFraction = step & ((1 << 32) - 1)
      rows = design.makeTable(rowCount: phases + 1, phaseDivisor: phases)
      interpolationShift = 32 - (phases.trailingZeroBitCount)
      interpolationScale = 1 / Float(1 << interpolationShift)
    }
    let storage = UnsafeMutablePointer<Float>.allocate(capacity: rows.count)
    rows.withUnsafeBufferPointer { storage.initialize(from: $0.baseAddress!, count: rows.count) }
    table = storage

    var c = 8
    while c < taps { c <<= 1 }
    capacity = c
    mask = c - 1
    ring = .allocate(capacity: 2 * c)
    ring.initialize(repeating: 0, count: 2 * c)
    nextInput = c
    position = c - startDelay
    fraction = 0
  }

  deinit {
    ring.deallocate()
    table.deallocate()
  }

  static func invalid(
    _ name: String, _ value: some CustomStringConvertible, _ expected: String
  ) -> PitchDSPError {
    .invalidParameter(name: name, value: value.description, expected: expected)
  }

  private static func gcd(_ a: Int, _ b: Int) -> Int {
    var (x, y) = (a, b)
    while y != 0 { (x, y) = (y, x % y) }
    return x
  }

  /// The largest number of frames one call of ``process(input:output:)`` writes for `inputFrames`
  /// input frames: `⌊inputFrames · outputRate / inputRate⌋ + 2`.
  ///
  /// - Parameter inputFrames: The input block length, ≥ 0.
  /// - Returns: The output capacity to provide.
  /// - Note: Real-time safe.
  @_noLocks
  public func maximumOutputFrames(forInputFrames inputFrames: Int) -> Int {
    if isIdentity { return inputFrames }
    let step = Double(stepWhole) + Double(stepFraction) / Double(denominator)
    return Int(Double(inputFrames) / step) + 2  // truncation = floor for n ≥ 0
  }

  /// The output capacity needed for a block of ``maximumInputFrames`` frames.
  public var maximumOutputFrames: Int { maximumOutputFrames(forInputFrames: maximumInputFrames) }

  /// The largest number of frames ``flush(output:)`` writes in total.
  public var maximumFlushFrames: Int {
    isIdentity ? 0 : maximumOutputFrames(forInputFrames: halfLength + 1)
  }

  /// The delay of the output relative to the input, in seconds (``latencyFrames`` / input rate).
  public var latencySeconds: Double { Double(latencyFrames) / inputRate }

  /// Converts a block of input and writes the output frames that became available.
  ///
  /// Each input sample lets the output advance by `outputRate / inputRate` frames on average, so
  /// a call writes `⌊n · ratio⌋` or `⌈n · ratio⌉` frames once the stream is running (the first
  /// call of a stream included: the output starts with the filter's delay, not with a wait).
  /// NaN and ±∞ input samples are treated as 0.
  ///
  /// - Parameters:
  ///   - input: Mono input frames, any count (0 and 1 included).
  ///   - output: Room for at least ``maximumOutputFrames(forInputFrames:)`` frames for
  ///     `input.count` (a precondition).
  /// - Returns: The number of frames written to the start of `output`.
  /// - Note: Real-time safe.
  @_noLocks
  public func process(
    input: UnsafeBufferPointer<Float>, output: UnsafeMutableBufferPointer<Float>
  ) -> Int {
    let count = input.count
    guard count > 0, let source = input.baseAddress else { return 0 }
    // Programmer error: `output` smaller than `maximumOutputFrames(forInputFrames:)`. (No message:
    // building one would allocate on the audio thread.)
    let needed = maximumOutputFrames(forInputFrames: count)
    precondition(output.count >= needed)
    let destination = output.baseAddress!
    if isIdentity {
      for i in 0..<count {
        let x = source[i]
        destination[i] = x.isFinite ? x : 0
      }
      return count
    }
    streamEnd = -1
    var written = 0
    for i in 0..<count {
      let x = source[i]
      write(x.isFinite ? x : 0)
      while position + halfLength < nextInput {
        written = emit(into: destination, at: written)
      }
    }
    return written
  }

  /// Drains the filter: writes the outputs still owed for the input given so far, as if the
  /// stream were followed by silence, up to the output time of the last input sample.
  ///
  /// In total (over one or more calls, until it returns 0) a stream of `n` input frames then has
  /// produced `⌈(n + latencyFrames) · outputRate / inputRate⌉` output frames (for exact ratios):
  /// all of the delayed input. Call ``reset()`` before starting an unrelated stream (calling
  /// ``process(input:output:)`` instead continues the stream after a short silent gap).
  ///
  /// - Parameter output: Any size; at most ``maximumFlushFrames`` frames are needed. If it is
  ///   smaller, call again for the rest.
  /// - Returns: The number of frames written; 0 once drained.
  /// - Note: Real-time safe.
  @_noLocks
  public func flush(output: UnsafeMutableBufferPointer<Float>) -> Int {
    guard !isIdentity, let destination = output.baseAddress else { return 0 }
    if streamEnd < 0 { streamEnd = nextInput }
    var written = 0
    while position < streamEnd, written < output.count {
      if position + halfLength < nextInput {
        written = emit(into: destination, at: written)
      } else {
        write(0)
      }
    }
    return written
  }

  /// Forgets the stream: clears the history and restarts time at zero. The next
  /// ``process(input:output:)`` starts a new stream.
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public func reset() {
    if isIdentity { return }
    ring.update(repeating: 0, count: 2 * capacity)
    nextInput = capacity
    position = capacity - startDelay
    fraction = 0
    streamEnd = -1
  }

  // MARK: - Kernel

  /// Appends one input sample to the history (both copies of the ring).
  @inline(__always)
  private func write(_ sample: Float) {
    let slot = nextInput & mask
    ring[slot] = sample
    ring[slot + capacity] = sample
    nextInput += 1
  }

  /// Computes the output at the current time, stores it at `index`, and advances time by one
  /// output period. Returns `index + 1`.
  @inline(__always)
  private func emit(into destination: UnsafeMutablePointer<Float>, at index: Int) -> Int {
    let taps = 2 * halfLength
    let window = UnsafePointer(ring + ((position - halfLength + 1) & mask))
    let value: Float
    if usesExactPhases {
      value = dot(UnsafePointer(table + fraction * taps), window, taps)
    } else {
      let row = fraction >> interpolationShift
      let weight = Float(fraction & ((1 << interpolationShift) - 1)) * interpolationScale
      let first = UnsafePointer(table + row * taps)
      let a = dot(first, window, taps)
      let b = dot(first + taps, window, taps)
      value = a + weight * (b - a)
    }
    destination[index] = value
    fraction += stepFraction
    position += stepWhole
    if fraction >= denominator {
      fraction -= denominator
      position += 1
    }
    return index + 1
  }
}

/// The dot product of `count` floats (a multiple of 8) at `a` and `b` (the resamplers' taps).
@inline(__always)
func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ count: Int) -> Float {
  let ra = UnsafeRawPointer(a)
  let rb = UnsafeRawPointer(b)
  var acc0 = SIMD8<Float>()
  var acc1 = SIMD8<Float>()
  var offset = 0
  let bytes = count &* MemoryLayout<Float>.stride
  // Wrapping arithmetic: the offsets stay within `count` floats (no overflow to check).
  while offset &+ 64 <= bytes {
    acc0 +=
      ra.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
      * rb.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
    acc1 +=
      ra.loadUnaligned(fromByteOffset: offset &+ 32, as: SIMD8<Float>.self)
      * rb.loadUnaligned(fromByteOffset: offset &+ 32, as: SIMD8<Float>.self)
    offset &+= 64
  }
  if offset < bytes {
    acc0 +=
      ra.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
      * rb.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
  }
  return (acc0 + acc1).sum()
}
