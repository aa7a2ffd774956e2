import Foundation

/// Pitch bins 25 cents apart from the configured minimum to the maximum frequency: the states of
/// ``PitchHMM``.
struct PitchBins: Sendable, Hashable {
  static let centsPerBin = 25.0
  let minimumHz: Double
  let count: Int

  init(configuration: PitchConfiguration) {
    minimumHz = configuration.minimumFrequencyHz
    count = Int((1200 * log2(configuration.maximumFrequencyHz / minimumHz) / Self.centsPerBin).rounded(.up)) + 1
  }

  /// The nearest bin of `frequencyHz`, or -1 outside the range.
  @_noLocks
  func bin(_ frequencyHz: Double) -> Int {
    guard frequencyHz > 0 else { return -1 }
    // RT-audited: libm's log2 is a pure function; it neither allocates nor locks.
    let position = _unsafePerformance { 1200 * log2(frequencyHz / minimumHz) } / Self.centsPerBin
    guard position > -0.5 else { return -1 }
    let index = Int(position + 0.5)
    return index < count ? index : -1
  }
}

/// The pitch candidates of one frame, from the YIN function under a distribution of thresholds
/// (pYIN's first stage).
struct ProbabilisticYINCandidates: ~Copyable {
  static let maximumCandidates = 32
  /// With no room left, a trough this deep (`d′` at its vertex) replaces the shallowest kept...
  static let clearDip: Float = 0.3
  /// ...if that one is a ripple, no deeper than this.
  static let ripple: Float = 0.5
  static let thresholdCount = 100
  /// The probability the deepest trough earns, per threshold, when no trough is below it.
  static let noTroughProbability = 0.01
  /// The Boltzmann prior's parameter over troughs below a threshold (the first is likeliest).
  static let boltzmann = 2.0

  let plan: PeriodicityPlan
  let bins: PitchBins
  /// The probability of each threshold `(i + 1) / 100`: a Beta(2, b) distribution of the given
  /// mean (pYIN's are 0.10, 0.15 and 0.20).
  private let thresholdWeights: UnsafeMutableBufferPointer<Double>
  /// `exp(−λk)` for the Boltzmann prior.
  private let boltzmannTerms: UnsafeMutableBufferPointer<Double>
  private let troughLags: UnsafeMutableBufferPointer<Int>
  /// Each trough's depth as the thresholds see it: `d′` at the vertex of the parabola through
  /// its samples, or 1 (below no threshold) for a side trough.
  private let troughDepths: UnsafeMutableBufferPointer<Float>
  /// Each trough's own depth, `d′` at its parabola's vertex.
  private let troughVertexDepths: UnsafeMutableBufferPointer<Float>
  /// Per trough, the lag of the period it hands over to (see
  /// ``PeriodicityAnalysis/periodLag(startingAt:)``), or its own lag.
  private let troughPeriodLags: UnsafeMutableBufferPointer<Int>
  /// Per trough, whether it is handed over to its double and so earns only a long shot.
  private let troughLongShots: UnsafeMutableBufferPointer<Bool>
  /// Per trough, the index of the first threshold it is below (`thresholdCount`: none).
  private let troughEntries: UnsafeMutableBufferPointer<Int>
  /// The troughs below the current threshold, in lag order.
  private let belowTroughs: UnsafeMutableBufferPointer<Int>
  /// Per threshold, whether a trough is first below it (cleared as the thresholds are run).
  private let thresholdEntries: UnsafeMutableBufferPointer<Bool>

  /// The candidates of the last frame: frequency, probability and pitch bin.
  let frequencies: UnsafeMutableBufferPointer<Double>
  let probabilities: UnsafeMutableBufferPointer<Double>
  let binIndices: UnsafeMutableBufferPointer<Int>
  private(set) var count = 0
  /// The total probability of the candidates: how likely the frame is voiced.
  private(set) var voicedProbability = 0.0
  /// The bin of the newest note's candidate added to the last frame (see ``NewestNoteFinder``),
  /// or −1.
  private(set) var newNoteBin = -1
  /// The share of the frame's voiced probability the newest note's candidate takes.
  static let newNoteShare = 0.6
  /// A frame's likeliest candidate is a pitch held lately (``NewestNoteFinder/noveltySeconds``)
  /// only with at least this probability: a frame of noise gives its deepest trough about
  /// ``noTroughProbability``.
  static let heldProbability = 0.05
  private var newestNote: NewestNoteFinder
  /// Whether ``NewestNoteFinder`` runs.
  let findsNewestNote: Bool

  init(
    plan: PeriodicityPlan, bins: PitchBins, hopSeconds: Double, thresholdMean: Double = 0.1,
    findsNewestNote: Bool = true
  ) {
    self.plan = plan
    self.bins = bins
    newestNote = NewestNoteFinder(hopSeconds: hopSeconds)
    self.findsNewestNote = findsNewestNote
    let n = Self.thresholdCount
    thresholdWeights = .allocate(capacity: n)
    // Beta(2, b) with mean 2 / (2 + b); its CDF in closed form: I_x(2, b) = 1 − (1 − x)^b · (1 + bx).
    let b = 2 / thresholdMean - 2
    func cdf(_ x: Double) -> Double { 1 - pow(1 - x, b) * (1 + b * x) }
    for i in 0..<n { thresholdWeights[i] = cdf(Double(i + 1) / Double(n)) - cdf(Double(i) / Double(n)) }
    let m = Self.maximumCandidates
    boltzmannTerms = .allocate(capacity: m + 1)
    for k in 0...m { boltzmannTerms[k] = exp(-Self.boltzmann * Double(k)) }
    troughLags = .zeroed(m)
    troughDepths = .zeroed(m)
    troughVertexDepths = .zeroed(m)
    troughPeriodLags = .zeroed(m)
    troughLongShots = .allocate(capacity: m)
    troughLongShots.initialize(repeating: false)
    troughEntries = .zeroed(m)
    belowTroughs = .zeroed(m)
    thresholdEntries = .allocate(capacity: n)
    thresholdEntries.initialize(repeating: false)
    frequencies = .zeroed(m)
    probabilities = .zeroed(m)
    binIndices = .zeroed(m)
  }

  deinit {
    thresholdWeights.deallocate()
    boltzmannTerms.deallocate()
    troughLags.deallocate()
    troughDepths.deallocate()
    troughVertexDepths.deallocate()
    troughPeriodLags.deallocate()
    troughLongShots.deallocate()
    troughEntries.deallocate()
    belowTroughs.deallocate()
    thresholdEntries.deallocate()
    frequencies.deallocate()
    probabilities.deallocate()
    binIndices.deallocate()
  }

  /// Computes the candidates of the frame `analysis` just analyzed.
  @_noLocks
  mutating func compute(_ analysis: borrowing PeriodicityAnalysis) {
    count = 0
    voicedProbability = 0
    // Too quiet beside the peak, or no louder than the steady noise: the frame's periods count
    // little or not at all.
    let gate = analysis.voicingGate * analysis.noiseWeight
    guard gate > 0 else { return }
    let d = analysis.normalizedDifference
    // Troughs: local minima of d′ within the lag range, in lag order (the highest pitch first).
    // When there are more than the candidates' room (noise makes d′ ragged: a hundred ripples
    // at short lags), a clear dip further on (below ``clearDip``) takes the place of the
    // shallowest ripple kept (at or above ``ripple``), so that a low note's period past the
    // ripples still counts; deeper troughs are never dropped (a high note's period and its
    // multiples fill the room with deep dips, and the first of them is the period).
    var troughs = 0
    var tau = max(plan.minimumLag, 1)
    while tau < plan.maximumLag {
      if d[tau] < d[tau - 1], d[tau] <= d[tau + 1] {
        let depth = max(0, parabolicExtremum(d, at: tau))
        if troughs < Self.maximumCandidates {
          troughLags[troughs] = tau
          troughVertexDepths[troughs] = depth
          troughs += 1
        } else if depth < Self.clearDip {
          // The shallowest kept (the last of equals) gives way if it is a ripple: the others
          // move up so that the list stays in lag order.
          var shallowest = 0
          for k in 1..<troughs where troughVertexDepths[k] >= troughVertexDepths[shallowest] { shallowest = k }
          if troughVertexDepths[shallowest] >= Self.ripple {
            for k in shallowest..<(troughs - 1) {
              troughLags[k] = troughLags[k + 1]
              troughVertexDepths[k] = troughVertexDepths[k + 1]
            }
            troughLags[troughs - 1] = tau
            troughVertexDepths[troughs - 1] = depth
          }
        }
      }
      tau += 1
    }
    guard troughs > 0 else { return }
    for k in 0..<troughs { troughPeriodLags[k] = analysis.periodLag(startingAt: troughLags[k]) }
    // Side troughs: a trough with a deeper one within an eighth of its lag is a ripple on the
    // flank of that dip (stretched partials of a piano or a bass string, beating, detuned
    // voices), not a period of its own, however deep it is: it is below no threshold. Two
    // multiples of one period are at least 9/8 apart up to the 8th, so this never hides the
    // period from its octaves; without it, the Boltzmann prior hands a shallow ripple just
    // before the true dip most of the probability (a semitone sharp on a piano's low notes).
    var deepest = -1
    var longShots = 0
    for k in 0..<troughs {
      let lag = troughLags[k]
      let depth = troughVertexDepths[k]
      var isSide = false
      var m = k - 1
      while !isSide, m >= 0, 8 * (lag - troughLags[m]) <= troughLags[m] {
        isSide = troughVertexDepths[m] < depth
        m -= 1
      }
      m = k + 1
      while !isSide, m < troughs, 8 * (troughLags[m] - lag) <= lag {
        isSide = troughVertexDepths[m] < depth
        m += 1
      }
      // A trough at a half or a third of a much deeper one's lag is not a period (a weak
      // fundamental under a strong second or third harmonic): it counts as no deeper than the
      // threshold range's top, but keeps a long shot (below).
      let isHandedOver = !isSide && troughPeriodLags[k] != lag
      troughDepths[k] = isSide || isHandedOver ? 1 : depth
      troughLongShots[k] = isHandedOver
      if isHandedOver { longShots += 1 }
      if deepest < 0 || troughDepths[k] < troughDepths[deepest] { deepest = k }
    }
    // Each trough is below the thresholds from the first one above its depth on; the troughs
    // below the current threshold, in lag order, change only when one enters.
    let thresholds = Self.thresholdCount
    for k in 0..<troughs {
      probabilities[k] = 0
      let depth = troughDepths[k]
      // A guess from the depth, then the exact comparison decides (never below: `thresholds`).
      var i = depth >= 0 && depth <= 1 ? max(0, Int(depth * Float(thresholds)) - 1) : (depth < 0 ? 0 : thresholds)
      while i < thresholds, !(depth < Float(i + 1) / Float(thresholds)) { i += 1 }
      troughEntries[k] = i
      if i < thresholds { thresholdEntries[i] = true }
    }
    var below = 0
    for i in 0..<thresholds {
      if thresholdEntries[i] {
        thresholdEntries[i] = false
        below = 0
        for k in 0..<troughs where troughEntries[k] <= i {
          belowTroughs[below] = k
          below += 1
        }
      }
      let weight = thresholdWeights[i]
      if below == 0 {
        probabilities[deepest] += weight * Self.noTroughProbability
        continue
      }
      // Boltzmann pmf over the troughs below: (1 − e^−λ)·e^−λj / (1 − e^−λn).
      let norm = (1 - boltzmannTerms[1]) / (1 - boltzmannTerms[below])
      for j in 0..<below {
        probabilities[belowTroughs[j]] += weight * norm * boltzmannTerms[j]
      }
    }
    // A handed-over trough earns what a frame without troughs gives its deepest, for each
    // threshold it is below: not zero, so that a note whose attack hands over (a sub-harmonic in
    // a looped sample's first cycles) can still be decoded at this pitch when the rest of the
    // note says so; pitch moves being bounded, zero here locked the whole note an octave low.
    if longShots > 0 {
      for i in 0..<Self.thresholdCount {
        let threshold = Float(i + 1) / Float(Self.thresholdCount)
        for k in 0..<troughs where troughLongShots[k] && troughVertexDepths[k] < threshold {
          probabilities[k] += thresholdWeights[i] * Self.noTroughProbability
        }
      }
    }
    // Keep the troughs that earned probability, with their frequencies: the likeliest refined to
    // a fraction of a sample, the others from the parabola.
    var likeliest = 0
    for k in 0..<troughs where probabilities[k] > probabilities[likeliest] { likeliest = k }
    var kept = 0
    for k in 0..<troughs where probabilities[k] > 0 {
      let lag = troughLags[k]
      let period = k == likeliest ? analysis.refinedLag(lag) : Double(lag) + parabolicOffset(d, at: lag)
      let frequency = plan.analysisRate / period
      let bin = bins.bin(frequency)
      // A periodic background's candidate counts only as far as the frame rises over it.
      let background = analysis.background.weight(period: period, levelDBFS: analysis.levelDBFS)
      let probability = probabilities[k] * gate * background
      guard bin >= 0, probability > 0 else { continue }
      frequencies[kept] = frequency
      probabilities[kept] = probability
      binIndices[kept] = bin
      voicedProbability += probabilities[kept]
      kept += 1
    }
    count = kept
    voicedProbability = min(1, voicedProbability)
    addNewestNote(analysis)
  }

  /// Adds the newest note under the release of an older one (``NewestNoteFinder``), if any, as a
  /// candidate with ``newNoteShare`` of the frame's voiced probability.
  @_noLocks
  private mutating func addNewestNote(_ analysis: borrowing PeriodicityAnalysis) {
    newNoteBin = -1
    guard findsNewestNote else { return }
    var likeliest = -1
    for k in 0..<count where likeliest < 0 || probabilities[k] > probabilities[likeliest] { likeliest = k }
    let likeliestCandidate = likeliest >= 0 ? (frequencies[likeliest], binIndices[likeliest]) : nil
    let found = newestNote.find(
      in: analysis, bins: bins, likeliest: likeliestCandidate,
      held: likeliest >= 0 && probabilities[likeliest] >= Self.heldProbability)
    guard let found, count < Self.maximumCandidates else { return }
    for k in 0..<count { probabilities[k] *= 1 - Self.newNoteShare }
    frequencies[count] = found.frequencyHz
    probabilities[count] = voicedProbability * Self.newNoteShare
    binIndices[count] = found.bin
    count += 1
    newNoteBin = found.bin
  }

  /// Forgets the stream.
  mutating func reset() {
    newestNote.reset()
    count = 0
    voicedProbability = 0
    newNoteBin = -1
  }
}

/// The hidden Markov model of pYIN's second stage: pitch bins, each voiced or unvoiced, decoded
/// with a fixed-lag Viterbi decoder.
///
/// Observations: a voiced state's probability is the candidates' probability in its bin, plus a
/// share of the probability of those an octave above and below it (`octaveConfusionProbability`);
/// each unvoiced state's is `(1 − voiced probability) / bins`. Transitions: within ±`jump` bins with
/// triangular weights, voicing kept with `1 − switchProbability`; a voiced state may also be
/// entered from the best unvoiced state, however far (``restEntryProbability``); with a leap
/// probability, from an octave or a twelfth above or below; and the newest note's candidate
/// (``ProbabilisticYINCandidates/newNoteBin``) from the best voiced state, however far
/// (``newNoteProbability``).
///
/// The offline path (``defersDecoding``) keeps a back-pointer for every state of every frame. The
/// live decoder keeps none: it keeps the scores of the last `lag + 1` frames, and finds again the
/// back-pointer of each state its paths go through (``recomputedPointer(of:atSlot:)``), a few per
/// frame against the 2 × bins a forward step would write; its outputs are the same.
struct PitchHMM: ~Copyable {
  /// The largest pitch move per hop, in bins: back-pointers store the move in 7 bits beside the
  /// layer's bit, and the four harmonic leaps and the newest note's entry take the codes above
  /// the moves (from the unvoiced layer, the first code above the moves is the rest's entry).
  static let maximumJump = 61

  let bins: PitchBins
  let jump: Int
  let lag: Int
  private let logStay: Float
  private let logSwitch: Float
  /// `log` weight of a voiced pitch leaping an octave or a twelfth (up or down) between hops;
  /// `-∞` when leaps are off.
  private let logLeap: Float
  /// The leaps' source offsets in bins (source − target); back-pointer code `2·jump + 1 + l`
  /// stands for `leapOffsets[l]`.
  private let leapOffsets: UnsafeMutableBufferPointer<Int>
  /// The bins rounded up to whole SIMD lanes.
  private let paddedCount: Int
  /// `log` transition weight into bin `j` from bin `j + k − jump`: row `k`, column `j`
  /// (`paddedCount` columns), so that one offset runs over contiguous targets.
  private let logTransitions: UnsafeMutableBufferPointer<Float>
  /// The scores, with `jump` (and the SIMD rounding) of −∞ on each side: bin `b` at `jump + b`.
  private let paddedVoiced: UnsafeMutableBufferPointer<Float>
  private let paddedUnvoiced: UnsafeMutableBufferPointer<Float>
  private let voiced: UnsafeMutableBufferPointer<Float>
  private let unvoiced: UnsafeMutableBufferPointer<Float>
  private let nextVoiced: UnsafeMutableBufferPointer<Float>
  private let nextUnvoiced: UnsafeMutableBufferPointer<Float>
  /// Per target bin: the best offset from each layer (as a float, for SIMD selects).
  private let fromVoiced: UnsafeMutableBufferPointer<Float>
  private let fromUnvoiced: UnsafeMutableBufferPointer<Float>
  /// The live decoder's per target bin: the best score entering its voiced state from a voiced
  /// state (``stepScores(newNoteBin:newNoteSource:rest:logUnvoiced:)``).
  private let voicedEntries: UnsafeMutableBufferPointer<Float>
  private let observation: UnsafeMutableBufferPointer<Float>
  /// Per bin given probability in the frame being pushed (a candidate's, or an octave of it):
  /// the bin, and its total probability.
  private let touchedBins: UnsafeMutableBufferPointer<Int>
  private let binTotals: UnsafeMutableBufferPointer<Float>
  /// The share of each candidate's probability that also counts for the bins an octave above and
  /// below it (``ProbabilisticYINEstimator/octaveConfusionProbability``).
  private let octaveShare: Float
  /// An octave in bins.
  private let octaveBins: Int
  /// Per slot of the lag ring, for the offline path: back-pointers for the 2 × bins states (offset
  /// + jump, layer in the top bit: set = came from unvoiced).
  private let backPointers: UnsafeMutableBufferPointer<UInt8>
  /// Per slot: the frame's candidates (frequency, probability, bin), count, time, level and voicing
  /// probability, and the newest note's bin (see ``ProbabilisticYINCandidates/newNoteBin``).
  private let slotFrequencies: UnsafeMutableBufferPointer<Double>
  private let slotProbabilities: UnsafeMutableBufferPointer<Double>
  private let slotBins: UnsafeMutableBufferPointer<Int>
  private let slotNewNoteBins: UnsafeMutableBufferPointer<Int>
  private let slotCounts: UnsafeMutableBufferPointer<Int>
  private let slotInfo: UnsafeMutableBufferPointer<Double>  // time, level, voicing probability
  private let flushStates: UnsafeMutableBufferPointer<Int>
  /// Per frame decided at the flush: the octaves its decided frequency is moved by
  /// (``correctOctaveBlips()``; 0 for most).
  private let flushShifts: UnsafeMutableBufferPointer<Int>
  /// The longest run of frames at a note's start read an octave off the note to be moved to it
  /// at the flush of the offline path (``correctOctaveBlips()``; 0: none).
  let octaveBlipFrames: Int
  /// Per slot: the bin a new note entered that frame from (see ``newNoteProbability``), or −1.
  private let slotNewNoteSources: UnsafeMutableBufferPointer<Int>
  /// Per slot: the best unvoiced state before that frame, from which any pitch may start (see
  /// ``restEntryProbability``).
  private let slotRestSources: UnsafeMutableBufferPointer<Int>
  /// Per slot, for the live decoder: the last state whose back-pointer was found again there
  /// (−1: none since the frame's step), and that back-pointer; successive frames' paths share
  /// most of their states.
  private let slotPointerStates: UnsafeMutableBufferPointer<Int>
  private let slotPointers: UnsafeMutableBufferPointer<UInt8>
  /// Per slot, for the live decoder: the voiced and unvoiced scores after that frame's step, so
  /// that the frames not decided yet can be decoded again (``reweightUndecided(by:)``).
  private let slotScores: UnsafeMutableBufferPointer<Float>
  /// The default probability that a pitch starting after unvoiced frames is any pitch of the
  /// range (uniformly) rather than one near the pitch the unvoiced states carried
  /// (``ProbabilisticYINEstimator/restEntryProbability``): a rest keeps no memory of the note
  /// before it beyond this. Without it the unvoiced states move no faster than a voiced pitch, so
  /// a note after a short rest more than that far from the last one could only be entered where
  /// the drift reached in time, often at its octave (then kept for the whole note).
  static let restEntryProbability = 0.001
  private let logSwitchNear: Float
  private let logSwitchFar: Float
  /// The probability that the newest note's candidate (``ProbabilisticYINCandidates/newNoteBin``)
  /// is entered from the previous frame's best voiced state, however far it is: a leap of more than
  /// ``jump`` bins from the note before it, in one hop.
  static let newNoteProbability = 0.01
  private let logNewNote = Float(log(newNoteProbability))
  /// Whether frames are only stored as they come and all decoded at the end (the offline path):
  /// then their candidates can still be reweighted (``reweight(frames:by:)``).
  let defersDecoding: Bool
  /// Frames pushed, and frames whose forward step has run.
  private(set) var frames = 0
  private var stepped = 0
  private var flushed = 0
  private var flushCount = -1

  /// The estimate decided by the last ``push(_:time:levelDBFS:)`` or ``flushNext()`` that
  /// returned `true`.
  private(set) var decided = PitchEstimate(time: 0, frequencyHz: 0, confidence: 0, levelDBFS: -.infinity)
  /// The live decoder's state decided last (−1: none yet), the frames decided in its piece so
  /// far, and the octaves its frequency was moved by (``correctLiveOctaveBlip()``).
  private var lastDecidedState = -1
  private var liveBlipRun = 0
  private var liveShift = 0
  private var liveBlipAfterLeap = false

  init(
    bins: PitchBins, jump: Int, switchProbability: Double, lag: Int, leapProbability: Double = 0,
    octaveConfusionProbability: Double = 0, restEntryProbability: Double = PitchHMM.restEntryProbability,
    octaveBlipFrames: Int = 0, defersDecoding: Bool = false
  ) {
    self.bins = bins
    self.jump = jump
    self.lag = lag
    self.defersDecoding = defersDecoding
    octaveShare = Float(octaveConfusionProbability)
    logStay = Float(log(1 - switchProbability))
    logSwitch = Float(log(switchProbability))
    logSwitchNear = Float(log(switchProbability * (1 - restEntryProbability)))
    // 0 turns the far entry off: log(0) is −∞, a source no comparison ever takes.
    logSwitchFar = Float(log(switchProbability * restEntryProbability / Double(bins.count)))
    let octave = Int((1200 / PitchBins.centsPerBin).rounded())
    octaveBins = octave
    let twelfth = Int((1200 * log2(3) / PitchBins.centsPerBin).rounded())
    leapOffsets = .allocate(capacity: 4)
    _ = leapOffsets.initialize(from: [-octave, octave, -twelfth, twelfth])
    precondition(jump <= Self.maximumJump, "jump out of range")
    logLeap = leapProbability > 0 ? Float(log(leapProbability)) : -.infinity
    let n = bins.count
    let width = 2 * jump + 1
    // Row j (the target), column k: the log weight from source bin i = j + k − jump, normalized
    // over each source's reachable targets (triangular weights, truncated at the range's ends).
    var normalizers = [Double](repeating: 0, count: n)
    for i in 0..<n {
      for k in 0..<width where (0..<n).contains(i + k - jump) { normalizers[i] += Double(jump + 1 - abs(k - jump)) }
    }
    let lanes = SIMD8<Float>.scalarCount
    let padded = (n + lanes - 1) / lanes * lanes
    paddedCount = padded
    logTransitions = .allocate(capacity: width * padded)
    logTransitions.initialize(repeating: -.infinity)
    for j in 0..<n {
      for k in 0..<width {
        let i = j + k - jump
        if (0..<n).contains(i) {
          logTransitions[k * padded + j] = Float(log(Double(jump + 1 - abs(k - jump)) / normalizers[i]))
        }
      }
    }
    paddedVoiced = .allocate(capacity: padded + 2 * jump)
    paddedVoiced.initialize(repeating: -.infinity)
    paddedUnvoiced = .allocate(capacity: padded + 2 * jump)
    paddedUnvoiced.initialize(repeating: -.infinity)
    voiced = UnsafeMutableBufferPointer(rebasing: paddedVoiced[jump..<(jump + n)])
    unvoiced = UnsafeMutableBufferPointer(rebasing: paddedUnvoiced[jump..<(jump + n)])
    nextVoiced = .zeroed(padded)
    nextUnvoiced = .zeroed(padded)
    fromVoiced = .zeroed(padded)
    fromUnvoiced = .zeroed(padded)
    voicedEntries = .zeroed(defersDecoding ? 0 : n)
    observation = .zeroed(n)
    // Each candidate's bin, and the bins an octave above and below it.
    binTotals = .zeroed(3 * ProbabilisticYINCandidates.maximumCandidates)
    touchedBins = .allocate(capacity: 3 * ProbabilisticYINCandidates.maximumCandidates)
    touchedBins.initialize(repeating: 0)
    backPointers = .zeroed(defersDecoding ? (lag + 1) * 2 * n : 0)
    let m = ProbabilisticYINCandidates.maximumCandidates
    slotFrequencies = .zeroed((lag + 1) * m)
    slotProbabilities = .zeroed((lag + 1) * m)
    slotBins = .zeroed((lag + 1) * m)
    slotNewNoteBins = .zeroed(lag + 1)
    slotCounts = .zeroed(lag + 1)
    slotInfo = .zeroed((lag + 1) * 3)
    flushStates = .zeroed(lag + 1)
    flushShifts = .zeroed(lag + 1)
    self.octaveBlipFrames = octaveBlipFrames
    slotNewNoteSources = .zeroed(lag + 1)
    slotRestSources = .zeroed(lag + 1)
    slotPointerStates = .allocate(capacity: defersDecoding ? 0 : lag + 1)
    slotPointerStates.initialize(repeating: -1)
    slotPointers = .zeroed(defersDecoding ? 0 : lag + 1)
    slotScores = .zeroed(defersDecoding ? 0 : (lag + 1) * 2 * n)
  }

  deinit {
    for b in [
      paddedVoiced, paddedUnvoiced, nextVoiced, nextUnvoiced, fromVoiced, fromUnvoiced, voicedEntries,
      observation, binTotals, logTransitions,
    ] {
      b.deallocate()
    }
    backPointers.deallocate()
    touchedBins.deallocate()
    leapOffsets.deallocate()
    slotFrequencies.deallocate()
    slotProbabilities.deallocate()
    slotBins.deallocate()
    slotNewNoteBins.deallocate()
    slotCounts.deallocate()
    slotInfo.deallocate()
    flushStates.deallocate()
    flushShifts.deallocate()
    slotNewNoteSources.deallocate()
    slotRestSources.deallocate()
    slotPointerStates.deallocate()
    slotPointers.deallocate()
    slotScores.deallocate()
  }

  /// Forgets the stream.
  mutating func reset() {
    frames = 0
    stepped = 0
    flushed = 0
    flushCount = -1
    lastDecidedState = -1
    liveBlipRun = 0
    liveShift = 0
    liveBlipAfterLeap = false
  }

  /// Adds a frame; returns `true` when it decided the frame `lag` hops back (in ``decided``): never
  /// when it ``defersDecoding`` and has room for the frame.
  @_noLocks
  mutating func push(_ candidates: borrowing ProbabilisticYINCandidates, time: Double, levelDBFS: Double) -> Bool {
    let slot = frames % (lag + 1)
    // Store the frame for decoding later.
    let m = ProbabilisticYINCandidates.maximumCandidates
    for c in 0..<candidates.count {
      slotFrequencies[slot * m + c] = candidates.frequencies[c]
      slotProbabilities[slot * m + c] = candidates.probabilities[c]
      slotBins[slot * m + c] = candidates.binIndices[c]
    }
    slotCounts[slot] = candidates.count
    slotInfo[slot * 3] = time
    slotInfo[slot * 3 + 1] = levelDBFS
    slotInfo[slot * 3 + 2] = candidates.voicedProbability
    slotNewNoteBins[slot] = candidates.newNoteBin
    frames += 1
    // Deferred while the ring has room; past that (more frames than the offline length said),
    // decoded as a fixed-lag decoder from here on.
    if defersDecoding, frames <= lag { return false }
    while stepped < frames { stepForward() }
    guard frames > lag else { return false }
    // Backtrack from the best state now to the frame `lag` hops back; the live decoder keeps the
    // path (in `flushStates`, frame `frames - 1 - lag + i` at `i`) for its octave blips.
    let keepsPath = octaveBlipFrames > 0 && !defersDecoding
    decide(state: backtrack(steps: lag, storing: keepsPath), slot: (frames - 1 - lag) % (lag + 1))
    if keepsPath { correctLiveOctaveBlip() }
    return true
  }

  /// The best path's state `steps` frames before the newest, found by backtracking from the best
  /// state now; when `storing`, the path goes into `flushStates[0...steps]`, oldest first.
  @_noLocks
  private func backtrack(steps: Int, storing: Bool) -> Int {
    var state = bestState()
    var t = frames - 1
    if storing { flushStates[steps] = state }
    for i in stride(from: steps - 1, through: 0, by: -1) {
      state = predecessor(of: state, atSlot: t % (lag + 1))
      t -= 1
      if storing { flushStates[i] = state }
    }
    return state
  }

  /// The live decoder's octave blips: the frame just decided (the path's first, `flushStates[0]`)
  /// is reported one or two octaves from its state when it lies in the first ``octaveBlipFrames``
  /// frames of its piece (or the frame before it was so moved) and either the path stays in that
  /// piece to the newest frame while the newest frames' own candidates put the note at that octave
  /// (``liveOctaveEvidence()``), or the path leaves the piece, at most ``octaveBlipFrames`` long,
  /// straight or through one unvoiced frame, for one at that octave that lasts to the newest frame.
  ///
  /// A note whose attack reads an octave off (a sub-harmonic, a strong second partial) holds the
  /// path at the attack's octave until the note's own frames outweigh it, often only after the
  /// look-ahead has emitted the attack; the offline path's ``correctOctaveBlips()`` sees the whole
  /// note, this one only the newest frames, which by then show the note's octave.
  @_noLocks
  private mutating func correctLiveOctaveBlip() {
    let n = bins.count
    let first = flushStates[0]
    let previous = lastDecidedState
    lastDecidedState = first
    let previousShift = liveShift
    liveShift = 0
    guard first < n else {
      liveBlipRun = 0
      return
    }
    let continues = continuesPiece(from: previous, to: first)
    liveBlipRun = continues ? liveBlipRun + 1 : 1
    // A piece the path entered by leaving another one or two octaves away has had its octave
    // corrected already.
    if !continues { liveBlipAfterLeap = previous >= 0 && previous < n && octaves(first - previous) != 0 }
    guard !liveBlipAfterLeap, liveBlipRun <= octaveBlipFrames || previousShift != 0 else { return }
    let last = pieceEnd(from: 0, limit: lag)
    var k = 0
    if last == lag {
      k = liveOctaveEvidence()
      // The frame's own candidates already at that octave, with the path kept off it (a note whose
      // second partial outweighs its fundamental throughout): the path weighed them; it stays.
      let own = mostProbableBin(atSlot: (frames - 1 - lag) % (lag + 1))
      if k != 0, previousShift == 0, own >= 0, octaves(own - first) == k { k = 0 }
    } else if liveBlipRun + last <= octaveBlipFrames {
      // The path itself leaves the piece for the note's octave, straight or through one unvoiced
      // frame, and stays there to the newest frame.
      if let next = nextPieceStart(after: last, limit: lag), pieceEnd(from: next, limit: lag) == lag {
        k = octaves(flushStates[next] - flushStates[last])
      }
    }
    guard k != 0 else { return }
    liveShift = k
    moveDecided(octaves: k)
  }

  /// Moves ``decided``'s frequency by `k` octaves.
  @_noLocks
  private mutating func moveDecided(octaves k: Int) {
    decided.frequencyHz *= k > 0 ? Double(1 << k) : 1 / Double(1 << -k)
  }

  /// At the end of a live stream, the octave blip being moved (``correctLiveOctaveBlip()``) goes
  /// on to the end of its piece: no newer frame is left to say otherwise.
  @_noLocks
  private func carryLiveShift() {
    var previous = lastDecidedState
    for i in 0..<flushCount {
      guard continuesPiece(from: previous, to: flushStates[i]) else { return }
      flushShifts[i] = liveShift
      previous = flushStates[i]
    }
  }

  /// The octaves, ±1 or ±2, from the path's state at which the newest
  /// ``liveOctaveEvidenceFrames`` frames' most probable candidates all lie, each with at least
  /// ``liveOctaveEvidenceProbability`` (0: none, or not all the same).
  @_noLocks
  private func liveOctaveEvidence() -> Int {
    let n = bins.count
    var result = 0
    for i in max(0, lag - Self.liveOctaveEvidenceFrames + 1)...lag {
      let slot = (frames - 1 - lag + i) % (lag + 1)
      let state = flushStates[i]
      guard state < n else { return 0 }
      let best = mostProbableBin(atSlot: slot, minimumProbability: Self.liveOctaveEvidenceProbability)
      guard best >= 0 else { return 0 }
      let k = octaves(best - state)
      guard k != 0, result == 0 || k == result else { return 0 }
      result = k
    }
    return result
  }

  /// The bin of the most probable candidate of the frame stored in `slot`, if its probability is
  /// at least `minimumProbability` (−1: none).
  @_noLocks
  private func mostProbableBin(atSlot slot: Int, minimumProbability: Double = 0) -> Int {
    let m = ProbabilisticYINCandidates.maximumCandidates
    var best = -1
    var bestProbability = 0.0
    for c in 0..<slotCounts[slot] where slotProbabilities[slot * m + c] > bestProbability {
      bestProbability = slotProbabilities[slot * m + c]
      best = slotBins[slot * m + c]
    }
    return bestProbability >= minimumProbability ? best : -1
  }

  /// The newest frames whose candidates must agree for the live decoder to report an attack at
  /// another octave than its path (``correctLiveOctaveBlip()``): in `Evaluation/pitch` (stop 45,
  /// no probability floor) 2 gained the most frames right on every set, 3 from 4 to 36 fewer
  /// per set and 4 more fewer still.
  static let liveOctaveEvidenceFrames = 2
  /// The probability each of those frames' most probable candidate must have: without a floor,
  /// noise at 0 dB SNR cost 9–15 frames on three of the four main sets; with 0.3 every set lost
  /// 4 or fewer there.
  static let liveOctaveEvidenceProbability = 0.3

  /// The last frame of the piece of `flushStates` from `i` (voiced states within ``jump`` bins of
  /// the one before), up to `limit`.
  @_noLocks
  private func pieceEnd(from i: Int, limit: Int) -> Int {
    var j = i
    while j < limit, continuesPiece(from: flushStates[j], to: flushStates[j + 1]) { j += 1 }
    return j
  }

  /// Whether state `b` continues the piece of state `a` (−1: none): both voiced, within ``jump``
  /// bins.
  @_noLocks
  private func continuesPiece(from a: Int, to b: Int) -> Bool {
    let n = bins.count
    return a >= 0 && a < n && b < n && abs(b - a) <= jump
  }

  /// Where the piece after one ending at `last` starts in `flushStates`: straight after it, or
  /// after one unvoiced frame (where the path leaves an octave blip through an unvoiced frame
  /// rather than by a leap); `nil` when no voiced frame is there up to `limit`.
  @_noLocks
  private func nextPieceStart(after last: Int, limit: Int) -> Int? {
    let n = bins.count
    var next = last + 1
    if next <= limit, flushStates[next] >= n { next += 1 }
    return next <= limit && flushStates[next] < n ? next : nil
  }

  /// The octaves, ±1 or ±2, that a move of `delta` bins makes within ``octaveBlipTolerance`` (0:
  /// none).
  @_noLocks
  private func octaves(_ delta: Int) -> Int {
    for k in -2...2 where k != 0 && abs(delta - k * octaveBins) <= Self.octaveBlipTolerance { return k }
    return 0
  }

  /// Scales the candidates' probabilities of the first `count` frames of a stream that
  /// ``defersDecoding`` (those not decoded yet) by `weight(frequency, level)`, and their frames'
  /// voiced probability with them.
  @_noLocks
  mutating func reweight(
    frames count: Int, by weight: (_ frequencyHz: Double, _ levelDBFS: Double) -> Double
  ) {
    scale(frames: stepped..<min(count, frames), by: weight)
  }

  /// The live decoder's ``reweight(frames:by:)``: scales the candidates of the frames not decided
  /// yet (the last `lag` pushed) by `weight(frequency, level)` and decodes them again from the
  /// scores of the last frame decided, so that what is learned about a frame a few hops later (a
  /// periodic background established) still counts for it. Costs up to `lag` forward steps.
  @_noLocks
  mutating func reweightUndecided(by weight: (_ frequencyHz: Double, _ levelDBFS: Double) -> Double) {
    guard !defersDecoding, frames > 0 else { return }
    let first = max(0, frames - lag)
    scale(frames: first..<frames, by: weight)
    if first > 0 {
      let n = bins.count
      let saved = (first - 1) % (lag + 1) * 2 * n
      for b in 0..<n {
        voiced[b] = slotScores[saved + b]
        unvoiced[b] = slotScores[saved + n + b]
      }
    }
    stepped = first
    while stepped < frames { stepForward() }
  }

  @_noLocks
  private mutating func scale(
    frames range: Range<Int>, by weight: (_ frequencyHz: Double, _ levelDBFS: Double) -> Double
  ) {
    let m = ProbabilisticYINCandidates.maximumCandidates
    for frame in range {
      let slot = frame % (lag + 1)
      var total = 0.0
      for c in 0..<slotCounts[slot] {
        slotProbabilities[slot * m + c] *= weight(slotFrequencies[slot * m + c], slotInfo[slot * 3 + 1])
        total += slotProbabilities[slot * m + c]
      }
      slotInfo[slot * 3 + 2] = min(1, total)
    }
  }

  /// Runs the forward step of the next stored frame.
  @_noLocks
  private mutating func stepForward() {
    let n = bins.count
    let slot = stepped % (lag + 1)
    let m = ProbabilisticYINCandidates.maximumCandidates
    let count = slotCounts[slot]
    // Observation log-probabilities: each candidate's probability in its bin and a share of it an
    // octave above and below.
    let floor: Float = 1e-30
    for b in 0..<n { observation[b] = 0 }
    var touched = 0
    for c in 0..<count {
      let b = slotBins[slot * m + c]
      observation[b] += Float(slotProbabilities[slot * m + c])
      touchedBins[touched] = b
      touched += 1
    }
    if octaveShare > 0 {
      for c in 0..<count {
        let share = octaveShare * Float(slotProbabilities[slot * m + c])
        let below = slotBins[slot * m + c] - octaveBins
        if below >= 0 {
          observation[below] += share
          touchedBins[touched] = below
          touched += 1
        }
        let above = slotBins[slot * m + c] + octaveBins
        if above < n {
          observation[above] += share
          touchedBins[touched] = above
          touched += 1
        }
      }
    }
    // RT-audited: libm's log is a pure function; it neither allocates nor locks.
    let unvoicedProbability = max(Float(1 - slotInfo[slot * 3 + 2]) / Float(n), floor)
    let logUnvoiced = _unsafePerformance { log(unvoicedProbability) }
    // Most bins hold no probability: their log is the floor's, computed once; the few that do
    // (a bin may hold several shares: their sum) are taken one log each.
    let logFloor = _unsafePerformance { log(floor) }
    for t in 0..<touched { binTotals[t] = observation[touchedBins[t]] }
    for b in 0..<n { observation[b] = logFloor }
    for t in 0..<touched {
      let p = binTotals[t]
      if p > floor { observation[touchedBins[t]] = _unsafePerformance { log(p) } }
    }

    if stepped == 0 {
      let prior = -_unsafePerformance { log(Float(2 * n)) }
      for b in 0..<n {
        voiced[b] = prior + observation[b]
        unvoiced[b] = prior + logUnvoiced
      }
    } else {
      step(slot: slot, logUnvoiced: logUnvoiced, newNoteBin: slotNewNoteBins[slot])
    }
    if !defersDecoding {
      slotPointerStates[slot] = -1
      let saved = slot * 2 * n
      for b in 0..<n {
        slotScores[saved + b] = voiced[b]
        slotScores[saved + n + b] = unvoiced[b]
      }
    }
    stepped += 1
  }

  /// At the end of a stream, decides the next frame still held back; `false` when none is left.
  @_noLocks
  mutating func flushNext() -> Bool {
    if flushCount < 0 {
      // Deferred frames are decoded now.
      while stepped < frames { stepForward() }
      // The frames not yet decided: the last min(lag, frames) ones.
      flushCount = min(lag, frames)
      flushed = 0
      guard flushCount > 0 else { return false }
      _ = backtrack(steps: flushCount - 1, storing: true)
      for i in 0..<flushCount { flushShifts[i] = 0 }
      if defersDecoding, octaveBlipFrames > 0 { correctOctaveBlips() }
      if !defersDecoding, liveShift != 0 { carryLiveShift() }
    }
    guard flushed < flushCount else { return false }
    let frame = frames - flushCount + flushed
    decide(state: flushStates[flushed], slot: frame % (lag + 1))
    if flushShifts[flushed] != 0 { moveDecided(octaves: flushShifts[flushed]) }
    flushed += 1
    return true
  }

  /// The octave blips of the decided path: each piece (voiced frames within ``jump`` bins of the
  /// one before) of at most ``octaveBlipFrames`` frames followed, straight after it or after one
  /// unvoiced frame, by a piece at least twice as long one or two octaves away (within
  /// ``octaveBlipTolerance`` bins) is moved to that piece's octave (``flushShifts``); see
  /// ``ProbabilisticYINEstimator/octaveBlipSeconds``.
  private func correctOctaveBlips() {
    let n = bins.count
    let count = flushCount
    var piece = 0
    while piece < count {
      guard flushStates[piece] < n else {
        piece += 1
        continue
      }
      let last = pieceEnd(from: piece, limit: count - 1)
      let length = last - piece + 1
      if length <= octaveBlipFrames, let next = nextPieceStart(after: last, limit: count - 1),
        pieceEnd(from: next, limit: count - 1) - next + 1 >= 2 * length
      {
        let k = octaves(flushStates[next] - flushStates[last])
        if k != 0 { for i in piece...last { flushShifts[i] = k } }
      }
      piece = last + 1
    }
  }

  /// How far from a whole octave (or two) an octave blip may lie from the note it runs into, in
  /// bins: 100 cents (an attack's pitch may still be settling).
  static let octaveBlipTolerance = 4

  @_noLocks
  private mutating func step(slot: Int, logUnvoiced: Float, newNoteBin: Int) {
    let n = bins.count
    // The newest note may be entered from the best voiced state, however far.
    var newNoteSource = -1
    if newNoteBin >= 0 {
      newNoteSource = 0
      for b in 1..<n where voiced[b] > voiced[newNoteSource] { newNoteSource = b }
    }
    slotNewNoteSources[slot] = newNoteSource
    var restSource = 0
    for b in 1..<n where unvoiced[b] > unvoiced[restSource] { restSource = b }
    slotRestSources[slot] = restSource
    let rest = unvoiced[restSource] + logSwitchFar
    let width = 2 * jump + 1
    let pointers = slot * 2 * n
    // The live decoder keeps no back-pointers: the few its paths take are found again from the
    // scores it keeps (``recomputedPointer(of:atSlot:)``), and its forward step only needs the
    // best sources' scores.
    guard defersDecoding else {
      bestSources(width: width, tracksOffsets: false)
      stepScores(newNoteBin: newNoteBin, newNoteSource: newNoteSource, rest: rest, logUnvoiced: logUnvoiced)
      return
    }
    bestSources(width: width, tracksOffsets: true)
    var best: Float = -.infinity
    let scores = UnsafePointer(voiced.baseAddress!)
    for j in 0..<n {
      let (plainV, plainK) = (nextVoiced[j], UInt8(fromVoiced[j]))
      let (bestU, kU) = (nextUnvoiced[j], UInt8(fromUnvoiced[j]))
      let intoVoiced = voicedEntry(
        into: j, plainV: plainV, plainK: plainK, bestU: bestU, kU: kU, scores: scores, newNoteBin: newNoteBin,
        newNoteSource: newNoteSource, rest: rest)
      nextVoiced[j] = intoVoiced.score + observation[j]
      backPointers[pointers + j] = intoVoiced.pointer
      let intoUnvoiced = unvoicedEntry(plainV: plainV, plainK: plainK, bestU: bestU, kU: kU)
      nextUnvoiced[j] = intoUnvoiced.score + logUnvoiced
      backPointers[pointers + n + j] = intoUnvoiced.pointer
      best = max(best, max(nextVoiced[j], nextUnvoiced[j]))
    }
    // Normalize so that the scores stay in range over long streams.
    for j in 0..<n {
      voiced[j] = nextVoiced[j] - best
      unvoiced[j] = nextUnvoiced[j] - best
    }
  }

  /// The live decoder's rest of a forward step, after ``bestSources(width:tracksOffsets:)``: the
  /// same scores as the offline path's, without the back-pointers. Each voiced target's best
  /// entry from a voiced state (a move, a leap, the newest note's entry) is a plain maximum over
  /// whole rows of bins, which vectorizes.
  @_noLocks
  private mutating func stepScores(newNoteBin: Int, newNoteSource: Int, rest: Float, logUnvoiced: Float) {
    let n = bins.count
    let lanes = SIMD8<Float>.scalarCount
    let whole = n / lanes * lanes
    let entries = UnsafeMutableRawPointer(voicedEntries.baseAddress!)
    let sources = UnsafeRawPointer(voiced.baseAddress!)
    let stride = MemoryLayout<Float>.stride
    for j in 0..<n { voicedEntries[j] = nextVoiced[j] }
    if logLeap > -.infinity {
      let leap = SIMD8<Float>(repeating: logLeap)
      for l in 0..<leapOffsets.count {
        let offset = leapOffsets[l]
        let (first, end) = (max(0, -offset), min(n, n - offset))
        var j = first
        // Wrapping arithmetic: every offset is within the buffers (no overflow to check).
        while j &+ lanes <= end {
          let byte = j &* stride
          let entry = entries.loadUnaligned(fromByteOffset: byte, as: SIMD8<Float>.self)
          let source = sources.loadUnaligned(fromByteOffset: (j &+ offset) &* stride, as: SIMD8<Float>.self)
          entries.storeBytes(of: larger(entry, source + leap), toByteOffset: byte, as: SIMD8<Float>.self)
          j &+= lanes
        }
        while j < end {
          voicedEntries[j] = max(voicedEntries[j], voiced[j + offset] + logLeap)
          j += 1
        }
      }
    }
    if newNoteBin >= 0, newNoteSource >= 0 {
      voicedEntries[newNoteBin] = max(voicedEntries[newNoteBin], voiced[newNoteSource] + logNewNote)
    }
    // Into voiced j: from voiced (stay) or unvoiced (switch: from a pitch near, or any); into
    // unvoiced j: stay, or switch from voiced j's best source.
    let (stay, switchOff) = (SIMD8(repeating: logStay), SIMD8(repeating: logSwitch))
    let (switchNear, switchAny) = (SIMD8(repeating: logSwitchNear), SIMD8(repeating: rest))
    let silent = SIMD8(repeating: logUnvoiced)
    let toVoiced = UnsafeMutableRawPointer(nextVoiced.baseAddress!)
    let toUnvoiced = UnsafeMutableRawPointer(nextUnvoiced.baseAddress!)
    let observed = UnsafeRawPointer(observation.baseAddress!)
    var bests = SIMD8<Float>(repeating: -.infinity)
    var j = 0
    while j < whole {
      let byte = j &* stride
      let plainV = toVoiced.loadUnaligned(fromByteOffset: byte, as: SIMD8<Float>.self)
      let bestU = toUnvoiced.loadUnaligned(fromByteOffset: byte, as: SIMD8<Float>.self)
      let entry = entries.loadUnaligned(fromByteOffset: byte, as: SIMD8<Float>.self)
      let intoVoiced =
        larger(entry + stay, larger(bestU + switchNear, switchAny))
        + observed.loadUnaligned(fromByteOffset: byte, as: SIMD8<Float>.self)
      let intoUnvoiced = larger(bestU + stay, plainV + switchOff) + silent
      toVoiced.storeBytes(of: intoVoiced, toByteOffset: byte, as: SIMD8<Float>.self)
      toUnvoiced.storeBytes(of: intoUnvoiced, toByteOffset: byte, as: SIMD8<Float>.self)
      bests = larger(bests, larger(intoVoiced, intoUnvoiced))
      j &+= lanes
    }
    var best = bests.max()
    while j < n {
      let plainV = nextVoiced[j]
      let bestU = nextUnvoiced[j]
      nextVoiced[j] = max(voicedEntries[j] + logStay, max(bestU + logSwitchNear, rest)) + observation[j]
      nextUnvoiced[j] = max(bestU + logStay, plainV + logSwitch) + logUnvoiced
      best = max(best, max(nextVoiced[j], nextUnvoiced[j]))
      j += 1
    }
    for j in 0..<n {
      voiced[j] = nextVoiced[j] - best
      unvoiced[j] = nextUnvoiced[j] - best
    }
  }

  /// The best source's score of each target in each layer, into `nextVoiced` and `nextUnvoiced`,
  /// and with `tracksOffsets` its move's offset, into `fromVoiced` and `fromUnvoiced`.
  @inline(__always)
  @_noLocks
  private func bestSources(width: Int, tracksOffsets: Bool) {
    // The best source of each target in each layer, eight targets at a time: for each offset k,
    // the sources j + k − jump of targets j...j+7 are contiguous, and so are their weights.
    // Offsets in increasing order with a strict comparison keep the lowest source on ties.
    let padded = paddedCount
    let lanes = SIMD8<Float>.scalarCount
    let sourcesV = UnsafeRawPointer(paddedVoiced.baseAddress!)
    let sourcesU = UnsafeRawPointer(paddedUnvoiced.baseAddress!)
    let weights = UnsafeRawPointer(logTransitions.baseAddress!)
    let stride = MemoryLayout<Float>.stride
    let rowBytes = padded &* stride
    let toVoiced = UnsafeMutableRawPointer(nextVoiced.baseAddress!)
    let toUnvoiced = UnsafeMutableRawPointer(nextUnvoiced.baseAddress!)
    let offsetsVoiced = UnsafeMutableRawPointer(fromVoiced.baseAddress!)
    let offsetsUnvoiced = UnsafeMutableRawPointer(fromUnvoiced.baseAddress!)
    var j = 0
    while j < padded {
      var bestV = SIMD8<Float>(repeating: -.infinity)
      var bestU = SIMD8<Float>(repeating: -.infinity)
      var fromV = SIMD8<Float>(repeating: Float(jump))
      var fromU = SIMD8<Float>(repeating: Float(jump))
      var offset = SIMD8<Float>.zero
      // Wrapping arithmetic: every offset is within the padded buffers (no overflow to check).
      let byteOffset = j &* stride
      var weightByte = byteOffset
      var sourceByte = byteOffset
      for _ in 0..<width {
        let t = weights.loadUnaligned(fromByteOffset: weightByte, as: SIMD8<Float>.self)
        let v = sourcesV.loadUnaligned(fromByteOffset: sourceByte, as: SIMD8<Float>.self) + t
        let betterV = v .> bestV
        bestV.replace(with: v, where: betterV)
        if tracksOffsets { fromV.replace(with: offset, where: betterV) }
        let u = sourcesU.loadUnaligned(fromByteOffset: sourceByte, as: SIMD8<Float>.self) + t
        let betterU = u .> bestU
        bestU.replace(with: u, where: betterU)
        if tracksOffsets { fromU.replace(with: offset, where: betterU) }
        offset += 1
        weightByte &+= rowBytes
        sourceByte &+= stride
      }
      toVoiced.storeBytes(of: bestV, toByteOffset: byteOffset, as: SIMD8<Float>.self)
      toUnvoiced.storeBytes(of: bestU, toByteOffset: byteOffset, as: SIMD8<Float>.self)
      if tracksOffsets {
        offsetsVoiced.storeBytes(of: fromV, toByteOffset: byteOffset, as: SIMD8<Float>.self)
        offsetsUnvoiced.storeBytes(of: fromU, toByteOffset: byteOffset, as: SIMD8<Float>.self)
      }
      j += lanes
    }
  }

  /// The best state now: `bin` for voiced, `bins + bin` for unvoiced.
  @_noLocks
  private func bestState() -> Int {
    let n = bins.count
    var state = 0
    var score: Float = -.infinity
    for b in 0..<n {
      if voiced[b] > score {
        score = voiced[b]
        state = b
      }
      if unvoiced[b] > score {
        score = unvoiced[b]
        state = n + b
      }
    }
    return state
  }

  /// The state the best path came from, one frame before the frame stored at `slot`.
  @_noLocks
  private func predecessor(of state: Int, atSlot slot: Int) -> Int {
    let n = bins.count
    let pointer =
      defersDecoding ? backPointers[slot * 2 * n + state] : recomputedPointer(of: state, atSlot: slot)
    let code = Int(pointer & 0x7F)
    let width = 2 * jump + 1
    if pointer & 0x80 != 0 {
      // From unvoiced: a pitch near (the move's code) or any (``restEntryProbability``).
      return n + (code == width ? slotRestSources[slot] : state % n + code - jump)
    }
    return code == width + leapOffsets.count
      ? slotNewNoteSources[slot] : state % n + (code >= width ? leapOffsets[code - width] : code - jump)
  }

  /// The live decoder's back-pointer of `state` at the frame stored in `slot` (which is not the
  /// stream's first), found again from the scores kept of the frame before as
  /// ``step(slot:logUnvoiced:newNoteBin:)`` finds it: the same sums, compared in the same order.
  @_noLocks
  private func recomputedPointer(of state: Int, atSlot slot: Int) -> UInt8 {
    if slotPointerStates[slot] == state { return slotPointers[slot] }
    let pointer = foundPointer(of: state, atSlot: slot)
    slotPointerStates[slot] = state
    slotPointers[slot] = pointer
    return pointer
  }

  /// ``recomputedPointer(of:atSlot:)`` worked out.
  @_noLocks
  private func foundPointer(of state: Int, atSlot slot: Int) -> UInt8 {
    let n = bins.count
    let j = state % n
    let width = 2 * jump + 1
    let padded = paddedCount
    let before = (slot + lag) % (lag + 1) * 2 * n
    // The best source within a move in each layer, the lowest on ties.
    var plainV = -Float.infinity
    var plainK = UInt8(jump)
    var bestU = -Float.infinity
    var kU = UInt8(jump)
    for k in 0..<width {
      let i = j + k - jump
      guard i >= 0, i < n else { continue }
      let t = logTransitions[k * padded + j]
      let v = slotScores[before + i] + t
      if v > plainV {
        plainV = v
        plainK = UInt8(k)
      }
      let u = slotScores[before + n + i] + t
      if u > bestU {
        bestU = u
        kU = UInt8(k)
      }
    }
    if state >= n { return unvoicedEntry(plainV: plainV, plainK: plainK, bestU: bestU, kU: kU).pointer }
    return voicedEntry(
      into: j, plainV: plainV, plainK: plainK, bestU: bestU, kU: kU,
      scores: UnsafePointer(slotScores.baseAddress! + before), newNoteBin: slotNewNoteBins[slot],
      newNoteSource: slotNewNoteSources[slot], rest: slotScores[before + n + slotRestSources[slot]] + logSwitchFar
    ).pointer
  }

  /// A forward step's choice into voiced `j`, the offline path's and the live decoder's
  /// (``foundPointer(of:atSlot:)``) alike: the best entry from a voiced state — the move's
  /// (`plainV`, code `plainK`), a leap of a harmonic interval (an octave or twelfth decided wrong
  /// undone), the newest note's — stays, unless switching from unvoiced is likelier (from a pitch
  /// near: `bestU`, code `kU`; or from any: `rest`). `scores` are the voiced scores before the
  /// step. Returns the score before the observation and the back-pointer.
  @inline(__always)
  @_noLocks
  private func voicedEntry(
    into j: Int, plainV: Float, plainK: UInt8, bestU: Float, kU: UInt8, scores: UnsafePointer<Float>,
    newNoteBin: Int, newNoteSource: Int, rest: Float
  ) -> (score: Float, pointer: UInt8) {
    let n = bins.count
    let width = 2 * jump + 1
    var bestV = plainV
    var kV = plainK
    if logLeap > -.infinity {
      for l in 0..<leapOffsets.count {
        let i = j + leapOffsets[l]
        guard i >= 0, i < n else { continue }
        let v = scores[i] + logLeap
        if v > bestV {
          bestV = v
          kV = UInt8(width + l)
        }
      }
    }
    if j == newNoteBin, newNoteSource >= 0 {
      let v = scores[newNoteSource] + logNewNote
      if v > bestV {
        bestV = v
        kV = UInt8(width + leapOffsets.count)
      }
    }
    let stayV = bestV + logStay
    var switchV = bestU + logSwitchNear
    var switchK = kU
    if rest > switchV {
      switchV = rest
      switchK = UInt8(width)
    }
    return stayV >= switchV ? (stayV, kV) : (switchV, switchK | 0x80)
  }

  /// A forward step's choice into unvoiced `j`: stay (`bestU`, code `kU`), or switch from voiced
  /// `j`'s best source (`plainV`, code `plainK`). Returns the score before the observation and
  /// the back-pointer.
  @inline(__always)
  @_noLocks
  private func unvoicedEntry(plainV: Float, plainK: UInt8, bestU: Float, kU: UInt8) -> (score: Float, pointer: UInt8) {
    let stayU = bestU + logStay
    let switchU = plainV + logSwitch
    return stayU >= switchU ? (stayU, kU | 0x80) : (switchU, plainK)
  }

  /// Turns a decoded state at the frame stored in `slot` into ``decided``.
  @_noLocks
  private mutating func decide(state: Int, slot: Int) {
    let n = bins.count
    let m = ProbabilisticYINCandidates.maximumCandidates
    decided = PitchEstimate(
      time: slotInfo[slot * 3], frequencyHz: 0, confidence: slotInfo[slot * 3 + 2], levelDBFS: slotInfo[slot * 3 + 1])
    guard state < n else { return }
    let candidates = (slot * m)..<(slot * m + slotCounts[slot])
    decided.frequencyHz = Self.reportedFrequency(
      state: state, bins: UnsafeBufferPointer(rebasing: slotBins[candidates]),
      frequencies: UnsafeBufferPointer(rebasing: slotFrequencies[candidates]), jump: jump,
      octaveBins: octaveShare > 0 ? octaveBins : 0)
  }

  /// The frequency reported for the decoded pitch bin `state` from a frame's candidates (their
  /// `bins` and `frequencies`; 0: none fits): the candidate nearest the bin; with the octave
  /// confusion (`octaveBins` > 0), the nearest an octave off, taken to the decoded octave, where
  /// that one lies within ``reportedBins`` of the bin and the nearest does not, or where no
  /// candidate lies within a hop's move (`jump`). The state's own octave may hold no candidate
  /// in an attack, or only a trough some semitones off the note (in `Evaluation/pitch`, FluidR3's
  /// alto saxophone G♯5 read 919–933 Hz in its attack, 1.6 semitones sharp, where the octave
  /// below's candidate put the note at 821 Hz).
  @_noLocks
  static func reportedFrequency(
    state: Int, bins: UnsafeBufferPointer<Int>, frequencies: UnsafeBufferPointer<Double>, jump: Int,
    octaveBins: Int
  ) -> Double {
    var nearest = -1
    var distance = Int.max
    for c in 0..<bins.count {
      let d = abs(bins[c] - state)
      if d < distance {
        distance = d
        nearest = c
      }
    }
    if distance <= reportedBins { return frequencies[nearest] }
    var octaveNearest = -1
    var octaveDistance = Int.max
    var scale = 1.0
    if octaveBins > 0 {
      for c in 0..<bins.count {
        let fromAbove = abs(bins[c] - octaveBins - state)
        if fromAbove < octaveDistance {
          octaveDistance = fromAbove
          octaveNearest = c
          scale = 0.5
        }
        let fromBelow = abs(bins[c] + octaveBins - state)
        if fromBelow < octaveDistance {
          octaveDistance = fromBelow
          octaveNearest = c
          scale = 2
        }
      }
    }
    if octaveDistance <= reportedBins || (octaveDistance <= jump && distance > jump) {
      return frequencies[octaveNearest] * scale
    }
    return distance <= jump ? frequencies[nearest] : 0
  }

  /// A candidate within this many bins of the decoded one (50 cents) is reported before any
  /// further off (``decide(state:slot:)``).
  static let reportedBins = 2
}

/// The larger of each pair of lanes (`pointwiseMax`, which the compiler leaves as a call here).
@inline(__always)
private func larger(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
  a.replacing(with: b, where: a .< b)
}
