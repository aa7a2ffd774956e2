import ScoreModel

extension Preset {
  /// The harmonizer settings this preset describes: its key (C major when it has none), chord,
  /// voices, auto-tuner and the live voice at unity.
  ///
  /// - Throws: ``HarmonizerError`` when the voices are more than an engine sings or out of range.
  public func harmonizerSettings() throws(HarmonizerError) -> HarmonizerSettings {
    let key = self.key ?? .cMajor
    let voices = self.voices.map { voice -> HarmonyVoice in
      let interval: HarmonyInterval
      switch voice.pitch {
      case .interval(let semitones): interval = .semitones(semitones)
      case .note(let midi): interval = .note(Double(midi))
      case .degree(let number): interval = .diatonic(number)
      }
      return HarmonyVoice(interval, level: voice.level, pan: voice.pan)
    }
    let settings = HarmonizerSettings(
      key: key, chord: chord, voices: voices, liveLevel: 1,
      autoTune: AutoTuneSettings(
        isEnabled: autoTune.isEnabled, key: autoTune.key, retuneSeconds: autoTune.retuneMilliseconds / 1000))
    try settings.validate()
    return settings
  }

  /// The preset's chord progression, or `nil` when its sequencer has no steps.
  public var chordSequencer: ChordSequencer? {
    guard !sequencer.steps.isEmpty else { return nil }
    return ChordSequencer(
      steps: sequencer.steps.map { ChordSequencer.Step(notes: $0.notes, beats: $0.beats) },
      tempo: sequencer.tempoBPM, loops: sequencer.loops)
  }

  /// The effects of the preset's rack, in order.
  ///
  /// - Throws: ``EffectError/unknownEffect(name:valid:)`` for an effect Etude does not have.
  public func effectKinds() throws(EffectError) -> [EffectKind] {
    try rack.map { slot throws(EffectError) in try EffectKind(named: slot.effect) }
  }

  /// A ready chain: an engine with the preset's settings into its effects, every effect
  /// parameter and bypass applied (a parameter key `delay.time` sets `time` of its own slot).
  ///
  /// - Parameters:
  ///   - sampleRate: The sample rate, in Hz.
  ///   - maximumFrames: The largest block the effects take in one pass.
  ///   - shifter: How the voices are shifted (PSOLA by default).
  /// - Throws: ``PresetError/invalidValue(field:value:expected:)`` for settings, an effect or a
  ///   parameter the harmonizer cannot take, naming where in the preset it is.
  public func makeChain(
    sampleRate: Double, maximumFrames: Int = 1024, shifter: HarmonizerEngine.VoiceShifter = .psola
  ) throws(PresetError) -> HarmonizerChain {
    let settings: HarmonizerSettings
    do { settings = try harmonizerSettings() } catch {
      throw .invalidValue(field: "voices", value: "\(voices.count) voices", expected: error.description)
    }
    let kinds: [EffectKind]
    do { kinds = try effectKinds() } catch {
      throw .invalidValue(
        field: "rack", value: rack.map(\.effect).joined(separator: ","), expected: error.description)
    }
    let chain: HarmonizerChain
    do {
      let engine = try HarmonizerEngine(sampleRate: sampleRate, settings: settings, shifter: shifter)
      chain = try HarmonizerChain(engine: engine, effects: kinds, maximumFrames: maximumFrames)
    } catch {
      throw .invalidValue(
        field: "rack", value: rack.map(\.effect).joined(separator: ","), expected: "\(error)")
    }
    let slotParameters = chain.leftEffects?.slotParameters ?? []
    for (slot, effect) in rack.enumerated() where slotParameters.indices.contains(slot) {
      for (key, value) in effect.parameters.sorted(by: { $0.key < $1.key }) {
        let name = key.split(separator: ".", maxSplits: 1).last.map(String.init) ?? key
        guard
          let index = slotParameters[slot].firstIndex(where: { $0.name.lowercased() == name.lowercased() })
        else {
          throw .invalidValue(
            field: "rack[\(slot)].parameters.\(key)", value: String(value),
            expected: "one of "
              + slotParameters[slot].map { "\(effect.effect).\($0.name)" }.joined(separator: ", "))
        }
        chain.setEffectParameter(slot: slot, index: index, to: Float(value))
      }
      chain.setEffectBypassed(effect.isBypassed, slot: slot)
    }
    chain.inputGainDB = volumes.inputDB
    chain.outputGainDB = volumes.outputDB
    return chain
  }
}
