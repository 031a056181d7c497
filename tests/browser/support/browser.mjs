// Debian's Chromium, headless, driven by playwright-core (installed from the npm registry into
// the build directory by install-deps.sh; Playwright's own browser download is never used).
//
// Playwright passes --headless and a fresh, temporary --user-data-dir itself; the other flags keep
// Chromium off the (closed) network and quiet.

import { createRequire } from "node:module";
import path from "node:path";

export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export async function launchChromium({ depsDir, executablePath }) {
  const require = createRequire(path.join(depsDir, "package.json"));
  let chromium;
  try {
    ({ chromium } = require("playwright-core"));
  } catch (e) {
    throw new Error(`playwright-core is not installed in ${depsDir} (the browser-deps test runs npm ci): ${e.message}`);
  }
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_FLAGS, timeout: 60000 });
}
