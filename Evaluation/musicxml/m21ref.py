#!/usr/bin/env python3
"""music21's reading of a MusicXML file, in the shape `etude score FILE` prints.

Shared by make_expectations.py (fixtures) and compare.py (real-world corpus). Every rule is
written out in Evaluation/musicxml/README.md ("How each field is derived"); keep the two in step.

    reference(path, expand=True) -> (result, info)

`result` is {"parts", "tempos", "timeSignatures", "notes"} with exact quarters as "n/d" strings;
`info` says what music21 could and could not do (repeat expansion, tie disagreements, ...).

Steps:
 1. read the bytes (.mxl: the root file named by META-INF/container.xml);
 2. rewrite, only where music21 would otherwise misread (see `preprocess`): score-timewise to
    score-partwise, cue notes to <forward> (cue notes are not played but take their time), a
    <metronome> that shares a <direction> with <sound tempo> dropped (the sound is the playback
    tempo; music21 would take the printed mark);
 3. music21 parses it; each music21 measure is tagged with its notation index and the single
    voice number of the XML measure (music21 keeps <voice> only when a measure has several);
    <forward> spacer rests that music21 invents for Finale files are tagged and left out;
 4. Score.expandRepeats() (repeat.Expander: repeats, endings, D.C./D.S./fine/coda from the
    words and segno/coda signs); on an exception the notation order is kept and info says so;
 5. stripTies() (music21's tie merge); an independent onset-based merge runs on the same notes
    and every note where the two disagree is listed in info["tieDisagreements"];
 6. toSoundingPitch() on a copy gives the sounding pitch of each note (for a <concert-score/>
    file the pitches read are sounding and toWrittenPitch gives the written ones);
 7. the tempo map (sound tempo / metronome marks, 120 before the first) turns quarters into
    seconds with exact fractions.
"""

import copy
import fractions
import io
import re
import warnings
import xml.etree.ElementTree as ET
import zipfile
from fractions import Fraction

import music21
from music21 import chord, converter, harmony, meter, note, stream, tempo
from music21.musicxml import xmlToM21

warnings.simplefilter('ignore')

DEFAULT_BPM = Fraction(120)


from musicxml_io import partwise_to_timewise, read_musicxml_bytes, timewise_to_partwise
import plainreader


def text(element, path, default=None):
    found = element.find(path)
    if found is None or found.text is None:
        return default
    return found.text.strip()


class XMLFacts:
    """What the reference needs from the XML itself (music21 drops it)."""

    def __init__(self, root):
        self.part_names = {}
        self.part_order = []
        for score_part in root.iter('score-part'):
            pid = score_part.get('id')
            self.part_order.append(pid)
            self.part_names[pid] = text(score_part, 'part-name', '') or ''
        self.concert_score = root.find('defaults/concert-score') is not None or \
            root.find('.//concert-score') is not None
        self.plain = plainreader.read_root(root)
        self.has_cue = any(True for _ in root.iter('cue'))


def preprocess(data):
    """(bytes for music21, XMLFacts, list of rewrites made)."""
    root = ET.fromstring(data)
    rewrites = []
    if root.tag == 'score-timewise':
        root = timewise_to_partwise(root)
        rewrites.append('score-timewise converted to score-partwise')
    facts = XMLFacts(root)
    changed = bool(rewrites)
    # Cue notes: not played, but they take their time. A cue note that advances time becomes a
    # <forward> of the same duration (same voice and staff); a cue chord member or cue grace
    # note is dropped.
    for measure in root.iter('measure'):
        children = list(measure)
        for index, element in enumerate(children):
            if element.tag != 'note' or element.find('cue') is None:
                continue
            is_chord_member = element.find('chord') is not None
            is_grace = element.find('grace') is not None
            # the first note of a chord: the next note carries <chord/>; then that next note
            # becomes the one that advances time, unless it is a cue note too.
            position = list(measure).index(element)
            if is_chord_member or is_grace:
                measure.remove(element)
                changed = True
                continue
            following = list(measure)[position + 1:]
            successor = following[0] if following else None
            if successor is not None and successor.tag == 'note' \
                    and successor.find('chord') is not None and successor.find('cue') is None:
                successor.remove(successor.find('chord'))
                measure.remove(element)
                changed = True
                continue
            forward = ET.Element('forward')
            duration = element.find('duration')
            ET.SubElement(forward, 'duration').text = duration.text if duration is not None else '0'
            for tag in ('voice', 'staff'):
                found = element.find(tag)
                if found is not None:
                    ET.SubElement(forward, tag).text = found.text
            measure.insert(position, forward)
            measure.remove(element)
            changed = True
    if facts.has_cue:
        rewrites.append('cue notes turned into <forward> (not played, time kept)')
    # A <direction>/<harmony>/<figured-bass> between the notes of a chord: music21 ends the chord
    # there. Moved after the chord's last note, which is the same position (the cursor already
    # moved past the chord's first note).
    moved = 0
    for measure in root.iter('measure'):
        children = list(measure)
        index = 0
        while index < len(children):
            element = children[index]
            if element.tag in ('direction', 'harmony', 'figured-bass', 'print', 'sound'):
                j = index
                while j < len(children) and children[j].tag in ('direction', 'harmony', 'figured-bass', 'print', 'sound'):
                    j += 1
                if (index > 0 and children[index - 1].tag == 'note' and j < len(children)
                        and children[j].tag == 'note' and children[j].find('chord') is not None):
                    block = children[index:j]
                    k = j
                    while k + 1 < len(children) and children[k + 1].tag == 'note' \
                            and children[k + 1].find('chord') is not None:
                        k += 1
                    for b in block:
                        measure.remove(b)
                    anchor_note = children[k]
                    position = list(measure).index(anchor_note) + 1
                    for offset, b in enumerate(block):
                        measure.insert(position + offset, b)
                    moved += len(block)
                    children = list(measure)
                    index = 0
                    continue
                index = j
                continue
            index += 1
    if moved:
        changed = True
        rewrites.append(f'{moved} direction/harmony element(s) between chord notes moved after the chord')
    # A note without <staff> in a part with several staves is on staff 1 (or its chord's staff);
    # music21 would copy it onto every staff.
    added = 0
    for part in root.findall('part'):
        staves = 1
        for measure in part.findall('measure'):
            for attributes in measure.findall('attributes'):
                if attributes.find('staves') is not None and (attributes.find('staves').text or '').strip().isdigit():
                    staves = int(attributes.find('staves').text.strip())
            if staves < 2:
                continue
            last_staff = '1'
            for element in measure:
                if element.tag != 'note':
                    continue
                staff = element.find('staff')
                if staff is None:
                    new_staff = ET.SubElement(element, 'staff')
                    new_staff.text = last_staff if element.find('chord') is not None else '1'
                    last_staff = new_staff.text
                    added += 1
                else:
                    last_staff = (staff.text or '1').strip()
    if added:
        changed = True
        rewrites.append(f'<staff> added to {added} note(s) without one in a part with several staves')
    # <offset> without sound="yes" only moves a direction (or harmony, figured bass, sound) on
    # the page; music21 moves it in time and lengthens the measure when it points past the end,
    # shifting every later measure. Such offsets are removed.
    offsets = 0
    for parent in list(root.iter()):
        if parent.tag not in ('direction', 'harmony', 'figured-bass', 'sound'):
            continue
        for offset in parent.findall('offset'):
            if offset.get('sound') != 'yes':
                parent.remove(offset)
                offsets += 1
    if offsets:
        changed = True
        rewrites.append(f'{offsets} visual-only <offset> element(s) removed')
    # A <direction> with both <metronome> and <sound tempo>: the sound is the playback tempo.
    dropped = 0
    for direction in root.iter('direction'):
        sound = direction.find('sound')
        if sound is None or sound.get('tempo') is None:
            continue
        for direction_type in direction.findall('direction-type'):
            metronome = direction_type.find('metronome')
            if metronome is not None:
                direction_type.remove(metronome)
                dropped += 1
                if len(direction_type) == 0:
                    direction.remove(direction_type)
        if direction.find('direction-type') is None:
            # a direction needs a direction-type; an empty words keeps it valid
            dt = ET.Element('direction-type')
            ET.SubElement(dt, 'words').text = ''
            direction.insert(0, dt)
    if dropped:
        changed = True
        rewrites.append(f'{dropped} <metronome> dropped where <sound tempo> gives the playback tempo')
    # Jumps music21 cannot see: it takes D.C./D.S./Fine/To Coda only from words it recognises
    # exactly (a line break or a double space in "D.C.\nal Fine" defeats it) and ignores the
    # <sound dacapo|dalsegno|fine|tocoda> attributes. Such words are rewritten in music21's
    # spelling, and a jump given by <sound> alone gets its words.
    jumps = rewrite_jump_words(root)
    if jumps:
        changed = True
        rewrites.append(f'{jumps} jump(s) given by <sound> or by words music21 does not recognise spelled out as words')
    # music21 expands each part on its own marks; a file that puts its repeat barlines, voltas and
    # jumps in one part only (the others play straight through in music21) gets them copied into
    # every part, measure by measure, as a player of any part reads them.
    copied = copy_repeat_marks(root)
    if copied:
        changed = True
        rewrites.append(f'{copied} repeat/volta/jump mark(s) copied into the parts that lack them')
    # A <forward> of duration 0 moves nothing, but music21 turns it into a hidden rest of a
    # quarter and every later note of the part moves a beat (Haydn op. 1 no. 1, Schumann op. 41
    # no. 1). Such forwards are removed.
    zero_forwards = 0
    for measure in root.iter('measure'):
        for forward in measure.findall('forward'):
            text = (forward.findtext('duration') or '').strip()
            try:
                is_zero = float(text) == 0
            except ValueError:
                is_zero = False
            if is_zero:
                measure.remove(forward)
                zero_forwards += 1
    if zero_forwards:
        changed = True
        rewrites.append(f'{zero_forwards} <forward> element(s) of duration 0 removed')
    # music21 reads a forward repeat on a right barline as a backward one (op. 18 no. 4: the
    # Trio's "start repeat" signs at the ends of bars sent the player back to the first
    # movement). Such a sign is moved to the next measure's left barline, where its section starts.
    moved_forward = move_right_forward_repeats(root)
    if moved_forward:
        changed = True
        rewrites.append(f'{moved_forward} forward repeat(s) on a right barline moved to the next measure')
    # music21 ignores a backward repeat that closes a first ending when no other ending follows
    # (the Maple Leaf Rag's A section would not repeat). The measure after such an ending, which is
    # where the second pass goes on, gets a second-ending bracket.
    lone = mark_lone_first_endings(root)
    if lone:
        changed = True
        rewrites.append(f'{lone} measure(s) after a lone first ending given a second-ending bracket')
    if not changed:
        return data, facts, rewrites
    return ET.tostring(root, encoding='utf-8', xml_declaration=True), facts, rewrites


def move_right_forward_repeats(root):
    """Moves each <repeat direction="forward"/> of a right barline to the next measure's left
    barline (made if needed). Returns how many were moved."""
    count = 0
    for part in root.findall('part'):
        measures = part.findall('measure')
        for index, measure in enumerate(measures):
            for barline in measure.findall('barline'):
                if barline.get('location') != 'right':
                    continue
                for repeat in barline.findall('repeat'):
                    if repeat.get('direction') != 'forward':
                        continue
                    barline.remove(repeat)
                    count += 1
                    if index + 1 >= len(measures):
                        continue
                    following = measures[index + 1]
                    left = next((b for b in following.findall('barline') if b.get('location') == 'left'), None)
                    if left is None:
                        left = ET.Element('barline', location='left')
                        following.insert(0, left)
                    if not any(r.get('direction') == 'forward' for r in left.findall('repeat')):
                        ET.SubElement(left, 'repeat', direction='forward')
    return count


def mark_lone_first_endings(root):
    """Adds an ending 2 (start, discontinue) to the measure that follows a first ending whose last
    measure has a backward repeat, when that measure has no ending or repeat of its own. Returns
    the count."""
    count = 0
    for part in root.findall('part'):
        measures = part.findall('measure')
        for index, measure in enumerate(measures[:-1]):
            endings = [e for b in measure.findall('barline') for e in b.findall('ending')]
            if not any(e.get('type') == 'stop' for e in endings):
                continue
            if not any(r.get('direction') == 'backward' for b in measure.findall('barline') for r in b.findall('repeat')):
                continue
            # the bracket this stop closes: walk back to its start
            start = index
            while start >= 0 and not any(e.get('type') == 'start' for b in measures[start].findall('barline')
                                         for e in b.findall('ending')):
                start -= 1
            if start < 0:
                continue
            numbers = [e.get('number', '') for b in measures[start].findall('barline') for e in b.findall('ending')
                       if e.get('type') == 'start']
            if [n.strip() for n in numbers] != ['1']:
                continue
            following = measures[index + 1]
            # not where the next measure opens or closes a repeat of its own (45e: nested
            # sections whose reading is ambiguous anyway)
            if any(True for b in following.findall('barline') for _ in list(b.findall('ending')) + list(b.findall('repeat'))):
                continue
            left = ET.Element('barline', location='left')
            ET.SubElement(left, 'ending', number='2', type='start')
            right = ET.Element('barline', location='right')
            ET.SubElement(right, 'ending', number='2', type='discontinue')
            following.insert(0, left)
            following.append(right)
            count += 1
    return count


JUMP_WORDS = {
    # key: words with case, spaces, line breaks and full stops removed -> what music21 recognises
    'dc': 'D.C.', 'dacapo': 'D.C.', 'dcalfine': 'D.C. al Fine', 'dacapoalfine': 'D.C. al Fine',
    'dcalcoda': 'D.C. al Coda', 'dacapoalcoda': 'D.C. al Coda',
    'ds': 'D.S.', 'dalsegno': 'D.S.', 'dsalfine': 'D.S. al Fine', 'dalsegnoalfine': 'D.S. al Fine',
    'dsalcoda': 'D.S. al Coda', 'dalsegnoalcoda': 'D.S. al Coda',
    'fine': 'Fine', 'tocoda': 'To Coda', 'alcoda': 'To Coda', 'coda': 'Coda', 'segno': 'Segno',
}


def _jump_key(text):
    return re.sub(r'[\s.]', '', (text or '').lower())


def _music21_key(text):
    """music21's own comparison: spaces and full stops removed, lower case (no other whitespace)."""
    return (text or '').strip().replace(' ', '').replace('.', '').lower()


def rewrite_jump_words(root):
    count = 0
    has_fine = any(s.get('fine') for s in root.iter('sound')) or \
        any(_jump_key(w.text) == 'fine' for w in root.iter('words'))
    has_coda = any(s.get('tocoda') for s in root.iter('sound')) or \
        any(_jump_key(w.text) in ('tocoda', 'alcoda') for w in root.iter('words'))
    for direction in root.iter('direction'):
        named = set()
        for words in direction.iter('words'):
            key = _jump_key(words.text)
            if key in JUMP_WORDS:
                named.add(JUMP_WORDS[key].split()[0])
                if _music21_key(words.text) not in JUMP_WORDS:
                    words.text = JUMP_WORDS[key]
                    count += 1
        sound = direction.find('sound')
        if sound is None:
            continue
        wanted = None
        if sound.get('dacapo') == 'yes' and 'D.C.' not in named:
            wanted = 'D.C. al Fine' if has_fine else ('D.C. al Coda' if has_coda else 'D.C.')
        elif sound.get('dalsegno') and 'D.S.' not in named:
            wanted = 'D.S. al Fine' if has_fine else ('D.S. al Coda' if has_coda else 'D.S.')
        elif sound.get('fine') and 'Fine' not in named:
            wanted = 'Fine'
        elif sound.get('tocoda') and 'To' not in named:
            wanted = 'To Coda'
        if wanted:
            direction_type = ET.Element('direction-type')
            ET.SubElement(direction_type, 'words').text = wanted
            direction.insert(0, direction_type)
            count += 1
    return count


def _is_repeat_barline(element):
    return element.tag == 'barline' and (element.find('repeat') is not None or element.find('ending') is not None)


def _is_jump_direction(element):
    if element.tag != 'direction':
        return False
    if any(element.iter('segno')) or any(element.iter('coda')):
        return True
    if any(_jump_key(w.text) in JUMP_WORDS for w in element.iter('words')):
        return True
    sound = element.find('sound')
    return sound is not None and any(sound.get(a) for a in ('dacapo', 'dalsegno', 'fine', 'tocoda', 'segno', 'coda'))


def copy_repeat_marks(root):
    """Copies repeat barlines (repeats, endings) and jump directions of a measure into the parts
    whose same measure (by position) has none of that kind. Returns how many were copied."""
    parts = root.findall('part')
    if len(parts) < 2:
        return 0
    measures = [part.findall('measure') for part in parts]
    count = 0
    for index in range(max(len(m) for m in measures)):
        row = [m[index] if index < len(m) else None for m in measures]
        for kind, test in (('barline', _is_repeat_barline), ('direction', _is_jump_direction)):
            source = next((m for m in row if m is not None and any(test(e) for e in m)), None)
            if source is None:
                continue
            marks = [e for e in source if test(e)]
            for measure in row:
                if measure is None or measure is source or any(test(e) for e in measure):
                    continue
                for mark in marks:
                    clone = copy.deepcopy(mark)
                    if kind == 'direction':
                        # only the jump: no dynamics or other words, at the measure start
                        for child in list(clone):
                            if child.tag in ('staff', 'voice', 'offset'):
                                clone.remove(child)
                        measure.insert(0, clone)
                    elif clone.get('location') == 'left':
                        measure.insert(0, clone)
                    else:
                        measure.append(clone)
                    count += 1
    return count


# ----------------------------------------------------------------------------------------------
# music21 hooks
# ----------------------------------------------------------------------------------------------

_original_forward = xmlToM21.MeasureParser.xmlForward


def _tagging_forward(self, mxObj):
    before = getattr(self, 'lastForwardTagCreatedByFinale', None)
    _original_forward(self, mxObj)
    after = getattr(self, 'lastForwardTagCreatedByFinale', None)
    if after is not None and after is not before:
        after.editorial.etudeForwardRest = True


xmlToM21.MeasureParser.xmlForward = _tagging_forward


def decode_xml(data):
    """Text of XML bytes (UTF-8, UTF-16 with BOM, or the declared encoding), declaration removed
    (music21 gets a str, whose encoding is no longer the declared one)."""
    if isinstance(data, str):
        text = data
    elif data[:2] in (b'\xff\xfe', b'\xfe\xff'):
        text = data.decode('utf-16')
    elif data[:3] == b'\xef\xbb\xbf':
        text = data[3:].decode('utf-8', errors='replace')
    else:
        match = re.match(rb'\s*<\?xml[^>]*encoding=["\']([A-Za-z0-9_.-]+)["\']', data)
        encoding = match.group(1).decode('ascii') if match else 'utf-8'
        try:
            text = data.decode(encoding, errors='replace')
        except LookupError:
            text = data.decode('utf-8', errors='replace')
    return re.sub(r'^\s*<\?xml[^>]*\?>', '', text, count=1)


def parse(data):
    """music21 Score from bytes (no pickle cache)."""
    return converter.parseData(decode_xml(data), format='musicxml', forceSource=True)


def time_music21_parse(path):
    """Seconds for converter.parse(path) alone, as a user would call it (no cache)."""
    import time
    start = time.perf_counter()
    converter.parse(path, forceSource=True)
    return time.perf_counter() - start


# ----------------------------------------------------------------------------------------------
# Small helpers
# ----------------------------------------------------------------------------------------------

def frac(value):
    """music21 offsets are floats with exact binary values or Fractions: exact Fraction."""
    if isinstance(value, Fraction):
        return value
    return Fraction(value)


def frac_str(value):
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f'{value.numerator}/{value.denominator}'


def spelled(pitch):
    """C4, F#3, Bb2, E##5 (Etude's ASCII spelling); microtones rounded to the nearest accidental."""
    alter = 0
    if pitch.accidental is not None:
        alter = int(round(pitch.accidental.alter))
    acc = '#' * alter if alter > 0 else 'b' * (-alter)
    return f'{pitch.step}{acc}{pitch.octave}'


def part_info(m21part, facts):
    """(xml part id, staff number) of a music21 Part or PartStaff."""
    pid = None
    instrument = m21part.getInstrument(returnDefault=False)
    if instrument is not None and instrument.partId:
        pid = instrument.partId
    staff = 1
    match = re.match(r'^(.*)-Staff(\d+)$', str(m21part.id))
    if match:
        staff = int(match.group(2))
        pid = pid or match.group(1)
    if pid is None:
        for group in m21part.groups:
            if group in facts.part_names:
                pid = group
                break
    if pid is None:
        pid = str(m21part.id)
    return pid, staff


# ----------------------------------------------------------------------------------------------
# The reference
# ----------------------------------------------------------------------------------------------

class TempoMap:
    def __init__(self, points):
        """points: sorted [(quarters Fraction, bpm Fraction)] starting at 0."""
        self.points = []
        seconds = Fraction(0)
        for index, (q, bpm) in enumerate(points):
            if index:
                pq, pbpm = points[index - 1]
                seconds += (q - pq) * 60 / pbpm
            self.points.append((q, seconds, bpm))

    def seconds(self, q):
        chosen = self.points[0]
        for point in self.points:
            if point[0] <= q:
                chosen = point
            else:
                break
        start_q, start_s, bpm = chosen
        return start_s + (q - start_q) * 60 / bpm


def _bpm(mark):
    """Quarter notes per minute of a MetronomeMark that carries a number (printed or sounding);
    None for a mark whose number music21 only guessed from its text ("Allegro" -> 132)."""
    number = mark.numberSounding if mark.numberSounding is not None else mark.number
    if number is None or (mark.numberImplicit and mark.numberSounding is None):
        return None
    try:
        referent = Fraction(mark.referent.quarterLength) if mark.referent is not None else Fraction(1)
    except Exception:
        referent = Fraction(1)
    return Fraction(str(number)) * referent


def build(score, facts, expand, info):
    """The JSON-shaped reference from a parsed music21 score."""
    # 3. tag measures with their notation index and number; tag every note (chord members one by
    #    one) with the voice and staff the XML gives it, by matching it to the plain reader's note
    #    at the same part, onset and pitch (music21 keeps <voice> only where a staff has several
    #    and puts a note on the staff of its music21 PartStaff)
    m21parts = list(score.parts)
    part_ids = []
    sounding_copy = None
    plain_by_key = {}
    for n in facts.plain:
        plain_by_key.setdefault((n['part'], n['onset'], n['read'], n['isRest'], n['isGrace']), []).append(n)
    unmatched = 0
    for m21part in m21parts:
        pid, staff = part_info(m21part, facts)
        part_ids.append((pid, staff))
        for index, measure in enumerate(m21part.getElementsByClass(stream.Measure)):
            measure.editorial.etudeIndex = index
            measure.editorial.etudeMeasureNumber = measure.number
        for element, _measure, onset in notes_with_onsets(m21part):
            if _skipped(element):
                continue
            grace = bool(element.duration.isGrace)
            duration = Fraction(0) if grace else frac(element.quarterLength)
            members = [element] if element.isRest or not isinstance(element, chord.ChordBase) else list(element.notes)
            for member in members:
                read = None if element.isRest else int(_member_pitch(member).midi)
                candidates = plain_by_key.get((pid, onset, read, element.isRest, grace), [])
                if not candidates:
                    unmatched += 1
                    continue
                best = sorted(candidates, key=lambda c: (c['duration'] != duration, c['staff'] != staff))[0]
                candidates.remove(best)
                member.editorial.etudeVoice = best['voice']
                member.editorial.etudeStaff = best['staff']
    info['notesNotMatchedToXML'] = unmatched

    # 4. repeats
    info['music21Expanded'] = None
    if expand:
        has_repeat_marks = any(True for _ in score.recurse().getElementsByClass(
            ['Repeat', 'RepeatBracket', 'RepeatExpression']))
        # music21's Expander ignores volta brackets in a part that also has a D.C. or D.S.: every
        # ending is played on every pass, before and after the jump (see README, limitations).
        info['jumpWithVoltas'] = any(
            any(True for _ in p.recurse().getElementsByClass(['DaCapo', 'DaCapoAlFine', 'DaCapoAlCoda', 'DalSegno',
                                                               'DalSegnoAlFine', 'DalSegnoAlCoda']))
            and any('RepeatBracket' in sp.classes for sp in p.spannerBundle)
            for p in score.parts)
        if has_repeat_marks:
            try:
                score = score.expandRepeats()
                info['music21Expanded'] = True
            except Exception as error:  # music21 cannot expand: notation order kept
                info['music21Expanded'] = False
                info['expandError'] = f'{type(error).__name__}: {error}'
        else:
            info['music21Expanded'] = 'nothing to expand'

    # 5. transposition: sounding pitches from a parallel copy (same structure, same order)
    try:
        if facts.concert_score:
            for p in score.parts:
                p.atSoundingPitch = True
            written_score = score.toWrittenPitch(inPlace=False)
            unstripped = collect(written_score, part_ids, facts, sounding=score)
        else:
            sounding_copy = score.toSoundingPitch(inPlace=False)
            unstripped = collect(score, part_ids, facts, sounding=sounding_copy)
    except Exception as error:  # a transposition music21 cannot apply: written = sounding
        info['soundingError'] = f'{type(error).__name__}: {error}'
        unstripped = collect(score, part_ids, facts, sounding=None)

    # 6. ties: the onset-based merge gives the notes; music21's stripTies is the cross-check
    notes = merge_ties_by_onset(unstripped)
    # music21's stripTies is quadratic in a part's length: past STRIP_TIES_LIMIT notes (a whole
    # quartet with its repeats, 50,000 notes) the cross-check is skipped and info says so.
    if len(unstripped) > STRIP_TIES_LIMIT:
        info['stripTiesSkipped'] = True
        info['stripTiesDisagreements'] = []
        info['stripTiesExtraNotes'] = 0
        info['stripTiesNotes'] = None
        stripped = None
    elif sounding_copy is not None:
        sounding_copy.stripTies(inPlace=True)
        stripped = sounding_copy
    else:
        stripped = score.stripTies()
    if stripped is not None:
        strip_ties_cross_check(notes, collect(stripped, part_ids, facts, sounding=None), info)

    # 7. tempo map and signatures, on the timeline actually produced
    marks = []
    for order, m21part in enumerate(score.parts):
        for mark in m21part.recurse().getElementsByClass(tempo.MetronomeMark):
            bpm = _bpm(mark)
            if bpm is None or bpm <= 0:
                continue
            marks.append((frac(mark.getOffsetInHierarchy(m21part)), order, bpm))
    marks.sort(key=lambda m: (m[0], m[1]))
    points = []
    for q, _, bpm in marks:
        if points and points[-1][0] == q:
            continue  # first part in score order wins at the same position
        if points and points[-1][1] == bpm:
            continue
        points.append((q, bpm))
    if not points or points[0][0] != 0:
        points.insert(0, (Fraction(0), DEFAULT_BPM))
    tmap = TempoMap(points)

    signatures = []
    if score.parts:
        first = score.parts[0]
        for ts in first.recurse().getElementsByClass(meter.TimeSignature):
            q = frac(ts.getOffsetInHierarchy(first))
            entry = (q, int(ts.numerator), int(ts.denominator))
            if signatures and signatures[-1][1:] == entry[1:]:
                continue
            if signatures and signatures[-1][0] == q:
                signatures[-1] = entry
                continue
            signatures.append(entry)

    parts = []
    seen = set()
    for (pid, _staff), m21part in zip(part_ids, m21parts):
        if pid in seen:
            continue
        seen.add(pid)
        semitones = 0
        instruments = list(m21part.recurse().getElementsByClass('Instrument'))
        if instruments:
            first_instrument = min(instruments, key=lambda i: i.getOffsetInHierarchy(m21part))
            if first_instrument.getOffsetInHierarchy(m21part) == 0 and first_instrument.transposition is not None:
                semitones = int(first_instrument.transposition.semitones)
        parts.append({'id': pid, 'name': facts.part_names.get(pid, ''), 'transposeSemitones': semitones})

    result = {
        'parts': parts,
        'tempos': [{'quarters': frac_str(q), 'seconds': float(s), 'bpm': float(b)} for q, s, b in tmap.points],
        'timeSignatures': [{'quarters': frac_str(q), 'numerator': n, 'denominator': d}
                           for q, n, d in signatures],
        'notes': finish(notes, tmap, [p['id'] for p in parts]),
    }
    info['tmap'] = tmap
    return result


STRIP_TIES_LIMIT = 20000


def strip_ties_cross_check(notes, theirs_list, info):
    """Every note of the onset-based merge that music21's stripTies() does not have alike."""
    pitch_of = lambda n: n['sounding']  # noqa: E731
    theirs = {}
    for n in theirs_list:
        theirs.setdefault((n['part'], n['staff'], n['voice'], n['onset'], n['written'], n['isRest'],
                           n['isGrace']), []).append(n['duration'])
    disagreements = []
    for n in notes:
        key = (n['part'], n['staff'], n['voice'], n['onset'], pitch_of(n), n['isRest'], n['isGrace'])
        durations = theirs.get(key)
        if durations and n['duration'] in durations:
            durations.remove(n['duration'])
            continue
        disagreements.append({'part': n['part'], 'measure': n['measure'], 'voice': n['voice'],
                              'onsetQuarters': frac_str(n['onset']),
                              'pitch': pitch_of(n),
                              'durationQuarters': frac_str(n['duration']),
                              'stripTies': [frac_str(d) for d in durations] if durations else None})
    info['stripTiesDisagreements'] = disagreements
    info['stripTiesExtraNotes'] = sum(len(v) for v in theirs.values())
    info['stripTiesNotes'] = theirs_list


def notes_with_onsets(m21part):
    """(element, measure, onset in the part) for every note and rest of a part, in the order of
    part.recurse().notesAndRests, with offsets added up measure by measure: music21's
    getOffsetInHierarchy(part) searches the whole part for each note, which takes tens of
    minutes on a four-movement quartet once stripTies has rebuilt it."""
    out = []
    for element in m21part.recurse().notesAndRests:
        out.append(element)
    measure_offsets = {}
    for measure in m21part.getElementsByClass(stream.Measure):
        measure_offsets[id(measure)] = frac(measure.getOffsetBySite(m21part))
    result = []
    for element in out:
        site = element.activeSite
        measure = site if isinstance(site, stream.Measure) else None
        if measure is None and isinstance(site, stream.Voice):
            measure = site.activeSite if isinstance(site.activeSite, stream.Measure) else None
        if measure is not None and id(measure) in measure_offsets:
            onset = measure_offsets[id(measure)] + frac(element.getOffsetInHierarchy(measure))
        else:
            measure = element.getContextByClass(stream.Measure)
            onset = frac(element.getOffsetInHierarchy(m21part))
        result.append((element, measure, onset))
    return result


def _skipped(element):
    """Not a note of the reference: music21's spacer rests for <forward> (Finale files), chord
    symbols and figured bass (<harmony>, <figured-bass>: music21 files them as zero-length
    chords)."""
    if getattr(element.editorial, 'etudeForwardRest', False):
        return True
    if isinstance(element, harmony.Harmony):
        return True
    return type(element).__name__ in ('FiguredBass', 'ChordSymbol', 'NoChord')


def _member_pitch(member):
    """The pitch of a note or chord member; an unpitched note's display position (its staff
    position: the notation gives no other pitch unless the instrument has <midi-unpitched>)."""
    if isinstance(member, note.Unpitched):
        return member.displayPitch()
    return member.pitch


def collect(score, part_ids, facts, sounding):
    """Flat list of note dicts (chords exploded) from a music21 score, with sounding pitches
    taken from the parallel `sounding` score (same structure) when given."""
    out = []
    sounding_parts = list(sounding.parts) if sounding is not None else None
    for index, m21part in enumerate(score.parts):
        pid, staff = part_ids[index]
        parallel = None
        if sounding_parts is not None:
            parallel = list(sounding_parts[index].recurse().notesAndRests)
        for position, (element, measure, onset) in enumerate(notes_with_onsets(m21part)):
            if _skipped(element):
                continue
            site = element.activeSite
            m21voice = str(site.id) if isinstance(site, stream.Voice) else '1'
            try:
                m21voice = int(m21voice)
            except ValueError:
                pass
            is_grace = bool(element.duration.isGrace)
            duration = Fraction(0) if is_grace else frac(element.quarterLength)
            base = {
                'part': pid,
                'measure': getattr(measure.editorial, 'etudeMeasureNumber', measure.number)
                if measure is not None else None,
                'notationIndex': getattr(measure.editorial, 'etudeIndex', None) if measure is not None else None,
                'onset': onset, 'duration': duration, 'isGrace': is_grace,
            }
            if element.isRest:
                out.append(dict(base, written=None, sounding=None, name=None, isRest=True, tie=None,
                                voice=getattr(element.editorial, 'etudeVoice', m21voice),
                                staff=getattr(element.editorial, 'etudeStaff', staff)))
                continue
            members = list(element.notes) if isinstance(element, chord.ChordBase) else [element]
            pitches = [_member_pitch(m) for m in members]
            ties = [n.tie for n in element.notes] if isinstance(element, chord.ChordBase) else [element.tie]
            sounding_pitches = pitches
            if parallel is not None:
                other = parallel[position]
                other_members = list(other.notes) if isinstance(other, chord.ChordBase) else [other]
                sounding_pitches = [_member_pitch(m) for m in other_members]
            for k, pitch in enumerate(pitches):
                tie = ties[k] if k < len(ties) else None
                tie_type = tie.type if tie is not None else None
                member = members[k] if k < len(members) else element
                out.append(dict(base, written=int(pitch.midi),
                                voice=getattr(member.editorial, 'etudeVoice', m21voice),
                                staff=getattr(member.editorial, 'etudeStaff', staff),
                                sounding=int(sounding_pitches[k].midi) if k < len(sounding_pitches) else int(pitch.midi),
                                name=spelled(pitch), isRest=False, tie=tie_type,
                                unpitched=isinstance(member, note.Unpitched)))
    return out


def merge_ties_by_onset(notes):
    """Independent tie merge: a pitched, non-grace note whose tie is start/continue is joined by
    the note of the same part and written pitch that starts exactly where it ends: first one of
    its own voice and staff (over the whole score), then, for a tie still open, one of another
    voice that no tie of its own voice reached. A missing stop does not break a tie; two voices
    tying one pitch at the same moment keep their own notes."""
    tieable = [not n['isRest'] and not n['isGrace'] for n in notes]
    by_start = {}
    order = sorted(range(len(notes)), key=lambda i: notes[i]['onset'])
    for i in order:
        if tieable[i]:
            n = notes[i]
            by_start.setdefault((n['part'], n['written'], n['onset']), []).append(i)
    following = {}
    joined = set()
    for same_voice_only in (True, False):
        for i in order:
            n = notes[i]
            if not tieable[i] or n['tie'] not in ('start', 'continue') or i in following or n['duration'] <= 0:
                continue
            for c in by_start.get((n['part'], n['written'], n['onset'] + n['duration']), []):
                if c in joined:
                    continue
                if same_voice_only and (notes[c]['voice'] != n['voice'] or notes[c]['staff'] != n['staff']):
                    continue
                following[i] = c
                joined.add(c)
                break
    merged = []
    for i in order:
        if i in joined:
            continue
        current = dict(notes[i])
        current['merged'] = 1
        link = following.get(i)
        while link is not None:
            current['duration'] = current['duration'] + notes[link]['duration']
            current['merged'] += 1
            link = following.get(link)
        merged.append(current)
    return merged


def finish(notes, tmap, part_order):
    rank = {pid: i for i, pid in enumerate(part_order)}
    notes = sorted(notes, key=lambda n: (n['onset'], rank.get(n['part'], 99),
                                         -1 if n['sounding'] is None else n['sounding'],
                                         str(n['voice']), n['staff'], n['duration']))
    out = []
    for n in notes:
        onset_s = tmap.seconds(n['onset'])
        end_s = tmap.seconds(n['onset'] + n['duration'])
        out.append({
            'part': n['part'], 'measure': n['measure'], 'voice': n['voice'], 'staff': n['staff'],
            'onsetQuarters': frac_str(n['onset']), 'durationQuarters': frac_str(n['duration']),
            'onsetSeconds': round(float(onset_s), 9), 'durationSeconds': round(float(end_s - onset_s), 9),
            'writtenPitch': n['written'], 'soundingPitch': n['sounding'], 'name': n['name'],
            'isRest': n['isRest'], 'isGrace': n['isGrace'],
            'isTied': n.get('merged', 1) > 1,
            **({'isUnpitched': True} if n.get('unpitched') else {}),
        })
    return out


def reference(path, expand=True):
    """(result, info) for one file."""
    raw = read_musicxml_bytes(path)
    data, facts, rewrites = preprocess(raw)
    info = {'rewrites': rewrites}
    score = parse(data)
    if isinstance(score, stream.Opus):
        score = score.scores[0]
        info['opus'] = True
    result = build(score, facts, expand, info)
    return result, info
