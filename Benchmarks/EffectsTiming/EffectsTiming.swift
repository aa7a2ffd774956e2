// Times the effects rack in release and counts mallocs inside process (see run.sh).
import Foundation
import Harmonizer
import Glibc
typealias CountFn = @convention(c) () -> UInt
let handle = dlopen(nil, RTLD_NOW)
let countSym = dlsym(handle, "etude_malloc_count")
func mallocs() -> UInt { countSym.map { unsafeBitCast($0, to: CountFn.self)() } ?? 9_999_999 }

let rate = 48_000.0
let frames = Int(rate)
let seconds = 20
var source = [Float](repeating: 0, count: frames)
for i in 0..<frames {
  let t = Double(i) / rate
  let phase = 2 * Double.pi * (220 * t + 0.5 * sin(2 * Double.pi * 5 * t))
  source[i] = Float(0.2 * sin(phase) + 0.1 * sin(2 * phase) + 0.05 * sin(3 * phase))
}
for block in [64, 128, 256, 512] {
  let rack = try EffectsRack(kinds: [.chorus, .overdrive, .delay, .reverb, .lowpass], sampleRate: rate, maximumFrames: block)
  var work = source
  func second() {
    for i in 0..<frames { work[i] = source[i] }
    work.withUnsafeMutableBufferPointer { all in
      var offset = 0, k = 0
      while offset < frames {
        let n = min(block, frames - offset)
        rack.setParameter(slot: 4, index: 0, to: 1500 + Float(k % 64) * 20)
        rack.process(UnsafeMutableBufferPointer(rebasing: all[offset..<(offset + n)]))
        offset += n; k += 1
      }
    }
  }
  second()
  let before = mallocs()
  var usage0 = rusage(); getrusage(RUSAGE_SELF.rawValue, &usage0)
  let start = DispatchTime.now().uptimeNanoseconds
  for _ in 0..<seconds { second() }
  let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  var usage1 = rusage(); getrusage(RUSAGE_SELF.rawValue, &usage1)
  let after = mallocs()
  let cpu = Double(usage1.ru_utime.tv_sec - usage0.ru_utime.tv_sec) + Double(usage1.ru_utime.tv_usec - usage0.ru_utime.tv_usec) / 1e6
  print("block \(block): wall \(String(format: "%.4f", wall / Double(seconds))) s/audio s, user CPU \(String(format: "%.4f", cpu / Double(seconds))) s/audio s, mallocs \(after - before), finite \(work.allSatisfy { $0.isFinite })")
}
// Per-effect cost at 256.
for kind in EffectKind.allCases {
  let rack = try EffectsRack(kinds: [kind], sampleRate: rate, maximumFrames: 256)
  var work = source
  let start = DispatchTime.now().uptimeNanoseconds
  for _ in 0..<10 {
    for i in 0..<frames { work[i] = source[i] }
    work.withUnsafeMutableBufferPointer { all in
      var offset = 0
      while offset < frames { let n = min(256, frames - offset); rack.process(UnsafeMutableBufferPointer(rebasing: all[offset..<(offset + n)])); offset += n }
    }
  }
  print("\(kind): \(String(format: "%.4f", Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 / 10)) s/audio s")
}
do {
  let rack = try EffectsRack(kinds: [.chorus, .overdrive, .delay, .reverb, .lowpass], sampleRate: rate, maximumFrames: 128)
  var work = source
  let before = mallocs()
  var processMallocs: UInt = 0
  let start = DispatchTime.now().uptimeNanoseconds
  work.withUnsafeMutableBufferPointer { all in
    var offset = 0, k = 0
    while offset + 128 <= frames {
      if k % 40 == 0 { rack.move(slot: k % 5, to: (k / 40) % 5) }
      if k % 25 == 0 { rack.setBypassed(k % 50 == 0, slot: (k / 25) % 5) }
      let m0 = mallocs()
      rack.process(UnsafeMutableBufferPointer(rebasing: all[offset..<(offset + 128)]))
      processMallocs += mallocs() - m0
      offset += 128; k += 1
    }
  }
  print("sanity: mallocs so far \(before); one second with a reorder every 40 blocks and a bypass toggle every 25 (control calls on the same thread, so their own allocations count): \(mallocs() - before) mallocs in all, \(processMallocs) inside process, \(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9) s")
}
