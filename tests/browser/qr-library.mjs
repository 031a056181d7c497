// encodeQr in node as the pages have it: static/qr-code.js over the vendored qrcode-generator,
// which a page loads as a classic script (the global `qrcode`) and node with require().
import { createRequire } from "node:module";

globalThis.qrcode ??= createRequire(import.meta.url)("../../client/web/static/vendor/qrcode.js");

export { encodeQr, QrTooLong } from "../../client/web/static/qr-code.js";
