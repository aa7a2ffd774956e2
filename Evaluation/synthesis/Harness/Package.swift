// swift-tools-version: 6.1
// A stand-in for `etude render SONG.mid OUT.wav --soundfont F.sf2` until the CLI has it: renders
// a MIDI file through the Synthesis module's SoundFont player. Evaluation only; not part of the
// library.
import PackageDescription

let package = Package(
  name: "SoundFontHarness",
  dependencies: [.package(name: "Etude", path: "../../..")],
  targets: [
    .executableTarget(
      name: "sf2render",
      dependencies: [
        .product(name: "Synthesis", package: "Etude"), .product(name: "MIDIJSON", package: "Etude"),
        .product(name: "PitchDSP", package: "Etude"),
      ])
  ]
)
