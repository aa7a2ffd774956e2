import Foundation

/// Moves a sound's start and end from where the pitch track noticed them to where the note
/// physically began and stopped, by following the amplitude of the note's own harmonics.
///
/// A pitch tracker notices a new note when it dominates its analysis window: tens of
/// milliseconds late after a slow attack or under the ring of the previous note. The refiner
/// looks at the harmonics of the sound's pitch that lie clear of the previous note's and rise
/// with the note (``HarmonicEnvelope``), finds the rise to the sound's early peak, fits a line
/// to its middle (15–60 % of the rise) and takes the start where that line meets the floor
/// before it: the start of a linear attack, independent of how slow it is. An end followed by
/// silence is where the harmonics' decay, fitted as a line in decibels from 3 to 15 dB below the
/// sustained level, meets that level: the start of an exponential release, before the ring of
/// the room.
public struct SoundBoundaryRefiner: Sendable {
  /// The signal.
  public let samples: [Float]
  /// Its sample rate, in Hz.
  public let sampleRate: Double
  /// The time resolution of the envelopes, in seconds (default 1 ms).
  public var stepSeconds = 0.001
  /// The window after quiet, in seconds (short: fine timing, every harmonic resolved).
  public var detachedWindowSeconds = 0.012
  /// The window under a previous note, in seconds (long enough to separate the notes).
  public var legatoWindowSeconds = 0.04
  /// The highest harmonic followed, in Hz. Above 5.2 kHz the envelopes are read from the
  /// signal itself instead of its decimated copy, at four times the cost at 44.1 kHz.
  public var maximumHarmonicHz = 5000.0
  /// The most harmonics followed.
  public var maximumHarmonics = 12
  /// How long a note rings on after its end is found (an instrument's release, the room):
  /// a start this soon after the previous sound's end is timed on the harmonics clear of it,
  /// in seconds.
  public var ringSeconds = 0.25
  /// How far over its usual wobble the phase-break function must rise for a re-attack with no
  /// dip (``phaseBreak(in:near:within:)``).
  public var phaseBreakRatio = 4.0
  /// The least height of that function for a re-attack with no dip.
  public var phaseBreakMinimum = 0.1
  /// How far over its median within the search the departure from the fitted turn must rise
  /// for ``predictionBreak(in:near:within:)``.
  public var predictionBreakRatio = 2.0
  /// How deep a dip must be, against the level on either side, for
  /// ``reattack(in:near:within:riseDecibels:)`` to choose it by its nearness to when the note
  /// is due, in dB.
  public var reattackDecibels = 4.0
  /// How near its top a note's level stays until its release, in dB
  /// (``ringingEnd(_:top:from:perSecond:)``).
  public var ringTopDecibels = 1.5
  /// How far a release into a room's ring must fall before the next note, in dB.
  public var ringDropDecibels = 4.0
  /// How fast such a release must fall, in dB per second.
  public var ringDecayDecibelsPerSecond = 25.0

  /// Creates a refiner over a signal.
  ///
  /// Decimates the signal once for the envelopes of harmonics up to 5.2 kHz (a quarter of the
  /// samples at 44.1 or 48 kHz, read four times as fast): O(samples), about 6 % of the CPU of
  /// grading a take. Make one refiner per take and share it.
  ///
  /// - Parameters:
  ///   - samples: The mono signal.
  ///   - sampleRate: Its sample rate, in Hz.
  public init(samples: [Float], sampleRate: Double) {
    self.samples = samples
    self.sampleRate = sampleRate
    let signal = EnvelopeSignal(samples: samples, sampleRate: sampleRate)
    band = EnvelopeSignal(decimating: signal, keeping: Self.bandHz) ?? signal
  }

  /// The highest frequency ``band`` keeps: ``maximumHarmonicHz``'s default and room for the
  /// partial of a neighbouring note paired with a harmonic under it
  /// (``separablePairs(of:from:window:)``: within 4 / window, 100 Hz under the legato window).
  static let bandHz = 5200.0

  /// The samples, decimated for the band under ``bandHz`` where the rate allows (a quarter of
  /// them at 44.1 or 48 kHz): the envelopes of harmonics up to there are read from it.
  let band: EnvelopeSignal

  /// The signal the envelopes of harmonics (``harmonics(of:clearOf:window:)``) are read from:
  /// ``band`` unless ``maximumHarmonicHz`` was raised above it.
  var envelopeSignal: EnvelopeSignal { envelopeSignal(holding: maximumHarmonicHz) }

  /// The signal for envelopes of frequencies up to `highestHz`: ``band`` when it holds them.
  func envelopeSignal(holding highestHz: Double) -> EnvelopeSignal {
    highestHz <= band.bandHz ? band : EnvelopeSignal(samples: samples, sampleRate: sampleRate)
  }

  /// The sound's start, refined; the original start when no clear rise is found.
  ///
  /// - Parameters:
  ///   - sound: The sound (start from the pitch track).
  ///   - previous: The sound before it, if any.
  /// - Returns: The start, in seconds.
  public func start(of sound: PerformanceSound, after previous: PerformanceSound?) -> Double {
    guard sound.frequencyHz > 0 else { return sound.start }
    // The previous note still sounds, or still rings (its refined end is near): legato.
    let overlapping = previous.flatMap { $0.end > sound.start - ringSeconds && $0.frequencyHz > 0 ? $0 : nil }
    // An octave above a note that had stopped: every harmonic of the new note is one of the old
    // note's, fading under it, so it is timed as the same note played again (as a leap to
    // another pitch, on every harmonic under the long window, it read 40–55 ms late; a twelfth
    // or two octaves up, timed so, read worse).
    let octaveAbove =
      overlapping.map { $0.end < sound.start && Self.isOctave(sound.frequencyHz, above: $0.frequencyHz) } ?? false
    let (harmonics, window) =
      octaveAbove
      ? (self.harmonics(of: sound.frequencyHz, clearOf: nil, window: detachedWindowSeconds), detachedWindowSeconds)
      : self.harmonics(of: sound.frequencyHz, near: overlapping?.frequencyHz)
    // From 150 ms before (not before the previous sound's start) to 120 ms after; or from the
    // previous sound's refined end, when the pitch track heard that sound on until this one
    // (``PerformanceSound/heardUntil``): this note's start may lie anywhere in what was heard
    // past that end (an Eb4 played again 60 cents higher, the pitch track still on the first
    // for 250 ms of the second, timed it 120 ms late).
    var from = sound.start - 0.15
    if let previous {
      if let heard = previous.heardUntil, heard >= sound.start - 0.025 { from = min(from, previous.end) }
      from = max(from, previous.start + 0.03)
    }
    from = max(0, from)
    let to = min(sound.start + 0.12, max(sound.end, sound.start + 0.03))
    guard to - from > 0.02 else { return sound.start }
    // After another pitch, the harmonics too close to the previous note's to be resolved, or
    // near enough to take its leakage, are separated from them (a semitone step's
    // fundamentals, 21 Hz apart; a tone's under a loud old note).
    let pairs =
      overlapping.flatMap { old in
        octaveAbove || sound.isAtPitch(old.frequencyHz, withinCents: 50)
          ? nil : separablePairs(of: sound.frequencyHz, from: old.frequencyHz, window: window)
      } ?? []
    let paired = Set(pairs.map(\.harmonic))
    var plain = harmonics.filter { !paired.contains($0) }
    // (At the previous note's pitch every harmonic is that note's: none rises clear of it.)
    if let other = overlapping ?? previous, !octaveAbove,
      !sound.isAtPitch(other.frequencyHz, withinCents: 50)
    {
      plain = unoccupied(plain, before: sound.start, from: from, to: to, window: window)
    }
    var (envelope, time) = amplitudes(plain, from: from, to: to, window: window)
    if !pairs.isEmpty {
      let separated = separatedAmplitudes(pairs, from: from, to: to, window: window)
      for i in envelope.indices where i < separated.count { envelope[i] += separated[i] }
    }
    // The early peak: the highest point from just before the start to the end of the span.
    let searchFrom = max(0, Int(((sound.start - 0.02) - from) / stepSeconds))
    guard searchFrom < envelope.count else { return sound.start }
    var peakIndex = searchFrom
    for i in searchFrom..<envelope.count where envelope[i] > envelope[peakIndex] { peakIndex = i }
    let peak = envelope[peakIndex]
    // The attack's arrival: the first point within 3 dB of the peak, or, after quiet, within
    // 12 dB (a bowed note's first burst, a breath's chiff, may dip before the note settles
    // 11 dB louder; the trough stopped the walk back to the attack 35 ms late). A note that
    // swells again after its attack (a bow change, beating with the previous note's ring) keeps
    // its attack, however deep the trough before the swell.
    let arrivalLevel = overlapping == nil ? 0.25 : 0.708
    var arrival = searchFrom
    while arrival < peakIndex, envelope[arrival] < arrivalLevel * peak { arrival += 1 }
    var floor = peak
    for i in 0...arrival { floor = min(floor, envelope[i]) }
    // A rise of less than 6 dB is no attack to time.
    guard peak > 2 * floor, peak > 0 else { return sound.start }
    // The same note again (or its octave): the new attack hides under the old note's decay.
    if let overlapping, sound.isAtPitch(overlapping.frequencyHz, withinCents: 50) || octaveAbove {
      var dip = peakIndex
      for i in 0...peakIndex where envelope[i] < envelope[dip] { dip = i }
      let turning = phasors(harmonics, from: from, to: to, window: window)
      if let rise = Self.riseUnderDecay(envelope, dipIndex: dip, peakIndex: peakIndex, phasors: turning) {
        // Taken away as amplitudes, the decay may leave the old note's own sound over the fit:
        // a room's ring, slower than the release before it, read as the new note rising 40 to
        // 120 ms early. Where the partials' phases break near the dip, well after that rise,
        // the new note starts at the break.
        if !rise.byPhases {
          let both = PerformanceSound(
            start: overlapping.start, end: sound.end, frequencyHz: sound.frequencyHz, peakLevelDBFS: sound.peakLevelDBFS)
          if let phaseBreak = phaseBreak(in: both, near: time(Double(dip)), within: 0.05),
            phaseBreak > time(rise.index) + 0.03
          {
            return phaseBreak
          }
        }
        return time(rise.index)
      }
    }
    // Walk back from the rise's lower part to where the note emerges from the floor: within
    // 3 dB of it, or 40 dB under the peak, whichever is higher.
    let low = floor + 0.15 * (peak - floor)
    var lowIndex = arrival
    while lowIndex > 0, envelope[lowIndex] > low { lowIndex -= 1 }
    // Stop early at the valley before the rise: where, walking back, the envelope climbs 3 dB
    // over the lowest point passed (the previous note's leakage or release, not this note).
    let emergence = max(1.41 * floor, 0.01 * peak)
    var index = lowIndex
    var valley = lowIndex
    while index > 0, envelope[index] > emergence {
      if envelope[index] < envelope[valley] { valley = index }
      if envelope[index] > 1.41 * envelope[valley] {
        index = valley
        break
      }
      index -= 1
    }
    let (walked, crossingIndex) = Self.crossing(of: emergence, in: envelope, from: index, peak: peakIndex)
    index = walked
    var crossing = crossingIndex
    // Under a previous note, no earlier than the attack's own line allows: the line through its
    // 15 % and 60 % points, met with the floor, less half the window (what the window smears a
    // step by), when the walk passed a dip of half a dB or more: the previous note's leakage,
    // swelling as it wavers or releases, can hold the walk above the threshold far longer.
    // (After quiet there is no leakage; and an attack that jumps out of the floor and then
    // swells slowly, as a flute's, rises all the way and starts at the jump.)
    // A real attack rises all the way from where the walk stopped; leakage wavers on the way.
    // Nor when the previous note had stopped by the crossing and the floor lies more than 43 dB
    // under the peak (the emergence is then 40 dB under the peak, clear of the floor): a
    // release only fades, and nothing else sounds; what wavers is the new note's breath (a
    // flute's high notes swell exponentially, and their line meets the floor 30–40 ms late).
    var highest = 0.0
    var drawdown = 1.0
    for i in min(index, lowIndex)...lowIndex {
      highest = max(highest, envelope[i])
      if highest > 0 { drawdown = min(drawdown, envelope[i] / highest) }
    }
    if let overlapping, drawdown < 0.94, !(overlapping.end < time(crossing) && 0.01 * peak > 1.41 * floor) {
      let sixty = floor + 0.6 * (peak - floor)
      var sixtyIndex = lowIndex
      while sixtyIndex < peakIndex, envelope[sixtyIndex] < sixty { sixtyIndex += 1 }
      let lineStart = Double(lowIndex) - Double(sixtyIndex - lowIndex) * 0.15 / 0.45
      crossing = max(crossing, lineStart - 0.5 * window / stepSeconds)
    }
    // The triangle window lets a rise show up to half its length early: an abrupt attack
    // crosses a threshold 40 dB down 0.43 of the window early, a slower one less, as the
    // window's length over its rise time (from the crossing to half the peak, itself
    // lengthened by the window): early by 0.18 · window² / rise, within 3 ms for linear
    // attacks of 0 to 200 ms under windows of 12 to 60 ms. (The earlier rule, 0.4 of the
    // window less up to 0.3 of it for slow attacks, left slow attacks 3–5 ms late under a 40 ms
    // window: a flute's notes after another read 5–9 ms late on median.)
    let half = floor + 0.5 * (peak - floor)
    var halfIndex = index
    while halfIndex < peakIndex, envelope[halfIndex] < half { halfIndex += 1 }
    let rise = max(time(Double(halfIndex)) - time(crossing), stepSeconds)
    return time(crossing) + min(0.43 * window, 0.18 * window * window / rise)
  }

  /// Where `envelope` passes `threshold` on its way up from `index` to the peak at `peak`: the
  /// last point at or under the threshold before it passes (`index` itself, when that lies over
  /// it or the next point does) and the crossing, interpolated between that point and the next.
  ///
  /// The walk back from a rise stops at once when it starts under the threshold (the arrival,
  /// 12 dB under the peak, can lie under the rise's 15 % point); the crossing is then ahead.
  /// (Interpolated from there, past the next point, a flute's note in a room started 13 ms late,
  /// and a violin's repeated E5 in a room, on envelopes 0.03 dB from these, 435 ms late: after
  /// its own end.)
  static func crossing(of threshold: Double, in envelope: [Double], from index: Int, peak: Int) -> (
    index: Int, crossing: Double
  ) {
    var index = index
    while envelope[index] <= threshold, index + 1 < peak, envelope[index + 1] <= threshold { index += 1 }
    guard envelope[index] <= threshold, index + 1 < envelope.count, envelope[index + 1] > envelope[index] else {
      return (index, Double(index))
    }
    return (index, Double(index) + min(1, (threshold - envelope[index]) / (envelope[index + 1] - envelope[index])))
  }

  /// The sound's end, refined, when silence (or a gap) follows it; the original end otherwise.
  ///
  /// - Parameters:
  ///   - sound: The sound (start already refined).
  ///   - next: The sound after it, if any.
  ///   - lookingBackTo: How far back the release may lie, in seconds, when more than 0.45 s
  ///     before the sound's end (the room's ring after a note can hold its level that long).
  /// - Returns: The end, in seconds.
  public func end(of sound: PerformanceSound, before next: PerformanceSound?, lookingBackTo: Double? = nil) -> Double {
    guard sound.frequencyHz > 0 else { return sound.end }
    let close = next.flatMap { $0.start < sound.end + 0.15 && $0.frequencyHz > 0 ? $0 : nil }
    let (harmonics, window) = self.harmonics(of: sound.frequencyHz, near: close?.frequencyHz)
    let from = max(sound.start + 0.05, min(sound.end - 0.45, lookingBackTo ?? sound.end))
    var to = sound.end + 0.15
    if let next { to = min(to, next.start) }
    to = min(to, Double(samples.count) / sampleRate)
    let fallback = min(sound.end, next?.start ?? sound.end)
    guard to - from > 0.03 else { return fallback }
    let (amplitude, time) = amplitudes(harmonics, from: from, to: to, window: window)
    let envelope = amplitude.map { 20 * log10(max($0, 1e-9)) }
    let perSecond = 1 / (time(1) - time(0))
    // The loudest point after the attack, the last point within 6 dB of it, and the sustained
    // level over the 150 ms before that point.
    let attackEnd = min(envelope.count - 1, max(0, Int((sound.start + 0.1 - from) * perSecond)))
    guard let top = envelope[attackEnd...].max() else { return fallback }
    var sustained = envelope.count - 1
    while sustained > attackEnd, envelope[sustained] < top - 6 { sustained -= 1 }
    let body = envelope[max(0, sustained - Int(0.15 * perSecond))...sustained].sorted()
    let sustain = body[body.count / 2]
    // The decay: from 3 to 15 dB under the sustained level, fitted as a line and met with it.
    var knee = sustained
    while knee + 1 < envelope.count, envelope[knee] >= sustain - 3 { knee += 1 }
    guard knee + 1 < envelope.count else {
      let ring = ringingEnd(envelope, top: top, from: attackEnd, perSecond: perSecond)
      return ring.map { time(Double($0)) } ?? fallback
    }
    var bottom = knee
    while bottom + 1 < envelope.count, envelope[bottom + 1] > sustain - 15 { bottom += 1 }
    guard bottom - knee >= 2, let line = Self.fitLine(envelope, knee...bottom), line.slope < 0 else {
      return time(Double(knee))
    }
    let crossing = (sustain - line.intercept) / line.slope
    return time(max(Double(knee) - 0.05 * perSecond, min(Double(knee), crossing)))
  }

  /// The end of a note released into a room's ring that the next note cuts short: the level never
  /// fell 6 dB under its top, but from the last point within ``ringTopDecibels`` of the top it
  /// falls steadily to the end, ``ringDropDecibels`` or more at ``ringDecayDecibelsPerSecond``
  /// or faster (a staccato C5 in a hall: 5 dB in the 130 ms before the next note, where the note
  /// itself had stopped at the first of them); `nil` otherwise (a held note, or one that swells
  /// or fades slowly into the next).
  ///
  /// - Parameters:
  ///   - envelope: The harmonics' level in dB, evenly spaced, to the next note.
  ///   - top: The envelope's highest level from `from` on.
  ///   - from: The first index after the attack.
  ///   - perSecond: Steps per second.
  /// - Returns: The index where the fall begins.
  func ringingEnd(_ envelope: [Double], top: Double, from: Int, perSecond: Double) -> Int? {
    let last = envelope.count - 1
    guard from < last else { return nil }
    var start = last
    while start > from, envelope[start] < top - ringTopDecibels { start -= 1 }
    guard last - start >= Int(0.04 * perSecond), envelope[last] <= top - ringDropDecibels,
      let line = Self.fitLine(envelope, start...last), line.slope * perSecond <= -ringDecayDecibelsPerSecond
    else { return nil }
    return start
  }

  /// The harmonics to follow for a note of `frequency` next to a note of `other`, and the
  /// window: after quiet, or next to the same pitch (a re-attack), every harmonic with the short
  /// window; next to another pitch, the harmonics clear of the other note's with the long
  /// window (longer still if none is clear; every harmonic if none ever is).
  func harmonics(of frequency: Double, near other: Double?) -> (harmonics: [Double], window: Double) {
    guard let other, abs(1200 * log2(frequency / other)) > 50 else {
      return (harmonics(of: frequency, clearOf: nil, window: detachedWindowSeconds), detachedWindowSeconds)
    }
    for window in [legatoWindowSeconds, legatoWindowSeconds * 1.5] {
      let clear = harmonics(of: frequency, clearOf: other, window: window)
      if !clear.isEmpty { return (clear, window) }
    }
    return (harmonics(of: frequency, clearOf: nil, window: legatoWindowSeconds), legatoWindowSeconds)
  }

  /// The harmonics that rise at the note: those whose peak from 20 ms before `start` to `to`
  /// stands 10 dB over their median level from `from` to 30 ms before `start`, or whose level
  /// there lies 20 dB under the strongest harmonic's peak (noise, not a note). In a room, an
  /// earlier note rings on some of them (a flute G4's 4th harmonic on a C5's 3rd), its modes
  /// beating, and the swell out of a trough was read as the start, 50 ms early. All of them when
  /// half or more of those that peak within 20 dB of the strongest would go, or when there is
  /// less than 30 ms to judge by.
  func unoccupied(
    _ harmonics: [Double], before start: Double, from: Double, to: Double, window: Double
  ) -> [Double] {
    guard harmonics.count > 1, start - 0.03 - from >= 0.03 else { return harmonics }
    let turning = phasors(harmonics, from: from, to: to, window: window)
    let quietEnd = Int((start - 0.03 - from) / stepSeconds)
    let loudStart = Int((start - 0.02 - from) / stepSeconds)
    let levels = harmonics.indices.map { h -> (before: Double, peak: Double)? in
      let magnitudes = turning.magnitudes(h)
      guard loudStart < magnitudes.count else { return nil }
      let before = magnitudes[..<quietEnd].sorted()
      return (before[before.count / 2], magnitudes[loudStart...].max() ?? 0)
    }
    let strongest = levels.compactMap { $0?.peak }.max() ?? 0
    let kept = harmonics.indices.filter { h in
      guard let level = levels[h] else { return true }
      return level.peak >= pow(10, 10.0 / 20) * level.before || level.before < 0.1 * strongest
    }
    // A ring takes a few of the note's harmonics, not most: when the note was already sounding
    // before `start` (the pitch track heard it late), all of them seem occupied.
    let audible = harmonics.indices.filter { (levels[$0]?.peak ?? .infinity) >= 0.1 * strongest }
    let occupied = audible.filter { !kept.contains($0) }
    return 2 * occupied.count < audible.count ? kept.map { harmonics[$0] } : harmonics
  }

  /// Whether `frequency` lies within 50 cents of twice `other`.
  static func isOctave(_ frequency: Double, above other: Double) -> Bool {
    frequency > 0 && other > 0 && abs(1200 * log2(frequency / (2 * other))) <= 50
  }

  /// The harmonics of `frequency` below the limits, leaving out those within 1.5 / window of a
  /// harmonic of `other`; none when `frequency` is a whole multiple of `other` (an octave, a
  /// twelfth, two octaves above it, within 50 cents): every harmonic is then the other note's
  /// too, and a few cents off the interval only parts the high ones by more than the window
  /// resolves (10 cents off an octave: a violin's 9th harmonic 27 Hz from the lower note's 18th,
  /// which timed an end on that faint harmonic alone, 230 ms early).
  func harmonics(of frequency: Double, clearOf other: Double?, window: Double) -> [Double] {
    if let other, other > 0 {
      let multiple = (frequency / other).rounded()
      if multiple >= 2, abs(1200 * log2(frequency / (multiple * other))) <= 50 { return [] }
    }
    let limit = min(maximumHarmonicHz, sampleRate / 2 - 200)
    let spacing = 1.5 / window
    var result: [Double] = []
    var k = 1
    while k <= maximumHarmonics, Double(k) * frequency < limit {
      let f = Double(k) * frequency
      k += 1
      if let other, other > 0 {
        let m = (f / other).rounded()
        if abs(f - m * other) < spacing || abs(f - (m + 1) * other) < spacing || abs(f - (m - 1) * other) < spacing {
          continue
        }
      }
      result.append(f)
    }
    return result
  }

  /// The envelope of `harmonics` from `from` to `to` seconds, and the time of a (fractional)
  /// index into it.
  ///
  /// Read from `signal` (``envelopeSignal`` when `nil`).
  func amplitudes(
    _ harmonics: [Double], from: Double, to: Double, window: Double, in signal: EnvelopeSignal? = nil
  ) -> ([Double], @Sendable (Double) -> Double) {
    let signal = signal ?? envelopeSignal
    let (start, count, hop) = signal.steps(from: from, to: to, stepSeconds: stepSeconds)
    let values = HarmonicEnvelope.amplitudes(
      of: signal.samples, sampleRate: signal.sampleRate, frequenciesHz: harmonics, start: start, count: count,
      hop: hop, windowSeconds: window)
    let rate = signal.sampleRate
    return (values, { (Double(start) + $0 * Double(hop)) / rate })
  }

  /// The complex amplitudes of `harmonics` from `from` to `to` seconds, on the same steps as
  /// ``amplitudes(_:from:to:window:in:)`` (read from ``envelopeSignal``).
  func phasors(_ harmonics: [Double], from: Double, to: Double, window: Double) -> HarmonicPhasors {
    let signal = envelopeSignal
    let (start, count, hop) = signal.steps(from: from, to: to, stepSeconds: stepSeconds)
    let groups = HarmonicEnvelope.groupPhasors(
      of: signal.samples, sampleRate: signal.sampleRate, frequenciesHz: harmonics, start: start, count: count,
      hop: hop, windowSeconds: window)
    var result = HarmonicPhasors(real: [], imaginary: [])
    for h in harmonics.indices {
      let (re, im) = groups[h / 4]
      result.real.append(re.map { $0[h % 4] })
      result.imaginary.append(im.map { $0[h % 4] })
    }
    return result
  }

  /// The least-squares line through `values[range]` against their indices.
  static func fitLine(_ values: [Double], _ range: ClosedRange<Int>) -> (slope: Double, intercept: Double)? {
    guard range.count >= 2 else { return nil }
    var sx = 0.0
    var sy = 0.0
    var sxx = 0.0
    var sxy = 0.0
    for i in range {
      let x = Double(i)
      sx += x
      sy += values[i]
      sxx += x * x
      sxy += x * values[i]
    }
    let n = Double(range.count)
    let denominator = n * sxx - sx * sx
    guard denominator != 0 else { return nil }
    let slope = (n * sxy - sx * sy) / denominator
    return (slope, (sy - slope * sx) / n)
  }
}

extension SoundBoundaryRefiner {
  /// A re-attack inside a sound: a dip in its harmonics within `within` seconds of `time`,
  /// after a fall of at least `riseDecibels` and followed within 80 ms by a rise of as much, or
  /// after a release of 6 dB that stops, the level within 50 ms standing 6 dB over the release
  /// continued (a quieter note after a louder one); `nil` when there is none. Of those dips
  /// ``reattackDecibels`` deep or more (or of all, when none is), the nearest to `time`.
  ///
  /// - Returns: The re-attack's time (where the new note emerges from the dip), in seconds.
  public func reattack(in sound: PerformanceSound, near time: Double, within: Double, riseDecibels: Double) -> Double? {
    guard sound.frequencyHz > 0 else { return nil }
    let from = max(sound.start + 0.05, time - within - 0.2)
    let to = min(sound.end - 0.02, time + within + 0.08)
    guard to - from > 0.05 else { return nil }
    let harmonics = harmonics(of: sound.frequencyHz, clearOf: nil, window: detachedWindowSeconds)
    let (envelope, timeOf) = amplitudes(harmonics, from: from, to: to, window: detachedWindowSeconds)
    let rise = pow(10, riseDecibels / 20)
    let look = Int(0.08 / stepSeconds)
    var dips: [(index: Int, depth: Double)] = []
    let searchEnd = max(0, envelope.count - look)
    let searchStart = max(1, Int(((time - within) - from) / stepSeconds))
    let fit = max(3, Int(0.03 / stepSeconds))
    let logs = envelope.map { log(max($0, 1e-12)) }
    for i in searchStart..<max(searchStart, searchEnd) where envelope[i] <= envelope[i - 1] && envelope[i] <= envelope[i + 1] {
      let after = envelope[(i + 1)...min(envelope.count - 1, i + look)].max() ?? 0
      let before = envelope[max(0, i - look)..<i].max() ?? 0
      guard envelope[i] > 0, before >= rise * envelope[i] else { continue }
      var depth = min(after, before) / envelope[i]
      if after < rise * envelope[i] {
        // A quieter note after a louder one may never rise above the dip: it stops the old
        // note's release instead. Then the level within 50 ms stands 6 dB or more above where
        // the release, continued, would have been.
        guard i >= fit, before >= 2 * envelope[i], let line = Self.fitLine(logs, (i - fit)...i),
          line.slope < 0
        else { continue }
        var excess = 0.0
        for j in (i + 1)...min(envelope.count - 1, i + Int(0.05 / stepSeconds)) where envelope[j] > 0 {
          excess = max(excess, logs[j] - (line.intercept + line.slope * Double(j)))
        }
        guard excess >= log(2) else { continue }
        depth = exp(excess)
      }
      dips.append((i, depth))
    }
    // The deepest dip was often the wrong one: a bowed note's attack, a burst then a trough
    // before the tone builds, or the room's ring over the old note's release, dip deeper than
    // the two notes' junction, 30–100 ms off.
    let due = (time - from) / stepSeconds
    let deepEnough = pow(10, reattackDecibels / 20)
    let deep = dips.filter { $0.depth >= deepEnough }
    let candidates = deep.isEmpty ? dips : deep
    guard let dip = candidates.min(by: { abs(Double($0.index) - due) < abs(Double($1.index) - due) })?.index
    else { return nil }
    var peak = dip
    for i in dip..<min(envelope.count, dip + look) where envelope[i] > envelope[peak] { peak = i }
    let turning = phasors(harmonics, from: from, to: to, window: detachedWindowSeconds)
    let onset = Self.riseUnderDecay(envelope, dipIndex: dip, peakIndex: peak, phasors: turning)?.index ?? Double(dip)
    return timeOf(onset)
  }

  /// Where a new note began under the decay of the one before it: the old note's decay,
  /// fitted as an exponential from where it left its sustained level, is taken away from the
  /// envelope, and the start is where what remains rises clear of the fit's error (between 3 %
  /// and 10 % of its peak), extended down the attack's line; or, taken away as amplitudes,
  /// where the envelope first fell under the fit, when it did before that (the new note out of
  /// phase with the old, see ``fallUnderDecay(_:_:after:to:)``).
  ///
  /// - Parameters:
  ///   - envelope: Amplitudes, evenly spaced.
  ///   - dipIndex: The lowest point between the notes.
  ///   - peakIndex: The new note's early peak (after the dip).
  ///   - phasors: The complex amplitudes of the harmonics summed in `envelope`, on the same
  ///     steps, if the decay is to be taken away as complex numbers where it can be (a flute's
  ///     repeat rises 30 dB under the old note's release before its amplitude shows: timed by
  ///     amplitudes alone, 10–30 ms late).
  /// - Returns: A fractional index, and whether the decay was taken away as complex numbers
  ///   (`false`: as amplitudes); `nil` when no decay can be fitted before the dip.
  static func riseUnderDecay(
    _ envelope: [Double], dipIndex: Int, peakIndex: Int, phasors: HarmonicPhasors? = nil
  ) -> (index: Double, byPhases: Bool)? {
    guard dipIndex > 8, peakIndex > dipIndex else { return nil }
    let lookBack = max(0, dipIndex - 200)
    guard let sustain = envelope[lookBack..<dipIndex].max(), sustain > 0 else { return nil }
    // The knee: the last point before the dip still at 80 % of the sustained level.
    var knee = dipIndex
    while knee > lookBack, envelope[knee] < 0.8 * sustain { knee -= 1 }
    guard dipIndex - knee >= 6 else { return nil }
    // The decay is fitted where the old note is falling: from 3 dB under the knee's level, for
    // at most 30 steps, while still 6 dB over the dip (where the new note starts to fill it
    // in). A swell or a wobble of the sustain just before the release would flatten a fit that
    // began at the knee, and the new note would seem to rise only once it passed the old level.
    var fitStart = knee
    while fitStart < dipIndex, envelope[fitStart] > 0.708 * envelope[knee] { fitStart += 1 }
    let longestFit = 30
    var fitEnd = fitStart
    while fitEnd + 1 < dipIndex, fitEnd - fitStart < longestFit, envelope[fitEnd + 1] > 2 * envelope[dipIndex] {
      fitEnd += 1
    }
    if fitEnd - fitStart < 3 {
      fitStart = knee
      fitEnd = knee + max(3, min(longestFit, (dipIndex - knee) / 2))
    }
    let logs = envelope.map { log(max($0, 1e-12)) }
    guard let decay = fitLine(logs, fitStart...fitEnd), decay.slope < 0 else { return nil }
    // What the new note adds. With the harmonics' phases, the decay is taken away as complex
    // numbers, and the new note shows from its first trace instead of once it outgrows the
    // decay (``HarmonicPhasors/residual(fitting:through:)``): when the dip lies within the
    // longest fit of the fitted span (further on, an old note's tail is seldom one exponential
    // still) and the phases follow the old note (the fit's worst miss under a tenth of the new
    // note's peak; a bowed string's release wavers). Otherwise as amplitudes.
    var remainder = [Double](repeating: 0, count: peakIndex + 1)
    var miss = 0.0
    var byPhases = false
    for i in knee...peakIndex {
      remainder[i] = max(0, envelope[i] - exp(decay.intercept + decay.slope * Double(i)))
    }
    for i in fitStart...fitEnd { miss = max(miss, abs(envelope[i] - exp(decay.intercept + decay.slope * Double(i)))) }
    if let phasors, dipIndex - fitEnd <= longestFit {
      // Over the first 20 steps at most: the phases fit the old note alone only until the new
      // note's first trace, which may come before the amplitudes' fit ends.
      let complexEnd = min(fitEnd, fitStart + 20)
      let residual = phasors.residual(fitting: fitStart...complexEnd, through: peakIndex)
      let complexMiss = residual[fitStart...complexEnd].max() ?? 0
      let complexTop = residual[dipIndex...peakIndex].max() ?? 0
      if complexTop > 0, complexMiss <= 0.1 * complexTop {
        for i in knee...peakIndex { remainder[i] = residual[i] }
        miss = complexMiss
        byPhases = true
      }
    }
    var top = dipIndex
    for i in dipIndex...peakIndex where remainder[i] > remainder[top] { top = i }
    // The new note is followed down to where it stands clear of what the decay's fit leaves
    // unexplained (twice its worst miss over the fitted span), and to no less than 3 % of its
    // peak: the lower, the nearer its true start.
    let threshold = max(0.03 * remainder[top], min(0.1 * remainder[top], 2 * miss))
    guard threshold > 0 else { return nil }
    var i = top
    while i > knee, remainder[i] > threshold { i -= 1 }
    var crossing = Double(i)
    if remainder[i + 1] > remainder[i] { crossing += (threshold - remainder[i]) / (remainder[i + 1] - remainder[i]) }
    // A slow attack passes that level after it began: extend the line through it and the half
    // of the peak down to zero (the start of a linear attack).
    var half = i + 1
    while half < top, remainder[half] < 0.5 * remainder[top] { half += 1 }
    let share = threshold / remainder[top]
    let extended = crossing - max(0, Double(half) - crossing) * share / (0.5 - share)
    // Taken away as amplitudes, the decay leaves only the new note's rise; but its first trace,
    // out of phase with the old note, may take from the decay before it adds to it: the
    // envelope falls under the fit and only then rises over it (a bowed repeat on a slow
    // attack, read 40–70 ms late). The fall is the start, if the old note, as fitted, was still
    // within 25 dB of its sustained level there (something left to take from: a note that
    // stops short falls under its fit too).
    if !byPhases, extended.isFinite,
      let fall = fallUnderDecay(logs, decay, after: fitEnd, to: min(dipIndex, Int(extended))), Double(fall) < extended,
      decay.intercept + decay.slope * Double(fall) >= log(sustain) - Self.fallUnderDecayDepth
    {
      return (Double(fall), false)
    }
    return (max(Double(knee), extended), byPhases)
  }

  /// How far under a fitted decay, and for how many steps in a row, a log envelope must fall
  /// for ``fallUnderDecay(_:_:after:to:)``: 4 dB, 5 steps.
  static let fallUnderDecayLog = log(pow(10, 4.0 / 20))
  static let fallUnderDecaySteps = 5
  /// How far under its sustained level the old note may have decayed where such a fall begins,
  /// as a natural log: 25 dB.
  static let fallUnderDecayDepth = log(pow(10, 25.0 / 20))

  /// The first step after `after`, and by `to`, from which the log envelope `logs` stays
  /// ``fallUnderDecayLog`` under the line `decay` for ``fallUnderDecaySteps`` steps; `nil` when
  /// there is none.
  static func fallUnderDecay(
    _ logs: [Double], _ decay: (slope: Double, intercept: Double), after: Int, to: Int
  ) -> Int? {
    var run = 0
    var index = after + 1
    while index <= to {
      run = logs[index] < decay.intercept + decay.slope * Double(index) - fallUnderDecayLog ? run + 1 : 0
      if run == fallUnderDecaySteps { return index - run + 1 }
      index += 1
    }
    return nil
  }
}

extension SoundBoundaryRefiner {
  /// The sound's pitch with a sub-octave error undone: when the odd harmonics of its frequency
  /// (1, 3, 5) carry less than `ratio` of the amplitude of the even ones (2, 4, 6) over the
  /// middle of the sound, the note is really an octave higher (a pitch tracker's classic
  /// mistake on a strong second harmonic).
  ///
  /// Under the ring of a previous note, the harmonics that lie within the window's resolution
  /// of that note's are left out and the first three odd and even ones of the rest compared,
  /// when at least two of each are left: a legato F4 after a C4 read as F3 has the
  /// C4's 2nd harmonic for its 3rd, which held the odd ones over a tenth of the even ones.
  ///
  /// - Parameters:
  ///   - sound: The sound.
  ///   - ratio: The most the odd harmonics may carry, against the even ones, for a note an
  ///     octave higher.
  ///   - other: The frequency of a note still ringing under the sound, if any, in Hz.
  /// - Returns: The frequency to use, in Hz.
  public func octaveChecked(_ sound: PerformanceSound, ratio: Double = 0.1, ringing other: Double? = nil) -> Double {
    let f = sound.frequencyHz
    guard f > 0, 6 * f < sampleRate / 2, sound.duration > 0.06 else { return f }
    let middle = (sound.start + sound.end) / 2
    let from = max(sound.start + 0.02, middle - 0.04)
    let to = min(sound.end - 0.02, middle + 0.04)
    guard to > from else { return f }
    var oddHarmonics = [f, 3 * f, 5 * f]
    var evenHarmonics = [2 * f, 4 * f, 6 * f]
    if let other, other > 0 {
      let clear = Set(harmonics(of: f, clearOf: other, window: 0.04).map { ($0 / f).rounded() })
      let odd = [1.0, 3, 5, 7, 9].filter { clear.contains($0) }.map { $0 * f }
      let even = [2.0, 4, 6, 8, 10].filter { clear.contains($0) }.map { $0 * f }
      if odd.count >= 2, even.count >= 2 {
        oddHarmonics = Array(odd.prefix(3))
        evenHarmonics = Array(even.prefix(3))
      }
    }
    let signal = envelopeSignal(holding: (oddHarmonics + evenHarmonics).max() ?? 0)
    let (odd, _) = amplitudes(oddHarmonics, from: from, to: to, window: 0.04, in: signal)
    let (even, _) = amplitudes(evenHarmonics, from: from, to: to, window: 0.04, in: signal)
    let oddMean = odd.reduce(0, +) / Double(max(1, odd.count))
    let evenMean = even.reduce(0, +) / Double(max(1, even.count))
    return evenMean > 0 && oddMean < ratio * evenMean ? 2 * f : f
  }
}

extension SoundBoundaryRefiner {
  /// Whether a note read at `frequency` after a note at the same pitch is really an octave
  /// higher: across its attack at `start`, the even harmonics of `frequency` rise by 10 dB or
  /// more (means over 30 ms before and 50 ms from 30 ms after, 20 ms windows) while the odd ones
  /// rise by less than 3 dB; they are the ring of the note before. (An E5 after an E4 in a
  /// room: the E4's ring held the odd harmonics 17 dB under the E5's even ones for its whole
  /// length, so ``octaveChecked(_:ratio:ringing:)`` kept the E4 the causal pitch track read.)
  /// A note played again at the same pitch raises both.
  ///
  /// - Parameters:
  ///   - frequency: The pitch the note was read at, in Hz.
  ///   - start: The note's start, in seconds.
  func attacksAnOctaveHigher(_ frequency: Double, at start: Double) -> Bool {
    guard frequency > 0, 6 * frequency < sampleRate / 2, start > 0.05 else { return false }
    let signal = envelopeSignal(holding: 6 * frequency)
    func mean(_ multiples: [Double], from: Double, to: Double) -> Double {
      let (envelope, _) = amplitudes(multiples.map { $0 * frequency }, from: from, to: to, window: 0.02, in: signal)
      return envelope.reduce(0, +) / Double(max(1, envelope.count))
    }
    let oddBefore = mean([1, 3, 5], from: start - 0.04, to: start - 0.01)
    let evenBefore = mean([2, 4, 6], from: start - 0.04, to: start - 0.01)
    let oddAfter = mean([1, 3, 5], from: start + 0.03, to: start + 0.08)
    let evenAfter = mean([2, 4, 6], from: start + 0.03, to: start + 0.08)
    return evenAfter > 3.16 * evenBefore && oddAfter < 1.41 * oddBefore
  }
}

extension SoundBoundaryRefiner {
  /// Where a sound read at one pitch holds two notes an octave apart: a legato leap of an
  /// octave that the pitch tracker followed on the lower note's period (the upper note's
  /// partials are all partials of the lower one). Over the sound, every 10 ms, the odd
  /// harmonics of its frequency (1, 3) against the even ones (2, 4): where the odd ones
  /// are under a tenth of the even ones the note is an octave higher. A split is reported when
  /// at least 80 ms on one side have them and 80 ms on the other lack them, four fifths of the
  /// frames on each side agreeing.
  ///
  /// - Returns: The time of the leap, in seconds, and whether the upper note comes first; `nil`
  ///   when the sound is one note (or too short to tell, under 0.25 s).
  public func octaveLeap(in sound: PerformanceSound) -> (seconds: Double, upperFirst: Bool)? {
    let f = sound.frequencyHz
    guard f > 0, 4 * f < sampleRate / 2, sound.duration >= 0.25 else { return nil }
    let signal = envelopeSignal(holding: 4 * f)
    let hop = max(1, Int((0.01 * signal.sampleRate).rounded()))
    let start = Int(((sound.start + 0.03) * signal.sampleRate).rounded())
    let count = Int(((sound.duration - 0.06) * signal.sampleRate) / Double(hop)) + 1
    guard count >= 16 else { return nil }
    // One pass over harmonics 1-4: odd = 1 + 3, even = 2 + 4.
    let lanes = HarmonicEnvelope.laneAmplitudes(
      of: signal.samples, sampleRate: signal.sampleRate, frequenciesHz: [f, 2 * f, 3 * f, 4 * f], start: start,
      count: count, hop: hop, windowSeconds: 0.04)
    let odd = lanes.map { $0[0] + $0[2] }
    let even = lanes.map { $0[1] + $0[3] }
    // +1 where the odd harmonics are there, −1 where they are missing, 0 where unsure.
    let labels = zip(odd, even).map { o, e -> Int in
      guard e > 0 else { return 0 }
      return o < 0.1 * e ? -1 : o > 0.3 * e ? 1 : 0
    }
    let minimum = 8
    var best: (k: Int, score: Double, upperFirst: Bool)?
    for k in minimum...(count - minimum) {
      let before = labels[..<k]
      let after = labels[k...]
      for upperFirst in [false, true] {
        let first = upperFirst ? -1 : 1
        let agreeBefore = Double(before.filter { $0 == first }.count) / Double(before.count)
        let agreeAfter = Double(after.filter { $0 == -first }.count) / Double(after.count)
        guard agreeBefore >= 0.8, agreeAfter >= 0.8 else { continue }
        let score = agreeBefore + agreeAfter
        if score > best?.score ?? 0 { best = (k, score, upperFirst) }
      }
    }
    guard let best else { return nil }
    return ((Double(start) + Double(best.k) * Double(hop)) / signal.sampleRate, best.upperFirst)
  }
}

extension SoundBoundaryRefiner {
  /// Whether a note of `frequency` has harmonics clear of a different note of `other` (false
  /// for the same pitch, and for a note whose harmonics all fall on the other's, such as an
  /// octave above it).
  public func hasClearHarmonics(of frequency: Double, near other: Double) -> Bool {
    guard frequency > 0, other > 0, abs(1200 * log2(frequency / other)) > 50 else { return false }
    return !harmonics(of: frequency, clearOf: other, window: legatoWindowSeconds * 1.5).isEmpty
  }
}

extension SoundBoundaryRefiner {
  /// The dip in the harmonics of a note around `time`: the lowest point within 60 ms of it,
  /// and how far the level falls to it from the loudest point in the 120 ms before and rises
  /// from it to the loudest in the 120 ms after, on the short window.
  ///
  /// - Parameters:
  ///   - time: Where a split was found, in seconds.
  ///   - frequencyHz: The note's frequency, in Hz.
  /// - Returns: The fall and the rise, in dB (0 when there is no signal around `time`, NaN when
  ///   the samples around it are not finite: every comparison with a threshold is then false).
  public func dip(at time: Double, frequencyHz: Double) -> (fall: Double, rise: Double) {
    guard frequencyHz > 0 else { return (0, 0) }
    let harmonics = harmonics(of: frequencyHz, clearOf: nil, window: detachedWindowSeconds)
    let from = max(0, time - 0.12)
    let (envelope, _) = amplitudes(harmonics, from: from, to: time + 0.12, window: detachedWindowSeconds)
    let low = max(0, Int(((time - 0.06) - from) / stepSeconds))
    let high = min(envelope.count, Int(((time + 0.06) - from) / stepSeconds) + 1)
    guard low < high else { return (0, 0) }
    // Non-finite samples around the split: no measure, and no decision taken on one.
    guard envelope.allSatisfy(\.isFinite) else { return (.nan, .nan) }
    var lowest = low
    for i in low..<high where envelope[i] < envelope[lowest] { lowest = i }
    let minimum = envelope[lowest]
    let before = envelope[...lowest].max() ?? minimum
    let after = envelope[lowest...].max() ?? minimum
    let floor = max(minimum, 1e-9)
    return (20 * log10(max(before, floor) / floor), 20 * log10(max(after, floor) / floor))
  }

  /// How the loudest point of a sound's harmonics after `time` compares with their loudest
  /// point before `end`, in dB (0: as loud; −10: 10 dB quieter); `nil` when nothing sounds
  /// before `end`.
  ///
  /// - Parameters:
  ///   - sound: The sound (its pitch and span).
  ///   - time: Where the later part begins, in seconds.
  ///   - end: Where the earlier part ends, in seconds (no later than `time`).
  func peakChange(in sound: PerformanceSound, after time: Double, before end: Double) -> Double? {
    let harmonics = harmonics(of: sound.frequencyHz, clearOf: nil, window: detachedWindowSeconds)
    let (envelope, _) = amplitudes(harmonics, from: sound.start, to: sound.end, window: detachedWindowSeconds)
    let split = max(0, min(envelope.count - 1, Int((time - sound.start) / stepSeconds)))
    let stop = max(0, min(split, Int((end - sound.start) / stepSeconds)))
    guard let before = envelope[0...stop].max(), let after = envelope[split...].max(), before > 0 else { return nil }
    return 20 * log10(after / before)
  }
}
