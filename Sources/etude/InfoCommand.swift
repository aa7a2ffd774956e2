import ArgumentParser
import Foundation
import PitchDSP

/// `etude info FILE.wav`: format, channels, rate, duration, peak and RMS in dBFS.
struct InfoCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "info",
    abstract: "Describe a WAV file: format, channels, rate, duration, peak and RMS level.",
    discussion: """
      Reads the file in blocks, so files of any length work. Levels are measured on every \
      channel together (dBFS: 0 = full scale). Use `-` to read raw PCM from standard input \
      (with --rate, --format and --channels).
      """)

  @Argument(help: "A WAV file, or - for raw PCM on standard input.")
  var file: String

  @Flag(help: "Print JSON instead of text.")
  var json = false

  @OptionGroup var rawInput: RawInputOptions

  /// What `info` reports.
  struct Report: Encodable {
    var file: String
    var format: String
    var encoding: String
    var extensible: Bool
    var channels: Int
    var sampleRate: Double
    var frames: Int
    var durationSeconds: Double
    var peakDBFS: Double?
    var rmsDBFS: Double?
    var clippedSamples: Int
    var nonFiniteSamples: Int
    var dataSizeRepaired: Bool
  }

  func run() throws {
    let report = try measure()
    if json {
      try printJSON(report)
    } else {
      let rate =
        report.sampleRate.rounded() == report.sampleRate
        ? String(Int(report.sampleRate)) : String(report.sampleRate)
      print("file:       \(report.file)")
      print("format:     \(report.format)\(report.extensible ? " (WAVE_FORMAT_EXTENSIBLE)" : "")")
      print("channels:   \(report.channels)")
      print("rate:       \(rate) Hz")
      print("duration:   \(String(format: "%.3f", report.durationSeconds)) s (\(report.frames) frames)")
      print("peak:       \(formatDB(report.peakDBFS)) dBFS")
      print("RMS:        \(formatDB(report.rmsDBFS)) dBFS")
      if report.clippedSamples > 0 { print("clipped:    \(report.clippedSamples) samples at full scale") }
      if report.nonFiniteSamples > 0 { print("non-finite: \(report.nonFiniteSamples) NaN/Inf samples") }
      if report.dataSizeRepaired {
        print("note:       the header's data size was wrong; read the frames present")
      }
    }
  }

  func measure() throws -> Report {
    if file == "-" {
      let reader = try rawInput.makeReader()
      var meter = LevelMeter(sampleRate: reader.sampleRate)
      while let block = try reader.readMono(maxFrames: 8192) { meter.process(block) }
      let frames = meter.frameCount + meter.nonFiniteCount
      return Report(
        file: "-", format: "raw \(reader.format.rawValue)", encoding: reader.format.encoding.rawValue,
        extensible: false, channels: reader.channelCount, sampleRate: reader.sampleRate, frames: frames,
        durationSeconds: meter.durationSeconds, peakDBFS: finite(meter.peakDBFS),
        rmsDBFS: finite(meter.rmsDBFS),
        clippedSamples: meter.clippedCount, nonFiniteSamples: meter.nonFiniteCount, dataSizeRepaired: false)
    }
    let reader = try WAVReader(url: URL(fileURLWithPath: file))
    let format = reader.format
    // Every channel's samples count toward the levels (peak of any channel, RMS of all).
    var meter = LevelMeter(sampleRate: format.sampleRate)
    while let block = try reader.read(maxFrames: 8192) {
      for channel in block.channels { meter.process(channel) }
    }
    return Report(
      file: file, format: format.encoding.description, encoding: format.encoding.rawValue,
      extensible: format.isExtensible, channels: format.channelCount, sampleRate: format.sampleRate,
      frames: format.frameCount ?? 0, durationSeconds: format.durationSeconds ?? 0,
      peakDBFS: finite(meter.peakDBFS), rmsDBFS: finite(meter.rmsDBFS),
      clippedSamples: meter.clippedCount, nonFiniteSamples: meter.nonFiniteCount,
      dataSizeRepaired: reader.dataSizeWasRepaired)
  }

  /// JSON has no −∞: silence is reported as `null`.
  func finite(_ value: Double) -> Double? { value.isFinite ? (value * 100).rounded() / 100 : nil }

  func formatDB(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "-inf" }
}
