import Foundation
import _TestSupport

@testable import PitchDSP

/// The largest round-trip error an encoding allows: half a quantization step (plus float slack).
func roundTripTolerance(_ encoding: SampleEncoding) -> Float {
  switch encoding {
  case .unsigned8: 0.5 / 128 + 1e-7
  case .signed16: 0.5 / 32768 + 1e-7
  case .signed24: 0.5 / 8_388_608 + 1e-7
  case .signed32: 1e-7
  case .float32, .float64: 0
  }
}

/// Sines at 100 Hz × (channel + 1), amplitude 0.9: every channel distinct.
func testBuffer(channels: Int, rate: Double, frames: Int) -> AudioBuffer {
  let generator = SignalGenerator(sampleRate: rate)
  return AudioBuffer(
    sampleRate: rate,
    channels: (0..<channels).map { c in
      generator.sine(frequencyHz: 100 * Double(c + 1), amplitude: 0.9, length: .frames(frames))
    })
}

/// The largest absolute difference between two buffers' samples (∞ when their shapes differ).
func largestDifference(_ a: AudioBuffer, _ b: AudioBuffer) -> Float {
  guard a.channelCount == b.channelCount, a.frameCount == b.frameCount else { return .infinity }
  var worst: Float = 0
  for c in 0..<a.channelCount {
    for i in 0..<a.frameCount { worst = max(worst, abs(a.channels[c][i] - b.channels[c][i])) }
  }
  return worst
}

/// A fresh empty directory, removed by `cleanup()`.
struct TemporaryDirectory {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("etude-io-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  func file(_ name: String) -> URL { url.appendingPathComponent(name) }

  func contents() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
  }

  func cleanup() {
    // Test cleanup: a leftover directory in /tmp is harmless.
    try? FileManager.default.removeItem(at: url)
  }
}

extension [UInt8] {
  /// Appends a little-endian 16-bit value.
  mutating func le16(_ v: Int) { append(contentsOf: [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)]) }
  /// Appends a little-endian 32-bit value.
  mutating func le32(_ v: Int) { for s in [0, 8, 16, 24] { append(UInt8((v >> s) & 0xFF)) } }
  /// Appends a little-endian 64-bit value.
  mutating func le64(_ v: Int) { le32(v & 0xFFFF_FFFF); le32(v >> 32) }
  /// Appends a four-character code.
  mutating func fourCC(_ id: String) { append(contentsOf: Array(id.utf8)) }

  /// Overwrites bytes at `offset`.
  func replacing(_ offset: Int, with bytes: [UInt8]) -> [UInt8] {
    var copy = self
    copy.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
    return copy
  }
}
