import Foundation

/// Turns each frame's chord scores into a decision, causally: the frame's best chord, a chord
/// repeated `count` frames in a row (Chordabra), or the hidden Markov model's forward filter.
/// Memory is allocated in `init`; ``step(_:enabledMask:)`` allocates nothing.
struct ChordSmoother: ~Copyable {
  private enum Mode { case none, repeated, hiddenMarkov }
  private let mode: Mode
  private let repeatCount: Int
  /// Per frame: staying in the state; changing bass within the chord; changing chord.
  private let stay: Double
  private let bassChange: Double
  private let chordChange: Double

  private let alpha: UnsafeMutableBufferPointer<Double>
  private let groupMass: UnsafeMutableBufferPointer<Double>
  private var frames = 0
  private var candidate = 0
  private var candidateRun = 0
  /// The decided state (0 = N).
  private(set) var current = 0
  /// The confidence of the decision, `0...1`.
  private(set) var confidence: Float = 1

  init(
    smoothing: ChordSmoothing, stateCount: Int, groupCount: Int, hopSeconds: Double, meanChordSeconds: Double
  ) {
    switch smoothing {
    case .none:
      mode = .none
      repeatCount = 1
    case .repeated(let count):
      mode = .repeated
      repeatCount = count
    case .hiddenMarkov:
      mode = .hiddenMarkov
      repeatCount = 1
    }
    let leave = min(0.25, hopSeconds / meanChordSeconds)
    chordChange = leave
    bassChange = leave
    stay = 1 - 2 * leave
    alpha = .allocate(capacity: stateCount)
    alpha.initialize(repeating: 0)
    groupMass = .allocate(capacity: groupCount)
    groupMass.initialize(repeating: 0)
  }

  deinit {
    alpha.deallocate()
    groupMass.deallocate()
  }

  mutating func reset() {
    alpha.update(repeating: 0)
    frames = 0
    candidate = 0
    candidateRun = 0
    current = 0
    confidence = 1
  }

  /// Decides the state after one more frame, whose log-emissions are in `model.emission`;
  /// returns ``current``.
  @_noLocks
  mutating func step(_ model: borrowing ChordModel, enabledMask: UInt32) -> Int {
    let emission = model.emission
    let count = model.stateCount
    var best = 0
    var largest = emission[0]
    for s in 1..<count where emission[s] > largest {
      largest = emission[s]
      best = s
    }
    switch mode {
    case .none:
      current = best
      confidence = share(of: best, emission: emission, count: count, largest: largest)
    case .repeated:
      if best == candidate {
        candidateRun += 1
      } else {
        candidate = best
        candidateRun = 1
      }
      if candidateRun >= repeatCount, best != current {
        current = best
        confidence = share(of: best, emission: emission, count: count, largest: largest)
      }
    case .hiddenMarkov:
      forward(model, largest: largest)
    }
    frames += 1
    return current
  }

  /// The share of the frame's evidence (softmax of the log-emissions) on `state`.
  @_noLocks
  private func share(of state: Int, emission: UnsafeMutableBufferPointer<Float>, count: Int, largest: Float)
    -> Float
  {
    var total: Float = 0
    // RT-audited: libm's exp is a pure function; it neither allocates nor locks.
    _unsafePerformance {
      for s in 0..<count { total += exp(emission[s] - largest) }
    }
    return total > 0 ? 1 / total : 0
  }

  /// One step of the forward filter; sets ``current`` to the most probable chord's most
  /// probable bass.
  @_noLocks
  private mutating func forward(_ model: borrowing ChordModel, largest: Float) {
    let emission = model.emission
    let count = model.stateCount
    let groups = model.groupCount
    let impossible = model.impossible
    var enabledGroups = 0
    for g in 0..<groups where emission[model.groupStart[g]] > impossible { enabledGroups += 1 }
    var total = 0.0
    for g in 0..<groups {
      var mass = 0.0
      let first = model.groupStart[g]
      for s in first..<(first + model.groupSize[g]) { mass += alpha[s] }
      groupMass[g] = mass
      total += mass
    }
    let fresh = frames == 0 || !(total > 0)
    let alphaBuffer = alpha
    let (a, b, c) = (stay, bassChange, chordChange)
    let others = Double(max(1, enabledGroups - 1))
    let masses = groupMass
    let (stateGroup, groupSize) = (model.stateGroup, model.groupSize)
    var newTotal = 0.0
    // RT-audited: libm's exp is a pure function; it neither allocates nor locks.
    _unsafePerformance {
      for s in 0..<count {
        let e = emission[s]
        guard e > impossible else {
          alphaBuffer[s] = 0
          continue
        }
        let likelihood = Double(exp(e - largest))
        let g = stateGroup[s]
        let n = Double(groupSize[g])
        var prior = 1.0
        if !fresh {
          let own = alphaBuffer[s]
          let groupOwn = masses[g]
          if n > 1 {
            prior = a * own + b / (n - 1) * (groupOwn - own)
          } else {
            prior = (a + b) * own
          }
          prior += c / others / n * (total - groupOwn)
        }
        let value = likelihood * prior
        alphaBuffer[s] = value
        newTotal += value
      }
    }
    if !(newTotal > 0) {
      // Nothing the model allowed survived (types were disabled): start afresh.
      // RT-audited: libm's exp is a pure function; it neither allocates nor locks.
      _unsafePerformance {
        for s in 0..<count {
          let e = emission[s]
          let value = e > impossible ? Double(exp(e - largest)) : 0
          alphaBuffer[s] = value
          newTotal += value
        }
      }
    }
    guard newTotal > 0 else { return }
    let scale = 1 / newTotal
    var bestGroup = 0
    var bestMass = -1.0
    for g in 0..<groups {
      var mass = 0.0
      let first = model.groupStart[g]
      for s in first..<(first + model.groupSize[g]) {
        alpha[s] *= scale
        mass += alpha[s]
      }
      if mass > bestMass {
        bestMass = mass
        bestGroup = g
      }
    }
    let first = model.groupStart[bestGroup]
    var bestState = first
    for s in first..<(first + model.groupSize[bestGroup]) where alpha[s] > alpha[bestState] { bestState = s }
    current = bestState
    confidence = Float(bestMass)
  }
}
