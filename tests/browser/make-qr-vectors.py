#!/usr/bin/python3
"""Writes qr-vectors.json: QR symbols made by Project Nayuki's QR Code generator, an independent
implementation (Debian package python3-qrcodegen), for the page tests to compare the pages' QR
library (client/web/static/vendor/qrcode.js) with. Byte mode, level M, no level boost: `rows` with
Nayuki's own mask choice, and `by_mask` the same symbol under each of the 8 masks (the choice of
mask is a heuristic in which libraries differ; each module of a symbol, given its mask, is not),
each row as hex digits of its modules (dark = 1, first module the top bit, zero-padded at the end).

Only needed to regenerate the vectors:  apt-get install python3-qrcodegen
    /usr/bin/python3 tests/browser/make-qr-vectors.py > tests/browser/qr-vectors.json
"""
import json
import sys

from qrcodegen import QrCode, QrSegment

TEXTS = [
    "a",                                            # version 1
    "HELLO WORLD",                                  # version 1
    "https://tally.example/t/x",                    # version 2
    "http://127.0.0.1:8080/t/brno-2026",            # version 3
    "http://192.168.1.20:8080/t/agot-masters-2026",  # version 4
    "Čeněk Šťastný — příliš žluťoučký kůň úpěl ďábelské ódy",  # UTF-8, version 5
    "http://venue.local:8080/t/" + "carcassonne-" * 7,          # version 7: version information
    "https://example.org/" + "x" * 120,             # version 8
    "https://example.org/" + "0123456789" * 17,     # version 10: 16-bit character count
    "y" * 300,                                      # version 13
    "z" * 700,                                      # version 21
    "w" * 1200,                                     # version 29
]


def rows(q):
    n = q.get_size()
    return ["".join("1" if q.get_module(x, y) else "0" for x in range(n)) for y in range(n)]


def hex_rows(q):
    out = []
    for row in rows(q):
        bits = row + "0" * (-len(row) % 4)
        out.append("".join("%x" % int(bits[i:i + 4], 2) for i in range(0, len(bits), 4)))
    return out


def encode(text, mask=-1):
    return QrCode.encode_segments([QrSegment.make_bytes(text.encode("utf-8"))], QrCode.Ecc.MEDIUM,
                                  boostecl=False, mask=mask)


vectors = []
for text in TEXTS:
    q = encode(text)
    vectors.append({"text": text, "version": q.get_version(), "mask": q.get_mask(),
                    "rows": rows(q), "by_mask": [hex_rows(encode(text, m)) for m in range(8)]})
json.dump({"generator": "python3-qrcodegen (Project Nayuki), byte mode, ECC M, no boost",
           "vectors": vectors}, sys.stdout, indent=1, ensure_ascii=False)
sys.stdout.write("\n")
