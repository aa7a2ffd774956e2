import Foundation

/// A DEFLATE (RFC 1951) decoder: stored, fixed-Huffman and dynamic-Huffman blocks.
///
/// Decodes a whole raw DEFLATE stream (no zlib or gzip wrapper) from memory into memory, as ZIP
/// entries of method 8 store it. Huffman codes decode by table lookup (10-bit primary tables, see
/// ``HuffmanTable``); input is read 8 bytes at a time.
///
/// Any input gives either the decoded bytes or ``ScoreModelError/invalidDeflateData(offset:reason:)``
/// naming the byte of the compressed stream where decoding failed, or
/// ``ScoreModelError/sizeLimitExceeded(what:limit:)`` when the output would pass the caller's limit:
/// every length is checked against the data, every Huffman code for over-subscription and
/// incompleteness, every back-reference against the start of the output. Memory grows with the
/// output only, up to the limit.
///
/// - Complexity: O(n) in the output size.
package struct Inflater {
  private let input: UnsafePointer<UInt8>
  private let inputCount: Int
  /// The next input byte not yet in `bitBuffer`.
  private var position = 0
  /// Pending input bits, least significant first. Bits above `bitCount` may hold the following
  /// input bytes (whole-word refills load more than they count) or zeros; they are never used as
  /// data until counted.
  private var bitBuffer: UInt64 = 0
  private var bitCount = 0

  private var output: UnsafeMutablePointer<UInt8>?
  private var outputCapacity = 0
  private var outputCount = 0
  private let outputLimit: Int

  private let literals: HuffmanTable
  private let distances: HuffmanTable
  private let codeLengths: HuffmanTable
  /// True while `literals` and `distances` hold the fixed code, so runs of fixed blocks build it once.
  private var tablesAreFixed = false

  /// Inflates a complete raw DEFLATE stream.
  ///
  /// - Parameters:
  ///   - data: The compressed stream; bytes after its final block are ignored.
  ///   - maximumOutputSize: The most bytes the output may have (a guard against decompression bombs).
  /// - Returns: The decompressed bytes.
  /// - Throws: ``ScoreModelError/invalidDeflateData(offset:reason:)`` for broken or truncated data,
  ///   ``ScoreModelError/sizeLimitExceeded(what:limit:)`` when the output would be larger than
  ///   `maximumOutputSize`.
  package static func inflate(_ data: Data, maximumOutputSize: Int) throws(ScoreModelError) -> Data {
    let result: Result<Data, ScoreModelError> = data.withUnsafeBytes { raw in
      Result { () throws(ScoreModelError) in
        try inflate(raw, maximumOutputSize: maximumOutputSize).data
      }
    }
    return try result.get()
  }

  /// Inflates a complete raw DEFLATE stream from memory.
  ///
  /// - Parameters:
  ///   - input: The compressed stream; bytes after its final block are ignored.
  ///   - maximumOutputSize: The most bytes the output may have (a guard against decompression bombs).
  ///   - expectedOutputSize: The output size if known (a ZIP entry's recorded size), used to allocate
  ///     the output once; it is not checked.
  /// - Returns: The decompressed bytes and the number of input bytes the stream took (up to and
  ///   including the byte holding the last bit of its final block).
  /// - Throws: ``ScoreModelError/invalidDeflateData(offset:reason:)`` for broken or truncated data,
  ///   ``ScoreModelError/sizeLimitExceeded(what:limit:)`` when the output would be larger than
  ///   `maximumOutputSize`.
  package static func inflate(
    _ input: UnsafeRawBufferPointer, maximumOutputSize: Int, expectedOutputSize: Int? = nil
  ) throws(ScoreModelError) -> (data: Data, consumedBytes: Int) {
    let limit = max(0, maximumOutputSize)
    // DEFLATE expands at most 1032:1 (a 258-byte copy costs at least 2 bits), so no honest size
    // hint is larger than that.
    let largestPossible = input.count.multipliedReportingOverflow(by: 1032).partialValue + 1024
    let guess = expectedOutputSize ?? input.count.multipliedReportingOverflow(by: 4).partialValue
    let initialCapacity = min(max(guess, 0), limit, largestPossible)

    let empty: StaticString = ""
    let base = input.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? empty.utf8Start
    var inflater = Inflater(input: base, count: input.count, limit: limit)
    defer { inflater.deallocate() }
    if initialCapacity > 0 {
      inflater.output = .allocate(capacity: initialCapacity)
      inflater.outputCapacity = initialCapacity
    }
    try inflater.run()
    let data = inflater.output.map { Data(bytes: $0, count: inflater.outputCount) } ?? Data()
    return (data, (inflater.position * 8 - inflater.bitCount + 7) / 8)
  }

  private init(input: UnsafePointer<UInt8>, count: Int, limit: Int) {
    self.input = input
    inputCount = count
    outputLimit = limit
    literals = HuffmanTable(primaryBits: 10, capacity: 288)
    distances = HuffmanTable(primaryBits: 8, capacity: 32)
    codeLengths = HuffmanTable(primaryBits: 7, capacity: 19)
  }

  private func deallocate() {
    literals.deallocate()
    distances.deallocate()
    codeLengths.deallocate()
    output?.deallocate()
  }

  // MARK: Blocks

  private mutating func run() throws(ScoreModelError) {
    var isFinal = false
    while !isFinal {
      refill()
      let header = try bits(3, "a block header")
      isFinal = header & 1 != 0
      switch header >> 1 {
      case 0: try storedBlock()
      case 1:
        if !tablesAreFixed { buildFixedTables() }
        try huffmanBlock()
      case 2:
        try readDynamicTables()
        try huffmanBlock()
      default:
        throw error("block type 3 is reserved; expected 0 (stored), 1 (fixed) or 2 (dynamic)", back: 3)
      }
    }
  }

  private mutating func storedBlock() throws(ScoreModelError) {
    // Drop to a byte boundary and hand the whole bytes still in the bit buffer back to the input.
    let partial = bitCount & 7
    bitBuffer >>= UInt64(partial)
    bitCount -= partial
    position -= bitCount >> 3
    bitBuffer = 0
    bitCount = 0

    guard inputCount - position >= 4 else {
      throw truncated("a stored block's LEN and NLEN (4 bytes)")
    }
    let length = Int(input[position]) | Int(input[position + 1]) << 8
    let complement = Int(input[position + 2]) | Int(input[position + 3]) << 8
    guard length == complement ^ 0xFFFF else {
      throw .invalidDeflateData(
        offset: position,
        reason: "a stored block's LEN \(length) and NLEN \(complement) must be one's complements")
    }
    position += 4
    guard inputCount - position >= length else {
      throw truncated("a stored block of \(length) bytes (\(inputCount - position) available)")
    }
    try reserve(length)
    if length > 0 { (output! + outputCount).update(from: input + position, count: length) }
    outputCount += length
    position += length
  }

  private mutating func buildFixedTables() {
    var lengths = [UInt8](repeating: 8, count: 288)
    for symbol in 144..<256 { lengths[symbol] = 9 }
    for symbol in 256..<280 { lengths[symbol] = 7 }
    // The fixed codes are complete; building them cannot fail.
    lengths.withUnsafeBufferPointer { pointer in
      try! literals.build(
        lengths: pointer.baseAddress!, count: 288, allowSingleCode: false, meaning: Self.literalMeaning)
    }
    let distanceLengths = [UInt8](repeating: 5, count: 32)
    distanceLengths.withUnsafeBufferPointer { pointer in
      try! distances.build(
        lengths: pointer.baseAddress!, count: 32, allowSingleCode: false, meaning: Self.distanceMeaning)
    }
    tablesAreFixed = true
  }

  /// The order in which a dynamic block lists the code length code's lengths (RFC 1951 3.2.7).
  private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

  private mutating func readDynamicTables() throws(ScoreModelError) {
    tablesAreFixed = false
    refill()
    let header = try bits(14, "a dynamic block's HLIT, HDIST and HCLEN")
    let literalCount = Int(header & 0x1F) + 257
    let distanceCount = Int((header >> 5) & 0x1F) + 1
    let codeLengthCount = Int(header >> 10) + 4
    guard literalCount <= 286 else {
      throw error(
        "a dynamic block declares \(literalCount) literal/length codes; at most 286 exist", back: 14)
    }
    guard distanceCount <= 30 else {
      throw error("a dynamic block declares \(distanceCount) distance codes; at most 30 exist", back: 9)
    }

    var lengths = [UInt8](repeating: 0, count: 286 + 30)
    for index in 0..<codeLengthCount {
      refill()
      lengths[Self.codeLengthOrder[index]] = UInt8(try bits(3, "the code length code's lengths"))
    }
    do throws(HuffmanTable.BuildError) {
      try lengths.withUnsafeBufferPointer { pointer throws(HuffmanTable.BuildError) in
        try codeLengths.build(
          lengths: pointer.baseAddress!, count: 19, allowSingleCode: false, meaning: HuffmanTable.Entry.plain)
      }
    } catch {
      throw self.error("the code length code is \(Self.describe(error))", back: 0)
    }

    // The literal/length and distance lengths form one sequence; repeats may cross between them.
    let total = literalCount + distanceCount
    var index = 0
    while index < total {
      refill()
      let symbol = Int(try decode(codeLengths, "a code length") >> 16)
      if symbol < 16 {
        lengths[index] = UInt8(symbol)
        index += 1
        continue
      }
      var value: UInt8 = 0
      let repeats: Int
      switch symbol {
      case 16:
        guard index > 0 else {
          throw error("code length 16 (repeat the previous length) comes first", back: 0)
        }
        value = lengths[index - 1]
        repeats = 3 + Int(try bits(2, "the repeat count of code length 16"))
      case 17: repeats = 3 + Int(try bits(3, "the repeat count of code length 17"))
      default: repeats = 11 + Int(try bits(7, "the repeat count of code length 18"))
      }
      guard repeats <= total - index else {
        throw error(
          "code length \(symbol) repeats \(repeats) times, past the \(total) lengths the block declares",
          back: 0)
      }
      for offset in index..<(index + repeats) { lengths[offset] = value }
      index += repeats
    }
    guard lengths[256] != 0 else {
      throw error("a dynamic block has no code for end-of-block (symbol 256)", back: 0)
    }

    do throws(HuffmanTable.BuildError) {
      try lengths.withUnsafeBufferPointer { pointer throws(HuffmanTable.BuildError) in
        try literals.build(
          lengths: pointer.baseAddress!, count: literalCount, allowSingleCode: true,
          meaning: Self.literalMeaning)
      }
    } catch {
      throw self.error("the literal/length code is \(Self.describe(error))", back: 0)
    }
    do throws(HuffmanTable.BuildError) {
      try lengths.withUnsafeBufferPointer { pointer throws(HuffmanTable.BuildError) in
        try distances.build(
          lengths: pointer.baseAddress! + literalCount, count: distanceCount, allowSingleCode: true,
          meaning: Self.distanceMeaning)
      }
    } catch {
      throw self.error("the distance code is \(Self.describe(error))", back: 0)
    }
  }

  /// Decodes literals and copies up to the end-of-block code.
  private mutating func huffmanBlock() throws(ScoreModelError) {
    let literalMask = UInt64((1 << literals.primaryBits) - 1)
    let distanceMask = UInt64((1 << distances.primaryBits) - 1)
    while true {
      refill()
      var entry = literals.entries[Int(truncatingIfNeeded: bitBuffer & literalMask)]
      var codeLength = Int(entry & HuffmanTable.Entry.lengthMask)
      if codeLength != 0 && codeLength <= bitCount {
        consume(codeLength)
      } else {
        entry = try decodeSlowly(literals, "a literal/length code")
      }

      switch entry & HuffmanTable.Entry.kindMask {
      case HuffmanTable.Entry.literal:
        if outputCount == outputCapacity { try reserve(1) }
        output.unsafelyUnwrapped[outputCount] = UInt8(truncatingIfNeeded: entry >> 16)
        outputCount += 1
        continue
      case HuffmanTable.Entry.endOfBlock:
        return
      case HuffmanTable.Entry.invalid:
        throw error("literal/length symbol \(entry >> 16) does not exist (at most 285)", back: 0)
      default:
        break
      }

      // A copy: length, then distance. After a refill the buffer holds at least 56 bits unless the
      // input is ending: enough for a 15-bit code and 5 extra bits; the distance may need a refill.
      let length = Int(entry >> 16) + Int(try bits(Int((entry >> 4) & 0xF), "a length's extra bits"))
      if bitCount < 28 { refill() }
      entry = distances.entries[Int(truncatingIfNeeded: bitBuffer & distanceMask)]
      codeLength = Int(entry & HuffmanTable.Entry.lengthMask)
      if codeLength != 0 && codeLength <= bitCount {
        consume(codeLength)
      } else {
        entry = try decodeSlowly(distances, "a distance code")
      }
      guard entry & HuffmanTable.Entry.kindMask == HuffmanTable.Entry.copy else {
        throw error("distance symbol \(entry >> 16) does not exist (at most 29)", back: 0)
      }
      let distance = Int(entry >> 16) + Int(try bits(Int((entry >> 4) & 0xF), "a distance's extra bits"))
      guard distance <= outputCount else {
        throw error(
          "a copy reaches \(distance) bytes back, but only \(outputCount) bytes have been decoded", back: 0)
      }
      if outputCapacity - outputCount < length { try reserve(length) }

      let target = output.unsafelyUnwrapped + outputCount
      let source = target - distance
      if distance >= length {
        target.update(from: source, count: length)
      } else if distance == 1 {
        target.update(repeating: source.pointee, count: length)
      } else {
        for offset in 0..<length { target[offset] = source[offset] }
      }
      outputCount += length
    }
  }

  // MARK: Bits

  /// Tops the bit buffer up to at least 56 bits, or with all remaining input.
  @inline(__always)
  private mutating func refill() {
    if inputCount - position >= 8 {
      let word = UInt64(littleEndian: UnsafeRawPointer(input + position).loadUnaligned(as: UInt64.self))
      bitBuffer |= word &<< UInt64(bitCount)
      let taken = (63 - bitCount) >> 3
      position += taken
      bitCount += taken << 3
    } else {
      while bitCount <= 56 && position < inputCount {
        bitBuffer |= UInt64(input[position]) &<< UInt64(bitCount)
        position += 1
        bitCount += 8
      }
    }
  }

  @inline(__always)
  private mutating func consume(_ count: Int) {
    bitBuffer >>= UInt64(count)
    bitCount -= count
  }

  /// Takes the next `count` bits (0...16) as a number, least significant first.
  @inline(__always)
  private mutating func bits(_ count: Int, _ what: @autoclosure () -> String) throws(ScoreModelError)
    -> UInt32
  {
    guard count <= bitCount else { throw truncated(what()) }
    let value = UInt32(truncatingIfNeeded: bitBuffer & ((1 &<< UInt64(count)) &- 1))
    consume(count)
    return value
  }

  /// Decodes one symbol, by table or slowly, and returns its meaning.
  private mutating func decode(_ table: HuffmanTable, _ what: String) throws(ScoreModelError) -> UInt32 {
    let entry = table.entries[Int(truncatingIfNeeded: bitBuffer) & ((1 << table.primaryBits) - 1)]
    let codeLength = Int(entry & HuffmanTable.Entry.lengthMask)
    if codeLength != 0 && codeLength <= bitCount {
      consume(codeLength)
      return entry
    }
    return try decodeSlowly(table, what)
  }

  /// Decodes one symbol bit by bit through the canonical code (codes longer than the primary table,
  /// bit patterns that are not codes, and the last bits of the input) and returns its meaning.
  private mutating func decodeSlowly(_ table: HuffmanTable, _ what: String) throws(ScoreModelError) -> UInt32
  {
    var code = 0  // the bits read so far, most significant first
    var first = 0  // the first code of the current length
    var index = 0  // the index in `symbols` of that first code
    var pending = bitBuffer
    for length in 1...HuffmanTable.maximumCodeLength {
      guard length <= bitCount else { throw truncated(what) }
      code |= Int(pending & 1)
      pending >>= 1
      let count = table.counts[length]
      if code - first < count {
        consume(length)
        return table.symbols[index + code - first]
      }
      index += count
      first = (first + count) << 1
      code <<= 1
    }
    throw error("the next 15 bits are not \(what) of the block's Huffman code", back: 0)
  }

  // MARK: Output

  /// Makes room for `count` more output bytes, within the limit.
  private mutating func reserve(_ count: Int) throws(ScoreModelError) {
    let needed = outputCount + count
    guard needed <= outputLimit else {
      throw .sizeLimitExceeded(what: "the inflated data", limit: outputLimit)
    }
    guard needed > outputCapacity else { return }
    let capacity = min(max(needed, outputCapacity * 2, 4096), outputLimit)
    let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    if let output {
      grown.update(from: output, count: outputCount)
      output.deallocate()
    }
    output = grown
    outputCapacity = capacity
  }

  // MARK: Meanings and errors

  private static let lengthBases = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195,
    227, 258,
  ]
  private static let lengthExtraBits = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  private static let distanceBases = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
    4097, 6145, 8193, 12289, 16385, 24577,
  ]
  private static let distanceExtraBits = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
  ]

  private static func literalMeaning(_ symbol: Int) -> UInt32 {
    switch symbol {
    case 0..<256: HuffmanTable.Entry.plain(symbol) | HuffmanTable.Entry.literal
    case 256: HuffmanTable.Entry.endOfBlock
    case 257...285:
      HuffmanTable.Entry.copy(base: lengthBases[symbol - 257], extraBits: lengthExtraBits[symbol - 257])
    default: HuffmanTable.Entry.plain(symbol) | HuffmanTable.Entry.invalid
    }
  }

  private static func distanceMeaning(_ symbol: Int) -> UInt32 {
    guard symbol < 30 else { return HuffmanTable.Entry.plain(symbol) | HuffmanTable.Entry.invalid }
    return HuffmanTable.Entry.copy(base: distanceBases[symbol], extraBits: distanceExtraBits[symbol])
  }

  private static func describe(_ error: HuffmanTable.BuildError) -> String {
    switch error {
    case .overSubscribed: "over-subscribed (more codes than the code lengths allow)"
    case .incomplete: "incomplete (its code lengths leave codes unused)"
    }
  }

  /// An error at the byte holding the bit `bitsBack` bits before the next unread one.
  private func error(_ reason: String, back bitsBack: Int) -> ScoreModelError {
    .invalidDeflateData(offset: max(0, position * 8 - bitCount - bitsBack) / 8, reason: reason)
  }

  private func truncated(_ what: String) -> ScoreModelError {
    .invalidDeflateData(offset: inputCount, reason: "the data ends inside \(what)")
  }
}
