import ArgumentParser
import PitchDSP

/// Whether what lies below the pitch range is filtered out before the analysis, shared by the
/// commands that track pitch.
struct RumbleOptions: ParsableArguments {
  @Flag(
    help: """
      Analyze what lies below the pitch range as it is; by default a DC offset and rumble \
      (handling, wind, traffic) are taken out first, with a high-pass at 0.75 of the lowest pitch.
      """)
  var keepRumble = false

  /// Sets ``PitchConfiguration/removesRumble`` from the flag.
  func apply(to configuration: inout PitchConfiguration) {
    configuration.removesRumble = !keepRumble
  }
}
