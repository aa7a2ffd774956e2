/// The resolved regions of one instrument in memory the instrument owns, so that voices can scan
/// them on the audio thread through a raw pointer, without reference counting.
final class SoundFontRegionTable: @unchecked Sendable {
  // @unchecked: written once, in init, and only read afterwards.
  let regions: UnsafeMutableBufferPointer<SoundFontRegion>

  init(_ regions: [SoundFontRegion]) {
    self.regions = .allocate(capacity: regions.count)
    _ = self.regions.initialize(from: regions)
  }

  deinit {
    regions.deinitialize()
    regions.deallocate()
  }
}
