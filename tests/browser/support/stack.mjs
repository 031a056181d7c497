// What a page test runs against: tallyd (the test build) in a temporary folder and headless
// Chromium, both from the environment CTest gives (TALLYD_TEST, TALLY_BROWSER_DEPS, CHROMIUM,
// TALLY_ARTIFACTS).
//
//   const stack = await startStack("tally-pages-");  // {tallyd, browser, artifacts}
//   …
//   await stopStack(stack);  // closes the browser, stops tallyd (exit code 0), removes the folder

import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import { launchChromium } from "./browser.mjs";
import { Tallyd } from "./tallyd.mjs";

export const artifacts = process.env.TALLY_ARTIFACTS || path.join(os.tmpdir(), "tally-browser-artifacts");

export async function startStack(prefix) {
  const binary = process.env.TALLYD_TEST;
  const depsDir = process.env.TALLY_BROWSER_DEPS;
  assert.ok(binary, "TALLYD_TEST must name the tallyd-test binary");
  assert.ok(depsDir, "TALLY_BROWSER_DEPS must name the folder with playwright-core");
  mkdirSync(artifacts, { recursive: true });
  const stack = { tmp: mkdtempSync(path.join(os.tmpdir(), prefix)), tallyd: null, browser: null, artifacts };
  stack.tallyd = new Tallyd(binary, path.join(stack.tmp, "data"));
  await stack.tallyd.start();
  stack.browser = await launchChromium({ depsDir, executablePath: process.env.CHROMIUM || "/usr/bin/chromium" });
  return stack;
}

export async function stopStack(stack) {
  if (!stack) return;
  if (stack.browser) await stack.browser.close();
  if (stack.tallyd) {
    const code = await stack.tallyd.stop();
    assert.equal(code, 0, `tallyd exit code\n${stack.tallyd.log().slice(-3000)}`);
  }
  rmSync(stack.tmp, { recursive: true, force: true });
}
