import PitchDSP
/// A reverb: a feedback delay network (FDN) of eight delay lines mixed by an orthogonal
/// (Hadamard) matrix, after two diffusing all-passes, with a low-pass in every loop.
///
/// Each line of length `L` samples feeds back with gain `10^(−3L / (decay · sampleRate))`, so
/// every echo path loses 60 dB in ``Parameter/decay`` seconds (the RT60) whatever its length;
/// the mixing matrix is orthogonal (lossless), so the decay is exactly that at low frequencies.
/// A one-pole low-pass at ``Parameter/damping`` Hz in each loop makes the highs die sooner, as in
/// a real room. The line lengths (29.7 ... 71.3 ms, mutually prime in samples at the usual rates)
/// spread the echoes so the tail is dense and free of flutter. The two input all-passes (4.7 and
/// 1.7 ms) smear a transient before it enters the network. The mix crossfades dry and wet.
///
/// The design is the classic one of Jot and Chaigne (1991) and Stautner and Puckette (1982);
/// this is an independent implementation.
///
/// - Note: ``process(_:)`` is real-time safe (it allocates only the first time after this value
///   was copied, to stop sharing its delay lines with the copy).
public struct Reverb: Effect, RackableEffect {
  /// The parameters by index.
  public enum Parameter: Int, CaseIterable, Sendable {
    /// RT60: seconds for the tail to fall 60 dB.
    case decay
    /// Cutoff of the low-pass in each loop, Hz.
    case damping
    /// Dry/wet mix.
    case mix

    /// The accepted values.
    public var range: ClosedRange<Float> {
      switch self {
      case .decay: 0.1...10
      case .damping: 1000...20000
      case .mix: 0...1
      }
    }
    /// The starting value.
    public var defaultValue: Float {
      switch self {
      case .decay: 1.8
      case .damping: 6000
      case .mix: 0.3
      }
    }
    /// The description.
    public var descriptor: EffectParameter {
      switch self {
      case .decay:
        .init(
          name: "decay", unit: .seconds, range: range, defaultValue: defaultValue,
          summary: "RT60: time for the tail to fall 60 dB")
      case .damping:
        .init(
          name: "damping", unit: .hertz, range: range, defaultValue: defaultValue,
          summary: "low-pass cutoff in the loops (highs die sooner)")
      case .mix:
        .init(
          name: "mix", unit: .ratio, range: range, defaultValue: defaultValue,
          summary: "dry/wet: 0 dry, 1 wet")
      }
    }
  }

  /// The loop lengths, in milliseconds.
  static var lineMilliseconds: SIMD8<Double> { [29.7, 37.1, 41.1, 43.7, 53.3, 59.9, 67.1, 71.3] }
  /// The diffusers' lengths, in milliseconds, and their gain.
  static var diffuserMilliseconds: SIMD2<Double> { [4.7, 1.7] }
  static var diffuserGain: Float { 0.6 }

  /// The sample rate, in Hz.
  public let sampleRate: Double
  /// Always 0: the dry signal passes straight through.
  public var latencySamples: Int { 0 }
  /// The decay until about −80 dB.
  public var tailSeconds: Double { Double(targets[0]) * 4 / 3 + 0.1 }
  /// ``Parameter`` descriptions, in index order.
  public var parameters: [EffectParameter] { Parameter.allCases.map(\.descriptor) }

  private var memory: CopyOnWriteMemory<Float>
  private var lines: Lines
  private var diffuser1: SampleDelayLine
  private var diffuser2: SampleDelayLine
  private var lengths: SIMD8<Int32> = .zero
  private var diffuserLengths: SIMD2<Int32> = .zero
  private var gains = SIMD8<Float>(repeating: 0)
  private var lowPass = SIMD8<Float>(repeating: 0)
  private var dampingCoefficient: Float = 0
  private var targets = SIMD4<Float>()
  private var decay: SmoothedValue
  private var damping: SmoothedValue
  private var mix: SmoothedValue

  /// Creates a reverb with the default settings.
  ///
  /// - Parameters:
  ///   - sampleRate: The sample rate, in Hz.
  ///   - rampSeconds: How long a change glides, in seconds.
  public init(sampleRate: Double, rampSeconds: Double = 0.02) {
    self.sampleRate = sampleRate
    var capacities = [Int]()
    for k in 0..<8 {
      let length = max(3, Int((Self.lineMilliseconds[k] * sampleRate / 1000).rounded()) | 1)
      lengths[k] = Int32(length)
      capacities.append(SampleDelayLine.capacity(forMaximumDelay: length))
    }
    for k in 0..<2 {
      let length = max(3, Int((Self.diffuserMilliseconds[k] * sampleRate / 1000).rounded()))
      diffuserLengths[k] = Int32(length)
      capacities.append(SampleDelayLine.capacity(forMaximumDelay: length))
    }
    let memory = CopyOnWriteMemory<Float>(repeating: 0, count: capacities.reduce(0, +))
    self.memory = memory
    var offsets = [Int]()
    var offset = 0
    for c in capacities {
      offsets.append(offset)
      offset += c
    }
    lines = Lines(
      (0..<8).map { SampleDelayLine(memory: memory, offset: offsets[$0], capacity: capacities[$0]) })
    diffuser1 = SampleDelayLine(memory: memory, offset: offsets[8], capacity: capacities[8])
    diffuser2 = SampleDelayLine(memory: memory, offset: offsets[9], capacity: capacities[9])
    let ramp = Int(rampSeconds * sampleRate)
    for p in Parameter.allCases { targets[p.rawValue] = p.defaultValue }
    decay = SmoothedValue(Parameter.decay.defaultValue, rampSamples: ramp)
    damping = SmoothedValue(Parameter.damping.defaultValue, rampSamples: ramp)
    mix = SmoothedValue(Parameter.mix.defaultValue, rampSamples: ramp)
    gains = Self.loopGains(
      decaySeconds: Parameter.decay.defaultValue, lengths: lengths, sampleRate: sampleRate)
    dampingCoefficient = Self.coefficient(forCutoff: Parameter.damping.defaultValue, sampleRate: sampleRate)
  }

  /// RT60, s (0.1...10).
  public var decaySeconds: Float {
    get { targets[0] }
    set { setValue(newValue, at: Parameter.decay.rawValue) }
  }
  /// Loop low-pass cutoff, Hz (1000...20 000).
  public var dampingHz: Float {
    get { targets[1] }
    set { setValue(newValue, at: Parameter.damping.rawValue) }
  }
  /// Dry/wet mix (0...1).
  public var mixAmount: Float {
    get { targets[2] }
    set { setValue(newValue, at: Parameter.mix.rawValue) }
  }

  /// The value set for a parameter.
  public func value(at index: Int) -> Float { (0..<3).contains(index) ? targets[index] : .nan }

  /// Sets a parameter (clamped; glides there).
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func setValue(_ value: Float, at index: Int) {
    guard let p = Parameter(rawValue: index) else { return }
    let v = p.range.clamping(value, nanTo: p.defaultValue)
    targets[index] = v
    switch p {
    case .decay: decay.set(v)
    case .damping: damping.set(v)
    case .mix: mix.set(v)
    }
  }

  @_noLocks
  private static func loopGains(decaySeconds: Float, lengths: SIMD8<Int32>, sampleRate: Double) -> SIMD8<
    Float
  > {
    // 10^(−3L/(T·fs)) = e^(−3·ln10·L/(T·fs))
    let scale = -3 * 2.302_585_092_994_045_7 / (Double(decaySeconds) * sampleRate)
    var g = SIMD8<Float>()
    for k in 0..<8 { g[k] = Float(EffectMath.exp(scale * Double(lengths[k]))) }
    return g
  }

  @_noLocks
  private static func coefficient(forCutoff hz: Float, sampleRate: Double) -> Float {
    Float(EffectMath.exp(-2 * Double.pi * min(Double(hz), 0.49 * sampleRate) / sampleRate))
  }

  /// Processes a block in place.
  ///
  /// - Note: Real-time safe once this value owns its memory (see the type's note).
  public mutating func process(_ buffer: UnsafeMutableBufferPointer<Float>) {
    makeUnique()
    render(buffer)
  }

  @_noLocks
  mutating func render(_ buffer: UnsafeMutableBufferPointer<Float>) {
    let g = Self.diffuserGain
    let inputSigns = SIMD8<Float>(1, -1, 1, -1, 1, -1, 1, -1) * 0.5
    let outputSigns = SIMD8<Float>(1, 1, -1, -1, 1, 1, -1, -1) * 0.353_553_39
    for i in 0..<buffer.count {
      let x = EffectMath.sanitized(buffer[i])
      if !decay.isSettled {
        gains = Self.loopGains(decaySeconds: decay.next(), lengths: lengths, sampleRate: sampleRate)
      }
      if !damping.isSettled {
        dampingCoefficient = Self.coefficient(forCutoff: damping.next(), sampleRate: sampleRate)
      }
      // Two Schroeder all-passes: w = x + g·z, y = z − g·w.
      let z1 = diffuser1.read(Int(diffuserLengths[0]))
      let w1 = x + g * z1
      diffuser1.write(EffectMath.flushed(w1))
      let y1 = z1 - g * w1
      let z2 = diffuser2.read(Int(diffuserLengths[1]))
      let w2 = y1 + g * z2
      diffuser2.write(EffectMath.flushed(w2))
      let diffused = z2 - g * w2
      // The network.
      var outs = SIMD8<Float>()
      for k in 0..<8 { outs[k] = lines[k].read(Int(lengths[k])) }
      lowPass = outs + dampingCoefficient * (lowPass - outs)
      var v = lowPass * gains
      // Fast Walsh–Hadamard transform (8 points), scaled by 1/√8: orthogonal.
      v = Self.hadamard(v) * 0.353_553_39
      let feed = v + diffused * inputSigns
      for k in 0..<8 { lines[k].write(EffectMath.flushed(feed[k])) }
      let wet = (outs * outputSigns).sum()
      let m = mix.next()
      buffer[i] = x + m * (wet - x)
    }
    if !(lowPass.sum().isFinite) { resetState() }
  }

  @_noLocks
  @inline(__always)
  private static func hadamard(_ a: SIMD8<Float>) -> SIMD8<Float> {
    let b = SIMD8<Float>(
      a[0] + a[1], a[0] - a[1], a[2] + a[3], a[2] - a[3], a[4] + a[5], a[4] - a[5], a[6] + a[7], a[6] - a[7])
    let c = SIMD8<Float>(
      b[0] + b[2], b[1] + b[3], b[0] - b[2], b[1] - b[3], b[4] + b[6], b[5] + b[7], b[4] - b[6], b[5] - b[7])
    return SIMD8<Float>(
      c[0] + c[4], c[1] + c[5], c[2] + c[6], c[3] + c[7], c[0] - c[4], c[1] - c[5], c[2] - c[6], c[3] - c[7])
  }

  /// Forgets the signal so far (silences the tail); the settings stay, arrived.
  public mutating func reset() {
    makeUnique()
    resetInPlace()
  }

  @_noLocks
  mutating func resetInPlace() {
    resetState()
    decay.jump(to: decay.target)
    damping.jump(to: damping.target)
    mix.jump(to: mix.target)
    gains = Self.loopGains(decaySeconds: decay.target, lengths: lengths, sampleRate: sampleRate)
    dampingCoefficient = Self.coefficient(forCutoff: damping.target, sampleRate: sampleRate)
  }

  @_noLocks
  private mutating func resetState() {
    for k in 0..<8 { lines[k].clear() }
    diffuser1.clear()
    diffuser2.clear()
    lowPass = .zero
  }

  mutating func makeUnique() {
    if !isKnownUniquelyReferenced(&memory) {
      memory = memory.copy()
      for k in 0..<8 { lines[k].rebind(to: memory) }
      diffuser1.rebind(to: memory)
      diffuser2.rebind(to: memory)
    }
  }

  @_noLocks
  mutating func copyState(from source: UnsafeMutablePointer<Reverb>) {
    for k in 0..<8 { lines[k].copyContents(of: source.pointee.lines[k]) }
    diffuser1.copyContents(of: source.pointee.diffuser1)
    diffuser2.copyContents(of: source.pointee.diffuser2)
    gains = source.pointee.gains
    lowPass = source.pointee.lowPass
    dampingCoefficient = source.pointee.dampingCoefficient
    targets = source.pointee.targets
    decay = source.pointee.decay
    damping = source.pointee.damping
    mix = source.pointee.mix
  }

  /// Eight delay lines in a fixed-size value (no array: copying or indexing it never allocates).
  private struct Lines: Sendable {
    var l0, l1, l2, l3, l4, l5, l6, l7: SampleDelayLine

    init(_ all: [SampleDelayLine]) {
      (l0, l1, l2, l3, l4, l5, l6, l7) = (all[0], all[1], all[2], all[3], all[4], all[5], all[6], all[7])
    }

    subscript(k: Int) -> SampleDelayLine {
      @_noLocks get {
        switch k {
        case 0: l0
        case 1: l1
        case 2: l2
        case 3: l3
        case 4: l4
        case 5: l5
        case 6: l6
        default: l7
        }
      }
      @_noLocks set {
        switch k {
        case 0: l0 = newValue
        case 1: l1 = newValue
        case 2: l2 = newValue
        case 3: l3 = newValue
        case 4: l4 = newValue
        case 5: l5 = newValue
        case 6: l6 = newValue
        default: l7 = newValue
        }
      }
    }
  }
}
