import Foundation
import PitchDSP

extension Sample {
  /// Loads a sample from a WAV file, mixed down to mono and, if asked, resampled.
  ///
  /// - Parameters:
  ///   - url: The WAV file (any encoding PitchDSP's `WAVReader` reads).
  ///   - name: A name to show; the file name without extension by default.
  ///   - sampleRate: The engine's rate in Hz to resample to; `nil` keeps the file's rate.
  /// - Throws: ``SampleError/fileNotFound(path:)`` for a missing file,
  ///   ``SampleError/unreadable(path:reason:)`` for a corrupt or unsupported one,
  ///   ``SampleError/empty(path:)`` for one without frames, and
  ///   ``SampleError/invalidParameter(name:value:expected:)`` for a bad `sampleRate`.
  public init(contentsOf url: URL, name: String? = nil, sampleRate: Double? = nil) throws(SampleError) {
    let path = url.path
    var mono: [Float] = []
    let fileRate: Double
    do {
      let reader = try WAVReader(url: url)
      fileRate = reader.format.sampleRate
      if let frames = reader.remainingFrames { mono.reserveCapacity(frames) }
      while let block = try reader.readMono(maxFrames: 1 << 16) { mono += block }
    } catch {
      if case .fileNotFound = error { throw .fileNotFound(path: path) }
      throw .unreadable(path: path, reason: error.description)
    }
    guard !mono.isEmpty else { throw .empty(path: path) }
    if let sampleRate, sampleRate != fileRate {
      do {
        mono = try Resampler.resample(AudioBuffer(sampleRate: fileRate, mono: mono), to: sampleRate).mono
      } catch {
        throw .invalidParameter(
          name: "sample rate", value: "\(sampleRate) Hz", expected: "a rate the resampler accepts: \(error)")
      }
    }
    try self.init(
      name: name ?? url.deletingPathExtension().lastPathComponent, sampleRate: sampleRate ?? fileRate,
      frames: mono)
  }

  /// Writes the trimmed frames to a WAV file, atomically (an existing file stays whole until the
  /// new one is complete).
  ///
  /// - Parameters:
  ///   - url: The destination; its directory must exist.
  ///   - encoding: How to store samples; 32-bit float by default, which keeps every value.
  /// - Throws: ``SampleError/unwritable(path:reason:)``.
  public func write(to url: URL, encoding: SampleEncoding = .float32) throws(SampleError) {
    do {
      try WAVWriter.write(
        AudioBuffer(sampleRate: sampleRate, mono: Array(trimmedFrames)), to: url, encoding: encoding)
    } catch {
      throw .unwritable(path: url.path, reason: error.description)
    }
  }
}
