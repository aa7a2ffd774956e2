/// The CRC-32 checksum of ZIP, gzip and PNG (ISO 3309, reflected polynomial `0xEDB88320`).
///
/// Feed bytes with ``update(_:)`` in as many pieces as convenient; ``value`` is the checksum of all
/// bytes so far. `CRC32.checksum(of: Array("123456789".utf8)) == 0xCBF4_3926`.
///
/// - Complexity: O(n), slicing by 8 bytes (several hundred MB/s in release builds).
package struct CRC32: Sendable {
  private var state: UInt32 = 0xFFFF_FFFF

  /// A checksum of no bytes (its ``value`` is 0).
  package init() {}

  /// The checksum of the bytes fed so far.
  package var value: UInt32 { ~state }

  /// Feeds `bytes` into the checksum.
  package mutating func update(_ bytes: UnsafeRawBufferPointer) {
    guard var pointer = bytes.baseAddress else { return }
    var remaining = bytes.count
    var crc = state
    Self.table.withUnsafeBufferPointer { table in
      let t = table.baseAddress!
      while remaining >= 8 {
        let low = UInt32(littleEndian: pointer.loadUnaligned(as: UInt32.self)) ^ crc
        let high = UInt32(littleEndian: pointer.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        crc =
          t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
          ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
          ^ t[3 * 256 + Int(high & 0xFF)] ^ t[2 * 256 + Int((high >> 8) & 0xFF)]
          ^ t[1 * 256 + Int((high >> 16) & 0xFF)] ^ t[Int(high >> 24)]
        pointer += 8
        remaining -= 8
      }
      while remaining > 0 {
        crc = t[Int((crc ^ UInt32(pointer.load(as: UInt8.self))) & 0xFF)] ^ (crc >> 8)
        pointer += 1
        remaining -= 1
      }
    }
    state = crc
  }

  /// Feeds `bytes` into the checksum.
  package mutating func update(_ bytes: some Sequence<UInt8>) {
    let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
    if done == nil {
      let copy = Array(bytes)
      copy.withUnsafeBytes { update($0) }
    }
  }

  /// The checksum of `bytes`.
  package static func checksum(of bytes: some Sequence<UInt8>) -> UInt32 {
    var crc = CRC32()
    crc.update(bytes)
    return crc.value
  }

  /// The checksum of `bytes`.
  package static func checksum(of bytes: UnsafeRawBufferPointer) -> UInt32 {
    var crc = CRC32()
    crc.update(bytes)
    return crc.value
  }

  /// Eight 256-entry tables: table k gives the CRC of a byte followed by k zero bytes.
  private static let table: [UInt32] = {
    var table = [UInt32](repeating: 0, count: 8 * 256)
    for byte in 0..<256 {
      var crc = UInt32(byte)
      for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
      table[byte] = crc
    }
    for byte in 0..<256 {
      for k in 1..<8 {
        let previous = table[(k - 1) * 256 + byte]
        table[k * 256 + byte] = table[Int(previous & 0xFF)] ^ (previous >> 8)
      }
    }
    return table
  }()
}
