// The venue screen's QR encoder (client/web/static/qr.js) against vectors: symbols made by an
// independent implementation (make-qr-vectors.py, Project Nayuki's generator), the Reed–Solomon
// example of the standard's tutorial literature, and the format and version information tables.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import {
  alignmentCentres,
  encodeQr,
  QrTooLong,
  reedSolomonDivisor,
  reedSolomonRemainder,
} from "../../client/web/static/qr.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const { vectors } = JSON.parse(readFileSync(`${here}/qr-vectors.json`, "utf8"));
const rowsOf = (qr) => qr.modules.map((row) => row.map((dark) => (dark ? "1" : "0")).join(""));

test("every vector: same version, same mask chosen, same modules", () => {
  assert.ok(vectors.length >= 12);
  for (const v of vectors) {
    const qr = encodeQr(v.text);
    assert.equal(qr.version, v.version, v.text);
    assert.equal(qr.size, 17 + 4 * v.version);
    assert.equal(qr.mask, v.mask, `mask for ${JSON.stringify(v.text)}`);
    assert.deepEqual(rowsOf(qr), v.rows, `modules for ${JSON.stringify(v.text)}`);
  }
});

test("the vectors cover versions 1 to 29, with version information (7+) and 16-bit counts (10+)", () => {
  const versions = new Set(vectors.map((v) => v.version));
  for (const v of [1, 2, 3, 4, 5, 7, 8, 10, 13, 21, 29]) assert.ok(versions.has(v), `version ${v}`);
  assert.ok(vectors.some((v) => /[^\x00-\x7f]/.test(v.text)), "a UTF-8 text");
});

test("Reed–Solomon: 'HELLO WORLD' 1-M data codewords give the published 10 EC codewords", () => {
  const data = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17];
  const ecc = reedSolomonRemainder(data, reedSolomonDivisor(10));
  assert.deepEqual(ecc, [196, 35, 39, 119, 235, 215, 231, 226, 93, 23]);
});

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

test("format information: level M with each mask, as tabulated in ISO/IEC 18004 Annex C", () => {
  const table = [
    "101010000010010",
    "101000100100101",
    "101111001111100",
    "101101101001011",
    "100010111111001",
    "100000011001110",
    "100111110010111",
    "100101010100000",
  ];
  table.forEach((bits, mask) => assert.equal(formatBits(encodeQr("tallyd", { mask })), bits, `mask ${mask}`));
});

test("version information of version 7 is 000111110010010100 (Annex D)", () => {
  const qr = encodeQr("v".repeat(110)); // 107–122 bytes need version 7 at level M
  assert.equal(qr.version, 7);
  // The block below the top-right finder: bit i at row i / 3, column size − 11 + i % 3.
  let bits = "";
  for (let i = 17; i >= 0; i--) bits += qr.modules[Math.floor(i / 3)][qr.size - 11 + (i % 3)] ? "1" : "0";
  assert.equal(bits, "000111110010010100");
});

test("alignment pattern centres (Annex E)", () => {
  assert.deepEqual(alignmentCentres(1), []);
  assert.deepEqual(alignmentCentres(2), [6, 18]);
  assert.deepEqual(alignmentCentres(7), [6, 22, 38]);
  assert.deepEqual(alignmentCentres(10), [6, 28, 50]);
  assert.deepEqual(alignmentCentres(32), [6, 34, 60, 86, 112, 138]);
  assert.deepEqual(alignmentCentres(40), [6, 30, 58, 86, 114, 142, 170]);
});

test("capacity: 2331 bytes fit version 40-M, 2332 do not", () => {
  assert.equal(encodeQr("x".repeat(2331)).version, 40);
  assert.throws(() => encodeQr("x".repeat(2332)), QrTooLong);
});
