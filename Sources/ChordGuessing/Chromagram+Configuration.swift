import PitchDSP

extension Chromagram {
  /// The parameters of a ``Chromagram``.
  ///
  /// The input is resampled to 11 025 Hz (``analysisRate``) and analyzed in frames of
  /// ``frameSize`` samples there (4096: 372 ms) every ``hopSize`` samples (512: 46 ms). The
  /// log-frequency spectrum has three bins per semitone from E♭1 (MIDI 27) to B7 (MIDI 107),
  /// and the notes of the approximate transcription run from E1 (MIDI 28, a bass guitar's low
  /// E) to C7 (MIDI 96).
  public struct Configuration: Sendable, Hashable, Codable {
    /// The sample rate of the input, in Hz: 8000 to 384 000.
    public var sampleRate: Double
    /// How pitch-class content is computed.
    public var method: ChromaMethod
    /// How the log-frequency spectrum is computed.
    public var spectrum: SpectrumMethod
    /// How the tuning is found.
    public var tuning: TuningMode
    /// The pitch of A4 that 0 cents refers to, in Hz (400...480).
    public var referenceHz: Double
    /// Samples per analysis frame at ``analysisRate``: 2048, 4096 (the default, 372 ms) or
    /// 8192. Longer frames resolve low notes better and react later.
    public var frameSize: Int
    /// Samples between frames at ``analysisRate``, `1...frameSize` (512 by default: 46 ms).
    public var hopSize: Int
    /// The note profiles of the transcription: each note gets one dictionary column per
    /// profile, and the transcription mixes them per note, so that piano, guitar, strings and
    /// organ are explained by their own notes rather than by extra notes on their upper
    /// partials. By default a decaying profile (0.6 per partial) and a weak-fundamental one;
    /// Mauch used one decaying profile (0.7). One to four profiles.
    public var noteProfiles: [NoteProfile]
    /// How strongly the log-frequency spectrum is whitened before transcription: the running
    /// mean over one octave is always subtracted, and the result is divided by the running
    /// standard deviation to this power (`0...1`). Mauch's NNLS chroma uses 1, for commercial
    /// mixes; the default here is 0 — dividing by the local deviation lifts background noise in
    /// sparse regions (the bass) to the level of partials, which costs the bass note at 10 dB
    /// SNR, and it distorts the partial amplitudes the note profiles model.
    public var whitening: Double
    /// Frames quieter than this (Hann-weighted RMS, dBFS) are silence: their chroma is zero.
    public var silenceDBFS: Double

    /// The rate the input is resampled to for analysis, in Hz.
    public static let analysisRate = 11_025.0

    /// Creates a configuration; every parameter but the sample rate has a default.
    ///
    /// - Parameters:
    ///   - sampleRate: The input's sample rate, in Hz.
    ///   - method: Approximate transcription (default) or Stark's chromagram.
    ///   - spectrum: STFT (default) or constant-Q.
    ///   - tuning: Estimated (default) or fixed.
    ///   - referenceHz: A4, in Hz (440).
    ///   - frameSize: Samples per frame at 11 025 Hz (4096).
    ///   - hopSize: Samples between frames at 11 025 Hz (512).
    ///   - noteProfiles: The note profiles (decaying by 0.6, and weak fundamental).
    ///   - whitening: Spectral whitening exponent (0).
    ///   - silenceDBFS: Silence threshold (−70 dBFS).
    public init(
      sampleRate: Double, method: ChromaMethod = .approximateTranscription, spectrum: SpectrumMethod = .fft,
      tuning: TuningMode = .estimated, referenceHz: Double = 440, frameSize: Int = 4096, hopSize: Int = 512,
      noteProfiles: [NoteProfile] = [.decaying(0.6), .weakFundamental], whitening: Double = 0,
      silenceDBFS: Double = -70
    ) {
      self.sampleRate = sampleRate
      self.method = method
      self.spectrum = spectrum
      self.tuning = tuning
      self.referenceHz = referenceHz
      self.frameSize = frameSize
      self.hopSize = hopSize
      self.noteProfiles = noteProfiles
      self.whitening = whitening
      self.silenceDBFS = silenceDBFS
    }

    /// Seconds between frames.
    public var hopSeconds: Double { Double(hopSize) / Self.analysisRate }

    /// The length of an analysis frame, in seconds.
    public var frameSeconds: Double { Double(frameSize) / Self.analysisRate }

    /// Checks every parameter.
    ///
    /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` naming the first
    ///   parameter out of range.
    public func validate() throws(PitchDSPError) {
      guard sampleRate.isFinite, (8000...384_000).contains(sampleRate) else {
        throw .invalidParameter(name: "sample rate", value: "\(sampleRate)", expected: "8000...384000 Hz")
      }
      guard referenceHz.isFinite, (400...480).contains(referenceHz) else {
        throw .invalidParameter(name: "reference pitch", value: "\(referenceHz)", expected: "400...480 Hz")
      }
      guard [2048, 4096, 8192].contains(frameSize) else {
        throw .invalidParameter(
          name: "chroma frame size", value: "\(frameSize)", expected: "2048, 4096 or 8192")
      }
      guard (1...frameSize).contains(hopSize) else {
        throw .invalidParameter(name: "chroma hop size", value: "\(hopSize)", expected: "1...\(frameSize)")
      }
      guard (1...4).contains(noteProfiles.count), noteProfiles.allSatisfy(\.isValid) else {
        throw .invalidParameter(
          name: "note profiles", value: "\(noteProfiles.count) profiles",
          expected: "one to four profiles of 1 to 20 non-negative partial amplitudes, not all 0")
      }
      guard whitening.isFinite, (0...1).contains(whitening) else {
        throw .invalidParameter(name: "whitening", value: "\(whitening)", expected: "0...1")
      }
      guard silenceDBFS.isFinite, silenceDBFS < 0 else {
        throw .invalidParameter(
          name: "silence level", value: "\(silenceDBFS)", expected: "a finite level below 0 dBFS")
      }
      switch tuning {
      case .estimated(let seconds):
        guard seconds.isFinite, seconds > 0 else {
          throw .invalidParameter(
            name: "tuning time constant", value: "\(seconds)", expected: "a finite time > 0 s")
        }
      case .fixed(let cents):
        guard cents.isFinite, (-50...50).contains(cents) else {
          throw .invalidParameter(name: "tuning", value: "\(cents)", expected: "-50...50 cents")
        }
      }
    }
  }
}
