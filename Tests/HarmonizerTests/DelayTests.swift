import Foundation
import Testing
import _TestSupport

@testable import Harmonizer

@Suite struct DelayTests {
  let rate = 48_000.0

  func wetDelay(time: Float, feedback: Float) -> Delay {
    var delay = Delay(sampleRate: rate)
    delay.timeSeconds = time
    delay.feedbackAmount = feedback
    delay.mixAmount = 1
    delay.setValue(20_000, at: Delay.Parameter.damping.rawValue)
    delay.reset()
    return delay
  }

  /// The sum of the samples within ±40 of `center`.
  func echo(_ x: [Float], at center: Int) -> Float {
    x[(center - 40)...(center + 40)].reduce(0, +)
  }

  @Test func theEchoComesAtTheSetTimeAndFeedbackSetsTheDecay() {
    var delay = wetDelay(time: 0.1, feedback: 0.5)
    let output = EffectTestSignals.run(&delay, EffectTestSignals.impulse(count: 16_000))
    let first = output.indices.max { abs(output[$0]) < abs(output[$1]) }!
    #expect(first == 4800)
    #expect(abs(echo(output, at: 4800) - 1) < 0.01)
    // The damping low-pass has unity gain at DC, so each echo's sum is feedback × the previous.
    #expect(abs(echo(output, at: 9600) / echo(output, at: 4800) - 0.5) < 0.01)
    #expect(abs(echo(output, at: 14_400) / echo(output, at: 9600) - 0.5) < 0.01)
    #expect(Signal.peak(output[0..<4700]) < 1e-6)
  }

  @Test func tempoSyncSetsTheTimeFromBeatsAndTempo() {
    var delay = wetDelay(time: 0.1, feedback: 0)
    delay.sync(bpm: 120, beats: 0.75)  // a dotted eighth: 0.375 s
    delay.reset()
    #expect(abs(delay.effectiveSeconds - 0.375) < 1e-4)
    let output = EffectTestSignals.run(&delay, EffectTestSignals.impulse(count: 20_000))
    #expect(output.indices.max { abs(output[$0]) < abs(output[$1]) }! == 18_000)
  }

  @Test func dampingDarkensTheRepeats() {
    var delay = wetDelay(time: 0.05, feedback: 0.7)
    delay.setValue(1000, at: Delay.Parameter.damping.rawValue)
    delay.reset()
    let output = EffectTestSignals.run(&delay, EffectTestSignals.impulse(count: 12_000))
    // The second echo is smeared by the low-pass: lower peak, same sum.
    #expect(Signal.peak(output[4500...5100]) < 0.5 * Signal.peak(output[2300...2500]))
  }

  @Test func changingTheTimeWhileRunningCrossfadesWithoutAClick() {
    var delay = Delay(sampleRate: rate)
    delay.mixAmount = 1
    delay.feedbackAmount = 0
    delay.reset()
    let sine = SignalGenerator(sampleRate: rate).sine(frequencyHz: 220, amplitude: 0.5, length: .seconds(1))
    var output = EffectTestSignals.run(&delay, Array(sine[0..<24_000]))
    delay.timeSeconds = 0.123
    output += EffectTestSignals.run(&delay, Array(sine[24_000...]))
    let steady = EffectTestSignals.largestJump(output, in: 20_000..<24_000)
    // A crossfade between two sines of the same amplitude: at most the sine's own slope plus
    // the fade's (1 / 960 per sample of a difference of at most 1).
    #expect(EffectTestSignals.largestJump(output, in: 24_000..<26_000) < steady + 1.0 / 900)
  }
}
