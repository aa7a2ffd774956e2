#!/usr/bin/env python3
"""Writes the ZIP and DEFLATE fixtures of Tests/ScoreModelTests/Zip (run from any directory).

Needs python3 (zipfile, zlib) and Info-ZIP zip 3.0. Output is deterministic except for the
archives Info-ZIP writes (it stores file times and owner ids). See README.md for what each file tests.
"""
import io, os, random, shutil, struct, subprocess, tempfile, zipfile, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(20240601)


def musicxml(measures):
    """A MusicXML-like score: the kind of text .mxl archives hold."""
    steps = "CDEFGAB"
    out = ['<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n',
           '<score-partwise version="4.0">\n  <part id="P1">\n']
    for m in range(1, measures + 1):
        out.append(f'    <measure number="{m}" width="{rng.randint(150, 400)}">\n')
        for _ in range(rng.randint(2, 6)):
            out.append(
                f'      <note default-x="{rng.uniform(10, 300):.2f}">\n'
                f'        <pitch><step>{rng.choice(steps)}</step><octave>{rng.randint(2, 6)}</octave></pitch>\n'
                f'        <duration>{rng.choice([1, 2, 4, 8])}</duration><voice>1</voice>'
                f'<type>{rng.choice(["quarter", "eighth", "half", "16th"])}</type>\n'
                f'        <lyric><text>{"".join(rng.choice("aeioulmnrst") for _ in range(rng.randint(2, 7)))}</text></lyric>\n'
                '      </note>\n')
        out.append('    </measure>\n')
    out.append('  </part>\n</score-partwise>\n')
    return "".join(out).encode()


CONTAINER = b'''<?xml version="1.0" encoding="UTF-8"?>
<container>
  <rootfiles>
    <rootfile full-path="score.musicxml" media-type="application/vnd.recordare.musicxml+xml"/>
  </rootfiles>
</container>
'''
MIMETYPE = b"application/vnd.recordare.musicxml"
SCORE = musicxml(8)


def info_zip(name, args, cwd, stdin=None):
    path = os.path.join(HERE, name)
    if os.path.exists(path):
        os.remove(path)
    subprocess.run(["zip", "-q", *args], cwd=cwd, input=stdin, check=True, stdout=subprocess.PIPE)
    shutil.move(os.path.join(cwd, name), path)


def raw_zip(entries, comment=b"", zip64=False, prefix=b""):
    """A hand-built archive. entries: dicts with name (bytes), data, method, flags, extra, zip64."""
    local, central = bytearray(), bytearray()
    for e in entries:
        data, method = e["data"], e.get("method", 0)
        stored = data if method == 0 else (lambda c: c.compress(data) + c.flush())(zlib.compressobj(9, 8, -15))
        crc = zlib.crc32(data)
        offset = len(local)
        flags, name, extra = e.get("flags", 0), e["name"], e.get("extra", b"")
        local += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, flags, method, 0, 0x21, crc, len(stored),
                             len(data), len(name), 0) + name + stored
        sizes = (len(stored), len(data), offset)
        if e.get("zip64"):
            extra = struct.pack("<HHQQQ", 1, 24, len(data), len(stored), offset) + extra
            sizes = (0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF)
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 45 if zip64 else 20, 45 if zip64 else 20, flags,
                               method, 0, 0x21, crc, sizes[0], sizes[1], len(name), len(extra), 0, 0, 0, 0,
                               sizes[2]) + name + extra
    out = bytearray(local)
    cd_offset, cd_size = len(out), len(central)
    out += central
    if zip64:
        zip64_end = len(out)
        out += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, len(entries), len(entries), cd_size, cd_offset)
        out += struct.pack("<IIQI", 0x07064B50, 0, zip64_end, 1)
        out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, len(comment))
    else:
        out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), cd_size, cd_offset, len(comment))
    return prefix + bytes(out) + comment


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def archives():
    work = tempfile.mkdtemp()
    try:
        os.makedirs(os.path.join(work, "META-INF"))
        for path, data in [("mimetype", MIMETYPE), ("META-INF/container.xml", CONTAINER), ("score.musicxml", SCORE),
                           ("empty.txt", b"")]:
            with open(os.path.join(work, path), "wb") as f:
                f.write(data)
        for path in ["mimetype", "META-INF/container.xml", "score.musicxml", "empty.txt", "META-INF"]:
            os.utime(os.path.join(work, path), (1700000000, 1700000000))
        files = ["mimetype", "META-INF/", "META-INF/container.xml", "score.musicxml"]
        # -X: no extra attributes; the directory entry META-INF/ comes from listing it.
        info_zip("mxl-stored.zip", ["-X", "-0", "mxl-stored.zip", *files], work)
        for level in (1, 6, 9):
            info_zip(f"mxl-deflate-{level}.zip", ["-X", f"-{level}", f"mxl-deflate-{level}.zip", *files], work)
        info_zip("empty-file.zip", ["empty-file.zip", "empty.txt"], work)
        info_zip("comment-infozip.zip", ["-z", "comment-infozip.zip", "META-INF/container.xml"], work,
                 stdin=b"An archive comment written by zip -z\n.\n")
        info_zip("zip64-infozip.zip", ["-X", "-fz", "zip64-infozip.zip", "META-INF/container.xml"], work)
        info_zip("encrypted.zip", ["-X", "-P", "secret", "encrypted.zip", "META-INF/container.xml"], work)
        # Streamed from a pipe to a pipe: sizes in a ZIP64 data descriptor (flag bit 3), entry "-".
        streamed = subprocess.run("zip -q - - | cat", shell=True, input=CONTAINER, stdout=subprocess.PIPE,
                                  check=True).stdout
        write("streamed-infozip.zip", streamed)
    finally:
        shutil.rmtree(work)

    # Python writing to a stream it cannot seek: data descriptors (flag bit 3).
    class Unseekable(io.RawIOBase):
        def __init__(self):
            self.buffer = bytearray()
        def writable(self):
            return True
        def write(self, b):
            self.buffer += b
            return len(b)
        def seekable(self):
            return False
    stream = Unseekable()
    with zipfile.ZipFile(stream, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo("META-INF/container.xml", (2024, 1, 1, 0, 0, 0)), CONTAINER, zipfile.ZIP_DEFLATED)
        score = zipfile.ZipInfo("score.musicxml", (2024, 1, 1, 0, 0, 0))
        score.compress_type = zipfile.ZIP_DEFLATED
        with z.open(score, "w") as f:
            f.write(SCORE[:6000])
    write("streamed-python.zip", bytes(stream.buffer))

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w"):
        pass
    write("empty-archive.zip", buffer.getvalue())

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr(zipfile.ZipInfo("empty-stored.txt", (2024, 1, 1, 0, 0, 0)), b"")
        z.writestr(zipfile.ZipInfo("empty-deflated.txt", (2024, 1, 1, 0, 0, 0)), b"", zipfile.ZIP_DEFLATED)
        z.writestr(zipfile.ZipInfo("folder/", (2024, 1, 1, 0, 0, 0)), b"")
    write("empty-entries.zip", buffer.getvalue())

    # An archive comment holding a fake end record signature, and an entry comment.
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as z:
        info = zipfile.ZipInfo("score.musicxml", (2024, 1, 1, 0, 0, 0))
        info.comment = b"entry comment"
        info.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(info, SCORE[:3000])
        z.comment = b"archive comment with a fake end record PK\x05\x06 inside"
    write("comment-python.zip", buffer.getvalue())

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr(zipfile.ZipInfo("score.musicxml", (2024, 1, 1, 0, 0, 0)), SCORE[:2000], zipfile.ZIP_BZIP2)
    write("bzip2.zip", buffer.getvalue())

    # Names: UTF-8 flagged, UTF-8 unflagged (as macOS writes), code page 437, Info-ZIP Unicode path.
    unicode_name = "Étude.musicxml".encode()
    cp437_alias = b"Etude (cp437 alias).xml"
    write("names.zip", raw_zip([
        {"name": "Übung/Étude.musicxml".encode(), "flags": 0x800, "data": b"flagged", "method": 8},
        {"name": "Ständchen.xml".encode(), "data": b"unflagged utf-8"},
        {"name": b"\x9abung \x81ber \x94l.txt", "data": b"cp437"},
        {"name": cp437_alias, "data": b"unicode path",
         "extra": struct.pack("<HHBI", 0x7075, 5 + len(unicode_name), 1, zlib.crc32(cp437_alias)) + unicode_name},
    ]))

    # ZIP64 with every 32-bit field at its maximum, and a ZIP64 end record and locator.
    write("zip64-all-fields.zip", raw_zip([
        {"name": b"META-INF/container.xml", "data": CONTAINER, "method": 8, "zip64": True},
        {"name": b"score.musicxml", "data": SCORE[:4000], "method": 0, "zip64": True},
    ], zip64=True))

    # A self-extracting stub before an archive whose offsets do not count it, and bytes appended after one.
    plain = raw_zip([{"name": b"META-INF/container.xml", "data": CONTAINER, "method": 8}])
    write("prepended.zip", b"#!/bin/sh\necho a self-extracting stub\nexit 0\n" + plain)
    write("trailing-bytes.zip", plain + b"bytes after the archive")


def deflate_corpus():
    """Records: label, original size and CRC-32, raw DEFLATE stream (zlib, wbits -15 or smaller)."""
    def text(n):
        return musicxml(n // 250 + 1)[:n]
    inputs = {
        "empty": b"", "one-byte": b"x", "random-100": rng.randbytes(100), "random-700": rng.randbytes(700),
        "text-200": text(200), "text-1500": text(1500), "text-40000": text(40000),
        "run-70000": b"a" * 70000, "period-3": b"abc" * 3000, "period-7": b"1234567" * 2000,
        "sparse-binary": bytes(rng.choice([0, 0, 0, 0, 1, 2, 255]) for _ in range(800)),
        # Byte frequencies falling by half from one byte to the next: Huffman codes up to 15 bits.
        "long-codes": bytes(rng.choices(range(256), weights=[2.0 ** -(i % 20) for i in range(256)], k=900)),
        "words": b" ".join(rng.choice([b"do", b"re", b"mi", b"fa", b"sol", b"la", b"ti", b"crescendo"])
                          for _ in range(2000)),
    }
    # (label, level, wbits, memLevel, strategy); memLevel 1 ends a block every 128 symbols.
    settings = [("l0", 0, 15, 8, zlib.Z_DEFAULT_STRATEGY), ("l1", 1, 15, 8, zlib.Z_DEFAULT_STRATEGY),
                ("l6", 6, 15, 8, zlib.Z_DEFAULT_STRATEGY), ("l9", 9, 15, 9, zlib.Z_DEFAULT_STRATEGY),
                ("fixed", 6, 15, 8, zlib.Z_FIXED), ("huffman", 6, 15, 8, zlib.Z_HUFFMAN_ONLY),
                ("rle", 6, 15, 8, zlib.Z_RLE), ("filtered", 9, 15, 8, zlib.Z_FILTERED),
                ("w9", 6, 9, 8, zlib.Z_DEFAULT_STRATEGY), ("m1", 9, 15, 1, zlib.Z_DEFAULT_STRATEGY)]
    # Every setting for inputs up to 2000 bytes; for larger ones (to keep the corpus small) these.
    large = {"text-40000": ("l9", "m1"), "run-70000": ("l1", "l9", "rle", "fixed", "m1")}
    incompressible = ("l0", "l6", "fixed", "huffman")
    records = []
    for name, data in inputs.items():
        for label, level, wbits, mem_level, strategy in settings:
            if len(data) > 2000 and label not in large.get(name, ("l1", "l9", "fixed")):
                continue
            if name.startswith("random") and label not in incompressible:
                continue
            c = zlib.compressobj(level, zlib.DEFLATED, -wbits, mem_level, strategy)
            records.append((f"{name}/{label}", data, c.compress(data) + c.flush()))
        # Flushes split the stream into many blocks, with empty stored blocks between them.
        c = zlib.compressobj(6, zlib.DEFLATED, -15)
        end = min(len(data), 2000)
        pieces = [c.compress(data[i:min(i + 397, end)]) + c.flush(zlib.Z_SYNC_FLUSH if i % 2 else zlib.Z_FULL_FLUSH)
                  for i in range(0, end, 397)]
        records.append((f"{name}/flushed", data[:2000], b"".join(pieces) + c.flush()))
    out = bytearray(b"DEFLCRP1")
    for label, data, stream in records:
        out += struct.pack("<BIII", len(label), len(data), zlib.crc32(data), len(stream)) + label.encode() + stream
    write("deflate-corpus.bin", bytes(out))
    return records


def deflate_mutants(records):
    """Edits of corpus streams, with zlib's verdict on each edited stream.

    A record: u16 corpus index, u8 edit kind, the edit, then u8 verdict (1: zlib inflates it, followed
    by u32 size and u32 CRC-32 of the output; 0: zlib reports an error or a truncated stream).
    Edits: 0 flip bit (u16 offset, u8 bit); 1 set bytes (u8 n, n x (u16 offset, u8 value));
    2 truncate (u16 length); 3 replace the whole stream (u8 n, n bytes).
    """
    out = bytearray(b"DEFLMUT1")
    small = [i for i, (_, _, s) in enumerate(records) if 8 <= len(s) <= 4000]
    for i in range(900):
        index = rng.choice(small)
        stream = bytearray(records[index][2])
        kind = i % 5
        if kind == 0 or kind == 4:
            # Kind 4 flips a bit in the first bytes, where block headers and code lengths live.
            offset = rng.randrange(len(stream) if kind == 0 else min(len(stream), 12))
            bit = rng.randrange(8)
            stream[offset] ^= 1 << bit
            edit = struct.pack("<BHB", 0, offset, bit)
        elif kind == 1:
            changes = [(rng.randrange(len(stream)), rng.randrange(256)) for _ in range(rng.randint(2, 4))]
            for offset, value in changes:
                stream[offset] = value
            edit = struct.pack("<BB", 1, len(changes)) + b"".join(struct.pack("<HB", o, v) for o, v in changes)
        elif kind == 2:
            stream = stream[:rng.randrange(len(stream))]
            edit = struct.pack("<BH", 2, len(stream))
        else:
            stream = bytearray(rng.randbytes(rng.randint(1, 24)))
            edit = struct.pack("<BB", 3, len(stream)) + bytes(stream)
        try:
            d = zlib.decompressobj(-15)
            result = d.decompress(bytes(stream), 1 << 20)
            ok = d.eof and len(result) < (1 << 20)
        except zlib.error:
            ok = False
        out += struct.pack("<H", index) + edit + (struct.pack("<BII", 1, len(result), zlib.crc32(result)) if ok else b"\0")
    write("deflate-mutants.bin", bytes(out))


def fuzz_seeds(records):
    """Raw DEFLATE seeds for Fuzz/run.sh zip (the archives above seed it too): one per block kind."""
    os.makedirs(os.path.join(HERE, "fuzz"), exist_ok=True)
    for label in ["text-200/l0", "text-200/fixed", "text-200/l9", "long-codes/l6", "words/flushed",
                  "period-3/l9", "text-1500/m1", "random-100/huffman"]:
        stream = next(s for l, _, s in records if l == label)
        write(f"fuzz/seed-{label.replace('/', '-')}.deflate", stream)


if __name__ == "__main__":
    archives()
    records = deflate_corpus()
    deflate_mutants(records)
    fuzz_seeds(records)
