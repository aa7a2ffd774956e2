import ArgumentParser
import PitchDSP

/// Whether a steady periodic sound under the music is reported as pitch, shared by the commands
/// that track pitch.
struct PeriodicBackgroundOptions: ParsableArguments {
  @Flag(
    help: """
      Report a steady periodic sound under the music (mains hum, a drone) as pitch; by default it \
      is learned from the rests and ignored.
      """)
  var keepPeriodicBackground = false

  /// Sets ``PitchConfiguration/ignoresPeriodicBackground`` from the flag.
  func apply(to configuration: inout PitchConfiguration) {
    configuration.ignoresPeriodicBackground = !keepPeriodicBackground
  }
}
