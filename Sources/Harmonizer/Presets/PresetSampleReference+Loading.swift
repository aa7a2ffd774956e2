import Foundation

extension PresetSampleReference {
  /// Makes a reference to a sample as it is trimmed and looped now, for a preset.
  ///
  /// - Parameters:
  ///   - sample: The sample.
  ///   - file: The WAV file it was (or will be) saved as, relative to the presets directory.
  public init(sample: Sample, file: String) {
    let rate = sample.sampleRate
    let region = sample.loopRegion
    self.init(
      file: file, trimStartSeconds: Double(sample.trimmedRange.lowerBound) / rate,
      trimEndSeconds: sample.trimmedRange.upperBound == sample.frames.count
        ? nil : Double(sample.trimmedRange.upperBound) / rate,
      loop: Loop(
        isEnabled: sample.loop.isEnabled, startSeconds: Double(region.lowerBound) / rate,
        endSeconds: sample.loop.region == nil ? nil : Double(region.upperBound) / rate,
        crossfadeSeconds: sample.loop.crossfadeSeconds))
  }

  /// Loads the referenced WAV file from a presets directory and applies the trim and loop.
  ///
  /// - Parameters:
  ///   - store: The store whose directory holds the file.
  ///   - sampleRate: The engine's rate to resample to; `nil` keeps the file's.
  /// - Returns: The sample, trimmed and looped as the preset says.
  /// - Throws: ``SampleError/invalidParameter(name:value:expected:)`` for a path that leaves the
  ///   directory; the errors of ``Sample/init(contentsOf:name:sampleRate:)``,
  ///   ``Sample/trim(startSeconds:endSeconds:)`` and
  ///   ``Sample/setLoop(isEnabled:startSeconds:endSeconds:crossfadeSeconds:)``.
  public func load(from store: PresetStore, sampleRate: Double? = nil) throws(SampleError) -> Sample {
    let url: URL
    do {
      url = try store.url(for: self)
    } catch {
      throw .invalidParameter(
        name: "sample file", value: "\"\(file)\"", expected: "a path inside the presets directory")
    }
    var sample = try Sample(contentsOf: url, sampleRate: sampleRate)
    try sample.trim(startSeconds: trimStartSeconds, endSeconds: trimEndSeconds)
    try sample.setLoop(
      isEnabled: loop.isEnabled, startSeconds: loop.startSeconds, endSeconds: loop.endSeconds,
      crossfadeSeconds: loop.crossfadeSeconds)
    return sample
  }
}
