import Foundation
import ScoreModel

/// The states a ``ChordRecognizer`` chooses among, and their scores for one chroma frame.
///
/// State 0 is no chord (`N`). Then, for each type and each root, one state per allowed bass:
/// the root, then (with inversions) each other chord tone, in the type's interval order. The
/// states of one chord (root and type) are contiguous: a *group*. Memory is allocated in
/// `init`; ``score(_:enabledMask:)`` allocates nothing.
struct ChordModel: ~Copyable {
  let stateCount: Int
  let groupCount: Int
  let typeCount: Int
  /// Per state: its group, root (−1 for N), type index (−1 for N), bass pitch class (absolute),
  /// bass in semitones above the root.
  let stateGroup: UnsafeMutableBufferPointer<Int>
  let stateRoot: UnsafeMutableBufferPointer<Int>
  let stateType: UnsafeMutableBufferPointer<Int>
  let stateBass: UnsafeMutableBufferPointer<Int>
  let stateBassInterval: UnsafeMutableBufferPointer<Int>
  /// Per group: first state and state count.
  let groupStart: UnsafeMutableBufferPointer<Int>
  let groupSize: UnsafeMutableBufferPointer<Int>
  /// Per type, 12 values over the pitch classes above the root: `log q` (likelihood) and the
  /// binary template (distance).
  private let logProfile: UnsafeMutableBufferPointer<Float>
  private let template: UnsafeMutableBufferPointer<Float>
  private let toneCount: UnsafeMutableBufferPointer<Int>
  private let usesDistance: Bool

  /// The log-emission of each state for the last frame (−∞ as a large negative number).
  let emission: UnsafeMutableBufferPointer<Float>
  private let groupScore: UnsafeMutableBufferPointer<Float>

  /// Treble: share of the chroma off the chord; weight of the treble evidence.
  let offChordShare: Float = 0.1
  let trebleWeight: Float = 5
  /// Bass: share off the bass note; weight of the bass evidence.
  let offBassShare: Float = 0.1
  let bassWeight: Float = 1.5
  /// The prior factor of an inversion (a bass other than the root), as a log.
  let inversionLogPrior: Float = -0.7
  /// The template-distance scale: log-emission `−scale · δ / ‖c‖`.
  let distanceScale: Float = 150
  /// A frame whose harmonicity is below this is noise: only N.
  let harmonicityFloor: Float = 0.4
  /// Above the floor, N gains `harmonicityWeight · (harmonicityMidpoint − h)` nats: chords
  /// on pitched instruments score about 0.9, white and pink noise 0.2 to 0.75.
  let harmonicityMidpoint: Float = 0.75
  let harmonicityWeight: Float = 10
  let impossible: Float = -1e30

  init(types: [ChordType], allowsInversions: Bool, decision: ChordDecision) {
    typeCount = types.count
    usesDistance = decision == .templateDistance
    var groups: [(root: Int, type: Int, basses: [(pc: Int, interval: Int)])] = [(-1, -1, [(0, 0)])]
    for (t, type) in types.enumerated() {
      var tones: [Int] = []
      for s in type.semitones where !tones.contains(s % 12) { tones.append(s % 12) }
      for root in 0..<12 {
        let basses = allowsInversions ? tones : [0]
        groups.append((root, t, basses.map { ((root + $0) % 12, $0) }))
      }
    }
    groupCount = groups.count
    stateCount = groups.reduce(0) { $0 + $1.basses.count }
    stateGroup = .allocate(capacity: stateCount)
    stateRoot = .allocate(capacity: stateCount)
    stateType = .allocate(capacity: stateCount)
    stateBass = .allocate(capacity: stateCount)
    stateBassInterval = .allocate(capacity: stateCount)
    groupStart = .allocate(capacity: groupCount)
    groupSize = .allocate(capacity: groupCount)
    var s = 0
    for (g, group) in groups.enumerated() {
      groupStart.initializeElement(at: g, to: s)
      groupSize.initializeElement(at: g, to: group.basses.count)
      for bass in group.basses {
        stateGroup.initializeElement(at: s, to: g)
        stateRoot.initializeElement(at: s, to: group.root)
        stateType.initializeElement(at: s, to: group.type)
        stateBass.initializeElement(at: s, to: bass.pc)
        stateBassInterval.initializeElement(at: s, to: bass.interval)
        s += 1
      }
    }
    logProfile = .allocate(capacity: 12 * types.count)
    template = .allocate(capacity: 12 * types.count)
    toneCount = .allocate(capacity: types.count)
    for (t, type) in types.enumerated() {
      let tones = Set(type.semitones.map { $0 % 12 })
      toneCount.initializeElement(at: t, to: tones.count)
      let on = (1 - Double(offChordShare)) / Double(tones.count)
      let off = tones.count < 12 ? Double(offChordShare) / Double(12 - tones.count) : 1e-9
      for p in 0..<12 {
        logProfile.initializeElement(at: 12 * t + p, to: Float(log(tones.contains(p) ? on : off)))
        template.initializeElement(at: 12 * t + p, to: tones.contains(p) ? 1 : 0)
      }
    }
    emission = .allocate(capacity: stateCount)
    emission.initialize(repeating: 0)
    groupScore = .allocate(capacity: groupCount)
    groupScore.initialize(repeating: 0)
  }

  deinit {
    stateGroup.deallocate()
    stateRoot.deallocate()
    stateType.deallocate()
    stateBass.deallocate()
    stateBassInterval.deallocate()
    groupStart.deallocate()
    groupSize.deallocate()
    logProfile.deallocate()
    template.deallocate()
    toneCount.deallocate()
    emission.deallocate()
    groupScore.deallocate()
  }

  /// Whether state `state` is allowed under `enabledMask` (bit `t` for type `t`; N always).
  @_noLocks
  func isEnabled(_ state: Int, mask: UInt32) -> Bool {
    let type = stateType[state]
    return type < 0 || mask & (1 << UInt32(type)) != 0
  }

  /// Fills ``emission`` for one frame.
  ///
  /// - Parameters:
  ///   - frame: The chroma frame.
  ///   - enabledMask: Bit `t` set when type `t` is enabled.
  @_noLocks
  func score(_ frame: ChromaFrame, enabledMask: UInt32) {
    let trebleSum = frame.treble.sum
    let noise = frame.harmonicity < harmonicityFloor
    if !(trebleSum > 0) || noise {
      // Silence or noise: only N.
      for s in 0..<stateCount { emission[s] = impossible }
      emission[0] = 0
      return
    }
    var treble = frame.treble
    treble.storage /= SIMD16(repeating: trebleSum)
    var bass = frame.bass
    let bassSum = bass.sum
    if bassSum > 0 {
      bass.storage /= SIMD16(repeating: bassSum)
    } else {
      bass.storage = SIMD16(repeating: 1.0 / 12)
      for i in 12..<16 { bass.storage[i] = 0 }
    }
    var logBass = SIMD16<Float>(repeating: 0)
    let (offBass, weightBass) = (offBassShare, bassWeight)
    // RT-audited: libm's log is a pure function; it neither allocates nor locks.
    _unsafePerformance {
      for p in 0..<12 { logBass[p] = weightBass * log(offBass / 12 + (1 - offBass) * bass.storage[p]) }
    }
    var norm: Float = 0
    if usesDistance {
      for p in 0..<12 { norm += treble[p] * treble[p] }
      // RT-audited: a square root is one instruction; it neither allocates nor locks.
      norm = _unsafePerformance { norm.squareRoot() }
    }
    for g in 1..<groupCount {
      let first = groupStart[g]
      let type = stateType[first]
      guard enabledMask & (1 << UInt32(type)) != 0 else {
        groupScore[g] = impossible
        continue
      }
      let root = stateRoot[first]
      let row = 12 * type
      if usesDistance {
        var outside: Float = 0
        for p in 0..<12 {
          let c = treble[(root + p) % 12]
          outside += (1 - template[row + p]) * c * c
        }
        // RT-audited: a square root is one instruction; it neither allocates nor locks.
        let distance = _unsafePerformance { outside.squareRoot() } / Float(12 - min(11, toneCount[type]))
        groupScore[g] = -distanceScale * distance / max(norm, 1e-12)
      } else {
        var sum: Float = 0
        for p in 0..<12 { sum += treble[(root + p) % 12] * logProfile[row + p] }
        groupScore[g] = trebleWeight * sum
      }
    }
    // N: a uniform treble and bass; with the distance decision, the distance of a chord
    // covering nothing but an average pitch class.
    if usesDistance {
      // √(11/12) / 11 · 0.9: a flat chroma's distance, a little closer.
      emission[0] = -distanceScale * 0.07833
    } else {
      emission[0] = trebleWeight * -2.4849 + bassWeight * -2.4849
    }
    emission[0] += harmonicityWeight * (harmonicityMidpoint - frame.harmonicity)
    for g in 1..<groupCount {
      let score = groupScore[g]
      let first = groupStart[g]
      for s in first..<(first + groupSize[g]) {
        if score <= impossible {
          emission[s] = impossible
        } else {
          emission[s] = score + logBass[stateBass[s]] + (stateBassInterval[s] == 0 ? 0 : inversionLogPrior)
        }
      }
    }
  }
}
