/// How one sample is stored in an audio file or raw PCM stream (little-endian throughout).
public enum SampleEncoding: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
  /// 8-bit unsigned integer, 128 = silence.
  case unsigned8 = "u8"
  /// 16-bit signed integer.
  case signed16 = "s16"
  /// 24-bit signed integer, packed in 3 bytes.
  case signed24 = "s24"
  /// 32-bit signed integer.
  case signed32 = "s32"
  /// 32-bit IEEE float.
  case float32 = "f32"
  /// 64-bit IEEE float.
  case float64 = "f64"

  /// Bytes per sample.
  public var bytesPerSample: Int {
    switch self {
    case .unsigned8: 1
    case .signed16: 2
    case .signed24: 3
    case .signed32, .float32: 4
    case .float64: 8
    }
  }

  /// Bits per sample.
  public var bitsPerSample: Int { bytesPerSample * 8 }

  /// Whether samples are IEEE floats.
  public var isFloat: Bool { self == .float32 || self == .float64 }

  /// A readable name such as `"16-bit integer PCM"` or `"32-bit float"`.
  public var description: String {
    isFloat ? "\(bitsPerSample)-bit float" : "\(bitsPerSample)-bit integer PCM"
  }

  /// Decodes one channel of `frameCount` interleaved frames from raw little-endian bytes, scaled
  /// to `-1...1` for integers (16-bit: x/32768; 8-bit: (x−128)/128; 24-bit: x/2²³; 32-bit: x/2³¹).
  ///
  /// - Parameters:
  ///   - bytes: At least `frameCount × channelCount × bytesPerSample` bytes.
  ///   - frameCount: Frames to decode.
  ///   - channel: The channel to extract, `0..<channelCount`.
  ///   - channelCount: Channels per frame.
  ///   - out: Room for `frameCount` samples.
  func decode(
    _ bytes: UnsafeRawBufferPointer, frameCount: Int, channel: Int, channelCount: Int,
    into out: UnsafeMutablePointer<Float>
  ) {
    let width = bytesPerSample
    precondition(bytes.count >= frameCount * channelCount * width && channel < channelCount)
    guard let base = bytes.baseAddress else { return }
    var offset = channel * width
    let stride = channelCount * width
    switch self {
    case .unsigned8:
      for i in 0..<frameCount {
        out[i] = (Float(base.load(fromByteOffset: offset, as: UInt8.self)) - 128) / 128
        offset += stride
      }
    case .signed16:
      for i in 0..<frameCount {
        let v = Int16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: Int16.self))
        out[i] = Float(v) * (1 / 32768)
        offset += stride
      }
    case .signed24:
      for i in 0..<frameCount {
        let b0 = Int32(base.load(fromByteOffset: offset, as: UInt8.self))
        let b1 = Int32(base.load(fromByteOffset: offset + 1, as: UInt8.self))
        let b2 = Int32(base.load(fromByteOffset: offset + 2, as: Int8.self))
        out[i] = Float(b0 | (b1 << 8) | (b2 << 16)) * (1 / 8_388_608)
        offset += stride
      }
    case .signed32:
      for i in 0..<frameCount {
        let v = Int32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: Int32.self))
        out[i] = Float(Double(v) * (1 / 2_147_483_648))
        offset += stride
      }
    case .float32:
      for i in 0..<frameCount {
        let bits = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        out[i] = Float(bitPattern: bits)
        offset += stride
      }
    case .float64:
      for i in 0..<frameCount {
        let bits = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        out[i] = Float(Double(bitPattern: bits))
        offset += stride
      }
    }
  }

  /// Encodes planar channels as interleaved little-endian samples, appending to `bytes`.
  ///
  /// Integer encodings round to nearest and saturate at full scale (so 1.0 becomes 32767 in
  /// 16-bit, and ±∞ the extremes); NaN encodes as 0 (128 in 8-bit). Float encodings store values
  /// as they are.
  ///
  /// - Parameters:
  ///   - channels: Planar samples, all the same length.
  ///   - range: The frames to encode.
  ///   - bytes: The output, appended to.
  package func encode(_ channels: [[Float]], frames range: Range<Int>, appendingTo bytes: inout [UInt8]) {
    let channelCount = channels.count
    let width = bytesPerSample
    let start = bytes.count
    let stride = channelCount * width
    bytes.append(contentsOf: repeatElement(0, count: range.count * stride))
    bytes.withUnsafeMutableBytes { raw in
      guard let base = raw.baseAddress?.advanced(by: start) else { return }
      for (c, channel) in channels.enumerated() {
        channel.withUnsafeBufferPointer { samples in
          let out = base.advanced(by: c * width)
          encodeChannel(samples, frames: range, into: out, stride: stride)
        }
      }
    }
  }

  /// Encodes frames `range` of one channel to `out`, one sample every `stride` bytes.
  private func encodeChannel(
    _ samples: UnsafeBufferPointer<Float>, frames range: Range<Int>, into out: UnsafeMutableRawPointer,
    stride: Int
  ) {
    var offset = 0
    // One loop per encoding, so the per-sample work has no switch in it.
    switch self {
    case .unsigned8:
      for i in range {
        let v = UInt8(Self.quantize(samples[i], scale: 128, min: -128, max: 127) + 128)
        out.storeBytes(of: v, toByteOffset: offset, as: UInt8.self)
        offset += stride
      }
    case .signed16:
      for i in range {
        let v = Int16(Self.quantize(samples[i], scale: 32768, min: -32768, max: 32767))
        out.storeBytes(of: v.littleEndian, toByteOffset: offset, as: Int16.self)
        offset += stride
      }
    case .signed24:
      for i in range {
        let v = Int32(Self.quantize(samples[i], scale: 8_388_608, min: -8_388_608, max: 8_388_607))
        out.storeBytes(of: UInt8(truncatingIfNeeded: v), toByteOffset: offset, as: UInt8.self)
        out.storeBytes(of: UInt8(truncatingIfNeeded: v >> 8), toByteOffset: offset + 1, as: UInt8.self)
        out.storeBytes(of: UInt8(truncatingIfNeeded: v >> 16), toByteOffset: offset + 2, as: UInt8.self)
        offset += stride
      }
    case .signed32:
      for i in range {
        let v = Int32(Self.quantize(samples[i], scale: 2_147_483_648, min: -2_147_483_648, max: 2_147_483_647))
        out.storeBytes(of: v.littleEndian, toByteOffset: offset, as: Int32.self)
        offset += stride
      }
    case .float32:
      for i in range {
        out.storeBytes(of: samples[i].bitPattern.littleEndian, toByteOffset: offset, as: UInt32.self)
        offset += stride
      }
    case .float64:
      for i in range {
        out.storeBytes(of: Double(samples[i]).bitPattern.littleEndian, toByteOffset: offset, as: UInt64.self)
        offset += stride
      }
    }
  }

  /// `x × scale` rounded to nearest and clamped to `min...max`; NaN gives 0.
  static func quantize(_ x: Float, scale: Double, min: Double, max: Double) -> Int64 {
    guard !x.isNaN else { return 0 }
    return Int64(Swift.min(Swift.max((Double(x) * scale).rounded(), min), max))
  }
}
