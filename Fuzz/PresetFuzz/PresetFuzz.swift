// libFuzzer entry point for the preset decoder: any bytes either decode into a preset that
// validates and round-trips through JSON, or throw a PresetError with a message.
//
// Built by `Fuzz/run.sh preset` into one module with the Harmonizer preset and sample sources
// (ScoreModel and PitchDSP compiled beside them), so it calls internal API directly.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPreset(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let data = Data(bytes: start, count: count)
  do {
    let preset = try Preset(jsonData: data, name: "fuzz")
    do {
      try preset.validate()
    } catch {
      preconditionFailure("a decoded preset does not validate: \(error)")
    }
    let encoded: Data
    do {
      encoded = try preset.jsonData()
    } catch {
      // Only kept unknown fields can hold what JSON cannot (they are not validated).
      precondition(!preset.unknownFields.isEmpty, "a validated preset does not encode: \(error)")
      return 0
    }
    let again: Preset
    do {
      again = try Preset(jsonData: encoded, name: "fuzz")
    } catch {
      preconditionFailure("a written preset does not read back: \(error)")
    }
    precondition(again == preset, "a preset changed in a JSON round trip")
    // The name either maps to a safe file name or is refused with a typed error.
    if let file = try? PresetStore.fileName(for: preset.name) {
      precondition(
        !file.contains("/") && !file.hasPrefix(".") && !file.contains("\0"), "unsafe file name \(file)")
    }
  } catch {
    precondition(!error.description.isEmpty, "an error without a message")
  }
  return 0
}
