import Foundation
import Testing

@testable import ScoreModel

extension ZipArchiveTests {
  /// Replays inputs saved from `Fuzz/run.sh zip` (its raw DEFLATE seeds, and any crasher it ever
  /// finds) through the DEFLATE decoder and the ZIP reader, checking what the fuzz target checks.
  @Suite struct ZipFuzzRegressionTests {
    static var inputs: [URL] {
      guard let directory = Bundle.module.resourceURL?.appendingPathComponent("Fixtures/zip/fuzz") else {
        return []
      }
      return
        ((try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? [])
        .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test func seedsInflate() throws {
      let seeds = Self.inputs.filter { $0.lastPathComponent.hasPrefix("seed-") }
      #expect(seeds.count >= 8)
      for url in seeds {
        let output = try Inflater.inflate(try Data(contentsOf: url), maximumOutputSize: 1 << 20)
        #expect(!output.isEmpty, "\(url.lastPathComponent)")
      }
    }

    /// Each saved corpus input was kept for the error it reaches: it must still be caught, when
    /// opening the archive or extracting one of its entries.
    @Test func corpusInputsStillFail() throws {
      let corpus = Self.inputs.filter { $0.lastPathComponent.hasPrefix("corpus-") }
      #expect(corpus.count >= 20)
      for url in corpus {
        guard let archive = try? ZipArchive(data: try Data(contentsOf: url)) else { continue }
        let failures = archive.entries.prefix(32).filter { entry in
          (try? archive.data(for: entry, maximumSize: 1 << 18)) == nil
        }
        #expect(!failures.isEmpty, "\(url.lastPathComponent) now reads without error")
      }
    }

    @Test func savedFuzzInputsDecodeOrThrow() throws {
      let limit = 1 << 18
      for url in Self.inputs {
        let data = try Data(contentsOf: url)
        do {
          #expect(try Inflater.inflate(data, maximumOutputSize: limit).count <= limit)
        } catch {
          #expect(!error.description.isEmpty)
        }
        do {
          let archive = try ZipArchive(data: data)
          for entry in archive.entries.prefix(32) {
            do {
              let extracted = try archive.data(for: entry, maximumSize: limit)
              #expect(extracted.count == entry.uncompressedSize, "\(url.lastPathComponent)")
              #expect(CRC32.checksum(of: extracted) == entry.crc32, "\(url.lastPathComponent)")
            } catch {
              #expect(!error.description.isEmpty)
            }
          }
        } catch {
          #expect(!error.description.isEmpty)
        }
      }
    }
  }
}
