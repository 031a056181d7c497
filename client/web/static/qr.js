// A QR code encoder (ISO/IEC 18004): byte mode, error correction level M, versions 1–40.
// Enough for the URLs the venue screen shows; no library is fetched, the venue may be offline.
//
//   encodeQr("http://…/t/brno") → {version, mask, size, modules}   modules[row][col]: true = dark
//   qrSvg(document, qr, {border})  → an <svg> element drawing it
//
// The steps follow the standard: data bits → codewords → Reed–Solomon blocks, interleaved →
// function patterns (finders, timing, alignment, format and version information) → data placed
// in the zigzag → the mask with the lowest penalty. Tested against vectors made by an independent
// implementation, Project Nayuki's generator
// (tests/browser/qr-vectors.json).

// Error correction codewords per block and number of blocks, level M, versions 1–40 (index 0
// unused). Table 9 of the standard.
const ECC_PER_BLOCK_M = [
  0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28,
  28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
];
const BLOCKS_M = [
  0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25,
  26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
];
const LEVEL_M_FORMAT_BITS = 0b00; // the two bits that name level M in the format information
const MIN_VERSION = 1;
const MAX_VERSION = 40;

export class QrTooLong extends Error {}

// The symbol for `text` (UTF-8, byte mode, level M) in the smallest version it fits.
// `options.mask` (0–7) forces a mask; by default the one with the lowest penalty is chosen.
export function encodeQr(text, options = {}) {
  const bytes = new TextEncoder().encode(text);
  const version = smallestVersion(bytes.length);
  const codewords = addErrorCorrection(dataCodewords(bytes, version), version);
  const symbol = new Symbol(version);
  symbol.drawFunctionPatterns();
  symbol.placeData(codewords);

  let mask = options.mask;
  if (mask === undefined) {
    let best = Infinity;
    for (let m = 0; m < 8; m++) {
      symbol.applyMask(m);
      symbol.drawFormatBits(m);
      const penalty = symbol.penalty();
      if (penalty < best) {
        best = penalty;
        mask = m;
      }
      symbol.applyMask(m); // masking is its own inverse
    }
  }
  symbol.applyMask(mask);
  symbol.drawFormatBits(mask);
  return { version, mask, size: symbol.size, modules: symbol.modules };
}

// ---- data codewords -------------------------------------------------------------------------

function charCountBits(version) {
  return version <= 9 ? 8 : 16; // byte mode
}

function dataCapacityBits(version) {
  return dataCodewordCount(version) * 8;
}

function smallestVersion(byteCount) {
  for (let v = MIN_VERSION; v <= MAX_VERSION; v++) {
    const needed = 4 + charCountBits(v) + 8 * byteCount;
    if (byteCount < 2 ** charCountBits(v) && needed <= dataCapacityBits(v)) return v;
  }
  throw new QrTooLong(`${byteCount} bytes do not fit in a QR code at level M`);
}

// Mode indicator, count, the bytes, terminator, padding to a byte, pad codewords 0xEC 0x11.
function dataCodewords(bytes, version) {
  const bits = [];
  const put = (value, length) => {
    for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1);
  };
  put(0b0100, 4); // byte mode
  put(bytes.length, charCountBits(version));
  for (const b of bytes) put(b, 8);
  const capacity = dataCapacityBits(version);
  put(0, Math.min(4, capacity - bits.length));
  put(0, (8 - (bits.length % 8)) % 8);
  const out = [];
  for (let i = 0; i < bits.length; i += 8) {
    let byte = 0;
    for (let j = 0; j < 8; j++) byte = (byte << 1) | bits[i + j];
    out.push(byte);
  }
  for (let pad = 0xec; out.length < capacity / 8; pad ^= 0xec ^ 0x11) out.push(pad);
  return out;
}

// Modules available for data and error correction (all but the function patterns), in bits.
function rawDataModules(version) {
  let result = (16 * version + 128) * version + 64;
  if (version >= 2) {
    const alignments = Math.floor(version / 7) + 2;
    result -= (25 * alignments - 10) * alignments - 55;
    if (version >= 7) result -= 36; // the two version information blocks
  }
  return result;
}

function dataCodewordCount(version) {
  return Math.floor(rawDataModules(version) / 8) - ECC_PER_BLOCK_M[version] * BLOCKS_M[version];
}

// ---- Reed–Solomon over GF(256), polynomial x^8 + x^4 + x^3 + x^2 + 1 -------------------------

function gfMultiply(x, y) {
  let z = 0;
  for (let i = 7; i >= 0; i--) {
    z = (z << 1) ^ ((z >>> 7) * 0x11d);
    z ^= ((y >>> i) & 1) * x;
  }
  return z;
}

// The generator polynomial (x − α^0)(x − α^1)…(x − α^(degree−1)), leading 1 left out.
export function reedSolomonDivisor(degree) {
  const result = new Array(degree).fill(0);
  result[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < degree; j++) {
      result[j] = gfMultiply(result[j], root);
      if (j + 1 < degree) result[j] ^= result[j + 1];
    }
    root = gfMultiply(root, 0x02);
  }
  return result;
}

// The error correction codewords of `data`: the remainder of data·x^degree by the divisor.
export function reedSolomonRemainder(data, divisor) {
  const result = new Array(divisor.length).fill(0);
  for (const b of data) {
    const factor = b ^ result.shift();
    result.push(0);
    divisor.forEach((coefficient, i) => (result[i] ^= gfMultiply(coefficient, factor)));
  }
  return result;
}

// Splits the data into the version's blocks, adds each block's error correction, interleaves.
function addErrorCorrection(data, version) {
  const blockCount = BLOCKS_M[version];
  const eccLength = ECC_PER_BLOCK_M[version];
  const rawCodewords = Math.floor(rawDataModules(version) / 8);
  const shortBlocks = blockCount - (rawCodewords % blockCount);
  const shortDataLength = Math.floor(rawCodewords / blockCount) - eccLength;
  const divisor = reedSolomonDivisor(eccLength);

  const blocks = [];
  for (let i = 0, k = 0; i < blockCount; i++) {
    const length = shortDataLength + (i < shortBlocks ? 0 : 1);
    const part = data.slice(k, k + length);
    k += length;
    blocks.push({ data: part, ecc: reedSolomonRemainder(part, divisor) });
  }
  const out = [];
  for (let i = 0; i <= shortDataLength; i++) {
    for (const block of blocks) if (i < block.data.length) out.push(block.data[i]);
  }
  for (let i = 0; i < eccLength; i++) for (const block of blocks) out.push(block.ecc[i]);
  return out;
}

// ---- the symbol -------------------------------------------------------------------------------

const MASKS = [
  (r, c) => (r + c) % 2 === 0,
  (r) => r % 2 === 0,
  (r, c) => c % 3 === 0,
  (r, c) => (r + c) % 3 === 0,
  (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0,
  (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
  (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0,
  (r, c) => (((r + c) % 2) + ((r * c) % 3)) % 2 === 0,
];

class Symbol {
  constructor(version) {
    this.version = version;
    this.size = version * 4 + 17;
    this.modules = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
    this.reserved = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
  }

  setFunction(row, col, dark) {
    this.modules[row][col] = dark;
    this.reserved[row][col] = true;
  }

  drawFunctionPatterns() {
    const n = this.size;
    for (let i = 0; i < n; i++) {
      this.setFunction(6, i, i % 2 === 0); // timing patterns
      this.setFunction(i, 6, i % 2 === 0);
    }
    this.drawFinder(3, 3);
    this.drawFinder(3, n - 4);
    this.drawFinder(n - 4, 3);
    const centres = alignmentCentres(this.version);
    const last = centres.length - 1;
    centres.forEach((r, i) =>
      centres.forEach((c, j) => {
        const onFinder = (i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0);
        if (!onFinder) this.drawAlignment(r, c);
      }),
    );
    this.drawFormatBits(0); // reserves the format areas; drawn again once the mask is known
    this.drawVersion();
  }

  // A finder pattern with its light separator, centred at (row, col).
  drawFinder(row, col) {
    for (let dr = -4; dr <= 4; dr++) {
      for (let dc = -4; dc <= 4; dc++) {
        const r = row + dr;
        const c = col + dc;
        if (r < 0 || r >= this.size || c < 0 || c >= this.size) continue;
        const ring = Math.max(Math.abs(dr), Math.abs(dc));
        this.setFunction(r, c, ring !== 2 && ring !== 4);
      }
    }
  }

  drawAlignment(row, col) {
    for (let dr = -2; dr <= 2; dr++) {
      for (let dc = -2; dc <= 2; dc++) {
        this.setFunction(row + dr, col + dc, Math.max(Math.abs(dr), Math.abs(dc)) !== 1);
      }
    }
  }

  // 15 bits: level and mask, BCH(15,5) protected, XOR 0x5412; two copies, and the dark module.
  drawFormatBits(mask) {
    const data = (LEVEL_M_FORMAT_BITS << 3) | mask;
    let rem = data;
    for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
    const bits = ((data << 10) | rem) ^ 0x5412;
    const bit = (i) => ((bits >>> i) & 1) === 1;
    const n = this.size;
    for (let i = 0; i <= 5; i++) this.setFunction(i, 8, bit(i));
    this.setFunction(7, 8, bit(6));
    this.setFunction(8, 8, bit(7));
    this.setFunction(8, 7, bit(8));
    for (let i = 9; i < 15; i++) this.setFunction(8, 14 - i, bit(i));
    for (let i = 0; i < 8; i++) this.setFunction(8, n - 1 - i, bit(i));
    for (let i = 8; i < 15; i++) this.setFunction(n - 15 + i, 8, bit(i));
    this.setFunction(n - 8, 8, true);
  }

  // Versions 7 and up: 18 bits, BCH(18,6), in two 6×3 blocks.
  drawVersion() {
    if (this.version < 7) return;
    let rem = this.version;
    for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
    const bits = (this.version << 12) | rem;
    for (let i = 0; i < 18; i++) {
      const dark = ((bits >>> i) & 1) === 1;
      const a = this.size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      this.setFunction(b, a, dark);
      this.setFunction(a, b, dark);
    }
  }

  // The codewords' bits in the zigzag: two-module columns from the right, up then down,
  // skipping the vertical timing pattern; leftover modules stay light.
  placeData(codewords) {
    const n = this.size;
    let i = 0;
    for (let right = n - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5;
      const upward = ((right + 1) & 2) === 0;
      for (let step = 0; step < n; step++) {
        const row = upward ? n - 1 - step : step;
        for (let j = 0; j < 2; j++) {
          const col = right - j;
          if (this.reserved[row][col]) continue;
          if (i < codewords.length * 8) {
            this.modules[row][col] = ((codewords[i >>> 3] >>> (7 - (i & 7))) & 1) === 1;
            i++;
          }
        }
      }
    }
  }

  applyMask(mask) {
    const flip = MASKS[mask];
    for (let r = 0; r < this.size; r++) {
      for (let c = 0; c < this.size; c++) {
        if (!this.reserved[r][c] && flip(r, c)) this.modules[r][c] = !this.modules[r][c];
      }
    }
  }

  // The standard's penalty (section 7.8.3): N1 runs, N2 blocks, N3 finder-like patterns, N4
  // balance of dark and light.
  penalty() {
    const n = this.size;
    const m = this.modules;
    let score = 0;
    const lines = [];
    for (let i = 0; i < n; i++) {
      lines.push(m[i]);
      lines.push(m.map((row) => row[i]));
    }
    for (const line of lines) score += runPenalty(line) + finderLikePenalty(line);
    for (let r = 0; r + 1 < n; r++) {
      for (let c = 0; c + 1 < n; c++) {
        const v = m[r][c];
        if (v === m[r][c + 1] && v === m[r + 1][c] && v === m[r + 1][c + 1]) score += 3;
      }
    }
    let dark = 0;
    for (const row of m) for (const v of row) if (v) dark++;
    const total = n * n;
    const k = Math.ceil(Math.abs(dark * 20 - total * 10) / total) - 1;
    return score + Math.max(0, k) * 10;
  }
}

// N1: 3 + (length − 5) for every run of five or more modules of one colour.
function runPenalty(line) {
  let score = 0;
  let run = 1;
  for (let i = 1; i <= line.length; i++) {
    if (i < line.length && line[i] === line[i - 1]) {
      run++;
    } else {
      if (run >= 5) score += 3 + (run - 5);
      run = 1;
    }
  }
  return score;
}

// N3: 40 for each finder-like pattern — dark, light, dark, light, dark runs in the ratio
// 1:1:3:1:1 — with a light run four times the unit on one side (and at least the unit on the
// other); counted once per side that qualifies. Outside the symbol counts as light (the quiet
// zone), as the size of the symbol.
function finderLikePenalty(line) {
  const runs = []; // alternating lengths, starting with a light run
  let length = line.length; // the quiet zone before the line
  let dark = false;
  for (const v of line) {
    if (v === dark) {
      length++;
    } else {
      runs.push(length);
      dark = v;
      length = 1;
    }
  }
  runs.push(length);
  if (dark) runs.push(0);
  runs[runs.length - 1] += line.length; // the quiet zone after it
  let score = 0;
  // Dark runs are at odd indexes; a pattern starting at dark run i ends at dark run i + 4.
  for (let i = 1; i + 5 < runs.length; i += 2) {
    const n = runs[i];
    const core =
      runs[i + 1] === n && runs[i + 2] === 3 * n && runs[i + 3] === n && runs[i + 4] === n;
    if (!core) continue;
    const before = runs[i - 1];
    const after = runs[i + 5];
    if (before >= 4 * n && after >= n) score += 40;
    if (after >= 4 * n && before >= n) score += 40;
  }
  return score;
}

// Centres of the alignment patterns along one axis (Annex E): 6, then evenly spaced to size − 7.
export function alignmentCentres(version) {
  if (version === 1) return [];
  const count = Math.floor(version / 7) + 2;
  const last = version * 4 + 10;
  const step = version === 32 ? 26 : Math.ceil((last - 6) / (count - 1) / 2) * 2;
  const out = [6];
  for (let pos = last; out.length < count; pos -= step) out.splice(1, 0, pos);
  return out;
}

// ---- drawing ----------------------------------------------------------------------------------

// An <svg> of the symbol: one path of dark unit squares, with a light quiet zone of `border`
// modules (4 by the standard). Drawn through the DOM: no inline markup, no style attribute.
export function qrSvg(doc, qr, { border = 4, title = "" } = {}) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = doc.createElementNS(ns, "svg");
  const extent = qr.size + 2 * border;
  svg.setAttribute("viewBox", `0 0 ${extent} ${extent}`);
  svg.setAttribute("shape-rendering", "crispEdges");
  svg.setAttribute("role", "img");
  if (title) {
    const t = doc.createElementNS(ns, "title");
    t.textContent = title;
    svg.append(t);
  }
  const background = doc.createElementNS(ns, "rect");
  background.setAttribute("width", String(extent));
  background.setAttribute("height", String(extent));
  background.setAttribute("fill", "#fff");
  const path = doc.createElementNS(ns, "path");
  let d = "";
  qr.modules.forEach((row, r) =>
    row.forEach((dark, c) => {
      if (dark) d += `M${c + border},${r + border}h1v1h-1z`;
    }),
  );
  path.setAttribute("d", d);
  path.setAttribute("fill", "#000");
  svg.append(background, path);
  return svg;
}
