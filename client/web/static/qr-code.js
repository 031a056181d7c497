// QR codes for the pages: the symbol comes from the vendored qrcode-generator (vendor/qrcode.js,
// Kazuhiko Arase, MIT; see vendor/README.md), here drawn as an SVG. Byte mode with the text's
// UTF-8, error correction level M, the smallest version that holds it.
//
// vendor/qrcode.js is not an ES module: a page that shows QR codes loads it with a classic
// <script defer> before its own modules (board.html, console.html), which makes the global
// `qrcode`. It is looked up when a code is made, not when this module is imported, so pages that
// import this module without showing a code (standings.html, through slips.js) need not load it.

export class QrTooLong extends Error {}

function library() {
  const qrcode = globalThis.qrcode;
  if (typeof qrcode !== "function") throw new Error("static/vendor/qrcode.js is not loaded");
  // The library's default turns each character into one byte (its low 8 bits): UTF-8 instead.
  qrcode.stringToBytes = qrcode.stringToBytesFuncs["UTF-8"];
  return qrcode;
}

// `text` as a QR code: { version, size, modules } with modules[row][column] true when dark.
// Throws QrTooLong beyond version 40-M (2,331 bytes).
export function encodeQr(text) {
  const symbol = library()(0, "M"); // version 0: the smallest that holds the text
  symbol.addData(text, "Byte");
  try {
    symbol.make();
  } catch (e) {
    // The library throws a string, "code length overflow. (…)", when no version holds the text.
    if (String(e).startsWith("code length overflow")) throw new QrTooLong(`${text.length} characters: too long for a QR code`);
    throw e;
  }
  const size = symbol.getModuleCount();
  const modules = Array.from({ length: size }, (_, r) => Array.from({ length: size }, (_, c) => symbol.isDark(r, c)));
  return { version: (size - 17) / 4, size, modules };
}

// An <svg> of `qr` (from encodeQr): one path of dark squares on a white quiet zone of `border`
// modules; `title` is its accessible name.
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
