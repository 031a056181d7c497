#!/usr/bin/python3
"""Writes qr-vectors.json: QR symbols made by Project Nayuki's QR Code generator, an independent
implementation (Debian package python3-qrcodegen), for the page tests to compare the board's
encoder with. Byte mode, level M, no level boost, the library's own mask choice.

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


vectors = []
for text in TEXTS:
    q = QrCode.encode_segments([QrSegment.make_bytes(text.encode("utf-8"))], QrCode.Ecc.MEDIUM,
                               boostecl=False)
    vectors.append({"text": text, "version": q.get_version(), "mask": q.get_mask(),
                    "rows": rows(q)})
json.dump({"generator": "python3-qrcodegen (Project Nayuki), byte mode, ECC M, no boost",
           "vectors": vectors}, sys.stdout, indent=1, ensure_ascii=False)
sys.stdout.write("\n")
