// sf2render SONG.mid OUT.wav --soundfont FONT.sf2 [--gain 0.2]
// Renders every note of a MIDI file with the SoundFont player: program changes per channel,
// channel 10 on bank 128, each note a voice started at its onset and released at its end, mixed
// to mono at FluidSynth's default gain (0.2), written as 32-bit float WAV at 44.1 kHz. Prints the
// font's load time and the render time on stderr.
import Foundation
import MIDIJSON
import PitchDSP
import Synthesis

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data((message + "\n").utf8))
  exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var fontPath: String?
var gain: Float = 0.2
var positional: [String] = []
while !arguments.isEmpty {
  let a = arguments.removeFirst()
  switch a {
  case "--soundfont": fontPath = arguments.isEmpty ? nil : arguments.removeFirst()
  case "--gain": gain = Float(arguments.isEmpty ? "" : arguments.removeFirst()) ?? gain
  default: positional.append(a)
  }
}
guard positional.count == 2, let fontPath else { fail("usage: sf2render SONG.mid OUT.wav --soundfont FONT.sf2") }
let sampleRate = 44100.0
let clock = ContinuousClock()
let loadStart = clock.now
let font: SoundFont
do { font = try SoundFont(contentsOf: URL(filePath: fontPath)) } catch { fail("\(error)") }
let loadTime = clock.now - loadStart
let file: MIDIFile
do { file = try MIDIFile(url: URL(filePath: positional[0])) } catch { fail("\(error)") }
let tempo = TempoMap(file)

// Program per channel over time: (tick, channel, program), bank select ignored (GM files).
var programs: [(tick: Int, channel: Int, program: Int)] = []
for track in file.tracks {
  for event in track.events {
    if case .programChange(let channel, let program) = event.event {
      programs.append((event.tick, Int(channel), Int(program)))
    }
  }
}
programs.sort { $0.tick < $1.tick }
let programChanges = programs
let programAt: (Int, Int) -> Int = { channel, tick in
  programChanges.last { $0.channel == channel && $0.tick <= tick }?.program ?? 0
}

var instruments: [String: SoundFontInstrument] = [:]
let notes = file.notes().notes
let renderStart = clock.now
let end = notes.map { tempo.seconds(atTick: $0.ticks + $0.durationTicks) }.max() ?? 0
var output = [Float](repeating: 0, count: Int((end + 3) * sampleRate))
for note in notes {
  let bank = note.channel == 9 ? 128 : 0
  let prog = note.channel == 9 ? 0 : programAt(note.channel, note.ticks)
  let key = "\(bank):\(prog)"
  if instruments[key] == nil {
    do { instruments[key] = try font.instrument(bank: bank, program: prog) } catch { fail("\(error)") }
  }
  var voice = instruments[key]!.makeVoice(sampleRate: sampleRate)
  let onset = Int((tempo.seconds(atTick: note.ticks) * sampleRate).rounded())
  let offset = Int((tempo.seconds(atTick: note.ticks + note.durationTicks) * sampleRate).rounded())
  voice.start(pitch: Double(note.midi), velocity: note.velocity)
  var frame = onset
  output.withUnsafeMutableBufferPointer { buffer in
    while voice.isActive && frame < buffer.count {
      if frame == offset { voice.release() }
      var n = min(512, buffer.count - frame)
      if frame < offset { n = min(n, offset - frame) }
      voice.render(adding: UnsafeMutableBufferPointer(rebasing: buffer[frame..<(frame + n)]))
      frame += n
    }
  }
}
for i in output.indices { output[i] *= gain }
let renderTime = clock.now - renderStart
do {
  try WAVWriter.write(AudioBuffer(sampleRate: sampleRate, mono: output), to: URL(filePath: positional[1]), encoding: .float32)
} catch { fail("\(error)") }
FileHandle.standardError.write(Data("load \(loadTime), render \(renderTime), \(notes.count) notes\n".utf8))
