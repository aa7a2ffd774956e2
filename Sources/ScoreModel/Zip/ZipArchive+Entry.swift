extension ZipArchive {
  /// One file or directory in a ``ZipArchive``, as its central directory describes it.
  public struct Entry: Sendable, Hashable {
    /// The entry's path inside the archive, with `/` between folders (`META-INF/container.xml`);
    /// directories end in `/`.
    ///
    /// Names flagged as UTF-8, or carrying an Info-ZIP Unicode path field, decode as UTF-8. Others
    /// decode as UTF-8 when they are valid UTF-8 (macOS and many other writers store UTF-8 without
    /// the flag; code page 437 text beyond ASCII is almost never valid UTF-8), else as code page 437.
    public let path: String
    /// The entry's comment, empty if it has none.
    public let comment: String
    /// How the entry's data is compressed.
    public let compressionMethod: CompressionMethod
    /// The size of the entry's data in the archive, in bytes.
    public let compressedSize: Int
    /// The size of the entry's data once extracted, in bytes.
    public let uncompressedSize: Int
    /// The CRC-32 of the extracted data, which ``ZipArchive/data(for:maximumSize:)`` checks.
    public let crc32: UInt32
    /// The general-purpose flags (APPNOTE.TXT 4.4.4): bit 0 encrypted, bit 3 sizes and CRC in a
    /// data descriptor after the data, bit 11 UTF-8 names.
    public let flags: UInt16
    /// The byte offset of the entry's local file header, counted from the first byte of the data
    /// (so including any self-extracting stub before the archive).
    public let localHeaderOffset: Int

    /// Whether the entry is a directory (its path ends in `/`).
    public var isDirectory: Bool { path.hasSuffix("/") }
    /// Whether the entry's data is encrypted (flag bit 0), which this reader does not support.
    public var isEncrypted: Bool { flags & 1 != 0 }
    /// Whether the writer put the sizes and CRC in a data descriptor after the data (flag bit 3),
    /// as streaming writers do; the central directory holds them too, and this reader uses those.
    public var hasDataDescriptor: Bool { flags & 8 != 0 }
  }

  /// How an entry's data is compressed (APPNOTE.TXT 4.4.5).
  public enum CompressionMethod: Sendable, Hashable, CustomStringConvertible {
    /// Method 0: the data as is.
    case stored
    /// Method 8: DEFLATE (RFC 1951).
    case deflated
    /// Any other method number (9 Deflate64, 12 bzip2, 14 LZMA, 93 Zstandard, ...), which this
    /// reader cannot extract.
    case other(UInt16)

    /// The method for a ZIP method number.
    ///
    /// - Parameter number: The method number of a ZIP header.
    public init(number: UInt16) {
      switch number {
      case 0: self = .stored
      case 8: self = .deflated
      default: self = .other(number)
      }
    }

    /// The ZIP method number.
    public var number: UInt16 {
      switch self {
      case .stored: 0
      case .deflated: 8
      case .other(let number): number
      }
    }

    /// The method's name and number, such as `deflated (8)`, or the number alone for methods
    /// without a name.
    public var description: String {
      let name: String? =
        switch number {
        case 0: "stored"
        case 8: "deflated"
        case 9: "Deflate64"
        case 12: "bzip2"
        case 14: "LZMA"
        case 93: "Zstandard"
        case 95: "XZ"
        case 99: "AES-encrypted"
        default: nil
        }
      return name.map { "\($0) (\(number))" } ?? "\(number)"
    }
  }
}
