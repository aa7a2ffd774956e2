import Foundation
import ScoreModel

/// The harmonizer: a live voice in, a stereo choir out — up to four pitch-shifted harmony
/// voices around the (optionally auto-tuned) live voice.
///
/// One ``PitchMarkAnalyzer`` tracks the live voice; five ``PSOLASynthesizer``s render from it
/// (four harmony voices and the live voice, which the auto-tuner shifts to the nearest note of
/// its scale), so the analysis runs once whatever the number of voices. Each harmony voice's
/// shift follows its ``HarmonyInterval`` from the sung pitch, the key and the chord
/// (``HarmonyPlan``), or the notes the keyboard or a ``ChordSequencer`` holds.
///
/// **Threads.** ``process(_:left:right:)`` runs on the audio thread: blocks of any size, no
/// allocation, no locks (`@_noLocks`). ``update(_:)``, ``hold(_:)`` and ``release()`` may be
/// called from one control thread (or the audio thread itself) at any time: they compile the
/// settings there and hand the result over through a lock-free triple buffer; the audio thread
/// picks up the newest at the next control step.
///
/// **Control steps.** The sung pitch, the voices' shifts that follow it, the auto-tuner's
/// correction and new settings take effect on a fixed grid of 256 frames counted from the
/// stream's start (5.8 ms at 44.1 kHz), each from what was analyzed up to that point, and level
/// and pan changes ramp over one step so nothing clicks. The host's block size plays no part:
/// however the stream is cut into blocks, the engine produces the same samples.
///
/// **Latency.** The output lags the input by ``latencySamples``: the PSOLA synthesis latency
/// (about 56 ms at 44.1 kHz), or with ``VoiceShifter/delayLine`` voices the delay-line shifter's
/// (885 samples, 20 ms, at 44.1 kHz, for live singing into headphones; formants then move with
/// the pitch). The live voice is delayed by the same amount, so all voices stay together.
public final class HarmonizerEngine: @unchecked Sendable {
  /// How the voices (and the auto-tuned live voice) are shifted.
  public enum VoiceShifter: String, Sendable, Hashable, Codable, CaseIterable {
    /// Pitch-synchronous overlap-add: formants kept, one analysis shared, 56 ms at 44.1 kHz.
    case psola
    /// A delay line with two crossfaded taps per voice: 20 ms at 44.1 kHz, formants move.
    case delayLine
  }

  // @unchecked: the audio-path state is touched by process() only; the control side only posts
  // to the mailbox (and reads `controlPlan`, which only it writes).

  /// The sample rate, in Hz.
  public let sampleRate: Double
  /// How many samples the output lags the input.
  public let latencySamples: Int
  /// How the voices are shifted.
  public let shifter: VoiceShifter

  private let analyzerOwner: PitchMarkAnalyzer
  private let analyzer: Unmanaged<PitchMarkAnalyzer>
  private let synthesizerOwners: [PSOLASynthesizer]
  /// The four harmony voices' synthesizers, then the live voice's.
  private let synthesizers: UnsafeMutableBufferPointer<Unmanaged<PSOLASynthesizer>>
  private let delayOwners: [DelayLineShifter]
  /// With ``VoiceShifter/delayLine``: the four voices' shifters, then the live voice's.
  private let delayShifters: UnsafeMutableBufferPointer<Unmanaged<DelayLineShifter>>
  private let scratch: UnsafeMutableBufferPointer<Float>
  private let chunk: Int
  /// How far ahead of the synthesis point a shift set now acts, in samples: a longest period
  /// (grains are placed that far ahead), half a chunk and two live-voice glide time constants.
  private let pitchLead: Int
  /// ``HarmonizerSettings/maximumVoices``, read once.
  private let harmonyVoices: Int
  private let mailboxOwner: PlanMailbox
  private let mailbox: Unmanaged<PlanMailbox>

  // Audio-thread state.
  private var plan: HarmonyPlan
  /// Frames processed since the current control step began (0 ..< `chunk`).
  private var stepOffset = 0
  /// The voices' gains at the start of the step and at its end (they ramp in between).
  private var gainsLeft = SIMD4<Float>.zero
  private var gainsRight = SIMD4<Float>.zero
  private var targetLeft = SIMD4<Float>.zero
  private var targetRight = SIMD4<Float>.zero
  private var liveGain: Float = 0
  private var liveTarget: Float = 0
  /// The step's shifts: the four voices' (NaN: silent, keep the last) and the live voice's.
  private var shifts = SIMD4<Double>(repeating: .nan)
  private var liveShift = 0.0
  private var lastSung = Double.nan
  private var correction = 0.0

  // Control-thread state.
  private var controlPlan: HarmonyPlan

  /// An engine with `settings`, all its memory allocated here.
  ///
  /// - Parameters:
  ///   - sampleRate: The sample rate, in Hz.
  ///   - settings: The initial harmony.
  ///   - shifter: How the voices are shifted (PSOLA by default).
  ///   - configuration: The PSOLA analysis and synthesis settings (pitch range, glide); the
  ///     analysis also gives the sung pitch in delay-line mode.
  /// - Throws: ``HarmonizerError/invalidParameter(name:value:expected:)`` for settings or a
  ///   configuration out of range.
  public init(
    sampleRate: Double, settings: HarmonizerSettings = .init(), shifter: VoiceShifter = .psola,
    configuration: PSOLAShifter.Configuration = .init()
  ) throws(HarmonizerError) {
    let plan = try HarmonyPlan(settings)
    self.sampleRate = sampleRate
    self.shifter = shifter
    let analyzer = try PitchMarkAnalyzer(
      sampleRate: sampleRate, maximumFrames: 256, configuration: configuration.analysis)
    var owners: [PSOLASynthesizer] = []
    for _ in 0..<HarmonizerSettings.maximumVoices {
      owners.append(try PSOLASynthesizer(analyzer: analyzer, configuration: configuration.synthesis))
    }
    // The live voice's corrections glide by the auto-tuner's own retune time, so its
    // synthesizer follows them (almost) at once.
    var liveSynthesis = configuration.synthesis
    liveSynthesis.glideSeconds = min(liveSynthesis.glideSeconds, 0.002)
    owners.append(try PSOLASynthesizer(analyzer: analyzer, configuration: liveSynthesis))
    analyzerOwner = analyzer
    self.analyzer = .passUnretained(analyzer)
    synthesizerOwners = owners
    synthesizers = .allocate(capacity: owners.count)
    _ = synthesizers.initialize(from: owners.map { Unmanaged.passUnretained($0) })
    var delays: [DelayLineShifter] = []
    if shifter == .delayLine {
      for _ in 0...HarmonizerSettings.maximumVoices {
        delays.append(try DelayLineShifter(sampleRate: sampleRate))
      }
    }
    delayOwners = delays
    delayShifters = .allocate(capacity: max(1, delays.count))
    _ = delayShifters.initialize(from: delays.map { Unmanaged.passUnretained($0) })
    chunk = analyzer.maximumFrames
    if shifter == .delayLine, let first = delays.first {
      // The taps read the input as it arrives: the newest pitch that is known acts at once.
      pitchLead = first.latencySamples + chunk / 2
    } else {
      pitchLead = analyzer.maximumPeriodSamples + chunk / 2 + Int(2 * liveSynthesis.glideSeconds * sampleRate)
    }
    harmonyVoices = HarmonizerSettings.maximumVoices
    scratch = .allocate(capacity: chunk)
    scratch.initialize(repeating: 0)
    latencySamples = shifter == .delayLine ? (delays.first?.latencySamples ?? 0) : owners[0].latencySamples
    mailboxOwner = PlanMailbox(plan)
    mailbox = .passUnretained(mailboxOwner)
    self.plan = plan
    controlPlan = plan
  }

  deinit {
    delayShifters.deallocate()
    synthesizers.deallocate()
    scratch.deallocate()
  }

  /// Sets new harmony settings (key, chord, voices, levels, auto-tune); any held notes stay held.
  ///
  /// - Throws: what ``HarmonizerSettings/validate()`` throws; the engine keeps its settings then.
  public func update(_ settings: HarmonizerSettings) throws(HarmonizerError) {
    let held = controlPlan.holdsNotes ? (0..<controlPlan.noteCount).map { controlPlan.notes[$0] } : nil
    controlPlan = try HarmonyPlan(settings).holding(held)
    mailboxOwner.post(controlPlan)
  }

  /// Makes the voices sing these MIDI notes (the keyboard, or a sequencer's chord): voice `i`
  /// sings `notes[i]`; an empty list silences the voices. At most four notes count.
  public func hold(_ notes: [Int]) {
    controlPlan = controlPlan.holding(notes.map(Double.init))
    mailboxOwner.post(controlPlan)
  }

  /// Lets the held notes go: the voices follow their intervals again.
  public func release() {
    controlPlan = controlPlan.holding(nil)
    mailboxOwner.post(controlPlan)
  }

  /// The sung pitch the engine last heard (a fractional MIDI pitch), or NaN before any. For
  /// display; read it from the audio thread.
  public var sungPitch: Double { lastSung }

  /// Harmonizes a block: the live voice in, the stereo mix out.
  ///
  /// - Parameters:
  ///   - input: Mono samples, any count; NaN and ±∞ count as 0.
  ///   - left: The left channel, at least `input.count` samples.
  ///   - right: The right channel, at least `input.count` samples.
  /// - Note: Real-time safe: no allocation, no locks.
  @_noLocks
  public func process(
    _ input: UnsafeBufferPointer<Float>, left: UnsafeMutableBufferPointer<Float>,
    right: UnsafeMutableBufferPointer<Float>
  ) {
    let count = min(input.count, min(left.count, right.count))
    var start = 0
    while start < count {
      if stepOffset == 0 { beginStep() }
      let end = min(count, start + chunk - stepOffset)
      processChunk(
        UnsafeBufferPointer(rebasing: input[start..<end]),
        left: UnsafeMutableBufferPointer(rebasing: left[start..<end]),
        right: UnsafeMutableBufferPointer(rebasing: right[start..<end]))
      stepOffset = (stepOffset + end - start) % chunk
      start = end
    }
  }

  /// Starts a control step: the newest settings, the sung pitch from what was analyzed so far,
  /// the step's shifts and the gains to ramp to by its end.
  @_noLocks
  private func beginStep() {
    if let newest = mailbox._withUnsafeGuaranteedRef({ $0.take() }) { plan = newest }
    gainsLeft = targetLeft
    gainsRight = targetRight
    liveGain = liveTarget
    let view = analyzer._withUnsafeGuaranteedRef { $0.view() }
    // The sung pitch where the shift set now takes effect: the synthesizers place grains up to a
    // longest period ahead of the output, which lags the input by the latency, and a new shift
    // settles over the glide; so the period of the last mark before that point (reckoned from
    // the step's end), held through unvoiced stretches.
    let synthesisPoint = Double(view.framesAnalyzed + chunk - latencySamples + pitchLead)
    var index = view.markCount - 1
    while index > 0, view.mark(index).position > synthesisPoint, view.markCount - index < 256 { index -= 1 }
    if index >= 0 {
      let mark = view.mark(index)
      if mark.isVoiced, mark.periodSamples > 0, mark.position <= synthesisPoint {
        let hz = sampleRate / mark.periodSamples
        lastSung = 69 + 12 * _unsafePerformance { log2(hz / 440) }
      }
    }
    // The live voice's correction glides towards the nearest note of the scale.
    var desired = 0.0
    if plan.autoTune, lastSung.isFinite, let target = plan.autoTuneSet.nearest(to: lastSung) {
      desired = Double(target) - lastSung
    }
    let retune = plan.retuneSeconds
    let stepSeconds = Double(chunk) / sampleRate
    let keep = retune > 0 ? _unsafePerformance { exp(-stepSeconds / retune) } : 0
    correction = desired + (correction - desired) * keep
    liveShift = plan.autoTune ? correction : 0
    liveTarget = plan.liveLevel
    // The harmony voices: their shifts and constant-power pans.
    targetLeft = .zero
    targetRight = .zero
    for v in 0..<harmonyVoices {
      let shift = plan.shift(voice: v, sung: lastSung)
      shifts[v] = shift
      if shift.isFinite {
        let angle = (plan.pans[v] + 1) * (Float.pi / 4)
        targetLeft[v] = plan.levels[v] * min(1, 1.414_213_6 * _unsafePerformance { cos(angle) })
        targetRight[v] = plan.levels[v] * min(1, 1.414_213_6 * _unsafePerformance { sin(angle) })
      }
    }
  }

  /// Renders frames within one control step, from `stepOffset` on.
  @_noLocks
  private func processChunk(
    _ input: UnsafeBufferPointer<Float>, left: UnsafeMutableBufferPointer<Float>,
    right: UnsafeMutableBufferPointer<Float>
  ) {
    let n = input.count
    let view = analyzer._withUnsafeGuaranteedRef { analysis in
      analysis.analyze(input)
      return analysis.view()
    }
    for i in 0..<n {
      left[i] = 0
      right[i] = 0
    }
    // Where frame i lies on the step's ramps.
    let rampStart = Float(stepOffset + 1) / Float(chunk)
    let rampStep = 1 / Float(chunk)

    // The live voice, auto-tuned or not (its synthesizer always runs, to stay in step).
    let buffer = UnsafeMutableBufferPointer(rebasing: scratch[0..<n])
    let delayMode = shifter == .delayLine
    let liveShift = liveShift
    if delayMode {
      delayShifters[harmonyVoices]._withUnsafeGuaranteedRef { delay in
        delay.semitones = liveShift
        delay.process(input, into: buffer)
      }
    } else {
      synthesizers[harmonyVoices]._withUnsafeGuaranteedRef { synthesizer in
        synthesizer.semitones = liveShift
        synthesizer.render(from: view, into: buffer)
      }
    }
    let firstFrame = view.framesAnalyzed - n - latencySamples
    let (liveFrom, liveTo) = (liveGain, liveTarget)
    for i in 0..<n {
      let g = liveFrom + (liveTo - liveFrom) * (rampStart + Float(i) * rampStep)
      // Without auto-tune the live voice is the input itself, delayed to meet the voices.
      let x = plan.autoTune ? buffer[i] : view.ring[firstFrame + i]
      left[i] += g * x
      right[i] += g * x
    }

    // The harmony voices.
    for v in 0..<harmonyVoices {
      let shift = shifts[v]
      let (fromLeft, fromRight) = (gainsLeft[v], gainsRight[v])
      let (toLeft, toRight) = (targetLeft[v], targetRight[v])
      if delayMode {
        delayShifters[v]._withUnsafeGuaranteedRef { delay in
          if shift.isFinite { delay.semitones = shift }
          delay.process(input, into: buffer)
        }
      } else {
        synthesizers[v]._withUnsafeGuaranteedRef { synthesizer in
          if shift.isFinite { synthesizer.semitones = shift }
          synthesizer.render(from: view, into: buffer)
        }
      }
      if fromLeft == 0 && fromRight == 0 && toLeft == 0 && toRight == 0 { continue }
      for i in 0..<n {
        let t = rampStart + Float(i) * rampStep
        let x = buffer[i]
        left[i] += (fromLeft + (toLeft - fromLeft) * t) * x
        right[i] += (fromRight + (toRight - fromRight) * t) * x
      }
    }
  }

  /// Forgets the signal (call between takes); the settings stay.
  public func reset() {
    analyzerOwner.reset()
    for synthesizer in synthesizerOwners { synthesizer.reset() }
    for delay in delayOwners { delay.reset() }
    stepOffset = 0
    gainsLeft = .zero
    gainsRight = .zero
    targetLeft = .zero
    targetRight = .zero
    liveGain = 0
    liveTarget = 0
    shifts = SIMD4<Double>(repeating: .nan)
    liveShift = 0
    lastSung = .nan
    correction = 0
  }
}
