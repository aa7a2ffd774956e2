// libFuzzer entry point for the ZIP reader and the DEFLATE decoder: any bytes, read as a raw
// DEFLATE stream and as a ZIP archive, either decode or throw a ScoreModelError. Whatever decodes
// must respect the size limit, and every extracted entry must have its recorded size and CRC-32.
import Foundation

private let limit = 1 << 18

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzZip(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  do {
    let (output, consumed) = try Inflater.inflate(
      UnsafeRawBufferPointer(start: start, count: count), maximumOutputSize: limit)
    precondition(output.count <= limit, "inflated past the limit")
    precondition(consumed <= count, "consumed more than the input")
  } catch {
    _ = error.description
  }

  do {
    let archive = try ZipArchive(data: Data(bytes: start, count: count))
    _ = archive.entry(for: "META-INF/container.xml")
    // Entries may all point at the same data; 32 keep each input fast.
    for entry in archive.entries.prefix(32) {
      do {
        let data = try archive.data(for: entry, maximumSize: limit)
        precondition(data.count == entry.uncompressedSize, "extracted size differs from the recorded one")
        precondition(
          CRC32.checksum(of: data) == entry.crc32, "extracted CRC-32 differs from the recorded one")
      } catch {
        _ = error.description
      }
    }
  } catch {
    _ = error.description
  }
  return 0
}
