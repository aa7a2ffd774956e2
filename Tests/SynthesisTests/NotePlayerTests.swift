import Foundation
import PitchDSP
import Testing

@testable import Synthesis

@Suite struct NotePlayerTests {
  static func render<V: SynthVoice>(_ player: inout NotePlayer<V>, blockSize: Int, total: Int) -> [Float] {
    var samples = [Float](repeating: 0, count: total)
    samples.withUnsafeMutableBufferPointer { buffer in
      var offset = 0
      while offset < total {
        let n = min(blockSize, total - offset)
        player.render(into: UnsafeMutableBufferPointer(rebasing: buffer[offset..<(offset + n)]))
        offset += n
      }
    }
    return samples
  }

  static let song: [NoteEvent] = [
    NoteEvent(startSeconds: 0.0, durationSeconds: 0.2, pitch: 64, velocity: 100),
    NoteEvent(startSeconds: 0.1234, durationSeconds: 0.3, pitch: 67, velocity: 80),
    NoteEvent(startSeconds: 0.25, durationSeconds: 0.1, pitch: 71, velocity: 120),
    NoteEvent(startSeconds: 0.25, durationSeconds: 0.05, pitch: 40, velocity: 60),
    NoteEvent(startSeconds: 0.40001, durationSeconds: 0.2, pitch: 64, velocity: 100),
  ]

  @Test func blockSizesDoNotChangeTheOutput() {
    for instrument in [Guitar(), Guitar(timbre: .simple)] {
      var reference: [Float]?
      for blockSize in [1, 7, 64, 4096] {
        var player = NotePlayer(notes: Self.song, instrument: instrument, sampleRate: 44_100, polyphony: 3)
        let samples = Self.render(&player, blockSize: blockSize, total: 30_000)
        if let reference { #expect(samples == reference, "\(instrument.timbre), blocks of \(blockSize)") }
        reference = samples
      }
    }
    var reference: [Float]?
    for blockSize in [1, 7, 64, 4096] {
      var player = NotePlayer(
        notes: Self.song, instrument: OscillatorInstrument(waveform: .sawtooth), sampleRate: 48_000, polyphony: 2)
      let samples = Self.render(&player, blockSize: blockSize, total: 30_000)
      if let reference { #expect(samples == reference, "oscillator, blocks of \(blockSize)") }
      reference = samples
    }
  }

  @Test func notesStartAtTheirFrame() throws {
    // Four notes apart; each starts at its exact frame (silence before it) and the onset
    // detector finds each within 5 ms.
    let starts = [0.1, 0.3771, 0.65, 0.9013]
    let notes = starts.map { NoteEvent(startSeconds: $0, durationSeconds: 0.15, pitch: 57, velocity: 110) }
    let rate = 44_100.0
    var player = NotePlayer(notes: notes, instrument: Guitar(), sampleRate: rate, polyphony: 2)
    let samples = Self.render(&player, blockSize: 512, total: Int(1.2 * rate))
    for start in starts {
      let frame = Int((start * rate).rounded())
      #expect(samples[frame - 1] == 0 || start != starts[0], "sound before the first note")
      #expect(samples[frame..<(frame + 20)].contains { $0 != 0 }, "no sound at \(start)")
    }
    let detector = try AmplitudeOnsetDetector(configuration: .init(sampleRate: rate))
    let onsets = detector.onsets(for: samples).map(\.time)
    for start in starts {
      let nearest = onsets.min { abs($0 - start) < abs($1 - start) }
      #expect(nearest.map { abs($0 - start) < 0.005 } == true, "onset near \(start): \(onsets)")
    }
  }

  @Test func finishesRendersAllAndReportsItsDuration() {
    var player = NotePlayer(notes: Self.song, instrument: Guitar(), sampleRate: 22_050, polyphony: 4)
    #expect(abs(player.durationSeconds - 0.60001) < 1e-9)
    #expect(!player.isFinished)
    let all = player.renderAll(tailSeconds: 2)
    // Stops once the strings are silent (released strings die in ~0.1 s), well before the tail ends.
    #expect(all.count > Int(0.6 * 22_050))
    #expect(all.count < Int(1.2 * 22_050))
    // renderAll leaves the player untouched and matches rendering it block by block.
    let blocks = Self.render(&player, blockSize: 333, total: all.count)
    #expect(blocks == all)
    var rest = [Float](repeating: 1, count: 22_050)
    rest.withUnsafeMutableBufferPointer { player.render(into: $0) }
    #expect(player.isFinished)
    #expect(rest.allSatisfy { $0 == 0 })
  }

  @Test func oddNotesAreSkippedOrClamped() {
    let notes = [
      NoteEvent(startSeconds: .nan, durationSeconds: 1, pitch: 60, velocity: 100),
      NoteEvent(startSeconds: -1, durationSeconds: 1, pitch: 60, velocity: 100),
      NoteEvent(startSeconds: 0, durationSeconds: .infinity, pitch: .nan, velocity: -5),
      NoteEvent(startSeconds: 0.01, durationSeconds: -3, pitch: 1e6, velocity: 1000),
    ]
    let player = NotePlayer(notes: notes, instrument: Guitar(), sampleRate: .nan, polyphony: -2)
    #expect(player.sampleRate == 44_100)
    let all = player.renderAll(tailSeconds: .nan)
    #expect(all.allSatisfy { $0.isFinite })
    let empty = NotePlayer(notes: [], instrument: OscillatorInstrument(), sampleRate: 8000, polyphony: 1)
    #expect(empty.durationSeconds == 0)
    #expect(empty.isFinished)
    #expect(empty.renderAll().count == 0)
  }

  @Test func aTabPlaysInTuneThroughThePlayer() throws {
    let notes = try Tab(parsing: Tab.seedExampleText).notes(tempo: 60)
    let player = NotePlayer(notes: notes, instrument: Guitar(), sampleRate: 44_100, polyphony: 6)
    let samples = player.renderAll()
    // The first note, G4 (string 1, fret 3), lasts 1.5 s.
    let target = GuitarTuning.standard.frequencyHz(string: 1, fret: 3)!
    let measured = FrequencyMeasurement.frequencyHz(samples, sampleRate: 44_100, nearHz: target, start: 4410)
    #expect(abs(FrequencyMeasurement.cents(measured, from: target)) < 2)
  }
}
