/// General MIDI level 1 program names and families.
public enum GeneralMIDI {
  /// The 128 program names, indexed by program number 0–127.
  public static let programNames: [String] = [
    "acoustic grand piano", "bright acoustic piano", "electric grand piano", "honky-tonk piano",
    "electric piano 1", "electric piano 2", "harpsichord", "clavinet", "celesta", "glockenspiel",
    "music box", "vibraphone", "marimba", "xylophone", "tubular bells", "dulcimer", "drawbar organ",
    "percussive organ", "rock organ", "church organ", "reed organ", "accordion", "harmonica",
    "tango accordion", "acoustic guitar (nylon)", "acoustic guitar (steel)", "electric guitar (jazz)",
    "electric guitar (clean)", "electric guitar (muted)", "overdriven guitar", "distortion guitar",
    "guitar harmonics", "acoustic bass", "electric bass (finger)", "electric bass (pick)",
    "fretless bass", "slap bass 1", "slap bass 2", "synth bass 1", "synth bass 2", "violin", "viola",
    "cello", "contrabass", "tremolo strings", "pizzicato strings", "orchestral harp", "timpani",
    "string ensemble 1", "string ensemble 2", "synth strings 1", "synth strings 2", "choir aahs",
    "voice oohs", "synth choir", "orchestra hit", "trumpet", "trombone", "tuba", "muted trumpet",
    "french horn", "brass section", "synth brass 1", "synth brass 2", "soprano sax", "alto sax",
    "tenor sax", "baritone sax", "oboe", "english horn", "bassoon", "clarinet", "piccolo", "flute",
    "recorder", "pan flute", "blown bottle", "shakuhachi", "whistle", "ocarina", "lead 1 (square)",
    "lead 2 (sawtooth)", "lead 3 (calliope)", "lead 4 (chiff)", "lead 5 (charang)", "lead 6 (voice)",
    "lead 7 (fifths)", "lead 8 (bass + lead)", "pad 1 (new age)", "pad 2 (warm)", "pad 3 (polysynth)",
    "pad 4 (choir)", "pad 5 (bowed)", "pad 6 (metallic)", "pad 7 (halo)", "pad 8 (sweep)",
    "fx 1 (rain)", "fx 2 (soundtrack)", "fx 3 (crystal)", "fx 4 (atmosphere)", "fx 5 (brightness)",
    "fx 6 (goblins)", "fx 7 (echoes)", "fx 8 (sci-fi)", "sitar", "banjo", "shamisen", "koto", "kalimba",
    "bag pipe", "fiddle", "shanai", "tinkle bell", "agogo", "steel drums", "woodblock", "taiko drum",
    "melodic tom", "synth drum", "reverse cymbal", "guitar fret noise", "breath noise", "seashore",
    "bird tweet", "telephone ring", "helicopter", "applause", "gunshot",
  ]

  /// The 16 instrument families, one per 8 programs.
  public static let families: [String] = [
    "piano", "chromatic percussion", "organ", "guitar", "bass", "strings", "ensemble", "brass", "reed",
    "pipe", "synth lead", "synth pad", "synth effects", "world", "percussive", "sound effects",
  ]

  /// The family of a program, or `drums` for MIDI channel 10 (index 9).
  public static func family(program: Int, channel: Int) -> String {
    channel == 9 ? "drums" : families[max(0, min(127, program)) / 8]
  }
}
