// Self-reporting, the judges' and the organizer's side (issue 23), in Debian's headless Chromium
// against the real tallyd (its test build): a Catan tournament with self-reporting on, whose
// tables propose results with their table tokens (fetch in node, as the players' report page
// would); the judge page's "Proposals waiting" shows them (table, from the table, time, the
// proposed result by name, flags with their notes, the server's differences against an entered
// result) and follows the live feed; a rejection needs a reason; an approval over an entered
// result needs one and answers 200 with the table entered; an approval on a stale version shows
// "Already entered by Petr at HH:MM." (412) and a refused reason is shown at its field (422); a
// first approval enters the table (201); a reason being typed survives the list read again. In the console: the switch turns self-reporting off
// (the judge page and the console say so, a proposal is refused with 409) and on again, a QR
// code per table of the tables' report addresses, and the printed slips carrying them; its
// proposals list rejects too. Screenshots of the judge panel and the console section at
// 390×844 and 1920×1080 go to $TALLY_ARTIFACTS as proposals-*.png.
//
// Environment (set by CMake): TALLYD_TEST, TALLY_BROWSER_DEPS, TALLY_ARTIFACTS, CHROMIUM.

import assert from "node:assert/strict";
import path from "node:path";
import { after, before, test } from "node:test";

import { encodeQr } from "./qr-library.mjs";
import { artifacts, startStack, stopStack } from "./support/stack.mjs";
import { lowContrastTexts, scrollsSideways, unnamedControls } from "./support/a11y.mjs";
import { closeContext, openContext } from "./support/contexts.mjs";

const TIMEZONE = "Europe/Prague";
const LAPTOP = { width: 1920, height: 1080 };
const PHONE = { width: 390, height: 844 };
// How the contexts are set up and watched (support/contexts.mjs): no print dialog (the print CSS
// is what is checked); the refusals the test provokes are no errors.
const WATCH = {
  noPrint: true,
  allowed: [/Failed to load resource: the server responded with a status of (401|403|409|412|422)/],
  timeout: 15000,
};
const T = "selfrep";
const NAMES = ["Adéla Bártová", "Bohumil Čech", "Cyril Dvořák", "Čeněk Eliáš", "Dana Fialová", "Emil Hájek",
  "František Horák", "Hana Chalupová", "Chrudoš Jelínek", "Ivana Kopecká", "Jan Král", "Karla Kučerová"];

// A valid Catan table in seat order: 10, 8, 6, 5 VP.
const CATAN_SHEETS = [
  { settlements: 2, cities: 3, vp_cards: 0, knights: 3, roads: 6, longest_road: 4, largest_army: true, longest_road_holder: false },
  { settlements: 3, cities: 1, vp_cards: 1, knights: 1, roads: 10, longest_road: 6, largest_army: false, longest_road_holder: true },
  { settlements: 4, cities: 1, vp_cards: 0, knights: 2, roads: 7, longest_road: 4, largest_army: false, longest_road_holder: false },
  { settlements: 2, cities: 1, vp_cards: 1, knights: 0, roads: 5, longest_road: 3, largest_army: false, longest_road_holder: false },
];
// Another valid reading of the same sheets: the second player's VP card counted for the fourth
// (10, 7, 6, 6 VP).
const OTHER_SHEETS = CATAN_SHEETS.map((s, i) => ({ ...s, vp_cards: [0, 0, 0, 2][i] }));
const body = (players, sheets) => ({ players: players.map((player, i) => ({ player, ...sheets[i] })) });

let stack;
let tallyd;
let browser;
const judges = {}; // name → {id, token}
let sheet; // GET …/rounds/1
let keys; // table number → {table, token, url}
const nameOf = new Map();
let fields; // the Catan result's fields (GET /v1/games): name → field
let judgeContext; // Eva's browser (1920×1080)
let judge; // her judge page
const proposalIds = {}; // table → the id of the proposal the tests act on

const roundPath = `/v1/tournaments/${T}/rounds/1`;
const tablePath = (n) => `${roundPath}/tables/${n}`;

before(async () => {
  stack = await startStack("tally-proposals-");
  ({ tallyd, browser } = stack);
  for (const name of ["Eva", "Petr"]) judges[name] = await tallyd.must(201, "POST", "/v1/judges", { name });
  const created = await tallyd.must(201, "POST", "/v1/tournaments", { id: T, name: "Self-report open", game: "catan", locale: "cs", self_reporting: true });
  assert.equal(created.self_reporting ?? (await tallyd.must(200, "GET", `/v1/tournaments/${T}`)).self_reporting, true);
  for (const [i, name] of NAMES.entries()) {
    await tallyd.must(201, "POST", `/v1/tournaments/${T}/players`, { id: `p${i + 1}`, name });
    nameOf.set(`p${i + 1}`, name);
  }
  await tallyd.must(201, "POST", `/v1/tournaments/${T}/rounds`, { method: "random", seed: 11 });
  sheet = await tallyd.must(200, "GET", roundPath);
  assert.equal(sheet.tables.length, 3);
  const answer = await tallyd.must(200, "GET", `${roundPath}/keys`, undefined, { token: judges.Eva.token });
  keys = new Map(answer.keys.map((k) => [k.table, k]));
  assert.deepEqual([...keys.keys()].sort(), [1, 2, 3]);
  for (const key of keys.values()) {
    assert.match(key.token, new RegExp(`^tt\\.${T}\\.1\\.${key.table}\\.`));
    assert.equal(key.url, `/t/${T}/report?round=1&table=${key.table}#token=${key.token}`);
  }
  const games = await tallyd.must(200, "GET", "/v1/games", undefined, { token: null });
  fields = new Map(games.find((g) => g.game === "catan").actions.result.fields.map((f) => [f.name, f]));
  judgeContext = await openContext(browser, { viewport: LAPTOP, ...WATCH });
  judge = await judgePage(judgeContext, judges.Eva.token);
});

after(async () => {
  if (judgeContext) await closeContext(judgeContext);
  await stopStack(stack);
});

// ---- helpers ----------------------------------------------------------------------------------

async function screenshot(page, name, locator = null) {
  const file = path.join(artifacts, `${name}.png`);
  if (locator) await locator.screenshot({ path: file });
  else await page.screenshot({ path: file, fullPage: true });
}

// Eva's judge page of the tournament, the token typed once (into the token field, whatever the
// page's language).
async function judgePage(context, token, hash = "#round=1") {
  const page = await context.newPage();
  await page.goto(`${tallyd.base}/t/${T}/judge${hash}`);
  await page.locator("#token-input").fill(token);
  await page.locator("#token-form button[type=submit]").click();
  await page.locator("#picker").waitFor({ state: "visible" });
  await page.locator("#proposals .proposals-info").filter({ hasText: /1/ }).waitFor();
  return page;
}

// A proposal from table `n`, made with that table's token as the report page would.
async function propose(n, sheets, note = undefined, status = 201) {
  const table = sheet.tables.find((x) => x.table === n);
  const sent = body(table.players, sheets);
  if (note) sent.reason = note;
  const answer = await tallyd.api("POST", `${tablePath(n)}/proposals`, sent, {
    token: keys.get(n).token,
    headers: { "Idempotency-Key": `test-${n}-${Date.now()}-${Math.random()}` },
  });
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  return answer.body;
}

// The round's pending proposals as the server has them, by table.
async function pending() {
  const answer = await tallyd.must(200, "GET", `${roundPath}/proposals`, undefined, { token: judges.Eva.token });
  return new Map(answer.proposals.map((p) => [p.table, p]));
}

const value = (v) => (v && typeof v === "object" && "value" in v ? v.value : v);
const heading = (name) => {
  const field = fields.get(name);
  const text = field ? field.text || field.name : name.replace(/_/g, " ");
  return text.charAt(0).toLocaleUpperCase("en") + text.slice(1);
};
const shown = (v) => (v === null || v === undefined ? "—" : v === true ? "yes" : v === false ? "no" : String(value(v)));

// HH:MM of an ISO time on the venue's clock.
function venueTime(iso) {
  return new Intl.DateTimeFormat("en-GB", { timeZone: TIMEZONE, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(iso));
}

// The proposed result as the item shows it: [place, name, VP] per row.
async function shownResult(item) {
  return item.locator(".result-summary tbody tr").evaluateAll((trs) =>
    trs.map((tr) => [tr.cells[0].innerText.trim(), tr.querySelector("bdi").innerText.trim(), tr.cells[2].innerText.trim()]),
  );
}

// The modules an <svg> of qrSvg (static/qr-code.js) draws, as encodeQr's `modules`.
async function drawnQr(svg, size) {
  const d = await svg.locator("path").getAttribute("d");
  const drawn = Array.from({ length: size }, () => new Array(size).fill(false));
  for (const [, x, y] of d.matchAll(/M(\d+),(\d+)h1v1h-1z/g)) drawn[Number(y) - 4][Number(x) - 4] = true;
  return drawn;
}

// ---- the judge page -----------------------------------------------------------------------------

test("proposals from the tables show on the judge page: who, when, the result by name, flags, differences; live", async () => {
  // Table 1 proposes a first result; table 2 was entered by Petr and then proposes other values;
  // someone at table 2 flags that proposal.
  const first = await propose(1, CATAN_SHEETS, "Adéla read the sheets aloud");
  const t2 = sheet.tables.find((x) => x.table === 2);
  const entered = await tallyd.api("PUT", `${tablePath(2)}/result`, body(t2.players, CATAN_SHEETS), {
    token: judges.Petr.token,
    headers: { "If-None-Match": "*" },
  });
  assert.equal(entered.status, 201);
  const second = await propose(2, OTHER_SHEETS);
  const flag = await tallyd.api("POST", `${tablePath(2)}/proposals/${second.proposal.id}/flag`, { note: "The VP card was mine, not hers" }, {
    token: keys.get(2).token,
    headers: { "Idempotency-Key": `flag-${Date.now()}` },
  });
  assert.equal(flag.status, 201, JSON.stringify(flag.body));
  proposalIds[1] = first.proposal.id;
  proposalIds[2] = second.proposal.id;

  const server = await pending();
  const p1 = server.get(1);
  const p2 = server.get(2);
  assert.equal(p1.replaces_result, false);
  assert.equal(p2.replaces_result, true);
  assert.ok(p2.differences.length > 0, "the server lists the differences");
  assert.equal(p2.flags.length, 1);

  // The page read the round before: the proposals come by the live feed.
  const item1 = judge.locator(`#proposals [data-proposal="${p1.id}"]`);
  const item2 = judge.locator(`#proposals [data-proposal="${p2.id}"]`);
  await item1.waitFor({ timeout: 5000 });
  await item2.waitFor({ timeout: 5000 });
  assert.equal(await judge.locator("#proposals .proposals-info").innerText(), "2 proposals are waiting for a judge in round 1.");

  assert.equal(await item1.locator(".proposal-title").innerText(), "Table 1");
  assert.equal(await item1.locator(".proposal-meta").innerText(), `Proposed from the table at ${venueTime(p1.at)}`);
  assert.match(await item1.locator(".proposal-note").innerText(), /Their note: .?Adéla read the sheets aloud.?/);
  // The result the server computed for the proposal, by name, in its order.
  assert.deepEqual(
    await shownResult(item1),
    p1.result.players.map((p) => [String(p.place), nameOf.get(p.player), String(value(p.score))]),
  );
  assert.deepEqual((await shownResult(item1)).map((r) => r[2]), ["10", "8", "6", "5"]);
  assert.equal(await item1.locator(".proposal-difference").count(), 0);
  assert.equal(await item1.locator(".proposal-flag").count(), 0);

  // Table 2: approving corrects Petr's entry; the server's differences, named and labelled.
  assert.match(await item2.locator(".proposal-replaces .message").innerText(), /^Table 2 already has a result: approving this proposal corrects it\.$/);
  assert.deepEqual(
    await item2.locator(".proposal-difference").allInnerTexts(),
    p2.differences.map((d) =>
      d.player
        ? `${nameOf.get(d.player)} · ${heading(d.field)}: ${shown(d.entered)} → ${shown(d.proposed)}`
        : `${heading(d.field)}: ${shown(d.entered)} → ${shown(d.proposed)}`,
    ),
  );
  const vpCards = p2.differences.filter((d) => d.field === "vp_cards").map((d) => `${nameOf.get(d.player)} · VP cards: ${d.entered} → ${d.proposed}`);
  assert.deepEqual(vpCards, [`${nameOf.get(t2.players[1])} · VP cards: 1 → 0`, `${nameOf.get(t2.players[3])} · VP cards: 1 → 2`]);
  const flagText = await item2.locator(".proposal-flag").innerText();
  assert.match(flagText, /The VP card was mine, not hers/);
  assert.match(flagText, new RegExp(`— from the table, ${venueTime(p2.flags[0].at)}$`));
  assert.match(await item2.locator(".proposal-reason .hint").innerText(), /Needed to approve \(it corrects the entered result\) and to reject\./);

  // The tables with a proposal are marked in the list of tables.
  await judge.locator('#tables button[data-table="1"] .proposal-waiting').waitFor();
  assert.equal(await judge.locator('#tables button[data-table="2"] .proposal-waiting').innerText(), "a proposal is waiting");
  assert.equal(await judge.locator('#tables button[data-table="3"] .proposal-waiting').count(), 0);

  // A proposal made while the page is open shows up by itself.
  const third = await propose(3, CATAN_SHEETS);
  proposalIds[3] = third.proposal.id;
  await judge.locator(`#proposals [data-proposal="${third.proposal.id}"]`).waitFor({ timeout: 3000 });
  assert.equal(await judge.locator("#proposals .proposals-info").innerText(), "3 proposals are waiting for a judge in round 1.");

  // Every control named, readable, nothing wider than the screen; then a look on a phone.
  assert.deepEqual(await unnamedControls(judge), []);
  assert.deepEqual(await lowContrastTexts(judge), []);
  await screenshot(judge, "proposals-judge-laptop", judge.locator("#proposals"));
  const phone = await openContext(browser, { viewport: PHONE, ...WATCH });
  const page = await judgePage(phone, judges.Eva.token);
  await page.locator(`#proposals [data-proposal="${p2.id}"] .proposal-difference`).first().waitFor();
  assert.equal(await scrollsSideways(page), false, "the judge page scrolls sideways on a phone");
  assert.deepEqual(await lowContrastTexts(page), []);
  await screenshot(page, "proposals-judge-phone");
  await closeContext(phone);

  // In the tournament's language, Czech.
  const czech = await openContext(browser, { viewport: PHONE, lang: null, ...WATCH });
  const cs = await judgePage(czech, judges.Eva.token);
  assert.equal(await cs.locator("#proposals .proposals-heading").innerText(), "Návrhy výsledků ke schválení");
  await cs.locator(`#proposals [data-proposal="${p2.id}"] .proposal-difference`).first().waitFor();
  assert.equal(await cs.locator("#proposals .proposals-info").innerText(), "V kole 1 čekají na rozhodčího 3 návrhy.");
  // Each proposal's controls say their table to a screen reader.
  await cs.locator(`#proposals [data-proposal="${p2.id}"]`).getByRole("button", { name: "Schválit, stůl 2", exact: true }).waitFor();
  await cs.locator(`#proposals [data-proposal="${p2.id}"]`).getByLabel("Důvod, stůl 2", { exact: true }).waitFor();
  assert.equal(await scrollsSideways(cs), false);
  await screenshot(cs, "proposals-judge-phone-cs");
  await closeContext(czech);
});

test("a rejection needs a reason; then the proposal is rejected with it", async () => {
  const item = judge.locator(`#proposals [data-proposal="${proposalIds[1]}"]`);
  let sent = 0;
  judge.on("request", (r) => r.url().endsWith("/reject") && sent++);
  await item.getByRole("button", { name: "Reject" }).click();
  const error = item.locator(".proposal-reason .field-error");
  assert.equal(await error.innerText(), "Say why the proposal is rejected.");
  const reason = item.getByLabel("Reason");
  assert.equal(await reason.getAttribute("aria-invalid"), "true");
  assert.ok(await reason.evaluate((node) => document.activeElement === node), "the reason takes the focus");
  assert.equal(sent, 0, "nothing is sent without a reason");

  await reason.fill("The sheet of table 1 is not signed");
  const answered = judge.waitForResponse((r) => r.url().endsWith(`/proposals/${proposalIds[1]}/reject`));
  await item.getByRole("button", { name: "Reject" }).click();
  const response = await answered;
  assert.equal(response.status(), 200);
  const request = response.request();
  assert.deepEqual(request.postDataJSON(), { reason: "The sheet of table 1 is not signed" });
  assert.ok(request.headers()["idempotency-key"], "an Idempotency-Key is sent");
  await judge.locator("#proposals [role=status]").filter({ hasText: "Rejected: the proposal of table 1." }).waitFor();
  await item.waitFor({ state: "detached" });
  const table1 = await tallyd.must(200, "GET", `${tablePath(1)}/proposals`, undefined, { token: judges.Eva.token });
  const rejected = table1.proposals.find((p) => p.id === proposalIds[1]);
  assert.equal(rejected.status, "rejected");
  assert.equal(rejected.decision.reason, "The sheet of table 1 is not signed");
  assert.equal(rejected.decision.by, "Eva");
});

test("approving over an entered result needs a reason and answers 200: the table is entered with the proposal", async () => {
  const item = judge.locator(`#proposals [data-proposal="${proposalIds[2]}"]`);
  let sent = 0;
  judge.on("request", (r) => r.url().endsWith(`/proposals/${proposalIds[2]}/approve`) && sent++);
  await item.getByRole("button", { name: "Approve" }).click();
  assert.equal(await item.locator(".proposal-reason .field-error").innerText(), "Say why the entered result is corrected: approving replaces it.");
  assert.equal(sent, 0);

  // The table shown on the page, so that it shows as entered once approved.
  await judge.locator('#tables button[data-table="2"]').click();
  await judge.locator("#table-heading").filter({ hasText: "Table 2" }).waitFor();
  await item.getByLabel("Reason").fill("Petr misread the VP cards");
  // The list read again while the reason is typed (Petr flags table 3's proposal): the reason
  // and the focus stay.
  await tallyd.must(201, "POST", `${tablePath(3)}/proposals/${proposalIds[3]}/flag`, { note: "Check the roads" }, { token: judges.Petr.token });
  const flag3 = judge.locator(`#proposals [data-proposal="${proposalIds[3]}"] .proposal-flag`);
  await flag3.waitFor({ timeout: 3000 });
  assert.match(await flag3.innerText(), /Check the roads.* — Petr, \d\d:\d\d$/);
  assert.equal(await item.getByLabel("Reason").inputValue(), "Petr misread the VP cards");
  assert.ok(await item.getByLabel("Reason").evaluate((node) => document.activeElement === node), "the reason keeps the focus");
  const answered = judge.waitForResponse((r) => r.url().endsWith(`/proposals/${proposalIds[2]}/approve`));
  await item.getByRole("button", { name: "Approve" }).click();
  const response = await answered;
  assert.equal(response.status(), 200);
  const headers = response.request().headers();
  assert.equal(headers["if-match"], '"1"', "the precondition is the table's version as the page has it");
  assert.equal(headers["if-none-match"], undefined);
  assert.ok(headers["idempotency-key"]);
  assert.deepEqual(response.request().postDataJSON(), { reason: "Petr misread the VP cards" });
  const answer = await response.json();
  assert.equal(answer.proposal, proposalIds[2]);
  const version = answer.version;

  await judge.locator("#proposals [role=status]").filter({ hasText: `Approved: the result of table 2 is corrected.` }).waitFor();
  await item.waitFor({ state: "detached" });
  const table = (await tallyd.must(200, "GET", roundPath)).tables.find((x) => x.table === 2);
  assert.equal(table.status, "reported");
  assert.equal(table.version, version);
  // The table as entered: its status line and result, its button in the list.
  const who = table.entered_by.name;
  assert.equal(who, "Eva", "the approving judge is the result's author");
  await judge.locator("#table-status").filter({ hasText: `Reported by ${who} at ${venueTime(table.entered_at)}.` }).waitFor();
  assert.deepEqual(await judge.locator("#current-result .result-summary tbody tr td.number:nth-of-type(2)").allInnerTexts(), table.result.players.map((p) => String(value(p.score))));
  assert.deepEqual(table.result.players.map((p) => value(p.score)).sort(), [10, 7, 6, 6].sort());
  assert.match(await judge.locator('#tables button[data-table="2"] .status').innerText(), new RegExp(`^reported by ${who} at \\d\\d:\\d\\d$`));
  assert.equal(await judge.locator('#tables button[data-table="2"] .proposal-waiting').count(), 0);
  const approved = (await tallyd.must(200, "GET", `${tablePath(2)}/proposals`, undefined, { token: judges.Eva.token })).proposals.find((p) => p.id === proposalIds[2]);
  assert.equal(approved.status, "approved");
  assert.equal(approved.decision.reason, "Petr misread the VP cards");
});

test("approving on a stale version: 412 'Already entered by Petr at HH:MM.', a reason refused at its field (422), then approved", async () => {
  const id = proposalIds[3];
  const item = judge.locator(`#proposals [data-proposal="${id}"]`);
  const t3 = sheet.tables.find((x) => x.table === 3);
  // Petr enters table 3 while Eva's approval is on its way: the page sent If-None-Match: *.
  let petr = null;
  await judge.route(`**/proposals/${id}/approve`, async (route) => {
    petr = await tallyd.api("PUT", `${tablePath(3)}/result`, body(t3.players, OTHER_SHEETS), {
      token: judges.Petr.token,
      headers: { "If-None-Match": "*" },
    });
    await route.continue();
  }, { times: 1 });
  const answered = judge.waitForResponse((r) => r.url().endsWith(`/proposals/${id}/approve`));
  await item.getByRole("button", { name: "Approve" }).click();
  const response = await answered;
  assert.equal(response.request().headers()["if-none-match"], "*");
  assert.equal(response.status(), 412);
  assert.equal(petr.status, 201);
  const headline = judge.locator(`#proposals [data-proposal="${id}"] .proposal-conflict .conflict-headline`);
  await headline.waitFor();
  assert.equal(await headline.innerText(), `Already entered by Petr at ${venueTime(petr.body.entered_at)}.`);
  // Petr's entry is shown; the proposal now says what it changes in it and needs a reason.
  assert.deepEqual(
    await judge.locator(`#proposals [data-proposal="${id}"] .proposal-conflict .result-summary tbody bdi`).allInnerTexts(),
    petr.body.result.players.map((p) => nameOf.get(p.player)),
  );
  await item.locator(".proposal-difference").first().waitFor();
  const server = (await pending()).get(3);
  assert.equal(server.replaces_result, true);
  assert.equal(await item.locator(".proposal-difference").count(), server.differences.length);
  await screenshot(judge, "proposals-judge-412", item);

  // The server's refusal of a correction without its reason (the body stripped on its way):
  // shown at the reason.
  await item.getByLabel("Reason").fill("Petr entered the wrong sheet");
  await judge.route(`**/proposals/${id}/approve`, (route) => route.continue({ postData: "{}" }), { times: 1 });
  const refused = judge.waitForResponse((r) => r.url().endsWith(`/proposals/${id}/approve`));
  await item.getByRole("button", { name: "Approve" }).click();
  const refusal = await refused;
  assert.equal(refusal.status(), 422);
  assert.equal(refusal.request().headers()["if-match"], '"1"', "the page read the table as it is now");
  const error = item.locator(".proposal-reason .field-error");
  await error.filter({ hasText: /\S/ }).waitFor();
  assert.equal(await item.getByLabel("Reason").getAttribute("aria-invalid"), "true");

  const approved = judge.waitForResponse((r) => r.url().endsWith(`/proposals/${id}/approve`));
  await item.getByRole("button", { name: "Approve" }).click();
  const done = await approved;
  assert.equal(done.status(), 200);
  const version = (await done.json()).version;
  await judge.locator("#proposals [role=status]").filter({ hasText: `Approved: the result of table 3 is corrected.` }).waitFor();
  await judge.locator("#proposals .proposals-info").filter({ hasText: "No proposal is waiting in round 1." }).waitFor();
});

test("a first result approved: 201, the table shows as entered", async () => {
  // Table 1 tries again after its rejection.
  const again = await propose(1, CATAN_SHEETS);
  const item = judge.locator(`#proposals [data-proposal="${again.proposal.id}"]`);
  await item.waitFor({ timeout: 3000 });
  const answered = judge.waitForResponse((r) => r.url().endsWith(`/proposals/${again.proposal.id}/approve`));
  await item.getByRole("button", { name: "Approve" }).click();
  const response = await answered;
  assert.equal(response.status(), 201);
  assert.equal(response.request().headers()["if-none-match"], "*");
  assert.deepEqual(response.request().postDataJSON(), {});
  const version = (await response.json()).version;
  await judge.locator("#proposals [role=status]").filter({ hasText: `Approved: table 1 is reported.` }).waitFor();
  const table = (await tallyd.must(200, "GET", roundPath)).tables.find((x) => x.table === 1);
  assert.equal(table.status, "reported");
  await judge.locator('#tables button[data-table="1"].reported').waitFor();
  assert.match(await judge.locator('#tables button[data-table="1"] .status').innerText(), new RegExp(`^reported by ${table.entered_by.name} at ${venueTime(table.entered_at)}$`));
});

// ---- the console --------------------------------------------------------------------------------

test("the console: a QR code per table, slips printed with them, its proposals list; the switch turns self-reporting off and on", async () => {
  for (const viewport of [LAPTOP, PHONE]) {
    const context = await openContext(browser, { viewport, ...WATCH });
    const page = await context.newPage();
    await page.goto(`${tallyd.base}/t/${T}/console#selfreport`);
    await page.locator("#token-input").fill(tallyd.organizer());
    await page.locator("#token-form button[type=submit]").click();
    await page.locator("#selfreport").waitFor({ state: "visible" });
    const size = viewport === PHONE ? "phone" : "laptop";
    const toggle = page.getByRole("switch", { name: "Players may propose their tables' results" });
    await page.locator("#selfreport-state").filter({ hasText: "Self-reporting is on." }).waitFor();
    assert.equal(await toggle.isChecked(), true);

    // A QR code per table: the address phones reach (here the console's own) and the key's url.
    await page.locator("#selfreport-keys li.key-card").first().waitFor();
    assert.equal(await page.locator("#selfreport-keys li.key-card").count(), 3);
    for (const key of keys.values()) {
      const card = page.locator(`#selfreport-keys li[data-table="${key.table}"]`);
      const address = `${tallyd.base}${key.url}`;
      assert.equal(await card.getByRole("link").getAttribute("href"), address);
      const expected = encodeQr(address);
      assert.deepEqual(await drawnQr(card.locator("svg"), expected.size), expected.modules, `table ${key.table}'s QR code`);
    }
    // 127.0.0.1: phones cannot follow these codes, and the console says so.
    assert.match(await page.locator("#selfreport-loopback").innerText(), new RegExp(`^These codes use ${tallyd.base.replace(/\./g, "\\.")}, this computer's own address`));

    // A proposal waiting, in the console as on the judge page.
    const waiting = await propose(2, CATAN_SHEETS, `back to the first reading (${size})`);
    const item = page.locator(`#proposals [data-proposal="${waiting.proposal.id}"]`);
    await item.waitFor({ timeout: 3000 });
    await item.locator(".proposal-difference").first().waitFor();
    assert.equal(await scrollsSideways(page), false, `the console scrolls sideways (${size})`);
    assert.deepEqual(await unnamedControls(page), []);
    assert.deepEqual(await lowContrastTexts(page), []);
    await screenshot(page, `proposals-console-${size}`);

    if (viewport === LAPTOP) {
      // Printing: only the slips, each with its table's QR code.
      await page.getByRole("button", { name: "Print slips with QR codes" }).click();
      await page.emulateMedia({ media: "print" });
      assert.equal(await page.locator("#selfreport-slips").isVisible(), true);
      assert.equal(await page.locator(".page").isVisible(), false);
      assert.equal(await page.locator("#selfreport-slips .slip").count(), 3);
      for (const key of keys.values()) {
        const slip = page.locator(`#selfreport-slips .slip[data-table="${key.table}"]`);
        assert.equal(await slip.locator("h3").innerText(), `Self-report open · Round 1 · Table ${key.table}`);
        const expected = encodeQr(`${tallyd.base}${key.url}`);
        assert.deepEqual(await drawnQr(slip.locator(".slip-qr svg"), expected.size), expected.modules, `slip ${key.table}'s QR code`);
        assert.equal(await slip.locator(".slip-qr figcaption").innerText(), "Scan to propose your result");
        const players = sheet.tables.find((x) => x.table === key.table).players;
        assert.deepEqual(await slip.locator("tbody th").allInnerTexts(), players.map((p, i) => `${i + 1}. ${nameOf.get(p)}`));
      }
      await screenshot(page, "proposals-console-print-slips");
      await page.evaluate(() => window.dispatchEvent(new Event("afterprint")));
      await page.emulateMedia({ media: "screen" });
      assert.equal(await page.locator("#selfreport-slips").isVisible(), false, "slips are for paper only");

      // Rejected from the console, with a reason.
      await item.getByLabel("Reason").fill("The first reading stands");
      await item.getByRole("button", { name: "Reject" }).click();
      await page.locator("#proposals [role=status]").filter({ hasText: "Rejected: the proposal of table 2." }).waitFor();
      await item.waitFor({ state: "detached" });

      // Off: the console and the judge page say so; a table's proposal is refused (409).
      await toggle.uncheck();
      await page.locator("#selfreport-state").filter({ hasText: "Self-reporting is off: only judges enter results." }).waitFor();
      assert.equal((await tallyd.must(200, "GET", `/v1/tournaments/${T}`)).self_reporting, false);
      assert.equal(await page.locator("#selfreport-keys-box").isVisible(), false);
      assert.equal(await page.locator("#proposals").isVisible(), false);
      await judge.locator("#proposals .proposals-info").filter({ hasText: "Self-reporting is off: the players do not propose results, the judges enter them." }).waitFor({ timeout: 3000 });
      const refused = await propose(3, CATAN_SHEETS, undefined, 409);
      assert.ok(refused.errors.some((e) => e.rule === "self_reporting.off"), JSON.stringify(refused));
      await screenshot(page, "proposals-console-off");

      // On again.
      await toggle.check();
      await page.locator("#selfreport-state").filter({ hasText: "Self-reporting is on." }).waitFor();
      await page.locator("#selfreport-keys li.key-card").nth(2).waitFor();
      await judge.locator("#proposals .proposals-info").filter({ hasText: "No proposal is waiting in round 1." }).waitFor({ timeout: 3000 });
      assert.equal((await tallyd.must(200, "GET", `/v1/tournaments/${T}`)).self_reporting, true);
    } else {
      await item.getByLabel("Reason").fill("Not now");
      await item.getByRole("button", { name: "Reject" }).click();
      await item.waitFor({ state: "detached" });
    }
    await closeContext(context);
  }
});
