import ArgumentParser
import Foundation
import PitchDSP

/// `etude pitch FILE.wav`: one line per hop, `time_s<TAB>frequency_hz<TAB>confidence`.
struct PitchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pitch",
    abstract: "Track the pitch of a recording: one line per hop, time, frequency (0 = unvoiced), confidence.",
    discussion: """
      Prints time_s<TAB>frequency_hz<TAB>confidence, one line per hop; the time is the centre of \
      the analysis frame and the frequency 0 when the frame is unvoiced. Methods: pyin (default \
      for files: probabilistic YIN, best path over the whole file), pyin-live (default for \
      standard input: the same with a fixed look-ahead, 80 ms unless --look-ahead-ms says \
      otherwise, printed as it goes), yin, mpm. \
      Use - to read raw PCM from standard input (with --rate, --format and --channels).
      """)

  @Argument(help: "A WAV file, or - for raw PCM on standard input.")
  var file: String

  @Option(help: "pyin, pyin-live, yin or mpm (default: pyin for files, pyin-live for standard input).")
  var method: PitchMethod?

  @Option(help: "Time between estimates, in milliseconds.")
  var hopMs: Double = 10

  @Option(help: "The lowest pitch searched, in Hz.")
  var minHz: Double = 40

  @Option(help: "The highest pitch searched, in Hz.")
  var maxHz: Double = 2000

  @OptionGroup var periodicBackground: PeriodicBackgroundOptions

  @OptionGroup var rumble: RumbleOptions

  @OptionGroup var lookAhead: LookAheadOptions

  @OptionGroup var rawInput: RawInputOptions

  func validate() throws {
    guard hopMs >= 1, hopMs <= 100 else { throw ValidationError("--hop-ms must be within 1...100") }
    _ = try lookAhead.frames(hopSeconds: hopMs / 1000)
  }

  func run() throws {
    let input = try MonoInput(file: file, raw: rawInput)
    var configuration = PitchConfiguration(
      sampleRate: input.sampleRate, minimumFrequencyHz: minHz, maximumFrequencyHz: maxHz, hopSeconds: hopMs / 1000)
    periodicBackground.apply(to: &configuration)
    rumble.apply(to: &configuration)
    let lookAheadFrames = try lookAhead.frames(hopSeconds: configuration.hopSeconds)
    try trackPitch(input, configuration: configuration, method: method, lookAheadFrames: lookAheadFrames) {
      estimates in
      var text = ""
      for estimate in estimates {
        text += String(format: "%.3f\t%.3f\t%.3f\n", estimate.time, estimate.frequencyHz, estimate.confidence)
      }
      FileHandle.standardOutput.write(Data(text.utf8))
    }
  }
}

/// Runs a pitch estimator over `input`, handing each batch of estimates to `emit` as soon as it
/// is made (for a stream, while the audio arrives).
///
/// - Parameters:
///   - method: The method; `nil` picks pyin for files and pyin-live for streams.
///   - lookAheadFrames: pyin-live's look-ahead, in hops.
func trackPitch(
  _ input: MonoInput, configuration: PitchConfiguration, method: PitchMethod?, lookAheadFrames: Int,
  emit: (ArraySlice<PitchEstimate>) -> Void
) throws {
  let chosen = method ?? (input.isStream ? .pyinLive : .pyin)
  var samples: [Float] = []
  let estimator: any PitchEstimator
  switch chosen {
  case .yin: estimator = try YINEstimator(configuration: configuration)
  case .mpm: estimator = try MPMEstimator(configuration: configuration)
  case .pyinLive:
    estimator = try ProbabilisticYINEstimator(configuration: configuration, lagFrames: lookAheadFrames)
  case .pyin:
    // The best path needs the length: known for a WAV file; for a stream, read it all first.
    var frameCount = input.frameCount
    if frameCount == nil {
      while let block = try input.read(maxFrames: 65536) { samples += block }
      frameCount = samples.count
    }
    estimator = try ProbabilisticYINEstimator.offline(configuration: configuration, frameCount: frameCount ?? 0)
  }
  let block = 4096
  var estimates = [PitchEstimate](
    repeating: PitchEstimate(time: 0, frequencyHz: 0, confidence: 0, levelDBFS: 0),
    count: max(estimator.maximumEstimates(forFrames: block), estimator.maximumEstimates(forFrames: 0)))
  func push(_ frames: [Float]) {
    var start = 0
    while start < frames.count {
      let end = min(frames.count, start + block)
      let count = frames[start..<end].withUnsafeBufferPointer { chunk in
        estimates.withUnsafeMutableBufferPointer { estimator.process(chunk, into: $0) }
      }
      if count > 0 { emit(estimates[0..<count]) }
      start = end
    }
  }
  if samples.isEmpty {
    while let frames = try input.read(maxFrames: block) { push(frames) }
  } else {
    push(samples)
  }
  let count = estimates.withUnsafeMutableBufferPointer { estimator.finish(into: $0) }
  if count > 0 { emit(estimates[0..<count]) }
}

extension PitchMethod: ExpressibleByArgument {}
