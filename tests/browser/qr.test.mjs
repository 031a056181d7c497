// The pages' QR codes (client/web/static/qr-code.js over the vendored qrcode-generator,
// static/vendor/qrcode.js) against vectors: symbols made by an independent implementation
// (make-qr-vectors.py, Project Nayuki's generator), and the format and version information
// tables and alignment pattern positions of ISO/IEC 18004.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { encodeQr, QrTooLong } from "./qr-library.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const { vectors } = JSON.parse(readFileSync(`${here}/qr-vectors.json`, "utf8"));
const rowsOf = (qr) => qr.modules.map((row) => row.map((dark) => (dark ? "1" : "0")).join(""));
// A row of by_mask (hex digits, zero-padded at the end) as "0"/"1" per module.
const bitsOf = (hex, size) =>
  [...hex]
    .map((d) => parseInt(d, 16).toString(2).padStart(4, "0"))
    .join("")
    .slice(0, size);

// Format information of level M with each mask, as tabulated in ISO/IEC 18004 Annex C.
const FORMAT_M = [
  "101010000010010",
  "101000100100101",
  "101111001111100",
  "101101101001011",
  "100010111111001",
  "100000011001110",
  "100111110010111",
  "100101010100000",
];

// Format information around the top-left finder: row 8 (columns 0–5, 7, 8) then column 8
// (rows 7, 5–0), most significant bit first.
function formatBits(qr) {
  const m = qr.modules;
  const cells = [
    [8, 0], [8, 1], [8, 2], [8, 3], [8, 4], [8, 5], [8, 7], [8, 8],
    [7, 8], [5, 8], [4, 8], [3, 8], [2, 8], [1, 8], [0, 8],
  ];
  return cells.map(([r, c]) => (m[r][c] ? "1" : "0")).join("");
}

// The second copy: column 8 (rows size−1 … size−7), then row 8 (columns size−8 … size−1).
function formatBitsCopy(qr) {
  const m = qr.modules;
  let bits = "";
  for (let i = 0; i < 7; i++) bits += m[qr.size - 1 - i][8] ? "1" : "0";
  for (let i = 0; i < 8; i++) bits += m[8][qr.size - 8 + i] ? "1" : "0";
  return bits;
}

// The mask a symbol says it has, from its format information (level M).
function maskOf(qr) {
  const mask = FORMAT_M.indexOf(formatBits(qr));
  assert.ok(mask >= 0, `format information ${formatBits(qr)} is not level M's`);
  return mask;
}

test("every vector: same version and, under the mask chosen, the same modules as Nayuki's", () => {
  assert.ok(vectors.length >= 12);
  for (const v of vectors) {
    const qr = encodeQr(v.text);
    assert.equal(qr.version, v.version, v.text);
    assert.equal(qr.size, 17 + 4 * v.version);
    // Which of the 8 masks has the lowest penalty is a heuristic on which the two libraries
    // differ for some texts; any mask makes a valid symbol. Given the mask, every module is
    // determined: compare them all with Nayuki's symbol under that mask.
    const mask = maskOf(qr);
    const expected = v.by_mask[mask].map((hex) => bitsOf(hex, qr.size));
    assert.deepEqual(rowsOf(qr), expected, `modules for ${JSON.stringify(v.text)} (mask ${mask})`);
    if (mask === v.mask) assert.deepEqual(rowsOf(qr), v.rows, v.text);
  }
});

test("the vectors: Nayuki's by_mask agrees with its own choice, and they check several masks", () => {
  const chosen = new Set();
  for (const v of vectors) {
    const size = 17 + 4 * v.version;
    assert.deepEqual(v.by_mask[v.mask].map((hex) => bitsOf(hex, size)), v.rows, v.text);
    chosen.add(maskOf(encodeQr(v.text)));
  }
  assert.ok(chosen.size >= 3, `masks chosen: ${[...chosen]}`);
});

test("the vectors cover versions 1 to 29, with version information (7+) and 16-bit counts (10+)", () => {
  const versions = new Set(vectors.map((v) => v.version));
  for (const v of [1, 2, 3, 4, 5, 7, 8, 10, 13, 21, 29]) assert.ok(versions.has(v), `version ${v}`);
  assert.ok(vectors.some((v) => /[^\x00-\x7f]/.test(v.text)), "a UTF-8 text");
});

test("format information: level M, both copies, as tabulated in ISO/IEC 18004 Annex C", () => {
  for (const text of ["tallyd", ...vectors.map((v) => v.text)]) {
    const qr = encodeQr(text);
    const mask = maskOf(qr);
    assert.equal(formatBitsCopy(qr), FORMAT_M[mask], `second copy for ${JSON.stringify(text)}`);
    assert.equal(qr.modules[qr.size - 8][8], true, "the dark module");
  }
});

test("version information of version 7 is 000111110010010100 (Annex D)", () => {
  const qr = encodeQr("v".repeat(110)); // 107–122 bytes need version 7 at level M
  assert.equal(qr.version, 7);
  // The block below the top-right finder: bit i at row i / 3, column size − 11 + i % 3.
  let bits = "";
  for (let i = 17; i >= 0; i--) bits += qr.modules[Math.floor(i / 3)][qr.size - 11 + (i % 3)] ? "1" : "0";
  assert.equal(bits, "000111110010010100");
  // And its transposed copy left of the bottom-left finder.
  let copy = "";
  for (let i = 17; i >= 0; i--) copy += qr.modules[qr.size - 11 + (i % 3)][Math.floor(i / 3)] ? "1" : "0";
  assert.equal(copy, "000111110010010100");
});

test("alignment patterns at the centres of Annex E", () => {
  // Bytes that need each version at level M, and the row/column centres of Annex E.
  const cases = [
    [2, 20, [6, 18]],
    [7, 110, [6, 22, 38]],
    [10, 200, [6, 28, 50]],
    [32, 1500, [6, 34, 60, 86, 112, 138]],
    [40, 2331, [6, 30, 58, 86, 114, 142, 170]],
  ];
  for (const [version, bytes, centres] of cases) {
    const qr = encodeQr("a".repeat(bytes));
    assert.equal(qr.version, version, `${bytes} bytes`);
    const last = centres.length - 1;
    for (const [i, r] of centres.entries()) {
      for (const [j, c] of centres.entries()) {
        if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) continue; // finders
        for (let dr = -2; dr <= 2; dr++) {
          for (let dc = -2; dc <= 2; dc++) {
            const ring = Math.max(Math.abs(dr), Math.abs(dc));
            assert.equal(qr.modules[r + dr][c + dc], ring !== 1, `version ${version}, centre (${r}, ${c})`);
          }
        }
      }
    }
  }
});

test("capacity: 2331 bytes fit version 40-M, 2332 do not", () => {
  assert.equal(encodeQr("x".repeat(2331)).version, 40);
  assert.throws(() => encodeQr("x".repeat(2332)), QrTooLong);
});
