#!/usr/bin/env python3
"""MusicXML bytes without music21: .mxl containers and score-timewise <-> score-partwise.

Used by m21ref.py, make_fixtures.py and compare.py (the fuzz-variant writer).
"""

import io
import xml.etree.ElementTree as ET
import zipfile


# ----------------------------------------------------------------------------------------------
# Reading the bytes
# ----------------------------------------------------------------------------------------------

def read_musicxml_bytes(path):
    """The XML bytes of a .musicxml/.xml file, or of the root file of a .mxl container."""
    with open(path, 'rb') as handle:
        data = handle.read()
    if data[:2] != b'PK':
        return data
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        names = archive.namelist()
        root = None
        if 'META-INF/container.xml' in names:
            container = ET.fromstring(archive.read('META-INF/container.xml'))
            for element in container.iter():
                if element.tag.split('}')[-1] == 'rootfile' and element.get('full-path'):
                    media = element.get('media-type', 'application/vnd.recordare.musicxml+xml')
                    if 'musicxml' in media or media.endswith('+xml') or media == 'text/xml':
                        root = element.get('full-path')
                        break
        if root is None:  # no container: the first XML file not under META-INF
            root = next(n for n in names if n.lower().endswith(('.xml', '.musicxml'))
                        and not n.startswith('META-INF/'))
        return archive.read(root)


def timewise_to_partwise(root):
    """An ElementTree score-timewise root rewritten as score-partwise (same children order)."""
    new = ET.Element('score-partwise', root.attrib)
    parts = {}
    order = []
    for child in root:
        if child.tag != 'measure':
            new.append(child)
            continue
        for part in child.findall('part'):
            pid = part.get('id')
            if pid not in parts:
                parts[pid] = ET.Element('part', {'id': pid})
                order.append(pid)
            measure = ET.SubElement(parts[pid], 'measure', child.attrib)
            for element in part:
                measure.append(element)
    for pid in order:
        new.append(parts[pid])
    return new


def partwise_to_timewise(root):
    """The reverse, for making the timewise fixture: measures grouped by index across parts."""
    new = ET.Element('score-timewise', root.attrib)
    parts = root.findall('part')
    for child in root:
        if child.tag != 'part':
            new.append(child)
    measure_lists = [part.findall('measure') for part in parts]
    count = max(len(ms) for ms in measure_lists)
    for index in range(count):
        first = next(ms[index] for ms in measure_lists if index < len(ms))
        measure = ET.SubElement(new, 'measure', first.attrib)
        for part, ms in zip(parts, measure_lists):
            if index < len(ms):
                p = ET.SubElement(measure, 'part', {'id': part.get('id')})
                for element in ms[index]:
                    p.append(element)
    return new
