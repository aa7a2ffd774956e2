import Testing

@testable import ScoreModel

@Suite struct TransposingInstrumentTests {
  @Test func writtenAndConcertPitch() throws {
    let trumpet = TransposingInstrument.bFlatTrumpet
    #expect(trumpet.concert(ofWritten: try SpelledNote(parsing: "D4"))?.description == "C4")
    #expect(trumpet.concert(ofWritten: try SpelledNote(parsing: "F#4"))?.description == "E4")
    #expect(trumpet.written(ofConcert: try SpelledNote(parsing: "Bb3"))?.description == "C4")
    #expect(
      TransposingInstrument.altoSaxophone.concert(ofWritten: try SpelledNote(parsing: "A4"))?.description
        == "C4")
    #expect(
      TransposingInstrument.frenchHorn.concert(ofWritten: try SpelledNote(parsing: "G4"))?.description == "C4"
    )
    #expect(
      TransposingInstrument.guitar.concert(ofWritten: try SpelledNote(parsing: "E4"))?.description == "E3")
    #expect(
      TransposingInstrument.tenorSaxophone.concert(ofWritten: try SpelledNote(parsing: "D5"))?.description
        == "C4")
    #expect(
      TransposingInstrument.piccolo.concert(ofWritten: try SpelledNote(parsing: "C5"))?.description == "C6")
    #expect(trumpet.concert(ofWritten: MIDINote(62)!) == MIDINote(60))
    #expect(trumpet.written(ofConcert: MIDINote(60)!) == MIDINote(62))
    #expect(trumpet.concert(ofWritten: MIDINote(0)!) == nil)
    let fromMusicXML = TransposingInstrument(name: "tenor sax", chromatic: -2, diatonic: -1, octaveChange: -1)
    #expect(fromMusicXML.chromatic == -14 && fromMusicXML.diatonic == -8)
  }

  /// Written → concert → written is the identity for every instrument and every written note
  /// C, C♯, D♭ … B♯ in octaves 2...6, and the spelled result sounds where the MIDI one does.
  @Test(arguments: TransposingInstrument.all)
  func roundTripsAndAgreesWithMIDI(instrument: TransposingInstrument) throws {
    for octave in 2...6 {
      for letter in Letter.allCases {
        for accidental in [Accidental.flat, .natural, .sharp] {
          let written = SpelledNote(letter, accidental, octave: octave)
          let concert = try #require(instrument.concert(ofWritten: written), "\(written)")
          #expect(instrument.written(ofConcert: concert) == written)
          #expect(concert.midiNumber - written.midiNumber == instrument.chromatic)
          #expect(concert.diatonicNumber - written.diatonicNumber == instrument.diatonic)
          if let midi = written.midiNote {
            #expect(instrument.concert(ofWritten: midi)?.rawValue == concert.midiNumber)
          }
        }
      }
    }
    if let interval = instrument.interval {
      #expect(interval.semitones == abs(instrument.chromatic))
    }
  }

  @Test func writtenKeys() throws {
    let eFlat = try Key(parsing: "Eb major")
    #expect(TransposingInstrument.bFlatTrumpet.writtenKey(ofConcert: eFlat).description == "F major")
    #expect(TransposingInstrument.altoSaxophone.writtenKey(ofConcert: eFlat).description == "C major")
    #expect(TransposingInstrument.frenchHorn.concertKey(ofWritten: .cMajor).description == "F major")
    // G# major (8 sharps) is printed as Ab major.
    #expect(
      TransposingInstrument.altoSaxophone.writtenKey(ofConcert: Key(.b, .major)).description == "Ab major")
    #expect(
      TransposingInstrument.bFlatClarinet.writtenKey(ofConcert: try Key(parsing: "G minor")).description
        == "A minor")
    for instrument in TransposingInstrument.all {
      for key in Key.standardKeys {
        let written = instrument.writtenKey(ofConcert: key)
        #expect(abs(written.signature) <= 7, "\(instrument) \(key)")
        #expect(written.tonic.pitchClass == key.tonic.pitchClass.transposed(by: -instrument.chromatic))
      }
    }
    #expect(TransposingInstrument.tenorSaxophone.interval == .majorNinth)
    #expect(TransposingInstrument.piccolo.soundsHigher && !TransposingInstrument.guitar.soundsHigher)
  }
}
