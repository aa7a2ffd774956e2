import Foundation
import PitchDSP
import ScoreModel

/// Fixes the segmentation where the score shows it went wrong, then links again: a sound broken
/// into pieces by a tremor of level (a bow change, the loop of a sample) is joined back, and
/// two repeated notes heard as one sound are split at the dip between them.
///
/// - A sound no note claimed joins the sound before it when both have the same pitch (within
///   ``sameCents``), nothing separates them (at most ``gapSeconds``), and it starts before the
///   next note is due (less ``marginSeconds``, on the local tempo); again after the splits
///   below, which give the pieces after a split-off note to that note.
/// - A missed note whose previous note's sound (or, when that note was missed too, the last
///   sound linked before it) still sounds when it is due splits that sound at a dip of its
///   harmonics within ``searchSeconds`` of when the note is due
///   (``SoundBoundaryRefiner/reattack(in:near:within:riseDecibels:)``), if the level rises
///   again after it by ``dipDecibels`` (``otherPitchDipDecibels`` when the sound is not at the
///   missed note's pitch: a wrong note played as a repeat of the previous one); at the same
///   pitch with no dip (a tongued legato repeat), where the partials' phases break
///   (``SoundBoundaryRefiner/phaseBreak(in:near:within:)``). At the same pitch the split moves
///   up to ``predictionReachSeconds`` earlier, to where the partials leave the old note's turn
///   (``repeatStart(in:near:reattack:refiner:)``).
/// - A missed note due past that sound's end, at its pitch, in what the pitch track still heard
///   after it (``PerformanceSound/heardUntil``), splits off a note there when the level rises
///   again by ``tailDipDecibels`` to within ``tailLevelDecibels`` of the sound's: a quieter
///   repeat the level did not set apart from the release, which the refined end had cut off;
///   or, with no such rise, where the partials' phases break at that end if the pitch moves
///   there by ``tailPitchStepCents`` (a note slurred from one played so out of tune that both
///   lie within ``sameCents``).
/// - A missed note whose next note's sound is at its pitch, began well before that note was
///   due and still sounds then (a repeat whose two notes the linking gave to the later one)
///   splits that sound where the later note re-attacks, as above (at the same pitch).
public struct ScoreInformedRepair: Sendable {
  /// The pitch distance that counts as the same note, in cents.
  public var sameCents: Double = 60
  /// The longest gap bridged by a join, in seconds.
  public var gapSeconds: Double = 0.03
  /// A piece joins only if it starts this long before the next note is due, in seconds.
  public var marginSeconds: Double = 0.1
  /// How far from when a missed note is due its re-attack is looked for, in seconds.
  public var searchSeconds: Double = 0.15
  /// The rise after a dip that makes it a re-attack, in dB.
  public var dipDecibels: Double = 3
  /// How much earlier than the re-attack found in the level a repeat at the same pitch may
  /// start, where its harmonics' phases leave the old note's turn
  /// (``SoundBoundaryRefiner/predictionBreak(in:near:within:)``), in seconds.
  public var predictionReachSeconds: Double = 0.08
  /// The rise that makes a re-attack when the sound is not at the missed note's pitch, in dB.
  public var otherPitchDipDecibels: Double = 6
  /// The rise that makes a re-attack past the sound's refined end, in what the pitch track
  /// still heard (``PerformanceSound/heardUntil``), in dB.
  public var tailDipDecibels: Double = 6
  /// How far under the sound's level before its end a re-attack past the end may peak and
  /// still be the note played again, in dB: a release or a room's ring that swells as it
  /// beats stays further under the note (a missed note's due time in the previous note's
  /// ring found "repeats" 12–35 dB under it; the quieter repeats played peaked 0–8 dB under).
  public var tailLevelDecibels: Double = 10
  /// How far the pitch must move across a break in the partials' phases past a sound's refined
  /// end, with no re-attack in the level, for the sound after it to be a note of its own, in
  /// cents: a legato step played so out of tune that both notes lie within ``sameCents`` (a G4
  /// 60 cents flat slurred to an F♯4) has its end found where the first note's release begins.
  public var tailPitchStepCents: Double = 20
  /// The fewest pitch points that give a piece of a split sound its own pitch (3: 30 ms of the
  /// track at its default hop); a piece with fewer keeps the sound's. One point where the pitch
  /// track came to the note, read an octave low under the previous note's ring, made a correct
  /// E5 split off its repeat a "lower partial".
  public var leastPitchPoints = 3
  /// The attack left out of a split or joined sound's stable pitch, in seconds (by default the
  /// segmenter's ``NoteSegmenter/Configuration/attackSeconds``): each piece of a split takes its
  /// own pitch, so a repeat played out of tune is heard as such, not as the pair's median.
  public var attackSeconds: Double = NoteSegmenter.Configuration().attackSeconds

  /// Creates the repair with its default thresholds.
  public init() {}

  /// The sounds repaired against a first alignment, or the same sounds when nothing applies.
  ///
  /// - Parameters:
  ///   - alignment: A first alignment of the take.
  ///   - refiner: The take's audio, for finding re-attacks.
  /// - Returns: The repaired sounds, in time order.
  public func repaired(_ alignment: PerformanceAlignment, refiner: SoundBoundaryRefiner?) -> [PerformanceSound] {
    let notes = alignment.notes
    let latency = alignment.latencySeconds
    var noteOfSound = [Int?](repeating: nil, count: alignment.sounds.count)
    for (i, link) in alignment.soundIndices.enumerated() { if let j = link { noteOfSound[j] = i } }
    let pitched = notes.indices.filter { !notes[$0].isRest }
    // When each note is due on the audio's time line, on the local tempo.
    func due(_ i: Int) -> Double { notes[i].expectedStart + alignment.localOffsets[i] + latency }
    func nextPitched(after i: Int) -> Int? { pitched.first { $0 > i } }

    // Joins: each unclaimed piece into the owned sound before it, where the rule allows.
    func joins(_ input: [PerformanceSound], owners: [Int?]) -> (sounds: [PerformanceSound], owner: [Int?]) {
      var sounds: [PerformanceSound] = []
      var owner: [Int?] = []  // the note each kept sound is linked to
      for (j, sound) in input.enumerated() {
        if owners[j] == nil, let last = sounds.last, let note = owner.last ?? nil,
          sound.isAtPitch(last.frequencyHz, withinCents: sameCents), sound.start - last.end <= gapSeconds,
          nextPitched(after: note).map({ sound.start < due($0) - marginSeconds }) ?? true
        {
          var joined = last
          joined.end = sound.end
          joined.heardUntil = sound.heardUntil
          joined.pitchTrack += sound.pitchTrack
          joined.peakLevelDBFS = max(last.peakLevelDBFS, sound.peakLevelDBFS)
          joined.frequencyHz = joined.stableFrequency(skippingAttack: attackSeconds) ?? last.frequencyHz
          sounds[sounds.count - 1] = joined
          continue
        }
        sounds.append(sound)
        owner.append(owners[j])
      }
      return (sounds, owner)
    }
    var (sounds, owner) = joins(alignment.sounds, owners: noteOfSound)

    // Splits.
    guard let refiner else { return sounds }
    for (k, i) in pitched.enumerated() where alignment.soundIndices[i] == nil && k > 0 {
      // The sound of the last note before it that has one (notes missed in between, say a
      // repeat played legato that left no trace, are passed over).
      guard let expected = notes[i].soundingPitch,
        let index = pitched[..<k].reversed().lazy.compactMap({ note in owner.firstIndex(where: { $0 == note }) }).first
      else {
        continue
      }
      let refinedEnd = sounds[index].end
      let expectedHz = Tuning.standard.frequencyHz(of: expected)
      let when = due(i)
      // A note of another pitch played as a repeat of the previous one (a wrong note that
      // changes nothing audible but the attack) needs a clearer re-attack.
      let samePitch = sounds[index].isAtPitch(expectedHz, withinCents: sameCents)
      // Due past the sound's end, in what the pitch track still heard after it: a quieter
      // repeat of the same note that the level did not set apart from the release.
      let inTail = refinedEnd <= when + 0.05
      var sound = sounds[index]
      if inTail {
        guard samePitch, let heard = sound.heardUntil else { continue }
        sound.end = heard
      }
      guard sound.start + 0.08 < when, sound.end > when + 0.05 else { continue }
      let rise = inTail ? tailDipDecibels : samePitch ? dipDecibels : otherPitchDipDecibels
      // A repeat played without a dip (tongued legato) shows in the partials' phases only.
      let reattack = refiner.reattack(in: sound, near: when, within: searchSeconds, riseDecibels: rise)
      guard
        let dip = reattack
          ?? (samePitch ? refiner.phaseBreak(in: sound, near: when, within: searchSeconds) : nil),
        !inTail || dip > refinedEnd - 0.02
          && refiner.peakChange(in: sound, after: dip, before: refinedEnd).map({ $0 >= -tailLevelDecibels }) == true
      else {
        continue
      }
      let split =
        samePitch && !inTail ? repeatStart(in: sound, near: when, reattack: dip, refiner: refiner) : dip
      var (first, second) = pieces(of: sound, at: split)
      // Past the refined end, the partials' phases break where a release begins too (a sampled
      // violin's release, rung on for 160 ms at the note's pitch): without a re-attack in the
      // level, the sound after the break is a new note only if its pitch moved.
      if inTail, reattack == nil, first.isAtPitch(second.frequencyHz, withinCents: tailPitchStepCents) {
        continue
      }
      // The first note may have stopped well before the re-attack (a short note, then a
      // silence the segmenter could not hear under its release).
      first.end = max(first.start + 0.01, min(split, refinedEnd, refiner.end(of: first, before: second)))
      if inTail {
        // The repeat ends on its own release.
        second.heardUntil = nil
        let next = index + 1 < sounds.count ? sounds[index + 1] : nil
        second.end = max(second.start + 0.01, refiner.end(of: second, before: next))
      }
      sounds[index] = first
      sounds.insert(second, at: index + 1)
      owner.insert(i, at: index + 1)
    }
    // A missed note whose next note's sound is at its pitch, began well before that note was
    // due and still sounds then: the two played as a repeat, the sound linked to the later
    // one. It splits where the later note re-attacks.
    for (k, i) in pitched.enumerated() where alignment.soundIndices[i] == nil && !owner.contains(i) && k + 1 < pitched.count {
      let next = pitched[k + 1]
      guard let expected = notes[i].soundingPitch, let index = owner.firstIndex(where: { $0 == next }) else { continue }
      let sound = sounds[index]
      let when = due(next)
      guard sound.isAtPitch(Tuning.standard.frequencyHz(of: expected), withinCents: sameCents),
        sound.start + 0.08 < when, sound.end > when + 0.05,
        let dip = refiner.reattack(in: sound, near: when, within: searchSeconds, riseDecibels: dipDecibels)
          ?? refiner.phaseBreak(in: sound, near: when, within: searchSeconds)
      else {
        continue
      }
      let split = repeatStart(in: sound, near: when, reattack: dip, refiner: refiner)
      var (first, second) = pieces(of: sound, at: split)
      first.end = max(first.start + 0.01, min(split, refiner.end(of: first, before: second)))
      sounds[index] = first
      sounds.insert(second, at: index + 1)
      owner[index] = i
      owner.insert(next, at: index + 1)
    }
    // Joins again: pieces after a split-off note belong to it now, not to the note before it
    // (a long note played as a repeat of the previous one, then broken by a tremolo).
    return joins(sounds, owners: owner).sounds
  }

  /// Where a note played again at the sound's pitch starts, given the re-attack found in the
  /// level: earlier, up to ``predictionReachSeconds``, where its harmonics' phases leave the old
  /// note's turn (``SoundBoundaryRefiner/predictionBreak(in:near:within:)``). A repeat whose
  /// slow start stays under the old note's release shows in the level only 30–70 ms in (a
  /// violin's repeat after a short gap: the level falls for 40–60 ms after the new note began).
  func repeatStart(
    in sound: PerformanceSound, near when: Double, reattack: Double, refiner: SoundBoundaryRefiner
  ) -> Double {
    guard let earlier = refiner.predictionBreak(in: sound, near: when, within: searchSeconds),
      earlier >= reattack - predictionReachSeconds, earlier <= reattack
    else { return reattack }
    return earlier
  }

  /// A sound split at `time` into two, each with its own pitch points and stable pitch (the
  /// sound's when it holds fewer than ``leastPitchPoints``); the second starts at an onset of
  /// its own.
  func pieces(of sound: PerformanceSound, at time: Double) -> (PerformanceSound, PerformanceSound) {
    var first = sound
    var second = sound
    first.end = time
    first.heardUntil = nil
    second.start = time
    second.attack = nil
    second.boundary = .onset
    first.pitchTrack = sound.pitchTrack.filter { $0.time < time }
    second.pitchTrack = sound.pitchTrack.filter { $0.time >= time }
    func ownPitch(_ piece: PerformanceSound) -> Double {
      guard piece.pitchTrack.count >= leastPitchPoints else { return sound.frequencyHz }
      return piece.stableFrequency(skippingAttack: attackSeconds) ?? sound.frequencyHz
    }
    first.frequencyHz = ownPitch(first)
    second.frequencyHz = ownPitch(second)
    return (first, second)
  }
}
