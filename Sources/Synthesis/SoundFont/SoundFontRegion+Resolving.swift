extension SoundFontRegion {
  /// The regions a preset plays, in file order (preset zones, then their instrument's zones).
  ///
  /// Zones whose ranges do not meet, whose instrument or sample index is out of range, whose
  /// sample lies outside the sample data or in ROM, or whose frames are empty are left out.
  static func regions(of preset: SoundFontPreset, in font: SoundFont) -> [SoundFontRegion] {
    var regions: [SoundFontRegion] = []
    let presetGlobal = preset.globalZone?.generators ?? SoundFontGenerators()
    for presetZone in preset.zones {
      guard let instrumentIndex = presetZone.link, instrumentIndex < font.instrumentRecords.count else { continue }
      let instrument = font.instrumentRecords[instrumentIndex]
      let instrumentGlobal = instrument.globalZone?.generators ?? SoundFontGenerators()
      let presetKeys = presetZone.generators.range(.keyRange) ?? presetGlobal.range(.keyRange) ?? 0...127
      let presetVelocities =
        presetZone.generators.range(.velocityRange) ?? presetGlobal.range(.velocityRange) ?? 0...127
      for zone in instrument.zones {
        guard let sampleIndex = zone.link, sampleIndex < font.samples.count else { continue }
        let keys = zone.generators.range(.keyRange) ?? instrumentGlobal.range(.keyRange) ?? 0...127
        let velocities = zone.generators.range(.velocityRange) ?? instrumentGlobal.range(.velocityRange) ?? 0...127
        guard let keyRange = intersection(keys, presetKeys),
          let velocityRange = intersection(velocities, presetVelocities)
        else { continue }
        func value(_ g: SoundFontGenerator) -> Int {
          let base = zone.generators.amount(g) ?? instrumentGlobal.amount(g) ?? g.defaultAmount
          guard g.isAllowedAtPresetLevel else { return base }
          return base + (presetZone.generators.amount(g) ?? presetGlobal.amount(g) ?? 0)
        }
        func clamped(_ g: SoundFontGenerator, _ range: ClosedRange<Int>) -> Double {
          Double(min(max(value(g), range.lowerBound), range.upperBound))
        }
        let sample = font.samples[sampleIndex]
        let frames = font.sampleFrameCount
        guard !sample.isROM, sample.start < sample.end, sample.end <= frames else { continue }
        let start = min(max(sample.start + value(.startAddressOffset) + 32768 * value(.startAddressCoarseOffset), 0), frames)
        let end = min(max(sample.end + value(.endAddressOffset) + 32768 * value(.endAddressCoarseOffset), start), frames)
        guard end > start else { continue }
        let loopStart = min(
          max(sample.loopStart + value(.startLoopAddressOffset) + 32768 * value(.startLoopAddressCoarseOffset), start),
          end)
        let loopEnd = min(
          max(sample.loopEnd + value(.endLoopAddressOffset) + 32768 * value(.endLoopAddressCoarseOffset), start), end)
        var mode = SoundFontSampleMode(amount: value(.sampleModes))
        if loopEnd - loopStart < 2 { mode = .noLoop }
        let overridingRoot = value(.overridingRootKey)
        let root =
          (0...127).contains(overridingRoot)
          ? overridingRoot : (0...127).contains(sample.originalPitch) ? sample.originalPitch : 60
        regions.append(
          SoundFontRegion(
            keyRange: keyRange, velocityRange: velocityRange, sampleIndex: sampleIndex, start: start, end: end,
            loopStart: loopStart, loopEnd: loopEnd, sampleMode: mode,
            sampleRate: Double(max(sample.sampleRate, 1)),
            rootKey: Double(root) - Double(sample.pitchCorrection) / 100,
            scaleTuning: clamped(.scaleTuning, 0...1200),
            tuningCents: clamped(.coarseTune, -120...120) * 100 + clamped(.fineTune, -99...99),
            fixedKey: Int(clamped(.keynum, -1...127)), fixedVelocity: Int(clamped(.velocity, -1...127)),
            initialAttenuation: clamped(.initialAttenuation, 0...1440), pan: clamped(.pan, -500...500),
            delayVolEnv: clamped(.delayVolEnv, -32768...5000), attackVolEnv: clamped(.attackVolEnv, -32768...8000),
            holdVolEnv: clamped(.holdVolEnv, -32768...5000), decayVolEnv: clamped(.decayVolEnv, -32768...8000),
            sustainVolEnv: clamped(.sustainVolEnv, 0...1440), releaseVolEnv: clamped(.releaseVolEnv, -32768...8000),
            keynumToVolEnvHold: clamped(.keynumToVolEnvHold, -1200...1200),
            keynumToVolEnvDecay: clamped(.keynumToVolEnvDecay, -1200...1200),
            initialFilterFc: clamped(.initialFilterFc, 1500...13500), initialFilterQ: clamped(.initialFilterQ, 0...960),
            exclusiveClass: Int(clamped(.exclusiveClass, 0...127))))
      }
    }
    return regions
  }

  private static func intersection(_ a: ClosedRange<Int>, _ b: ClosedRange<Int>) -> ClosedRange<Int>? {
    let low = max(a.lowerBound, b.lowerBound)
    let high = min(a.upperBound, b.upperBound)
    return low <= high ? low...high : nil
  }
}
