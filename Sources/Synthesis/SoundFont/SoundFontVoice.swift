import Foundation
import PitchDSP

/// A voice of a ``SoundFontInstrument``: the preset's regions that a note's key and velocity
/// select, layered (up to ``SoundFontInstrument/maximumLayers``), each playing its sample.
///
/// Per layer, on ``start(pitch:velocity:)``:
/// - **Pitch**: `scaleTuning · (pitch − rootKey) + 100 · coarseTune + fineTune` cents from the
///   sample's recorded pitch (the root key less the sample's pitch correction, as FluidSynth),
///   times the sample's rate over the output rate; the note's fractional pitch is kept, the key
///   that selects zones is the pitch rounded. Read with 4-point cubic Hermite interpolation.
/// - **Loops**: per `sampleModes` (no loop; loop always; loop until release, then on to the end).
/// - **Level**: `initialAttenuation` × ``SoundFontInstrument/attenuationScale`` plus the
///   velocity attenuation `−400 · log10(v/127)` cB (the default modulator: concave, 960 cB),
///   clamped to 0...1440 cB. Mono output is the average of the two channels a constant-power pan
///   would give (`(cos θ + sin θ) / 2`, θ = (pan + 500)/1000 · π/2): a centred layer at 0.707,
///   each half of a hard-panned stereo pair at 0.5.
/// - **Volume envelope**: delay, linear attack, hold, decay at 96 dB per decay time to the
///   sustain level (`sustainVolEnv` cB, 1000 = silent), release at 96 dB per release time, with
///   key scaling of hold and decay around key 60. Release times are at least −7200 timecents
///   (16 ms), as FluidSynth does to avoid clicks.
/// - **Filter**: the `initialFilterFc`/`initialFilterQ` resonant low-pass.
///
/// Not synthesized: the modulation envelope and both LFOs, modulators from the file, the default
/// modulators other than velocity-to-attenuation (no MIDI controllers reach a voice), reverb and
/// chorus sends. The ``exclusiveClass`` is the voice's ``SynthVoice/exclusiveClass``: the
/// ``VoiceAllocator`` releases the other voices of the class when this one starts.
///
/// - Note: ``start(pitch:velocity:)``, ``release()`` and ``render(adding:)`` are real-time safe:
///   the layers are allocated when the voice is made and copied only when a copy of the voice
///   shares them, which the ``VoiceAllocator`` never makes; the benchmarks count 0 mallocs.
public struct SoundFontVoice: SynthVoice {
  /// The rate the voice renders at, in Hz.
  public let sampleRate: Double
  /// Whether any layer still sounds.
  public private(set) var isActive = false
  /// Whether ``release()`` has been called since the last start.
  public private(set) var isReleased = false
  /// The exclusive class of the first layer that has one, 0 when none has.
  public private(set) var exclusiveClass = 0
  /// How many layers the current note plays.
  public private(set) var layerCount = 0

  private var layerMemory = CopyOnWriteMemory(repeating: SoundFontLayer(), count: SoundFontInstrument.maximumLayers)
  private let attenuationScale: Double
  // Keep the shared storage alive; the voice reads it through the raw pointers below.
  private let table: SoundFontRegionTable
  private let sampleData: SoundFontSampleData
  nonisolated(unsafe) private let regions: UnsafeBufferPointer<SoundFontRegion>
  nonisolated(unsafe) private let words: UnsafePointer<Int16>
  nonisolated(unsafe) private let lowBytes: UnsafePointer<UInt8>?

  init(instrument: SoundFontInstrument, sampleRate: Double) {
    self.sampleRate = sampleRate > 0 && sampleRate.isFinite ? sampleRate : 44100
    attenuationScale = instrument.attenuationScale
    table = instrument.table
    sampleData = instrument.sampleData
    regions = UnsafeBufferPointer(table.regions)
    words = sampleData.words.baseAddress!  // never nil: it points into the file even when empty
    lowBytes = sampleData.lowBytes?.baseAddress
  }

  /// Starts a note: selects the regions whose key and velocity ranges contain it and starts one
  /// layer for each, cutting off whatever the voice played. A note no region answers leaves the
  /// voice inactive.
  ///
  /// - Parameters:
  ///   - pitch: The MIDI note number, fractional for microtones; the key is its rounding,
  ///     clamped to 0...127.
  ///   - velocity: The MIDI velocity, clamped to 1...127.
  public mutating func start(pitch: Double, velocity: Int) {
    let layers = ownLayers()
    let key = pitch.isFinite ? min(max(Int(_unsafePerformance { floor(pitch + 0.5) }), 0), 127) : 60
    let playedPitch = pitch.isFinite ? min(max(pitch, -1), 128) : 60
    let velocity = min(max(velocity, 1), 127)
    layerCount = 0
    exclusiveClass = 0
    for r in 0..<regions.count where regions[r].contains(key: key, velocity: velocity) {
      guard layerCount < layers.count else { break }
      layers[layerCount].start(
        region: regions[r], pitch: playedPitch, key: key, velocity: velocity, sampleRate: sampleRate,
        attenuationScale: attenuationScale)
      if exclusiveClass == 0 { exclusiveClass = regions[r].exclusiveClass }
      layerCount += 1
    }
    isReleased = false
    isActive = layerCount > 0
  }

  /// Lets the note go: every layer enters its release.
  public mutating func release() {
    let layers = ownLayers()
    isReleased = true
    for l in 0..<layerCount { layers[l].release() }
    updateActivity()
  }

  /// Adds the voice's next `output.count` frames (mono) to `output`; an inactive voice adds
  /// nothing. Any block size.
  public mutating func render(adding output: UnsafeMutableBufferPointer<Float>) {
    guard isActive else { return }
    let layers = ownLayers()
    for l in 0..<layerCount {
      layers[l].render(adding: output, words: words, lowBytes: lowBytes)
    }
    updateActivity()
  }

  /// The layers, copied first if a copy of this voice shares them (never in a ``VoiceAllocator``).
  private mutating func ownLayers() -> UnsafeMutableBufferPointer<SoundFontLayer> {
    if !isKnownUniquelyReferenced(&layerMemory) { layerMemory = layerMemory.copy() }
    return layerMemory.elements
  }

  private mutating func updateActivity() {
    let layers = layerMemory.elements
    var active = false
    for l in 0..<layerCount where layers[l].isActive { active = true }
    isActive = active
  }
}
