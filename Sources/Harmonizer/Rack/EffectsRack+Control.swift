import Synchronization

extension EffectsRack {
  /// The parameter names of the whole rack, `slot.parameter` (`"delay.time"`), in slot order.
  public var parameterNames: [String] {
    zip(slotNames, slotParameters).flatMap { slot, parameters in parameters.map { "\(slot).\($0.name)" } }
  }

  /// Finds the slot and parameter index of `slot.parameter`.
  ///
  /// - Parameter name: `"delay.time"`, `"delay2.feedback"`, `"myEffect.amount"`.
  /// - Returns: The slot and the parameter's index in its effect.
  /// - Throws: ``EffectError/unknownEffect(name:valid:)`` listing the rack's slot names, or
  ///   ``EffectError/unknownParameter(effect:name:valid:)`` listing the slot's parameters.
  public func locate(_ name: String) throws(EffectError) -> (slot: Int, parameter: Int) {
    let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
    guard parts.count == 2 else {
      throw .invalidValue(
        name: "parameter name", value: name, expected: "effect.parameter, such as delay.time")
    }
    guard let slot = slotNames.firstIndex(where: { $0.lowercased() == parts[0].lowercased() }) else {
      throw .unknownEffect(name: parts[0], valid: slotNames)
    }
    guard
      let parameter = slotParameters[slot].firstIndex(where: { $0.name.lowercased() == parts[1].lowercased() }
      )
    else {
      throw .unknownParameter(
        effect: slotNames[slot], name: parts[1], valid: slotParameters[slot].map(\.name))
    }
    return (slot, parameter)
  }

  /// Sets a parameter by name; safe from any thread while audio runs (it glides there from the
  /// next block on).
  ///
  /// - Parameters:
  ///   - name: `slot.parameter`, such as `"delay.time"`.
  ///   - value: The value, in the parameter's unit; clamped into its range.
  /// - Throws: See ``locate(_:)``.
  public func setParameter(_ name: String, to value: Float) throws(EffectError) {
    let (slot, parameter) = try locate(name)
    setParameter(slot: slot, index: parameter, to: value)
  }

  /// Sets a parameter by slot and index; safe from any thread while audio runs. An index out of
  /// range is ignored.
  ///
  /// - Parameters:
  ///   - slot: The slot (`0..<slotNames.count`).
  ///   - index: The parameter's index in the slot's effect.
  ///   - value: The value; clamped into the parameter's range.
  /// - Note: Lock-free; never blocks.
  public func setParameter(slot: Int, index: Int, to value: Float) {
    guard slotParameters.indices.contains(slot), slotParameters[slot].indices.contains(index) else { return }
    let clamped = slotParameters[slot][index].clamped(value)
    parameterValues[slot * parametersPerSlot + index].store(clamped.bitPattern, ordering: .relaxed)
    generation.wrappingAdd(1, ordering: .releasing)
  }

  /// The value a parameter was last set to (clamped), by name.
  ///
  /// - Parameter name: `slot.parameter`.
  /// - Returns: The value.
  /// - Throws: See ``locate(_:)``.
  public func parameter(_ name: String) throws(EffectError) -> Float {
    let (slot, parameter) = try locate(name)
    return Float(bitPattern: parameterValues[slot * parametersPerSlot + parameter].load(ordering: .relaxed))
  }

  /// The processing order: slot numbers, first processed first.
  public var order: [Int] {
    let word = orderWord.load(ordering: .acquiring)
    return (0..<slotCount).map { Int((word >> (4 * UInt64($0))) & 0xF) }
  }

  /// Sets the processing order; safe from any thread while audio runs (the old and new orders
  /// are crossfaded over ``rampSeconds``).
  ///
  /// - Parameter order: A permutation of the slots (`0..<slotNames.count`).
  /// - Throws: ``EffectError/invalidValue(name:value:expected:)`` if it is not one.
  public func setOrder(_ order: [Int]) throws(EffectError) {
    guard order.count == slotCount, Set(order) == Set(0..<slotCount) else {
      throw .invalidValue(
        name: "order", value: "\(order)", expected: "a permutation of 0..<\(slotCount)")
    }
    orderWord.store(Self.encode(order), ordering: .releasing)
  }

  /// Sets the processing order by slot names.
  ///
  /// - Parameter names: Every slot name once, first processed first.
  /// - Throws: ``EffectError/unknownEffect(name:valid:)`` or
  ///   ``EffectError/invalidValue(name:value:expected:)``.
  public func setOrder(names: [String]) throws(EffectError) {
    var order: [Int] = []
    for name in names {
      guard let slot = slotNames.firstIndex(of: name) else {
        throw .unknownEffect(name: name, valid: slotNames)
      }
      order.append(slot)
    }
    try setOrder(order)
  }

  /// Moves one slot to another position of the order (the others keep their relative order);
  /// safe from any thread while audio runs.
  ///
  /// - Parameters:
  ///   - slot: The slot to move.
  ///   - position: Its new position, `0..<slotNames.count` (clamped).
  public func move(slot: Int, to position: Int) {
    guard (0..<slotCount).contains(slot) else { return }
    var current = orderWord.load(ordering: .acquiring)
    while true {
      var order = (0..<slotCount).map { Int((current >> (4 * UInt64($0))) & 0xF) }
      order.removeAll { $0 == slot }
      order.insert(slot, at: min(max(0, position), order.count))
      let (exchanged, original) = orderWord.compareExchange(
        expected: current, desired: Self.encode(order), ordering: .acquiringAndReleasing)
      if exchanged { return }
      current = original
    }
  }

  /// Bypasses a slot or brings it back; safe from any thread while audio runs (the slot
  /// crossfades between its input and its output over ``rampSeconds``).
  ///
  /// - Parameters:
  ///   - bypassed: Whether the slot passes its input through.
  ///   - slot: The slot.
  public func setBypassed(_ bypassed: Bool, slot: Int) {
    guard (0..<slotCount).contains(slot) else { return }
    let bit = UInt32(1) << UInt32(slot)
    if bypassed {
      bypassMask.bitwiseOr(bit, ordering: .releasing)
    } else {
      bypassMask.bitwiseAnd(~bit, ordering: .releasing)
    }
  }

  /// Whether a slot is bypassed (as last set).
  ///
  /// - Parameter slot: The slot.
  /// - Returns: `true` if bypassed.
  public func isBypassed(slot: Int) -> Bool {
    bypassMask.load(ordering: .relaxed) & (UInt32(1) << UInt32(slot)) != 0
  }

  /// Opens the gate of every ``ADSR`` in the rack (for a sequencer: set their `trigger` to 1);
  /// safe from any thread.
  public func noteOn() { setGate(open: true) }

  /// Closes the gate of every ``ADSR`` in the rack; safe from any thread.
  public func noteOff() { setGate(open: false) }

  private func setGate(open: Bool) {
    var current = gateWord.load(ordering: .relaxed)
    while true {
      let desired = ((current >> 1) &+ 1) << 1 | (open ? 1 : 0)
      let (exchanged, original) = gateWord.compareExchange(
        expected: current, desired: desired, ordering: .releasing)
      if exchanged { return }
      current = original
    }
  }

  /// The latency of the chain, in samples: the sum over the slots that are not bypassed.
  public var latencySamples: Int {
    let mask = bypassMask.load(ordering: .relaxed)
    return (0..<slotCount).reduce(0) { $0 + (mask & (UInt32(1) << UInt32($1)) != 0 ? 0 : slotLatency[$1]) }
  }

  /// How long the chain may keep sounding after its input falls silent, in seconds, with the
  /// parameters as last set: the sum of the tails of the slots that are not bypassed. Computed
  /// on the calling thread on fresh effects (it allocates; not for the audio thread).
  public var tailSeconds: Double {
    let mask = bypassMask.load(ordering: .relaxed)
    var total = 0.0
    for s in 0..<slotCount where mask & (UInt32(1) << UInt32(s)) == 0 {
      guard let kind = slotKinds[s] else {
        total += customTails[s]
        continue
      }
      var effect = kind.make(sampleRate: sampleRate).effect
      for p in slotParameters[s].indices {
        effect.setValue(
          Float(bitPattern: parameterValues[s * parametersPerSlot + p].load(ordering: .relaxed)), at: p)
      }
      total += effect.tailSeconds
    }
    return total
  }

  /// Forgets the signal so far in every effect (clears delay lines and filters) and ends any
  /// crossfade: the next block starts with the order and bypass flags as set, without fades.
  /// Call it on the audio thread, or when audio is stopped.
  public func reset() {
    hasStarted = false
    for s in 0..<slotCount {
      resetSlotState(s)
      wet[s] = isBypassed(slot: s) ? 0 : 1
      shadowWet[s] = wet[s]
    }
    crossfadeRemaining = 0
  }
}
