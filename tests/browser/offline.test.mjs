// The judge page without the network (issue 25, "judges keep working when the venue's Wi-Fi
// drops"), in Debian's headless Chromium against the real tallyd (its test build) on a loopback
// port, the network cut with the browser's own offline emulation (DevTools, context.setOffline):
//
//  1. Offline, Eva enters three tables: each is "Saved on this device", the counter says 3, and
//     nothing reaches tallyd. The page is reloaded, still offline: it comes back (its service
//     worker), with the three entries, the tables as they were and the forms of the game.
//  2. The network comes back: the three are applied once each, in the order they were entered
//     (the audit trail), and the counter goes.
//  3. Offline again, Eva enters tables 4 and 5 while Petr enters both through the API, and table 8
//     with a rule broken (no check offline): back online, 4 and 5 are answered 412 and wait for
//     Eva's choice beside Petr's entry — table 4 "Keep Petr's entry" (hers discarded), table 5
//     "Correct it with my values" with a reason (a correction of Petr's version); table 8 is
//     answered 422 and opens with the rule at its field, then is discarded by Eva.
//  4. A save whose answer is lost after tallyd applied it (the response cut in the network) stays
//     in the outbox and is sent again with the same Idempotency-Key: answered, not applied twice.
//
//  5. A correction saved offline whose token is revoked meanwhile: the page says so plainly and
//     keeps it; with the judge's new token, "Send them with my token" sends it.
//  6. The table's self-reporting page (/t/{t}/report) keeps a proposal sent offline the same way:
//     kept on the phone, the page reloaded offline, sent once when the network is back.
//  7. A judge who chose no language: the Czech tournament's judge page reloaded offline stays in
//     Czech (the tournament's locale as the device last read it).
//
// At 390×844 nothing scrolls sideways and the counter stays on the screen while the form
// scrolls. Screenshots of the offline state and of the 412 choice, at 1920×1080 and 390×844, in
// English and Czech, go to $TALLY_ARTIFACTS as offline-*.png.
//
// Environment (set by CMake): TALLYD_TEST, TALLY_BROWSER_DEPS, TALLY_ARTIFACTS, CHROMIUM.

import assert from "node:assert/strict";
import path from "node:path";
import { after, before, test } from "node:test";

import { scrollsSideways, unnamedControls } from "./support/a11y.mjs";
import { closeContext, openContext } from "./support/contexts.mjs";
import { artifacts, startStack, stopStack } from "./support/stack.mjs";

const T = "offline-cup";
const DESKTOP = { width: 1920, height: 1080 };
const PHONE = { width: 390, height: 844 };
const TIMEZONE = "Europe/Prague";
const NAMES = [
  "Adéla Bártová", "Bohumil Čech", "Cyril Dvořák", "Dana Fialová", "Emil Hájek", "František Horák",
  "Hana Chalupová", "Ivana Kopecká", "Jan Král", "Karla Kučerová", "Ladislav Marek", "Marie Němcová",
  "Norbert Pokorný", "Olga Procházková", "Pavel Růžička", "Radka Říhová", "Stanislav Sýkora",
  "Tereza Urbanová", "Urban Veselý", "Věra Zemanová", "Zdeněk Žák", "Alena Šimková", "Boris Tichý",
  "Celestýna Vaňková", "Daniel Řezáč", "Eliška Nová", "Filip Kratochvíl", "Gabriela Malá",
  "Hynek Beneš", "Irena Doležalová", "Jakub Fiala", "Kamila Holubová",
];
const nameOf = Object.fromEntries(NAMES.map((n, i) => [`p${i + 1}`, n]));

// A valid Catan table in seat order: 10, 8, 6, 5 VP.
const SHEETS = [
  { settlements: 2, cities: 3, vp_cards: 0, knights: 3, roads: 6, longest_road: 4, largest_army: true, longest_road_holder: false },
  { settlements: 3, cities: 1, vp_cards: 1, knights: 1, roads: 10, longest_road: 6, largest_army: false, longest_road_holder: true },
  { settlements: 4, cities: 1, vp_cards: 0, knights: 2, roads: 7, longest_road: 4, largest_army: false, longest_road_holder: false },
  { settlements: 2, cities: 1, vp_cards: 1, knights: 0, roads: 5, longest_road: 3, largest_army: false, longest_road_holder: false },
];
// Petr's sheets of the same tables: the second player had a VP card fewer.
const PETRS = SHEETS.map((s, i) => (i === 1 ? { ...s, vp_cards: 0 } : s));
// Largest Army given to the second player (1 knight) while the first has 3: rule C-7 refuses it.
const BROKEN = SHEETS.map((s, i) => ({ ...s, largest_army: i === 1 }));
const FIELDS = [
  ["settlements", "settlements"],
  ["cities", "cities"],
  ["vp_cards", "VP cards"],
  ["knights", "knights"],
  ["roads", "roads"],
  ["longest_road", "longest road"],
];
// What the browser logs for the requests the test cuts or provokes (and a phone's offline checks).
const ALLOWED = [
  /Failed to load resource: net::ERR_INTERNET_DISCONNECTED/,
  /Failed to load resource: net::ERR_CONNECTION_RESET/,
  /WebSocket connection to .* failed/,
  /Failed to load resource: the server responded with a status of (412|422)/, // the 412s provoked, the checks of forms still being filled
];

let stack;
let tallyd;
let browser;
const judges = {};
let seats; // table number → player ids in seat order

before(async () => {
  stack = await startStack("tally-offline-");
  ({ tallyd, browser } = stack);
  for (const name of ["Eva", "Petr"]) judges[name] = await tallyd.must(201, "POST", "/v1/judges", { name });
  await tallyd.must(201, "POST", "/v1/tournaments", { id: T, name: "Offline Cup", game: "catan", locale: "cs" });
  for (const [i, name] of NAMES.entries()) await tallyd.must(201, "POST", `/v1/tournaments/${T}/players`, { id: `p${i + 1}`, name });
  const round = await tallyd.must(201, "POST", `/v1/tournaments/${T}/rounds`, { method: "random", seed: 25 });
  seats = Object.fromEntries(round.tables.map((table) => [table.table, table.players]));
  assert.equal(round.tables.length, 8); // table 7 for the table's phone, the others for the judge
});

after(() => stopStack(stack));

// ---- helpers ----------------------------------------------------------------------------------

async function screenshot(page, name, fullPage = false) {
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage });
}

const tablePath = (n) => `/v1/tournaments/${T}/rounds/1/tables/${n}`;
const body = (n, sheets = SHEETS) => ({ players: seats[n].map((player, i) => ({ player, ...sheets[i] })) });
const venueTime = (iso) =>
  new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: TIMEZONE }).format(new Date(iso));

async function typeSheets(page, n, sheets = SHEETS) {
  for (const [i, player] of seats[n].entries()) {
    const name = nameOf[player];
    for (const [field, label] of FIELDS) await page.getByLabel(`${name}: ${label}`, { exact: true }).fill(String(sheets[i][field]));
    if (sheets[i].largest_army) await page.getByLabel(`${name} holds Largest Army`).check();
    if (sheets[i].longest_road_holder) await page.getByLabel(`${name} holds Longest Road`).check();
  }
}

async function chooseTable(page, n) {
  await page.locator(`#tables button[data-table="${n}"]`).click();
  await page.locator("#table-heading").filter({ hasText: `Table ${n}` }).waitFor();
}

// The result events of round 1, oldest first: [table, version].
async function resultEvents() {
  const audit = await tallyd.must(200, "GET", `/v1/tournaments/${T}/audit?round=1`);
  return audit.events.filter((e) => e.type === "catan_result").map((e) => [Number(/table\/(\d+)$/.exec(e.stream)[1]), e.version]);
}

const counter = (page) => page.locator("#outbox-summary");

// Whether the element is wholly on the screen.
const onScreen = (page, selector) =>
  page.evaluate((s) => {
    const r = document.querySelector(s).getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
  }, selector);

// Waits until the pages' service worker (static/offline-worker.js) controls `page`.
async function workerControls(page) {
  try {
    await page.waitForFunction(() => navigator.serviceWorker && navigator.serviceWorker.controller !== null, null, { timeout: 15000 });
  } catch (e) {
    const header = (await tallyd.api("GET", "/static/offline-worker.js", undefined, { token: null })).headers.get("service-worker-allowed");
    throw new Error(`the service worker does not control the page (Service-Worker-Allowed on its script: ${header}): ${e.message}`);
  }
}

// Reloads the page without the network, in `lang` (the visitor's choice, as the switcher keeps it).
async function reloadIn(page, lang) {
  await page.evaluate((l) => localStorage.setItem("tallyd.lang", l), lang);
  await page.reload();
  await page.locator("#picker").waitFor({ state: "visible" });
}

// ---- the test -----------------------------------------------------------------------------------

test("offline: entries kept on the device, sent once and in order; the 412 choice; a lost answer", async () => {
  const started = Date.now();
  const context = await openContext(browser, { viewport: DESKTOP, lang: "en", keepLang: true, allowed: ALLOWED, timeout: 15000 });
  const page = await context.newPage();
  await page.goto(`${tallyd.base}/t/${T}/judge#token=${judges.Eva.token}`);
  await page.locator("#picker").waitFor({ state: "visible" });
  // The page's service worker keeps the shell: it controls the page before the network goes.
  await workerControls(page);

  // ---- 1. three tables entered offline, the page reloaded offline -----------------------------
  await context.setOffline(true);
  await page.locator("#outbox-note").filter({ hasText: "No connection" }).waitFor();
  for (const n of [1, 2, 3]) {
    await chooseTable(page, n);
    await typeSheets(page, n);
    await page.getByRole("button", { name: "Save the result" }).click();
    await page.locator("#save-status").filter({ hasText: `Saved on this device: table ${n} is sent when the connection is back.` }).waitFor();
    assert.equal(await counter(page).innerText(), `Saved on this device, not yet sent (${n})`);
  }
  assert.deepEqual(await resultEvents(), [], "nothing reached tallyd");

  await page.reload();
  await page.locator("#picker").waitFor({ state: "visible" });
  assert.equal(await counter(page).innerText(), "Saved on this device, not yet sent (3)");
  assert.match(await page.locator("#outbox-note").innerText(), /^No connection: the tables as they were at \d\d:\d\d\./);
  for (const n of [1, 2, 3]) {
    assert.match(await page.locator(`#tables button[data-table="${n}"]`).innerText(), /Saved on this device, not sent yet/);
  }
  await page.getByText("The entries saved on this device").click(); // the list, folded while nothing needs a decision
  assert.deepEqual(
    await page.locator("#outbox-entries li strong").allInnerTexts(),
    ["Round 1 · Table 1", "Round 1 · Table 2", "Round 1 · Table 3"],
  );
  // The table shown (table 3, from the address) has its entry in the form, as typed.
  assert.match(await page.locator("#table-status").innerText(), /^Saved on this device at \d\d:\d\d, not sent yet/);
  assert.equal(await page.getByLabel(`${nameOf[seats[3][1]]}: roads`, { exact: true }).inputValue(), "10");
  assert.deepEqual(await unnamedControls(page), []);
  await screenshot(page, "offline-judge-desktop-en", true);

  await page.setViewportSize(PHONE);
  assert.equal(await scrollsSideways(page), false, "390 px");
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, "offline-judge-phone-top-en");
  await page.locator("#save").scrollIntoViewIfNeeded();
  assert.ok(await onScreen(page, "#outbox-summary"), "the counter stays on the screen while the form scrolls");
  await screenshot(page, "offline-judge-phone-en");
  await reloadIn(page, "cs");
  assert.equal(await counter(page).innerText(), "Uloženo v tomto zařízení, zatím neodesláno (3)");
  assert.equal(await scrollsSideways(page), false, "390 px, Czech");
  await page.locator("#save").scrollIntoViewIfNeeded();
  assert.ok(await onScreen(page, "#outbox-summary"));
  await screenshot(page, "offline-judge-phone-cs");
  await page.setViewportSize(DESKTOP);
  await screenshot(page, "offline-judge-desktop-cs", true);
  await reloadIn(page, "en");

  // ---- 2. back online: applied once each, in order ----------------------------------------------
  const keys = [];
  page.on("request", (r) => {
    if (r.method() === "PUT" && r.url().endsWith("/result")) keys.push([new URL(r.url()).pathname, r.headers()["idempotency-key"]]);
  });
  await context.setOffline(false);
  await counter(page).filter({ hasText: "Everything saved on this device has been sent." }).waitFor();
  // One result event per table, in the order they were entered (the audit trail is in seq order).
  assert.deepEqual((await resultEvents()).map(([n, v]) => [n, v]), [[1, 1], [2, 1], [3, 1]], "once each, in the order entered");
  assert.deepEqual(keys.map(([p]) => p), [1, 2, 3].map((n) => `${tablePath(n)}/result`));
  const sheet = await tallyd.must(200, "GET", `/v1/tournaments/${T}/rounds/1`);
  for (const n of [1, 2, 3]) {
    const table = sheet.tables.find((x) => x.table === n);
    assert.equal(table.entered_by.name, "Eva", `table ${n}`);
    assert.equal(table.version, 1, `table ${n}`);
  }
  await page.locator('#tables button[data-table="3"]').filter({ hasText: "reported by Eva" }).waitFor();

  // ---- 3. entered meanwhile by Petr: the 412 choice ----------------------------------------------
  await context.setOffline(true);
  await page.locator("#outbox-note").filter({ hasText: "No connection" }).waitFor();
  for (const [n, sheets] of [[4, SHEETS], [5, SHEETS], [8, BROKEN]]) {
    await chooseTable(page, n);
    await typeSheets(page, n, sheets);
    await page.getByRole("button", { name: "Save the result" }).click();
    await page.locator("#save-status").filter({ hasText: `table ${n} is sent when the connection is back` }).waitFor();
  }
  const petrs = {};
  for (const n of [4, 5]) {
    const answer = await tallyd.api("PUT", `${tablePath(n)}/result`, body(n, PETRS), { token: judges.Petr.token, headers: { "If-None-Match": "*" } });
    assert.equal(answer.status, 201);
    petrs[n] = answer.body;
  }
  await context.setOffline(false);
  await page.locator("#outbox-note").filter({ hasText: "3 entries need your decision." }).waitFor();
  assert.equal(await counter(page).innerText(), "Saved on this device, not yet sent (3)");
  const states = await page.locator("#outbox-entries li .outbox-state").allInnerTexts();
  assert.deepEqual(states.slice(0, 2), ["Petr entered this table meanwhile: choose which entry stands.", "Petr entered this table meanwhile: choose which entry stands."]);
  assert.match(states[2], /^Refused: /);
  await page.getByRole("button", { name: "Open round 1, table 4" }).click();
  const headline = page.locator("#conflict-headline");
  await headline.filter({ hasText: `Already entered by Petr at ${venueTime(petrs[4].entered_at)}.` }).waitFor();
  assert.equal(await page.locator("#their-entry caption").innerText(), "Petr's entry");
  const second = nameOf[seats[4][1]];
  assert.match(await page.locator("#differences").innerText(), new RegExp(`${second}: VP cards 0 \\(yours 1\\)`));
  await page.locator("#conflict").scrollIntoViewIfNeeded();
  await screenshot(page, "offline-412-desktop-en");
  await page.setViewportSize(PHONE);
  assert.equal(await scrollsSideways(page), false, "the 412 choice at 390 px");
  await page.locator("#conflict").scrollIntoViewIfNeeded();
  assert.ok(await onScreen(page, "#outbox-summary"));
  await screenshot(page, "offline-412-phone-en");
  await reloadIn(page, "cs");
  await headline.filter({ hasText: "Petr" }).waitFor(); // the entry in the address, its choice again
  assert.equal(await scrollsSideways(page), false, "the 412 choice at 390 px, Czech");
  await page.locator("#conflict").scrollIntoViewIfNeeded();
  await screenshot(page, "offline-412-phone-cs");
  await page.setViewportSize(DESKTOP);
  await page.locator("#conflict").scrollIntoViewIfNeeded();
  await screenshot(page, "offline-412-desktop-cs");
  await reloadIn(page, "en");
  await headline.waitFor();

  // Table 4: Petr's entry stands; Eva's is discarded by her choice.
  await page.getByRole("button", { name: "Keep Petr's entry" }).click();
  await page.locator("#outbox-entries li").first().filter({ hasText: "Round 1 · Table 5" }).waitFor();
  assert.equal(await counter(page).innerText(), "Saved on this device, not yet sent (2)");
  // Table 8: the refusal at its field (the rule's id, the player's row), then discarded — asked first.
  await page.getByRole("button", { name: "Open round 1, table 8" }).click();
  const summary = page.locator("#error-summary");
  await summary.waitFor();
  const c7 = (await summary.locator("li").allInnerTexts()).filter((text) => text.includes("C-7"));
  assert.equal(c7.length, 1, "C-7 in the summary");
  assert.ok(NAMES.some((name) => c7[0].startsWith(`${name}: C-7`)), `named by player: ${c7[0]}`);
  assert.equal(await page.locator('#form-fields .field-error').filter({ hasText: "C-7" }).count(), 1, "C-7 at its field");
  assert.match(await page.locator("#table-status").innerText(), /refused by the server/);
  await screenshot(page, "offline-422-desktop-en");
  await page.getByRole("button", { name: "Discard round 1, table 8" }).click();
  await page.getByRole("button", { name: "Yes, discard it" }).click();
  await page.locator("#outbox-entries li").filter({ hasText: "Round 1 · Table 8" }).waitFor({ state: "detached" });
  assert.equal(await counter(page).innerText(), "Saved on this device, not yet sent (1)");
  // Table 5: hers stands, as a correction of Petr's version, with a reason.
  await page.getByRole("button", { name: "Open round 1, table 5" }).click();
  await headline.filter({ hasText: `Already entered by Petr at ${venueTime(petrs[5].entered_at)}.` }).waitFor();
  await page.getByRole("button", { name: "Correct it with my values" }).click();
  assert.equal(await page.locator("#form-heading").innerText(), "Correct the result");
  await page.getByLabel("Why is the result corrected?").fill("Recounted the VP cards with the players");
  await page.getByRole("button", { name: "Save the correction" }).click();
  await page.locator("#save-status").filter({ hasText: "Corrected: table 5 is reported." }).waitFor();
  await counter(page).filter({ hasText: "Everything saved on this device has been sent." }).waitFor();
  const after412 = await tallyd.must(200, "GET", `/v1/tournaments/${T}/rounds/1`);
  const t4 = after412.tables.find((x) => x.table === 4);
  const t5 = after412.tables.find((x) => x.table === 5);
  assert.deepEqual([t4.entered_by.name, t4.version], ["Petr", 1], "table 4: Petr's stands");
  assert.deepEqual([t5.entered_by.name, t5.version], ["Eva", 2], "table 5: Eva's correction");
  assert.deepEqual((await resultEvents()).map(([n, v]) => [n, v]), [[1, 1], [2, 1], [3, 1], [4, 1], [5, 1], [5, 2]], "table 8: nothing");

  // ---- 4. an answer lost after tallyd applied the write -----------------------------------------
  let lost = null;
  await page.route(`**${tablePath(6)}/result`, async (route) => {
    if (route.request().method() !== "PUT" || lost) return route.continue();
    const applied = await route.fetch(); // reaches tallyd, which applies it …
    lost = { status: applied.status(), key: route.request().headers()["idempotency-key"] };
    await route.abort("connectionreset"); // … and its answer never reaches the page
  });
  await chooseTable(page, 6);
  await typeSheets(page, 6);
  await page.getByRole("button", { name: "Save the result" }).click();
  await page.locator("#save-status").filter({ hasText: "Saved on this device: table 6 is sent when the connection is back." }).waitFor();
  assert.equal(lost.status, 201, "tallyd applied it");
  assert.equal(await counter(page).innerText(), "Saved on this device, not yet sent (1)");
  const retried = page.waitForResponse((r) => r.request().method() === "PUT" && r.url().endsWith(`${tablePath(6)}/result`));
  await page.getByRole("button", { name: "Send now" }).click();
  const retry = await retried;
  assert.equal(retry.request().headers()["idempotency-key"], lost.key, "the same key");
  assert.equal(retry.status(), 201, "the original answer");
  await page.locator("#save-status").filter({ hasText: "Saved: table 6 is reported." }).waitFor();
  await counter(page).filter({ hasText: "Everything saved on this device has been sent." }).waitFor();
  const six = (await resultEvents()).filter(([n]) => n === 6);
  assert.equal(six.length, 1, "applied once");
  await page.unroute(`**${tablePath(6)}/result`);

  // ---- 5. the token revoked while a correction waits on the device ------------------------------
  await context.setOffline(true);
  await chooseTable(page, 1);
  await page.getByRole("button", { name: "Correct this result" }).click();
  await typeSheets(page, 1, PETRS);
  await page.getByLabel("Why is the result corrected?").fill("A VP card was counted twice");
  await page.getByRole("button", { name: "Save the correction" }).click();
  await page.locator("#save-status").filter({ hasText: "Saved on this device: table 1 is sent when the connection is back." }).waitFor();
  await tallyd.must(200, "DELETE", `/v1/judges/${judges.Eva.id}`);
  context.allowed.push(/status of 401/);
  await context.setOffline(false);
  await page.locator("#token-error").filter({ hasText: "The saved token is no longer valid. Ask the organizer for a new one. 1 entry saved on this device stays here: enter the new token to send it." }).waitFor();
  assert.equal(await counter(page).innerText(), "Saved on this device, not yet sent (1)");
  const again = await tallyd.must(201, "POST", "/v1/judges", { name: "Eva" });
  await page.getByLabel("Token", { exact: true }).fill(again.token);
  await page.getByRole("button", { name: "Save the token" }).click();
  await page.locator("#outbox-held").filter({ hasText: "1 entry was saved with another token (a revoked one, or another judge's)." }).waitFor();
  await page.locator("#table-status").filter({ hasText: /^Saved on this device at \d\d:\d\d with another token/ }).waitFor();
  await page.getByRole("button", { name: "Send them with my token" }).click();
  await page.locator("#save-status").filter({ hasText: "Corrected: table 1 is reported." }).waitFor();
  const one = (await tallyd.must(200, "GET", `/v1/tournaments/${T}/rounds/1`)).tables.find((x) => x.table === 1);
  assert.deepEqual([one.entered_by.name, one.version], ["Eva", 2]);
  assert.equal(one.entered_by.id, again.id, "sent with the new token");

  await closeContext(context);
  console.log(`# offline test: ${Date.now() - started} ms`);
});

test("the table's page keeps a proposal sent offline and sends it once when the network is back", async () => {
  const started = Date.now();
  await tallyd.must(200, "PATCH", `/v1/tournaments/${T}`, { self_reporting: true });
  const keys = await tallyd.must(200, "GET", `/v1/tournaments/${T}/rounds/1/keys`);
  const key = keys.keys.find((k) => k.table === 7);
  const context = await openContext(browser, { viewport: PHONE, lang: "en", allowed: ALLOWED, timeout: 15000 });
  const page = await context.newPage();
  await page.goto(`${tallyd.base}${key.url}`);
  await page.locator("#propose-section").waitFor({ state: "visible" });
  await workerControls(page);

  await context.setOffline(true);
  await typeSheets(page, 7);
  await page.locator("#propose").click();
  await page.locator("#status").filter({ hasText: "No answer from the server: your result is kept on this phone" }).waitFor();
  await page.locator("#outbox-line").filter({ hasText: /Your result \(sent at \d\d:\d\d\) is kept on this phone/ }).waitFor();

  await page.reload();
  await page.locator("#propose-section").waitFor({ state: "visible" });
  await page.locator("#outbox-line").filter({ hasText: "No connection: the table as it was at" }).waitFor();
  assert.match(await page.locator("#outbox-line").innerText(), /Your result \(sent at \d\d:\d\d\) is kept on this phone/);
  assert.equal(await page.getByLabel(`${nameOf[seats[7][1]]}: roads`, { exact: true }).inputValue(), "10", "the kept values in the form");
  assert.equal(await scrollsSideways(page), false);
  await screenshot(page, "offline-report-phone-en");
  const none = await tallyd.must(200, "GET", `/v1/tournaments/${T}/rounds/1/tables/7/proposals`, undefined, { token: key.token });
  assert.deepEqual(none.proposals, [], "nothing reached tallyd");

  await context.setOffline(false);
  await page.locator('#waiting[data-status="pending"]').waitFor();
  await page.locator("#outbox-line").waitFor({ state: "hidden" });
  const sent = await tallyd.must(200, "GET", `/v1/tournaments/${T}/rounds/1/tables/7/proposals`, undefined, { token: key.token });
  assert.equal(sent.proposals.length, 1, "sent once");
  assert.equal(sent.proposals[0].status, "pending");
  await closeContext(context);
  console.log(`# the table's page: ${Date.now() - started} ms`);
});

test("a Czech tournament's judge page reloaded offline stays in Czech when the judge chose no language", async () => {
  const started = Date.now();
  const context = await openContext(browser, { viewport: PHONE, lang: null, allowed: ALLOWED, timeout: 15000 });
  const page = await context.newPage();
  await page.goto(`${tallyd.base}/t/${T}/judge#token=${judges.Petr.token}`);
  await page.locator("#picker").waitFor({ state: "visible" });
  assert.equal(await page.locator("html").getAttribute("lang"), "cs", "online: the tournament's locale");
  await workerControls(page);

  await context.setOffline(true);
  await page.reload();
  await page.locator("#picker").waitFor({ state: "visible" });
  assert.equal(await page.evaluate(() => localStorage.getItem("tallyd.lang")), null, "no language chosen by the visitor");
  assert.equal(await page.locator("html").getAttribute("lang"), "cs");
  assert.equal(await page.locator("#picker-heading").innerText(), "Vyberte stůl");
  assert.equal(await page.locator('#languages button[aria-pressed="true"]').innerText(), "Čeština");
  assert.match(await page.locator("#outbox-note").innerText(), /^Bez připojení: stoly, jak byly v \d\d:\d\d\./);
  assert.match(await page.locator('#tables button[data-table="7"]').innerText(), /^Stůl 7/);
  await screenshot(page, "offline-judge-phone-cs-tournament");
  await context.setOffline(false);
  await closeContext(context);
  console.log(`# the tournament's language offline: ${Date.now() - started} ms`);
});

// ---- what the outbox line and the proposals say after a refusal and a reconnect (issue 38, item 3)

test("a refused save is not 'everything sent'; the sent line does not stay over the page; a read that recovers clears its error, in the page's words", async () => {
  const id = "outbox-words";
  await tallyd.must(201, "POST", "/v1/tournaments", { id, name: "Outbox Words", game: "catan", locale: "cs", self_reporting: true });
  for (const [i, name] of NAMES.slice(0, 8).entries()) await tallyd.must(201, "POST", `/v1/tournaments/${id}/players`, { id: `p${i + 1}`, name });
  const round = await tallyd.must(201, "POST", `/v1/tournaments/${id}/rounds`, { method: "random", seed: 25 });
  const seat = round.tables[0].players;
  // Judges of their own: the first test revokes Eva's token.
  const eva = await tallyd.must(201, "POST", "/v1/judges", { name: "Eva Words" });
  const petr = await tallyd.must(201, "POST", "/v1/judges", { name: "Petr Words" });
  const type = async (page, sheets) => {
    for (const [i, player] of seat.entries()) {
      const name = nameOf[player];
      for (const [field, label] of FIELDS) await page.getByLabel(`${name}: ${label}`, { exact: true }).fill(String(sheets[i][field]));
      await page.getByLabel(`${name} holds Largest Army`).setChecked(Boolean(sheets[i].largest_army));
      await page.getByLabel(`${name} holds Longest Road`).setChecked(Boolean(sheets[i].longest_road_holder));
    }
  };

  // A refused save (two holders of Largest Army): "Not saved", and no green "everything sent".
  const context = await openContext(browser, { viewport: PHONE, lang: "en", keepLang: true, allowed: ALLOWED, timeout: 15000 });
  const page = await context.newPage();
  await page.goto(`${tallyd.base}/t/${id}/judge#token=${eva.token}&round=1&table=${round.tables[0].table}`);
  await page.locator("#result-form").waitFor();
  await type(page, SHEETS.map((s, i) => ({ ...s, largest_army: i < 2 })));
  const refused = page.waitForResponse((r) => r.url().endsWith("/result") && r.request().method() === "PUT");
  await page.getByRole("button", { name: "Save the result" }).click();
  assert.equal((await refused).status(), 422);
  await page.getByText(/^Not saved/).first().waitFor();
  const bar = await page.locator("#outbox-bar").evaluate((b) => ({ hidden: b.hidden, text: b.textContent }));
  assert.ok(bar.hidden || !bar.text.includes("has been sent"), `beside "Not saved" the outbox line says "${bar.text}"`);

  // A save that goes through: "everything sent" once, where it is (not sticky over the form), gone after a moment.
  await type(page, SHEETS);
  await page.getByRole("button", { name: "Save the result" }).click();
  await page.locator("#outbox-summary").filter({ hasText: "Everything saved on this device has been sent." }).waitFor();
  assert.equal(await page.locator("#outbox-bar").evaluate((b) => getComputedStyle(b).position), "static", "the 'sent' line does not stick over the content");
  await page.locator("#outbox-bar").waitFor({ state: "hidden", timeout: 15000 });
  await closeContext(context);

  // Czech: the proposals cannot be read (the network fails that read), then can: the old error
  // goes, and no English of the browser's ("Failed to fetch") was in the Czech page.
  const czech = await openContext(browser, { viewport: PHONE, lang: null, allowed: [...ALLOWED, /net::ERR_INTERNET_DISCONNECTED/], timeout: 15000 });
  const judge = await czech.newPage();
  await judge.goto(`${tallyd.base}/t/${id}/judge#token=${eva.token}`);
  await judge.locator("#picker").waitFor({ state: "visible" });
  await judge.locator(".proposals-info").filter({ hasText: "V kole 1 nečeká žádný návrh." }).waitFor();
  const other = round.tables[1];
  const sheet = { players: other.players.map((player, i) => ({ player, ...SHEETS[i] })) };
  const proposals = (url) => url.pathname.endsWith(`/rounds/1/proposals`);
  await judge.route(proposals, (route) => route.abort("internetdisconnected"));
  // Another judge's entry: the page reads the proposals again, and cannot.
  await tallyd.must(201, "PUT", `/v1/tournaments/${id}/rounds/1/tables/${other.table}/result`, sheet, { token: petr.token, headers: { "If-None-Match": "*" } });
  const failed = judge.getByText(/^Návrhy nelze načíst/);
  await failed.waitFor();
  const said = await failed.innerText();
  assert.doesNotMatch(said, /fetch/i, "the browser's English in a Czech page");
  assert.match(said, /ze sítě nepřišla odpověď/);
  await judge.unroute(proposals);
  // The next entry: read again, and this time it is.
  await tallyd.must(200, "PUT", `/v1/tournaments/${id}/rounds/1/tables/${other.table}/result`, { ...sheet, reason: "a second look" }, { token: petr.token, headers: { "If-Match": '"1"' } });
  await failed.waitFor({ state: "hidden" });
  assert.equal(await judge.locator(".proposals-info").innerText(), "V kole 1 nečeká žádný návrh.");
  await closeContext(czech);
});
