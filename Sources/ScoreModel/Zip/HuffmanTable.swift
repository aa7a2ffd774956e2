/// A canonical Huffman code for DEFLATE, decoded by table lookup.
///
/// Codes of up to ``primaryBits`` bits decode with one lookup in ``entries`` (indexed by the next
/// `primaryBits` input bits, least significant first); longer codes, and bit patterns that are not a
/// code, have entry 0 and go through ``decodeSlowly(_:)``, which walks the canonical code one bit at
/// a time (longer codes are rare by construction: each stands for a symbol seen less often than once
/// in 2^primaryBits symbols).
///
/// Each entry or ``symbols`` element is a packed *meaning* (see ``Entry``), so the decoder needs no
/// further table to turn a length or distance symbol into its base and extra-bit count.
///
/// The table owns unsafe memory: call ``deallocate()`` when done.
struct HuffmanTable {
  /// Entry layout (a `UInt32`): bits 0-3 code length (0: not in the primary table), bits 4-7 the
  /// number of extra bits that follow, bits 8-9 the kind, bits 16-31 the value (a literal byte, a
  /// length or distance base, or a plain symbol).
  enum Entry {
    static let lengthMask: UInt32 = 0xF
    static let kindMask: UInt32 = 0x300
    /// A literal byte, or a plain symbol (code length codes).
    static let literal: UInt32 = 0
    /// A length or distance: value is the base, bits 4-7 the extra-bit count.
    static let copy: UInt32 = 0x100
    static let endOfBlock: UInt32 = 0x200
    /// A symbol that has a code but no meaning (lengths 286-287, distances 30-31).
    static let invalid: UInt32 = 0x300

    static func plain(_ symbol: Int) -> UInt32 { UInt32(symbol) << 16 }

    static func copy(base: Int, extraBits: Int) -> UInt32 {
      UInt32(base) << 16 | UInt32(extraBits) << 4 | copy
    }
  }

  /// Why a set of code lengths is not a usable Huffman code.
  enum BuildError: Error {
    /// More codes of some length than the code space holds.
    case overSubscribed
    /// Code space left unused where DEFLATE does not allow it.
    case incomplete
  }

  /// The longest code DEFLATE allows.
  static let maximumCodeLength = 15

  let primaryBits: Int
  let capacity: Int
  /// `1 << primaryBits` packed entries.
  let entries: UnsafeMutablePointer<UInt32>
  /// `counts[n]`: the number of codes of length n, n in 1...15.
  let counts: UnsafeMutablePointer<Int>
  /// The meanings of the coded symbols in canonical order (by code length, then symbol).
  let symbols: UnsafeMutablePointer<UInt32>

  /// Allocates a table for up to `capacity` symbols with a `primaryBits`-bit lookup table.
  init(primaryBits: Int, capacity: Int) {
    self.primaryBits = primaryBits
    self.capacity = capacity
    entries = .allocate(capacity: 1 << primaryBits)
    entries.initialize(repeating: 0, count: 1 << primaryBits)
    counts = .allocate(capacity: Self.maximumCodeLength + 1)
    counts.initialize(repeating: 0, count: Self.maximumCodeLength + 1)
    symbols = .allocate(capacity: capacity)
    symbols.initialize(repeating: 0, count: capacity)
  }

  func deallocate() {
    entries.deallocate()
    counts.deallocate()
    symbols.deallocate()
  }

  /// Builds the code for `lengths` (0: symbol unused), giving symbol `s` the meaning `meaning(s)`.
  ///
  /// DEFLATE codes must be complete, with one exception kept as zlib keeps it: a code of a single
  /// one-bit code (one distance code, or only end-of-block) may leave half the code space unused when
  /// `allowSingleCode` is true; decoding the unused bit pattern then fails. No codes at all is
  /// allowed too (a block of literals only has no distance codes); every lookup then fails.
  ///
  /// - Throws: ``BuildError`` for an over-subscribed or (otherwise) incomplete set of lengths.
  func build(
    lengths: UnsafePointer<UInt8>, count: Int, allowSingleCode: Bool, meaning: (Int) -> UInt32
  ) throws(BuildError) {
    precondition(count <= capacity)
    for length in 0...Self.maximumCodeLength { counts[length] = 0 }
    for symbol in 0..<count { counts[Int(lengths[symbol])] += 1 }
    counts[0] = 0
    let tableSize = 1 << primaryBits
    entries.update(repeating: 0, count: tableSize)

    var longest = 0
    var left = 1
    for length in 1...Self.maximumCodeLength {
      left <<= 1
      left -= counts[length]
      if left < 0 { throw .overSubscribed }
      if counts[length] > 0 { longest = length }
    }
    if longest == 0 { return }
    if left > 0 && !(allowSingleCode && longest == 1) { throw .incomplete }

    // Offsets of each length's first symbol in canonical order.
    var offsets = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &offsets) { raw in
      let offset = raw.bindMemory(to: Int.self)
      for length in 1..<Self.maximumCodeLength { offset[length + 1] = offset[length] + counts[length] }
      for symbol in 0..<count {
        let length = Int(lengths[symbol])
        if length != 0 {
          symbols[offset[length]] = meaning(symbol)
          offset[length] += 1
        }
      }
    }

    // Canonical codes are assigned in that order; the stream holds them most significant bit first,
    // so the lookup index is the code reversed.
    var code = 0
    var index = 0
    for length in 1...longest {
      for _ in 0..<counts[length] {
        if length <= primaryBits {
          var reversed = 0
          for bit in 0..<length where code & (1 << bit) != 0 { reversed |= 1 << (length - 1 - bit) }
          let entry = symbols[index] | UInt32(length)
          var slot = reversed
          while slot < tableSize {
            entries[slot] = entry
            slot += 1 << length
          }
        }
        code += 1
        index += 1
      }
      code <<= 1
    }
  }
}
