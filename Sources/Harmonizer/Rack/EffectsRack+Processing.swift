extension EffectsRack {
  /// Runs a block through the chain in place, applying the changes made since the last call.
  ///
  /// - Parameter buffer: Mono samples, any count (cut into ``maximumFrames``-frame passes).
  ///   NaN or infinite samples are treated as silence.
  /// - Note: Real-time safe: no allocation, no locks; call it from one thread at a time.
  @_noLocks
  public func process(_ buffer: UnsafeMutableBufferPointer<Float>) {
    guard let base = buffer.baseAddress else { return }
    var start = 0
    while start < buffer.count {
      let n = min(maximumFrames, buffer.count - start)
      processPass(UnsafeMutableBufferPointer(start: base + start, count: n))
      start += n
    }
  }

  @_noLocks
  private func processPass(_ buffer: UnsafeMutableBufferPointer<Float>) {
    applyChanges()
    guard crossfadeRemaining > 0 else {
      runChain(order: currentOrder, shadow: false, buffer)
      return
    }
    let n = buffer.count
    let oldBuffer = UnsafeMutableBufferPointer(start: old, count: n)
    for i in 0..<n { oldBuffer[i] = buffer[i] }
    runChain(order: previousOrder, shadow: true, oldBuffer)
    runChain(order: currentOrder, shadow: false, buffer)
    let step = 1 / Float(rampSamples)
    var t = Float(rampSamples - crossfadeRemaining) * step
    for i in 0..<n {
      if crossfadeRemaining > 0 {
        crossfadeRemaining -= 1
        t += step
      } else {
        t = 1
      }
      buffer[i] = oldBuffer[i] + min(t, 1) * (buffer[i] - oldBuffer[i])
    }
  }

  /// Reads the atomics and applies what changed since the last pass.
  @_noLocks
  private func applyChanges() {
    let g = generation.load(ordering: .acquiring)
    if g != appliedGeneration {
      appliedGeneration = g
      let perSlot = parametersPerSlot
      for s in 0..<slotCount {
        for p in 0..<perSlot {
          let bits = parameterValues[s * perSlot + p].load(ordering: .relaxed)
          if bits != appliedValues[s * perSlot + p] {
            appliedValues[s * perSlot + p] = bits
            setValue(Float(bitPattern: bits), parameter: p, slot: s)
          }
        }
      }
    }
    let gate = gateWord.load(ordering: .acquiring)
    if gate != appliedGate {
      let open = gate & 1 == 1
      do {
        for s in 0..<slotCount where slotKind[s] == 4 {
          let i = slotIndex[s]
          if open {
            envelopes.primary[i].noteOn()
            envelopes.shadow[i].noteOn()
          } else {
            envelopes.primary[i].noteOff()
            envelopes.shadow[i].noteOff()
          }
        }
      }
      appliedGate = gate
    }
    appliedBypass = bypassMask.load(ordering: .acquiring)
    if !hasStarted {
      // Settings made before the first block apply at once, without a fade.
      hasStarted = true
      for s in 0..<slotCount {
        let bypassed = appliedBypass & (1 << UInt32(s)) != 0
        wet[s] = bypassed ? 0 : 1
        shadowWet[s] = wet[s]
      }
      let word = orderWord.load(ordering: .acquiring)
      appliedOrderWord = word
      for position in 0..<slotCount { currentOrder[position] = Int((word >> (4 * UInt64(position))) & 0xF) }
    }
    if crossfadeRemaining == 0 {
      let word = orderWord.load(ordering: .acquiring)
      if word != appliedOrderWord {
        appliedOrderWord = word
        for position in 0..<slotCount {
          previousOrder[position] = currentOrder[position]
          currentOrder[position] = Int((word >> (4 * UInt64(position))) & 0xF)
        }
        for s in 0..<slotCount {
          copyToShadow(slot: s)
          shadowWet[s] = wet[s]
        }
        crossfadeRemaining = rampSamples
      }
    }
  }

  /// Runs the slots in `order` over `buffer`, each crossfaded with its input by its bypass ramp.
  @_noLocks
  private func runChain(
    order: UnsafeMutablePointer<Int>, shadow: Bool, _ buffer: UnsafeMutableBufferPointer<Float>
  ) {
    let gains = shadow ? shadowWet : wet
    let step = 1 / Float(rampSamples)
    let n = buffer.count
    for position in 0..<slotCount {
      let s = order[position]
      let target: Float = appliedBypass & (1 << UInt32(s)) != 0 ? 0 : 1
      var gain = gains[s]
      if gain == 0, target == 0 { continue }
      let isCustom = slotKind[s] == 7
      if shadow, isCustom {
        // A custom effect has no shadow: the old order passes its input through.
        continue
      }
      if gain == 0, !shadow { resetSlotState(s) }
      if gain == 1, target == 1 {
        render(slot: s, shadow: shadow, buffer)
        continue
      }
      for i in 0..<n { dry[i] = buffer[i] }
      render(slot: s, shadow: shadow, buffer)
      for i in 0..<n {
        gain = target > gain ? min(gain + step, 1) : max(gain - step, 0)
        let x = EffectMath.sanitized(dry[i])
        buffer[i] = x + gain * (buffer[i] - x)
      }
      gains[s] = gain
    }
  }

  @_noLocks
  private func render(slot s: Int, shadow: Bool, _ buffer: UnsafeMutableBufferPointer<Float>) {
    let i = slotIndex[s]
    switch slotKind[s] {  // SlotKind raw values
    case 0: (shadow ? choruses.shadow : choruses.primary)[i].render(buffer)
    case 1: (shadow ? overdrives.shadow : overdrives.primary)[i].render(buffer)
    case 2: (shadow ? delays.shadow : delays.primary)[i].render(buffer)
    case 3: (shadow ? reverbs.shadow : reverbs.primary)[i].render(buffer)
    case 4: (shadow ? envelopes.shadow : envelopes.primary)[i].render(buffer)
    case 5: (shadow ? lowPasses.shadow : lowPasses.primary)[i].render(buffer)
    case 6: (shadow ? volumes.shadow : volumes.primary)[i].render(buffer)
    default:
      guard !shadow else { return }
      let effects = customs
      // RT-audited: a custom effect's process is real-time safe by the Effect contract; it is
      // called in place (its box is owned here alone, so no copy is made).
      _unsafePerformance { effects[i].process(buffer) }
      for k in 0..<buffer.count where !buffer[k].isFinite { buffer[k] = 0 }
    }
  }

  @_noLocks
  private func setValue(_ value: Float, parameter p: Int, slot s: Int) {
    let i = slotIndex[s]
    switch slotKind[s] {  // SlotKind raw values
    case 0:
      choruses.primary[i].setValue(value, at: p)
      choruses.shadow[i].setValue(value, at: p)
    case 1:
      overdrives.primary[i].setValue(value, at: p)
      overdrives.shadow[i].setValue(value, at: p)
    case 2:
      delays.primary[i].setValue(value, at: p)
      delays.shadow[i].setValue(value, at: p)
    case 3:
      reverbs.primary[i].setValue(value, at: p)
      reverbs.shadow[i].setValue(value, at: p)
    case 4:
      envelopes.primary[i].setValue(value, at: p)
      envelopes.shadow[i].setValue(value, at: p)
    case 5:
      lowPasses.primary[i].setValue(value, at: p)
      lowPasses.shadow[i].setValue(value, at: p)
    case 6:
      volumes.primary[i].setValue(value, at: p)
      volumes.shadow[i].setValue(value, at: p)
    default:
      let effects = customs
      // RT-audited: setValue is real-time safe by the Effect contract.
      _unsafePerformance { effects[i].setValue(value, at: p) }
    }
  }

  @_noLocks
  private func copyToShadow(slot s: Int) {
    let i = slotIndex[s]
    switch slotKind[s] {  // SlotKind raw values
    case 0: choruses.shadow[i].copyState(from: choruses.primary + i)
    case 1: overdrives.shadow[i].copyState(from: overdrives.primary + i)
    case 2: delays.shadow[i].copyState(from: delays.primary + i)
    case 3: reverbs.shadow[i].copyState(from: reverbs.primary + i)
    case 4: envelopes.shadow[i].copyState(from: envelopes.primary + i)
    case 5: lowPasses.shadow[i].copyState(from: lowPasses.primary + i)
    case 6: volumes.shadow[i].copyState(from: volumes.primary + i)
    default: break
    }
  }

  @_noLocks
  func resetSlotState(_ s: Int) {
    let i = slotIndex[s]
    switch slotKind[s] {  // SlotKind raw values
    case 0: choruses.primary[i].resetInPlace()
    case 1: overdrives.primary[i].resetInPlace()
    case 2: delays.primary[i].resetInPlace()
    case 3: reverbs.primary[i].resetInPlace()
    case 4: envelopes.primary[i].resetInPlace()
    case 5: lowPasses.primary[i].resetInPlace()
    case 6: volumes.primary[i].resetInPlace()
    default:
      let effects = customs
      // RT-audited: reset of a custom effect that was bypassed; by the Effect contract it only
      // clears state it already owns.
      _unsafePerformance { effects[i].reset() }
    }
  }
}
