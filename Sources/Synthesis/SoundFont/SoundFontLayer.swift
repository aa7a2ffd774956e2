import Foundation

/// One sample playing inside a ``SoundFontVoice``: one region's sample at one pitch, with its
/// loop, volume envelope, gain and filter.
struct SoundFontLayer: Sendable {
  private var position = 0.0
  private var increment = 0.0
  private var start = 0
  private var end = 0
  private var loopStart = 0
  private var loopEnd = 0
  private var loopLength = 0.0
  private var loopsWhileHeld = false
  private var loopsAfterRelease = false
  private var released = false
  private var gain: Float = 0
  private var envelope = SoundFontVolumeEnvelope()
  private var filter = SoundFontLowPassFilter()
  /// Whether the layer still sounds.
  private(set) var isActive = false
  /// The region's exclusive class.
  private(set) var exclusiveClass = 0

  /// Starts playing a region.
  ///
  /// - Parameters:
  ///   - region: The region.
  ///   - pitch: The note's MIDI pitch, fractional.
  ///   - key: The note's key, 0...127 (for the key-to-envelope generators and fixed keys).
  ///   - velocity: The note's velocity, 1...127.
  ///   - sampleRate: The output rate, Hz.
  ///   - attenuationScale: The share of `initialAttenuation` that counts.
  @_noLocks
  mutating func start(
    region: SoundFontRegion, pitch: Double, key: Int, velocity: Int, sampleRate: Double, attenuationScale: Double
  ) {
    let playedPitch = region.fixedKey >= 0 ? Double(region.fixedKey) : pitch
    let envelopeKey = Double(region.fixedKey >= 0 ? region.fixedKey : key)
    let cents = region.scaleTuning * (playedPitch - region.rootKey) + region.tuningCents
    let playedVelocity = region.fixedVelocity >= 0 ? region.fixedVelocity : velocity
    let rate = sampleRate
    func seconds(_ timecents: Double, maximum: Double) -> Double {
      timecents <= -32768 ? 0 : _unsafePerformance { exp2(min(max(timecents, -12000), maximum) / 1200) }
    }
    // RT-audited: exp2, pow, log10, sin and cos are pure libm calls without allocation or locks.
    let ratio = _unsafePerformance { exp2(cents / 1200) }
    increment = ratio * region.sampleRate / rate
    let velocityAttenuation =
      playedVelocity <= 0 ? 960 : min(960, _unsafePerformance { -400 * log10(Double(playedVelocity) / 127) })
    let attenuation = min(max(region.initialAttenuation * attenuationScale + velocityAttenuation, 0), 1440)
    let theta = (region.pan + 500) / 1000 * Double.pi / 2
    let (amplitude, panGain) = _unsafePerformance { (pow(10, -attenuation / 200), (cos(theta) + sin(theta)) / 2) }
    gain = Float(amplitude * panGain)

    let decayFrames = seconds(region.decayVolEnv + region.keynumToVolEnvDecay * (60 - envelopeKey), maximum: 8000) * rate
    let releaseFrames = seconds(max(region.releaseVolEnv, -7200), maximum: 8000) * rate
    let sustainLevel = 1 - min(region.sustainVolEnv, 1000) / 1000
    let holdTimecents = region.holdVolEnv + region.keynumToVolEnvHold * (60 - envelopeKey)
    let timing = SoundFontVolumeEnvelope.Timing(
      delayFrames: Int(seconds(region.delayVolEnv, maximum: 5000) * rate + 0.5),
      attackFrames: Int(seconds(region.attackVolEnv, maximum: 8000) * rate + 0.5),
      holdFrames: Int(seconds(holdTimecents, maximum: 5000) * rate + 0.5),
      decayFrames: decayFrames, sustainLevel: sustainLevel, releaseFrames: releaseFrames)
    let (sustainGain, decayFactor, releaseFactor) = _unsafePerformance {
      (
        pow(10, -4.8 * (1 - sustainLevel)), pow(10, -4.8 / max(decayFrames, 1)),
        pow(10, -4.8 / max(releaseFrames, 1))
      )
    }
    envelope.start(timing: timing, sustainGain: sustainGain, decayFactor: decayFactor, releaseFactor: releaseFactor)
    filter.configure(cutoffCents: region.initialFilterFc, resonanceCentibels: region.initialFilterQ, sampleRate: rate)

    start = region.start
    end = region.end
    loopStart = region.loopStart
    loopEnd = region.loopEnd
    loopLength = Double(loopEnd - loopStart)
    switch region.sampleMode {
    case .noLoop: (loopsWhileHeld, loopsAfterRelease) = (false, false)
    case .loopContinuously: (loopsWhileHeld, loopsAfterRelease) = (true, true)
    case .loopUntilRelease: (loopsWhileHeld, loopsAfterRelease) = (true, false)
    }
    position = Double(start)
    released = false
    exclusiveClass = region.exclusiveClass
    isActive = true
  }

  /// Enters the release: the envelope's release stage, and for ``SoundFontSampleMode/loopUntilRelease``
  /// the way out of the loop to the sample's end.
  @_noLocks
  mutating func release() {
    guard isActive, !released else { return }
    released = true
    let g = envelope.gain
    let attackLevel = g > 0 ? 1 + _unsafePerformance { log10(g) } / 4.8 : 0
    envelope.release(attackLevel: attackLevel)
    if envelope.isFinished { isActive = false }
  }

  /// Ends the layer at once.
  @_noLocks
  mutating func stop() { isActive = false }

  /// Adds the layer's next frames to `output`.
  ///
  /// - Parameters:
  ///   - output: Where to add.
  ///   - words: The font's 16-bit sample words.
  ///   - lowBytes: The font's 24-bit low bytes, if any.
  @_noLocks
  mutating func render(
    adding output: UnsafeMutableBufferPointer<Float>, words: UnsafePointer<Int16>, lowBytes: UnsafePointer<UInt8>?
  ) {
    guard isActive else { return }
    for i in 0..<output.count {
      if envelope.isDelaying {
        _ = envelope.next()
        continue
      }
      let looping = released ? loopsAfterRelease : loopsWhileHeld
      let level = Float(envelope.next())
      if envelope.isFinished {
        isActive = false
        return
      }
      let index = Int(position)
      let t = Float(position - Double(index))
      let x0 = frame(index - 1, looping: looping, words: words, lowBytes: lowBytes)
      let x1 = frame(index, looping: looping, words: words, lowBytes: lowBytes)
      let x2 = frame(index + 1, looping: looping, words: words, lowBytes: lowBytes)
      let x3 = frame(index + 2, looping: looping, words: words, lowBytes: lowBytes)
      // Catmull-Rom (cubic Hermite) through four points.
      let c1 = 0.5 * (x2 - x0)
      let c2 = x0 - 2.5 * x1 + 2 * x2 - 0.5 * x3
      let c3 = 0.5 * (x3 - x0) + 1.5 * (x1 - x2)
      var y = ((c3 * t + c2) * t + c1) * t + x1
      if filter.isActive { y = filter.process(y) }
      output[i] += y * level * gain
      position += increment
      if looping {
        if position >= Double(loopEnd) {
          position = Double(loopStart) + (position - Double(loopStart)).truncatingRemainder(dividingBy: loopLength)
        }
      } else if position >= Double(end) {
        isActive = false
        return
      }
    }
  }

  /// The sample frame at `index`, read through the loop while looping, clamped to the start and
  /// silent past the end.
  @_noLocks
  @inline(__always)
  private func frame(_ index: Int, looping: Bool, words: UnsafePointer<Int16>, lowBytes: UnsafePointer<UInt8>?)
    -> Float
  {
    var k = index
    if looping && k >= loopEnd { k -= loopEnd - loopStart }
    if k < start { k = start }
    if k >= end { return 0 }
    if let lowBytes {
      return Float(Int32(words[k]) << 8 | Int32(lowBytes[k])) * (1 / 8_388_608)
    }
    return Float(words[k]) * (1 / 32768)
  }
}
