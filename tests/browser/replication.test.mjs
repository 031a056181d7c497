// The console's word on replication (console-replication.js), in Debian's headless Chromium
// against real tallyd processes: a primary whose synchronous standby is gone says so (and that
// results are saved on it alone, replicas_ack_missing = alone), says nothing once a follower is in
// touch, and a follower's console says it is a read-only copy of its primary, in English and in
// Czech. Screenshots (1920×1080 and 390×844) go to $TALLY_ARTIFACTS as replication-*.png.
//
// Environment (set by CMake): TALLYD_TEST, TALLY_BROWSER_DEPS, TALLY_ARTIFACTS, CHROMIUM.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";

import { launchChromium } from "./support/browser.mjs";
import { closeContext, openContext } from "./support/contexts.mjs";
import { Tallyd } from "./support/tallyd.mjs";
import { artifacts } from "./support/stack.mjs";

const LAPTOP = { width: 1920, height: 1080 };
const PHONE = { width: 390, height: 844 };

let tmp;
let primary;
let follower;
let browser;

before(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "tally-replication-"));
  primary = new Tallyd(process.env.TALLYD_TEST, path.join(tmp, "primary"), ["--replicas-ack", "1", "--replicas-ack-missing", "alone"]);
  await primary.start();
  browser = await launchChromium({ depsDir: process.env.TALLY_BROWSER_DEPS, executablePath: process.env.CHROMIUM || "/usr/bin/chromium" });
  const created = await primary.api("POST", "/v1/tournaments", { id: "cup", name: "Pohár", game: "catan", locale: "cs" });
  assert.equal(created.status, 201);
});

after(async () => {
  if (browser) await browser.close();
  if (follower) assert.equal(await follower.stop(), 0, follower.log().slice(-2000));
  if (primary) assert.equal(await primary.stop(), 0, primary.log().slice(-2000));
  rmSync(tmp, { recursive: true, force: true });
});

// The console of `server`, signed in with `token`; its replication line.
async function consoleOf(context, server, token) {
  const page = await context.newPage();
  await page.goto(`${server.base}/t/cup/console`);
  await page.locator("#token-input").fill(token);
  await page.locator("#token-form button[type=submit]").click();
  await page.locator("#sections").waitFor({ state: "visible" });
  return { page, line: page.locator("#replication-notice") };
}

test("a primary whose standby is gone says it, in the organizer's language, on a laptop and a phone", async () => {
  for (const [lang, words] of [["en", /standby is gone \(0 of 1 in touch\).*saved on this server alone/], ["cs", /Záložní server chybí \(ve spojení 0 z 1\).*jen na tento server/]]) {
    for (const [size, viewport] of [["laptop", LAPTOP], ["phone", PHONE]]) {
      const context = await openContext(browser, { viewport, lang, keepLang: true });
      const { page, line } = await consoleOf(context, primary, primary.organizer());
      await line.waitFor({ state: "visible" });
      assert.match(await line.textContent(), words);
      assert.match(await line.getAttribute("class"), /\bwarn\b/);
      await page.screenshot({ path: path.join(artifacts, `replication-standby-gone-${lang}-${size}.png`), fullPage: false });
      await closeContext(context);
    }
  }
  // The server's own figures say the same.
  const health = await primary.api("GET", "/healthz", undefined, { token: null });
  assert.equal(health.body.standby.missing, true);
  assert.equal(health.body.ok, true); // alone: the judges' saves still go through
});

test("with a follower in touch the primary's console says nothing; the follower's says it is a read-only copy", async () => {
  const replica = await primary.api("POST", "/v1/replicas", { name: "standby", standby: true });
  assert.equal(replica.status, 201);
  const tokenFile = path.join(tmp, "replica.token");
  writeFileSync(tokenFile, `${replica.body.token}\n`);
  follower = new Tallyd(process.env.TALLYD_TEST, path.join(tmp, "follower"), ["--follow", primary.base, "--follow-token-file", tokenFile]);
  await follower.start();
  const deadline = Date.now() + 10000;
  while ((await primary.api("GET", "/healthz", undefined, { token: null })).body.standby.missing) {
    assert.ok(Date.now() < deadline, "the follower did not get in touch within 10 s");
    await sleep(50);
  }

  const context = await openContext(browser, { viewport: LAPTOP, lang: "en", keepLang: true });
  const { page: primaryPage, line: primaryLine } = await consoleOf(context, primary, primary.organizer());
  // The positive signal first: the console has said its first reading of GET /v1/replication
  // (data-readings), so the line's silence is that reading's, not a reading still on its way.
  await primaryPage.locator("#replication-notice[data-readings]").waitFor({ state: "attached" });
  assert.equal(await primaryLine.isVisible(), false, await primaryLine.textContent());

  // The organizer's token is in the copied log: it signs in on the follower too.
  const { page, line } = await consoleOf(context, follower, primary.organizer());
  await line.waitFor({ state: "visible" });
  assert.match(await line.textContent(), new RegExp(`follower: a read-only copy of ${primary.base.replace(/[.]/g, "\\.")} \\(0 events behind\\)\\. Enter results on the primary\\.`));
  await page.screenshot({ path: path.join(artifacts, "replication-follower-en-laptop.png"), fullPage: false });
  await closeContext(context);
});
