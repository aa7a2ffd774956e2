import Foundation
import Testing
import _TestSupport

@testable import PerformanceTracking

/// What the offline tracker does to the sounds it links.
@Suite struct PerformanceTrackerTests {
  static let rate = 44_100.0

  /// A G5 at 784 Hz, from 0.1 to 0.6 s of a second.
  static let samples = SoundBoundaryRefinerTests.tone(783.99, seconds: 1, from: 0.1, to: 0.6) { _ in 0.1 }

  static func sound(frequencyHz: Double, trackCents: [Double]) -> PerformanceSound {
    var sound = PerformanceSound(start: 0.1, end: 0.6, frequencyHz: frequencyHz, peakLevelDBFS: -20)
    sound.pitchTrack = trackCents.enumerated().map { k, cents in
      .init(time: 0.2 + 0.01 * Double(k), frequencyHz: frequencyHz * pow(2, cents / 1200))
    }
    return sound
  }

  @Test func aDoubtfulPitchIsReadAgainFromTheSpectrum() {
    let tracker = PerformanceTracker(notes: [])
    let refiner = SoundBoundaryRefiner(samples: Self.samples, sampleRate: Self.rate)
    // Read 14 cents off G#5 (a semitone and 14 cents sharp of the note), with a track wandering
    // 80 cents: doubtful, and the spectrum says G5.
    let wandering = Self.sound(frequencyHz: 837.4, trackCents: (0..<20).map { Double($0) * 4 - 40 })
    let checked = tracker.checkedPitch(of: wandering, refiner: refiner).frequencyHz
    #expect(abs(1200 * log2(checked / 783.99)) <= 5, "\(checked)")
    // Read 30 cents flat with a steady track: off the semitones, so doubtful too.
    let flat = Self.sound(frequencyHz: 783.99 * pow(2, -30.0 / 1200), trackCents: [Double](repeating: 0, count: 20))
    let flatChecked = tracker.checkedPitch(of: flat, refiner: refiner).frequencyHz
    #expect(abs(1200 * log2(flatChecked / 783.99)) <= 5, "\(flatChecked)")
    // Read 10 cents sharp with a steady track: trusted as it is, whatever the spectrum says.
    let sharp = Self.sound(frequencyHz: 783.99 * pow(2, 10.0 / 1200), trackCents: [Double](repeating: 0, count: 20))
    #expect(tracker.checkedPitch(of: sharp, refiner: refiner).frequencyHz == sharp.frequencyHz)
  }
}
