// The pages tallyd serves (client/web), in Debian's headless Chromium against the real tallyd
// (its test build) on a loopback port: judges enter results on the judge page while the venue
// screen, open in another tab, follows live; validation errors at their fields; a table another
// judge entered first (412) and its correction; the forms built from the games' descriptions and
// the server's check shown as the judge types; house picks; the board's reconnection, paging
// and QR code; the public standings with CSV and print; contrast. Screenshots are kept in
// $TALLY_ARTIFACTS.
//
// Environment (set by CMake): TALLYD_TEST (the tallyd-test binary), TALLY_BROWSER_DEPS (where
// install-deps.sh put playwright-core), TALLY_ARTIFACTS, CHROMIUM (default /usr/bin/chromium).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";

import { encodeQr } from "./qr-library.mjs";
import { artifacts, startStack, stopStack } from "./support/stack.mjs";
import { lowContrastTexts, unnamedControls } from "./support/a11y.mjs";
import { boardRows } from "./support/board.mjs";
import { closeContext, openContext } from "./support/contexts.mjs";

const TIMEZONE = "Europe/Prague"; // the venue's clock; the server speaks UTC
const DESK = { width: 1280, height: 900 };
// How the pages are watched (support/contexts.mjs): the answers a test provokes are no errors.
// Every context's visitor has chosen English (the pages' switcher): these tests read the English
// texts, whatever the tournament's locale (languages.test.mjs has the others).
const WATCH = { allowed: [/Failed to load resource: the server responded with a status of (412|422|403)/] };

let stack;
let tallyd;
let browser;
const judges = {}; // name → {id, token}

before(async () => {
  stack = await startStack("tally-pages-");
  ({ tallyd, browser } = stack);
  for (const name of ["Eva", "Petr", "Olga"]) {
    judges[name] = await tallyd.must(201, "POST", "/v1/judges", { name });
  }
});

after(() => stopStack(stack));

// ---- helpers ----------------------------------------------------------------------------------

async function screenshot(page, name) {
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: name !== "board" && !name.startsWith("board-") });
}

// A tournament with players (ids p1, p2, … in the order given) and round 1 drawn.
async function tournament(id, game, names, { locale = "cs", rules, seat = true } = {}) {
  const body = { id, name: `${id} open`, game, locale };
  if (rules) body.rules = rules;
  await tallyd.must(201, "POST", "/v1/tournaments", body);
  const players = [];
  for (const [i, name] of names.entries()) {
    players.push(await tallyd.must(201, "POST", `/v1/tournaments/${id}/players`, { id: `p${i + 1}`, name }));
  }
  const sheet = seat ? await tallyd.must(201, "POST", `/v1/tournaments/${id}/rounds`, { method: "random", seed: 11 }) : null;
  const nameOf = Object.fromEntries(names.map((n, i) => [`p${i + 1}`, n]));
  return { id, sheet, nameOf };
}

// A valid Catan table in seat order: 10, 8, 6, 5 VP (5, 3, 2, 1 round points at a table of 4).
const CATAN_SHEETS = [
  { settlements: 2, cities: 3, vp_cards: 0, knights: 3, roads: 6, longest_road: 4, largest_army: true, longest_road_holder: false },
  { settlements: 3, cities: 1, vp_cards: 1, knights: 1, roads: 10, longest_road: 6, largest_army: false, longest_road_holder: true },
  { settlements: 4, cities: 1, vp_cards: 0, knights: 2, roads: 7, longest_road: 4, largest_army: false, longest_road_holder: false },
  { settlements: 2, cities: 1, vp_cards: 1, knights: 0, roads: 5, longest_road: 3, largest_army: false, longest_road_holder: false },
];
const catanResult = (players, sheets = CATAN_SHEETS) => ({ players: players.map((player, i) => ({ player, ...sheets[i] })) });
const NUMBER_FIELDS = [
  ["settlements", "settlements"],
  ["cities", "cities"],
  ["vp_cards", "VP cards"],
  ["knights", "knights"],
  ["roads", "roads"],
  ["longest_road", "longest road"],
];

// Types a Catan table into the judge page's form, as a judge would.
async function typeCatan(page, names, sheets = CATAN_SHEETS) {
  for (const [i, name] of names.entries()) {
    for (const [field, label] of NUMBER_FIELDS) {
      await page.getByLabel(`${name}: ${label}`, { exact: true }).fill(String(sheets[i][field]));
    }
    if (sheets[i].largest_army) await page.getByLabel(`${name} holds Largest Army`).check();
    if (sheets[i].longest_road_holder) await page.getByLabel(`${name} holds Longest Road`).check();
  }
}

// The judge page of a tournament, signed in with a token typed into its form.
async function judgePage(context, t, token, hash = "") {
  const page = await context.newPage();
  await page.goto(`${tallyd.base}/t/${t}/judge${hash}`);
  await page.getByLabel("Token", { exact: true }).fill(token);
  await page.getByRole("button", { name: "Save the token" }).click();
  await page.locator("#picker").waitFor({ state: "visible" });
  return page;
}

// The body and the answer of the next POST …/result/check the page sends (`when` tells which).
async function nextCheck(page, when = () => true) {
  const response = await page.waitForResponse((r) => r.url().endsWith("/result/check") && when(r.request().postDataJSON()));
  return { body: response.request().postDataJSON(), status: response.status(), answer: await response.json() };
}

// The hint line once the server's check has answered `state` ("ok", "pending", "broken").
async function hintWhen(page, state, hasText) {
  const hint = page.locator(`#form-hint[data-state="${state}"]`);
  await (hasText === undefined ? hint : hint.filter({ hasText })).waitFor();
  return hint.innerText();
}

const computedShown = (page) => page.locator("output[data-computed]").allInnerTexts();

async function chooseTable(page, number) {
  await page.locator(`#tables button[data-table="${number}"]`).click();
  await page.locator("#table-heading").filter({ hasText: `Table ${number}` }).waitFor();
}

// HH:MM of an ISO time on the venue's clock.
function venueTime(iso) {
  return new Intl.DateTimeFormat("en-GB", { timeZone: TIMEZONE, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(iso));
}

// What the board and the public page show per Catan row (catan.md §5: two decimals, percent).
// Given all `rows` (as .map() does), a rank another row shares is written "5="; without them
// (the CSV) the rank is the number.
function catanRowTexts(row, _index, rows) {
  const shared = Boolean(rows) && rows.some((other) => other !== row && other.rank === row.rank);
  const rank = shared ? `${row.rank}=` : String(row.rank);
  return [rank, row.name, String(row.games), row.round_points.value.toFixed(2), String(row.vp), `${(row.vp_share.value * 100).toFixed(2)}%`];
}

// ---- the index ----------------------------------------------------------------------------------

test("the tournaments list links each tournament's standings, venue screen and result entry", async () => {
  await tournament("index-a", "catan", ["Ann", "Ben", "Cid", "Dan"]);
  await tournament("index-b", "carcassonne", ["Eli", "Fay"], { seat: false });
  const context = await openContext(browser, { viewport: DESK, ...WATCH });
  const page = await context.newPage();
  await page.goto(`${tallyd.base}/`);
  const row = page.locator('tr[data-tournament="index-a"]');
  await row.waitFor();
  assert.deepEqual(await row.locator("th, td").allInnerTexts(), ["index-a open", "Catan", "4", "1", "Venue screen · Result entry · Console"]);
  assert.equal(await row.getByRole("link", { name: "index-a open", exact: true }).getAttribute("href"), "/t/index-a");
  assert.equal(await row.getByRole("link", { name: "index-a open: venue screen" }).getAttribute("href"), "/t/index-a/board");
  assert.equal(await row.getByRole("link", { name: "index-a open: result entry" }).getAttribute("href"), "/t/index-a/judge");
  assert.equal(await page.locator('tr[data-tournament="index-b"] td').nth(0).innerText(), "Carcassonne");
  await page.getByRole("link", { name: "index-a open", exact: true }).click();
  await page.waitForURL(`${tallyd.base}/t/index-a`);
  await closeContext(context);
});

// ---- judge page and board ---------------------------------------------------------------------

test("a judge enters a result; the board in a second tab shows the new standings within one second", async () => {
  const names = ["Cyril", "Čeněk", "Hana", "Chrudoš", "Dana", "Ema", "Jana", "Petr"];
  const t = await tournament("brno", "catan", names);
  const table1 = t.sheet.tables[0].players;
  const seatNames = table1.map((p) => t.nameOf[p]);

  const context = await openContext(browser, { viewport: { width: 1920, height: 1080 }, ...WATCH });
  const board = await context.newPage();
  await board.goto(`${tallyd.base}/t/brno/board`);
  await board.locator("#progress-text").filter({ hasText: "0 of 2 tables reported" }).waitFor();
  assert.equal(await board.locator("#tournament-name").innerText(), "brno open");
  assert.equal(await board.locator("#round-heading").innerText(), "Round 1");
  assert.equal(await board.locator("tr.changed").count(), 0, "nothing is lit on the first snapshot");
  assert.equal(await board.locator("#connection").isVisible(), false);

  // The QR code is the public standings' address, drawn module for module.
  const url = `${tallyd.base}/t/brno`;
  assert.equal(await board.locator("#qr-svg").getAttribute("data-text"), url);
  assert.equal(await board.locator("#qr-url").innerText(), url);
  const d = await board.locator("#qr-svg path").getAttribute("d");
  const expected = encodeQr(url);
  const drawn = Array.from({ length: expected.size }, () => new Array(expected.size).fill(false));
  for (const [, x, y] of d.matchAll(/M(\d+),(\d+)h1v1h-1z/g)) drawn[Number(y) - 4][Number(x) - 4] = true;
  assert.deepEqual(drawn, expected.modules);

  // The judge, in a second tab: the table chosen by keyboard, the form typed, the hints checked.
  const judge = await judgePage(context, "brno", judges.Eva.token);
  await judge.locator('#tables button[data-table="1"]').focus();
  await judge.keyboard.press("Enter");
  await judge.locator("#table-heading").filter({ hasText: "Round 1 · Table 1" }).waitFor();
  assert.equal(await judge.locator("#table-status").innerText(), "No result yet.");
  // An empty form: the server's check counts what is left to fill, calmly.
  assert.equal(await hintWhen(judge, "pending"), "24 fields to fill.");
  // The columns are the description's (GET /v1/games), in its order, with its English texts.
  assert.deepEqual(
    await judge.locator(".entry-table thead th").allInnerTexts(),
    ["Player", "Settlements", "Cities", "VP cards", "Knights", "Roads", "Longest road", "Largest Army", "Longest Road", "Claimed the win", "VP on the score sheet", "VP"],
  );
  assert.equal(await judge.locator('.entry-table thead th[data-field="knights"]').getAttribute("data-label-key"), "catan.knights");
  assert.equal(await judge.getByLabel(`${seatNames[0]}: settlements`).getAttribute("max"), "5");
  assert.equal(await judge.getByLabel(`${seatNames[0]}: knights`).getAttribute("max"), null, "the knights' limit is the table's, a rule");
  const lastCheck = nextCheck(judge, (body) => body.players.every((p) => p.longest_road !== undefined) && body.players[1].longest_road_holder);
  await typeCatan(judge, seatNames);
  // The VP and the order are the server's check of exactly what was typed.
  const checked = await lastCheck;
  assert.equal(checked.status, 200);
  assert.deepEqual(checked.body, catanResult(table1));
  assert.equal(
    await hintWhen(judge, "ok"),
    `Every check passes. Order: 1. ${seatNames[0]} (VP 10, round points 5), 2. ${seatNames[1]} (VP 8, round points 3), ` +
      `3. ${seatNames[2]} (VP 6, round points 2), 4. ${seatNames[3]} (VP 5, round points 1).`,
  );
  assert.deepEqual(await computedShown(judge), ["10", "8", "6", "5"]);
  assert.deepEqual(checked.answer.result.players.map((p) => [p.player, p.score, p.place]), table1.map((p, i) => [p, [10, 8, 6, 5][i], String(i + 1)]));
  assert.deepEqual(await unnamedControls(judge), []);
  await screenshot(judge, "judge-form");

  const started = Date.now();
  await judge.getByRole("button", { name: "Save the result" }).click();
  await board.waitForFunction(
    ([winner]) =>
      document.getElementById("progress-text").textContent === "1 of 2 tables reported" &&
      document.querySelector("#standings tbody tr")?.dataset.player === winner,
    [table1[0]],
    { polling: 20, timeout: 5000 },
  );
  const latency = Date.now() - started;
  console.log(`# board updated ${latency} ms after the judge pressed Save`);
  assert.ok(latency < 1000, `the board took ${latency} ms`);

  // The board shows exactly the server's standings; the table's four rows are lit.
  const standings = await tallyd.must(200, "GET", "/v1/tournaments/brno/standings");
  assert.deepEqual(await boardRows(board), standings.rows.map(catanRowTexts));
  assert.deepEqual((await boardRows(board))[0], ["1", seatNames[0], "1", "5.00", "10", "34.48%"]);
  for (const p of table1) assert.equal(await board.locator(`tr[data-player="${p}"]`).getAttribute("class"), "changed", p);
  // The other table's players only moved down: no light. And no arrow: in round 1 there are no
  // previous standings to compare with (the order before it is only the names').
  for (const p of t.sheet.tables[1].players) {
    const row = board.locator(`tr[data-player="${p}"]`);
    assert.equal(await row.getAttribute("class"), null, p);
    assert.equal(await row.locator(".movement").count(), 0, p);
  }
  assert.equal(await board.locator("#waiting-tables").innerText(), "Waiting for table 2");
  assert.equal(await board.locator("#progress-bar").getAttribute("value"), "1");

  await judge.locator("#save-status").filter({ hasText: "Saved: table 1 is reported." }).waitFor();
  assert.match(await judge.locator('#tables button[data-table="1"]').innerText(), /reported by Eva at \d\d:\d\d/);
  assert.equal(await judge.locator("#result-form").isVisible(), false);
  await screenshot(judge, "judge");
  await screenshot(board, "board");
  // Lit briefly: the light goes out by itself.
  await board.locator("#standings tr.changed").first().waitFor({ state: "detached", timeout: 8000 });
  assert.equal(await board.locator("#standings tr.changed").count(), 0);

  // The server has Eva's entry exactly as typed.
  const round = await tallyd.must(200, "GET", "/v1/tournaments/brno/rounds/1");
  assert.equal(round.tables[0].entered_by.name, "Eva");
  assert.deepEqual(round.tables[0].result.players.map((p) => [p.player, p.score]), table1.map((p, i) => [p, [10, 8, 6, 5][i]]));
  await closeContext(context);
});

test("errors are shown next to their field: a player's (C-7) and the whole table's (C-5)", async () => {
  const t = await tournament("rules", "catan", ["Ada", "Bob", "Cleo", "Dirk"]);
  const seated = t.sheet.tables[0].players;
  const names = seated.map((p) => t.nameOf[p]);
  const context = await openContext(browser, { viewport: DESK, ...WATCH });
  const judge = await judgePage(context, "rules", judges.Olga.token, "#round=1&table=1");
  await judge.locator("#result-form").waitFor();

  // Largest Army to the second player (1 knight) although the first has 3; six VP cards in all.
  const wrong = CATAN_SHEETS.map((s) => ({ ...s }));
  wrong[0].largest_army = false;
  wrong[1].largest_army = true;
  wrong[2].vp_cards = 4;
  await typeCatan(judge, names, wrong);
  // Before Save: the server's check marks both rules at their fields, with the rule ids.
  await hintWhen(judge, "broken", "2 rules are broken (see the marked fields).");
  assert.match(await judge.locator(`td[data-player="${seated[1]}"][data-field="largest_army"] .check-hint`).innerText(), /^C-7: /);
  assert.match(await judge.locator('tfoot td[data-field="vp_cards"] .check-hint').innerText(), /^C-5: /);
  assert.equal(await judge.getByLabel(`${names[1]} holds Largest Army`).getAttribute("aria-invalid"), "true");
  assert.equal(await judge.locator("#form-fields .check-hint").count(), 2);
  assert.deepEqual(await computedShown(judge), ["", "", "", ""], "no VP from an entry the server refuses");
  await screenshot(judge, "judge-check-hints");
  await judge.getByRole("button", { name: "Save the result" }).click();
  await judge.locator("#error-summary").waitFor();

  const cell = judge.locator(`td[data-player="${seated[1]}"][data-field="largest_army"]`);
  const error = cell.locator(".field-error");
  assert.match(await error.innerText(), /^C-7: /);
  const radio = judge.getByLabel(`${names[1]} holds Largest Army`);
  assert.equal(await radio.getAttribute("aria-invalid"), "true");
  assert.equal(await radio.getAttribute("aria-describedby"), await error.getAttribute("id"));
  const column = judge.locator('tfoot td[data-field="vp_cards"] .field-error');
  assert.match(await column.innerText(), /^C-5: /);
  // Only those two: every other cell is clean, and the check's hints gave way to the save's errors.
  assert.equal(await judge.locator("#form-fields .field-error").count(), 2);
  assert.equal(await judge.locator("#form-fields .check-hint").count(), 0);
  const summary = await judge.locator("#error-summary li").allInnerTexts();
  assert.equal(summary.length, 2);
  assert.ok(summary.some((s) => s.startsWith(`${names[1]}: C-7: `)), summary.join("\n"));
  assert.ok(await judge.evaluate(() => document.activeElement.id === "error-summary"), "the summary takes the focus");
  await screenshot(judge, "judge-errors");
  // The summary's entry takes the judge to the field, and the page keeps its table in the address.
  await judge.locator("#error-summary li").filter({ hasText: "C-7" }).getByRole("link").click();
  assert.equal(await judge.evaluate(() => document.activeElement.getAttribute("aria-label")), `${names[1]} holds Largest Army`);
  assert.equal(new URL(judge.url()).hash, "#round=1&table=1");

  // Nothing was recorded; corrected values go through and the errors disappear.
  const round = await tallyd.must(200, "GET", "/v1/tournaments/rules/rounds/1");
  assert.equal(round.tables[0].status, "open");
  await typeCatan(judge, names);
  await judge.getByLabel(`${names[0]} holds Largest Army`).check();
  await judge.getByRole("button", { name: "Save the result" }).click();
  await judge.locator("#save-status").filter({ hasText: "Saved: table 1 is reported" }).waitFor();
  assert.equal(await judge.locator(".field-error:visible").count(), 0);
  await closeContext(context);
});

test("the hints follow the last entry typed: a late answer to an older entry never overwrites a newer one", async () => {
  const t = await tournament("race", "catan", ["Ema", "Filip", "Gita", "Hugo"]);
  const seated = t.sheet.tables[0].players;
  const names = seated.map((p) => t.nameOf[p]);
  const context = await openContext(browser, { viewport: DESK, ...WATCH });
  const judge = await judgePage(context, "race", judges.Eva.token, "#round=1&table=1");
  await judge.locator("#result-form").waitFor();
  await typeCatan(judge, names);
  await hintWhen(judge, "ok");

  // The check of 12 knights for the first player is held back by the network until released.
  let release;
  const released = new Promise((resolve) => (release = resolve));
  let held = 0;
  await judge.route("**/result/check", async (route) => {
    if (route.request().postDataJSON().players[0].knights !== 12) return route.continue();
    held++;
    const response = await route.fetch();
    await released;
    await route.fulfill({ response }).catch(() => {}); // the page may have aborted it meanwhile
  });
  const isHeld = (r) => r.url().endsWith("/result/check") && r.postDataJSON().players[0].knights === 12;
  const sent = judge.waitForRequest(isHeld);
  // The page gives up the older check once the entry changes (result-check.js): its request fails.
  const dropped = judge.waitForEvent("requestfailed", isHeld);
  await judge.getByLabel(`${names[0]}: knights`).fill("12");
  await sent;
  // Typed on at once: knights back to 3, and a second VP card for the fourth player (a tie).
  await judge.getByLabel(`${names[0]}: knights`).fill("3");
  await judge.getByLabel(`${names[3]}: VP cards`).fill("2");
  const final =
    `Every check passes. Order: 1. ${names[0]} (VP 10, round points 5), 2. ${names[1]} (VP 8, round points 3), ` +
    `3=. ${names[2]} (VP 6, round points 1.5), 3=. ${names[3]} (VP 6, round points 1.5).`;
  assert.equal(await hintWhen(judge, "ok", "3="), final);
  // The positive signal first: the page aborted the older check (12 knights: C-6 and C-7), so its
  // answer, released now, late, can reach nothing; the page shows what it showed.
  await dropped;
  release();
  assert.equal(held, 1);
  assert.equal(await judge.locator("#form-hint").innerText(), final);
  assert.equal(await judge.locator("#form-fields .check-hint").count(), 0);
  assert.deepEqual(await computedShown(judge), ["10", "8", "6", "6"]);
  await judge.unroute("**/result/check");

  // A rule the whole table breaks, typed: the knights' sum (C-6) under its column, before Save.
  await judge.getByLabel(`${names[1]}: knights`).fill("12");
  assert.equal(await hintWhen(judge, "broken"), "2 rules are broken (see the marked fields).");
  assert.match(await judge.locator('tfoot td[data-field="knights"] .check-hint').innerText(), /^C-6: .*14/);
  assert.match(await judge.locator(`td[data-player="${seated[0]}"][data-field="largest_army"] .check-hint`).innerText(), /^C-7: /);
  assert.deepEqual(await computedShown(judge), ["", "", "", ""]);
  // Typed back: the marks go, the VP come back.
  await judge.getByLabel(`${names[1]}: knights`).fill("1");
  await hintWhen(judge, "ok");
  assert.equal(await judge.locator("#form-fields .check-hint").count(), 0);
  await closeContext(context);
});

test("a table another judge entered first: 412 shown as 'already entered by Eva at HH:MM', then corrected with a reason", async () => {
  const t = await tournament("dispute", "catan", ["Alena", "Boris", "Cecilie", "David"]);
  const seated = t.sheet.tables[0].players;
  const names = seated.map((p) => t.nameOf[p]);
  const context = await openContext(browser, { viewport: DESK, ...WATCH });
  const petr = await judgePage(context, "dispute", judges.Petr.token, "#round=1&table=1");
  await petr.locator("#result-form").waitFor();
  // Petr's sheet: the fourth player has 2 VP cards instead of 1 (and the second none).
  const his = CATAN_SHEETS.map((s) => ({ ...s }));
  his[1].vp_cards = 0;
  his[3].vp_cards = 2;
  await typeCatan(petr, names, his);
  // His VP, as the server's check computes them (the 412 view compares them with hers).
  await hintWhen(petr, "ok");
  assert.deepEqual(await computedShown(petr), ["10", "7", "6", "6"]);

  // Meanwhile Eva enters the table from her phone.
  const eva = await tallyd.api("PUT", "/v1/tournaments/dispute/rounds/1/tables/1/result", catanResult(seated), {
    token: judges.Eva.token,
    headers: { "If-None-Match": "*" },
  });
  assert.equal(eva.status, 201);
  // Petr's page hears of it through the live feed before he saves; his typing stays.
  const meanwhile = `Eva entered this table at ${venueTime(eva.body.entered_at)} meanwhile. Saving will show their entry.`;
  await petr.locator("#table-status").filter({ hasText: meanwhile }).waitFor({ timeout: 3000 });
  assert.equal(await petr.getByLabel(`${names[3]}: VP cards`).inputValue(), "2");

  await petr.getByRole("button", { name: "Save the result" }).click();
  const headline = petr.locator("#conflict-headline");
  await headline.waitFor();
  assert.equal(await headline.innerText(), `Already entered by Eva at ${venueTime(eva.body.entered_at)}.`);
  assert.equal(await petr.locator("#table-status").innerText(), `Reported by Eva at ${venueTime(eva.body.entered_at)}.`);
  // Her entry, as she typed it, with the VP the server computed of it.
  const theirs = await petr.locator("#their-entry tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.innerText)));
  assert.deepEqual(
    theirs.map((r) => [r[0], r[1], r[3], r[11]]),
    names.map((n, i) => [n, String(CATAN_SHEETS[i].settlements), String(CATAN_SHEETS[i].vp_cards), String([10, 8, 6, 5][i])]),
  );
  assert.equal(await petr.locator("#their-entry caption").innerText(), "Eva's entry");
  // What differs from Petr's sheet is marked and said.
  assert.equal(
    await petr.locator("#differences").innerText(),
    `Your values differ: ${names[1]}: VP cards 1 (yours 0); ${names[1]}: VP 8 (yours 7); ${names[3]}: VP cards 1 (yours 2); ${names[3]}: VP 5 (yours 6).`,
  );
  assert.deepEqual(
    await petr.locator("#their-entry td.differs").evaluateAll((tds) => tds.map((td) => [td.parentElement.rowIndex, td.cellIndex])),
    [[2, 3], [2, 11], [4, 3], [4, 11]],
  );
  assert.match(await petr.locator('#tables button[data-table="1"]').innerText(), /reported by Eva/);
  await screenshot(petr, "judge-412");

  // Petr corrects it with his values: a reason is needed.
  await petr.getByRole("button", { name: "Correct it with my values" }).click();
  assert.equal(await petr.locator("#form-heading").innerText(), "Correct the result");
  assert.ok(await petr.evaluate(() => document.activeElement.id === "reason"));
  // The check of a correction needs its reason, as the save does.
  assert.equal(await hintWhen(petr, "pending"), "Say why the result is corrected: the entry is checked once a reason is given.");
  await petr.getByRole("button", { name: "Save the correction" }).click();
  assert.equal(await petr.locator("#reason-error").innerText(), "Say why the result is corrected.");
  const withReason = nextCheck(petr, (body) => body.reason === "VP cards miscounted");
  await petr.getByLabel("Why is the result corrected?").fill("VP cards miscounted");
  assert.equal((await withReason).status, 200);
  await hintWhen(petr, "ok", `1. ${names[0]} (VP 10, round points 5)`);
  assert.deepEqual(await computedShown(petr), ["10", "7", "6", "6"]);
  await petr.getByRole("button", { name: "Save the correction" }).click();
  await petr.locator("#save-status").filter({ hasText: "Corrected: table 1 is reported." }).waitFor();

  const round = await tallyd.must(200, "GET", "/v1/tournaments/dispute/rounds/1");
  assert.equal(round.tables[0].version, 2);
  assert.equal(round.tables[0].entered_by.name, "Petr");
  const audit = await tallyd.must(200, "GET", "/v1/tournaments/dispute/audit?round=1&table=1");
  const results = audit.events.filter((e) => e.type === "catan_result");
  assert.equal(results.length, 2);
  assert.equal(results[1].reason, "VP cards miscounted");
  assert.equal(results[1].supersedes, eva.body.result_seq);
  assert.deepEqual(results[1].payload.players.map((p) => p.vp_cards), [0, 0, 0, 2]);

  // A correction from a stale page is a 412 too ("changed meanwhile").
  await petr.getByRole("button", { name: "Correct this result" }).click();
  await tallyd.must(200, "PUT", "/v1/tournaments/dispute/rounds/1/tables/1/result", { ...catanResult(seated), reason: "back" }, {
    token: judges.Eva.token,
    headers: { "If-Match": '"2"' },
  });
  await petr.getByLabel("Why is the result corrected?").fill("again");
  await petr.getByRole("button", { name: "Save the correction" }).click();
  await headline.waitFor();
  assert.match(await headline.innerText(), /^Changed meanwhile by Eva at \d\d:\d\d\.$/);
  await closeContext(context);
});

test("the token is entered once, kept in the browser, and asked again once revoked", async () => {
  await tournament("tokens", "catan", ["Aa", "Bb", "Cc", "Dd"]);
  const olga = await tallyd.must(201, "POST", "/v1/judges", { name: "Temp" });
  const context = await openContext(browser, { viewport: DESK, ...WATCH });
  context.allowed.push(/status of 401/);
  const page = await context.newPage();
  await page.goto(`${tallyd.base}/t/tokens/judge`);
  await page.getByLabel("Token", { exact: true }).fill("tly_" + "0".repeat(64));
  await page.getByRole("button", { name: "Save the token" }).click();
  await page.locator("#token-error").filter({ hasText: "This token is not valid" }).waitFor();
  assert.equal(await page.getByLabel("Token", { exact: true }).getAttribute("aria-invalid"), "true");

  await page.getByLabel("Token", { exact: true }).fill(olga.token);
  await page.getByRole("button", { name: "Save the token" }).click();
  await page.locator("#picker").waitFor();
  await page.reload();
  await page.locator("#picker").waitFor();
  assert.equal(await page.locator("#token-section").isVisible(), false, "not asked again");

  await tallyd.must(200, "DELETE", `/v1/judges/${olga.id}`);
  await page.reload();
  await page.locator("#token-error").filter({ hasText: "no longer valid" }).waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem("tallyd.token")), null);
  await closeContext(context);
});

// ---- keyboard and labels ------------------------------------------------------------------------

test("by keyboard alone: the token, a table, a Carcassonne result; every control has a name", async () => {
  const t = await tournament("keys", "carcassonne", ["Ivo", "Jan"]);
  const [ivo, jan] = t.sheet.tables[0].players.map((p) => t.nameOf[p]);
  const context = await openContext(browser, { viewport: DESK, ...WATCH });
  const page = await context.newPage();
  await page.goto(`${tallyd.base}/t/keys/judge`);
  const focused = () => page.evaluate(() => document.activeElement.getAttribute("aria-label") || document.activeElement.id);
  await page.locator("#token-input").waitFor();
  assert.equal(await focused(), "token-input", "the token field has the focus");
  assert.deepEqual(await unnamedControls(page), []);
  await page.keyboard.type(judges.Petr.token);
  await page.keyboard.press("Enter");
  // Once the round is shown, the focus is where choosing a table starts.
  await page.waitForFunction(() => document.activeElement.id === "picker-heading");
  await page.keyboard.press("Tab");
  assert.equal(await focused(), "round-select");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.dataset.table), "1");
  await page.keyboard.press("Enter");
  await page.locator("#result-form").waitFor();
  assert.equal(await focused(), "table-heading");
  await page.keyboard.press("Tab");
  assert.equal(await focused(), `${ivo}: final score`);
  await page.keyboard.type("81");
  await page.keyboard.press("Tab");
  assert.equal(await focused(), `${jan}: final score`);
  await page.keyboard.type("64");
  assert.equal(await hintWhen(page, "ok"), `Every check passes. Order: 1. ${ivo} (score 81, points 1), 2. ${jan} (score 64, points 0).`);
  assert.deepEqual(await unnamedControls(page), []);
  await page.keyboard.press("Enter"); // submits the form
  await page.locator("#save-status").filter({ hasText: "Saved: table 1 is reported." }).waitFor();
  const result = (await tallyd.must(200, "GET", "/v1/tournaments/keys/rounds/1")).tables[0].result.players;
  assert.deepEqual(result.map((r) => r.score), [81, 64]);

  // The other pages' controls are named too.
  for (const url of ["/", "/t/keys", "/t/keys/board"]) {
    await page.goto(tallyd.base + url);
    await page.waitForLoadState("networkidle");
    assert.deepEqual(await unnamedControls(page), [], url);
  }
  await closeContext(context);
});

test("on a phone: a card per player in the judge's form, and no page scrolls sideways", async () => {
  const t = await tournament("phone", "catan", ["Jana Nováková", "Ida Veselá", "Čeněk Dvořák", "Eva Králová"]);
  const names = t.sheet.tables[0].players.map((p) => t.nameOf[p]);
  const context = await openContext(browser, { viewport: { width: 390, height: 844 }, ...WATCH });
  const judge = await judgePage(context, "phone", judges.Eva.token, "#round=1&table=1");
  await judge.locator("#result-form").waitFor();
  const wide = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.equal(await wide(judge), 0, "the judge page fits");
  // Each value under its player, with its name beside it.
  const first = await judge.getByLabel(`${names[0]}: settlements`).boundingBox();
  const second = await judge.getByLabel(`${names[0]}: cities`).boundingBox();
  assert.ok(second.y > first.y + first.height - 1 && Math.abs(second.x - first.x) < 2, "one value a line");
  assert.equal(await judge.locator(`td[data-player="${t.sheet.tables[0].players[0]}"][data-field="cities"]`).evaluate((td) => getComputedStyle(td, "::before").content), '"Cities"');
  await typeCatan(judge, names);
  await hintWhen(judge, "ok");
  assert.deepEqual(await computedShown(judge), ["10", "8", "6", "5"]);
  assert.equal(await wide(judge), 0, "the judge page fits with the hints shown");
  await screenshot(judge, "judge-phone");
  // (A click right after a full-page screenshot can miss in Playwright: the button is pressed
  // by keyboard, as on a phone's "Go".)
  await judge.getByRole("button", { name: "Save the result" }).press("Enter");
  await judge.locator("#save-status").filter({ hasText: "Saved: table 1 is reported." }).waitFor();
  for (const [url, name] of [["/", "index"], ["/t/phone", "standings"], ["/t/phone/board", "board"]]) {
    await judge.goto(tallyd.base + url);
    await judge.waitForLoadState("networkidle");
    assert.equal(await wide(judge), 0, url);
    if (name === "board") {
      // The board's viewport hides what overflows: the standings must fit in it.
      const cut = await judge.evaluate(() => {
        const viewport = document.getElementById("standings-viewport");
        return viewport.scrollWidth - viewport.clientWidth;
      });
      assert.ok(cut <= 0, `the board's standings are ${cut} px too wide`);
    }
    await screenshot(judge, `phone-${name}`);
  }
  await closeContext(context);
});

// ---- A Game of Thrones: picks and the result form -------------------------------------------------

test("AGoT: picks in rating order, a refused pick with the accepted houses at the player, a derived winner, the server's game points", async () => {
  const t = await tournament("agot", "agot", ["Arya", "Bran", "Cersei", "Davos", "Euron", "Fennel"]);
  const table = t.sheet.tables[0];
  const context = await openContext(browser, { viewport: DESK, ...WATCH });
  const judge = await judgePage(context, "agot", judges.Eva.token, "#round=1&table=1");
  await judge.locator("#picks-heading").waitFor();
  const order = await judge.locator(".picks-list li").evaluateAll((lis) => lis.map((li) => li.dataset.player));
  assert.deepEqual([...order].sort(), [...table.players].sort());

  const pick = async (player, house) => {
    const item = judge.locator(`.picks-list li[data-player="${player}"]`);
    await item.getByLabel(t.nameOf[player], { exact: true }).selectOption(house);
    await item.getByRole("button", { name: "Record the pick" }).click();
  };
  await pick(order[0], "stark");
  await judge.locator(`.picks-list li[data-player="${order[0]}"]`).filter({ hasText: "picked Stark" }).waitFor();
  // Stark is taken: refused, with the houses that would do, next to that player's choice.
  await pick(order[1], "stark");
  const refusal = judge.locator(`#pick-error-${order[1]}`);
  await refusal.filter({ hasText: "G-1" }).waitFor();
  assert.match(await refusal.innerText(), /^G-1: Stark is already taken at this table by .* \(accepted: Lannister, Baratheon, Greyjoy, Tyrell, or Martell\)$/);
  assert.equal(await judge.locator(`#pick-${order[1]}`).getAttribute("aria-invalid"), "true");
  await screenshot(judge, "judge-agot-picks");
  await pick(order[1], "lannister");
  await judge.locator(`.picks-list li[data-player="${order[1]}"]`).filter({ hasText: "picked Lannister" }).waitFor();
  // Only the organizer assigns the rest.
  await judge.getByRole("button", { name: "Assign the remaining houses (organizer)" }).click();
  await judge.getByText("Only the organizer can assign houses automatically.").waitFor();
  await tallyd.must(201, "POST", "/v1/tournaments/agot/rounds/1/tables/1/picks/auto", {});
  await judge.reload();
  await judge.locator("#result-form").waitFor();
  assert.equal(await judge.locator("#picks").isVisible(), true);

  // The result: places 1–6 in seat order, castles 6…1, the winner captured one capital.
  const sheetTable = (await tallyd.must(200, "GET", "/v1/tournaments/agot/rounds/1")).tables[0];
  const houses = sheetTable.houses;
  const seat = sheetTable.players;
  const castles = [6, 5, 4, 3, 2, 1];
  const held = [2, 1, 1, 0, 0, 1];
  // The form is the description's: the place is a number from 1 to 6, the winner is not asked.
  assert.deepEqual(
    await judge.locator(".entry-table thead th").allInnerTexts(),
    ["Player", "House", "Place", "Castles and strongholds", "Capitals captured", "Capitals held", "Lands captured", "Game points"],
  );
  assert.equal(await judge.getByLabel(`${t.nameOf[seat[0]]}: place`).getAttribute("max"), "6");
  assert.equal(await judge.getByLabel(/winner/i).count(), 0);
  const complete = nextCheck(judge, (body) => body.players.every((p) => p.lands_captured !== undefined) && body.players[0].capitals_captured.length === 1);
  for (const [i, p] of seat.entries()) {
    const name = t.nameOf[p];
    assert.equal(await judge.getByLabel(`${name}: house`).inputValue(), houses[p], "the house comes from the picks");
    await judge.getByLabel(`${name}: place`).fill(String(i + 1));
    await judge.getByLabel(`${name}: castles and strongholds`).fill(String(castles[i]));
    await judge.getByLabel(`${name}: capitals held`).fill(String(held[i]));
    await judge.getByLabel(`${name}: lands captured`).fill(String(i));
  }
  const capital = (player, house) => judge.locator(`td[data-player="${player}"][data-field="capitals_captured"] input[value="${house}"]`);
  const victim = houses[seat[5]];
  await capital(seat[0], victim).check();
  assert.equal(await capital(seat[0], houses[seat[0]]).isDisabled(), true, "not one's own capital (excludes_own)");
  // The winner is derived from the place (place = 1), in the body the page checks and saves.
  const checked = await complete;
  assert.deepEqual(checked.body.players.map((p) => [p.player, p.place, p.winner]), seat.map((p, i) => [p, i + 1, i === 0]));
  assert.equal(checked.status, 200);
  await hintWhen(judge, "ok");
  // What the form shows beside each player is the check's game points, and only those.
  const pointsOf = (result, p) => (result ? String(result.players.find((r) => r.player === p).points.value) : "");
  const shown = seat.map((p) => pointsOf(checked.answer.result, p));
  await judge.waitForFunction((want) => JSON.stringify([...document.querySelectorAll("output[data-computed]")].map((o) => o.textContent)) === JSON.stringify(want), shown);
  assert.deepEqual(await unnamedControls(judge), []);
  await screenshot(judge, "judge-agot");
  // agot.md §3, round 1 (no league bonus): place + castle points + min(3, captured + held).
  const expectedPoints = seat.map((p, i) => [12, 8, 6, 4, 2, 1][i] + [0, 0, 1, 1, 2, 2, 3, 4][castles[i]] + Math.min(3, held[i] + (i === 0 ? 1 : 0)));
  await judge.getByRole("button", { name: "Save the result" }).click();
  await judge.locator("#save-status").filter({ hasText: "Saved: table 1 is reported." }).waitFor();
  const result = (await tallyd.must(200, "GET", "/v1/tournaments/agot/rounds/1")).tables[0].result.players;
  assert.deepEqual(seat.map((p) => result.find((r) => r.player === p).points.value), expectedPoints);
  assert.equal(result[0].player, seat[0]);
  const entered = (await tallyd.must(200, "GET", "/v1/tournaments/agot/audit?round=1&table=1")).events.find((e) => e.type === "agot_result");
  assert.deepEqual(entered.payload.players.map((p) => p.winner), seat.map((p, i) => i === 0), "the winner the page derived");

  // A correction of the same values: the check's game points beside each player are the
  // server's (agot.md §3), as stored.
  await judge.getByRole("button", { name: "Correct this result" }).click();
  await judge.getByLabel("Why is the result corrected?").fill("checking the points");
  await hintWhen(judge, "ok", "1. ");
  assert.deepEqual(await computedShown(judge), expectedPoints.map(String));
  assert.match(await judge.locator("#form-hint").innerText(), new RegExp(`^Every check passes\\. Order: 1\\. ${t.nameOf[seat[0]]} \\(castles 6, game points ${expectedPoints[0]}\\)`));
  await judge.getByRole("button", { name: "Cancel the correction" }).click();

  // The board shows AGoT's columns and the Conqueror, as the server counts them.
  const standings = await tallyd.must(200, "GET", "/v1/tournaments/agot/standings");
  assert.deepEqual(standings.conqueror, [seat[0]]);
  const board = await context.newPage();
  await board.goto(`${tallyd.base}/t/agot/board`);
  await board.locator("#progress-text").filter({ hasText: "1 of 1 tables reported" }).waitFor();
  const headings = await board.locator("#standings thead th").evaluateAll((ths) => ths.map((th) => th.textContent));
  assert.deepEqual(headings, ["#", "Name", "Games", "Total", "Wins", "Capitals", "Next league"]);
  const badge = (p) => (standings.conqueror.includes(p) ? "Conqueror" : "");
  assert.deepEqual(
    await boardRows(board),
    standings.rows.map((r) => [String(r.rank), r.name + badge(r.player), String(r.games), String(r.total.value ?? r.total), String(r.wins), String(r.capitals_captured), r.next_league]),
  );
  await screenshot(board, "board-agot");
  await closeContext(context);
});

// ---- Carcassonne ------------------------------------------------------------------------------------

test("Carcassonne: final scores with the outcome as a hint; a bye needs nothing", async () => {
  const t = await tournament("carc", "carcassonne", ["Anna", "Bruno", "Carla", "Dino", "Elsa"]);
  const [first, , bye] = t.sheet.tables;
  assert.equal(bye.players.length, 1);
  const context = await openContext(browser, { viewport: DESK, ...WATCH });
  const judge = await judgePage(context, "carc", judges.Petr.token, `#round=1&table=${bye.table}`);
  await judge.locator("#table-status").filter({ hasText: "has a bye: nothing to enter." }).waitFor();
  assert.equal(await judge.locator("#result-form").isVisible(), false);

  await chooseTable(judge, first.table);
  const [a, b] = first.players.map((p) => t.nameOf[p]);
  assert.equal(await hintWhen(judge, "pending"), "2 fields to fill.");
  await judge.getByLabel(`${a}: final score`).fill("87");
  assert.equal(await hintWhen(judge, "pending", "1 field"), "1 field to fill.");
  await judge.getByLabel(`${b}: final score`).fill("92");
  // The outcome is the server's: a win, then a draw with its shared place and half points.
  assert.equal(await hintWhen(judge, "ok"), `Every check passes. Order: 1. ${b} (score 92, points 1), 2. ${a} (score 87, points 0).`);
  await judge.getByLabel(`${a}: final score`).fill("92");
  assert.equal(await hintWhen(judge, "ok", "1="), `Every check passes. Order: 1=. ${a} (score 92, points 0.5), 1=. ${b} (score 92, points 0.5).`);
  await judge.getByLabel(`${a}: final score`).fill("95");
  await hintWhen(judge, "ok", `1. ${a} (score 95`);
  await judge.getByRole("button", { name: "Save the result" }).click();
  await judge.locator("#save-status").filter({ hasText: `Saved: table ${first.table} is reported.` }).waitFor();
  const result = (await tallyd.must(200, "GET", "/v1/tournaments/carc/rounds/1")).tables[0].result.players;
  assert.deepEqual(result.map((r) => [r.player, r.score, r.place]), [[first.players[0], 95, "1"], [first.players[1], 92, "2"]]);
  await closeContext(context);
});

// ---- the board alone ----------------------------------------------------------------------------

test("the board shows 'connection lost' while tallyd is down and resumes with since= the last seq", async () => {
  const t = await tournament("live", "catan", ["Ali", "Bea", "Cyd", "Dee"]);
  const context = await openContext(browser, { viewport: { width: 1280, height: 720 }, ...WATCH });
  context.allowed.push(/WebSocket connection to .* failed/, /ERR_CONNECTION_REFUSED/);
  const board = await context.newPage();
  const sockets = [];
  board.on("websocket", (ws) => sockets.push(ws.url()));
  await board.goto(`${tallyd.base}/t/live/board`);
  await board.locator("#progress-text").filter({ hasText: "0 of 1 tables reported" }).waitFor();
  const seq = (await tallyd.must(200, "GET", "/v1/tournaments/live")).seq;

  assert.equal(await tallyd.stop(), 0);
  await board.locator("#connection").filter({ hasText: "Connection lost — reconnecting…" }).waitFor({ timeout: 5000 });
  assert.equal(await board.evaluate(() => document.body.classList.contains("offline")), true);
  await screenshot(board, "board-connection-lost");

  await tallyd.start();
  await board.locator("#connection").waitFor({ state: "hidden", timeout: 20000 });
  assert.equal(sockets[0], `ws://127.0.0.1:${tallyd.port}/v1/tournaments/live/live`);
  assert.ok(sockets.length >= 2);
  assert.ok(
    sockets.slice(1).every((u) => u === `ws://127.0.0.1:${tallyd.port}/v1/tournaments/live/live?since=${seq}`),
    sockets.join("\n"),
  );
  await tallyd.must(201, "PUT", "/v1/tournaments/live/rounds/1/tables/1/result", catanResult(t.sheet.tables[0].players), {
    token: judges.Olga.token,
    headers: { "If-None-Match": "*" },
  });
  await board.locator("#progress-text").filter({ hasText: "1 of 1 tables reported" }).waitFor({ timeout: 2000 });
  assert.equal(await board.locator("#waiting-tables").innerText(), "Round complete");
  assert.equal(await board.locator("#standings tbody tr").first().getAttribute("data-player"), t.sheet.tables[0].players[0]);
  await closeContext(context);
});

test("the board shows standings taller than the screen a page of whole rows at a time, and back to the first; its QR code can name another address", async () => {
  const names = Array.from({ length: 40 }, (_, i) => `Player ${String(i + 1).padStart(2, "0")}`);
  await tournament("big", "catan", names, { seat: false });
  const context = await openContext(browser, { viewport: { width: 1280, height: 720 }, ...WATCH });
  const board = await context.newPage();
  await board.goto(`${tallyd.base}/t/big/board?page=1&public=http://scores.example:8080/`);
  await board.locator('#standings tbody tr[data-player="p40"]').waitFor({ state: "attached" });
  // The QR code names the address phones use, when the screen's own is not that one.
  assert.equal(await board.locator("#qr-svg").getAttribute("data-text"), "http://scores.example:8080/t/big");
  assert.equal(await board.locator("#qr-warning").isVisible(), false);
  assert.equal(await board.locator("#round-heading").innerText(), "No round seated yet");
  // Pages of whole rows (board.test.mjs has them at 1920×1080 for 24 and 120 players).
  const shown = () =>
    board.evaluate(() => {
      const bottom = document.getElementById("standings-viewport").getBoundingClientRect().bottom;
      const rows = [...document.querySelectorAll("#standings tbody tr")].filter((tr) => !tr.hidden);
      return { line: document.getElementById("page-places").textContent, rows: rows.length, whole: rows.every((tr) => tr.getBoundingClientRect().bottom <= bottom + 0.5) };
    });
  await board.waitForFunction(() => document.getElementById("page-places").textContent.startsWith("Places 1–"), null, { timeout: 15000 });
  const first = await shown();
  assert.ok(first.rows < 40, "40 rows do not fit in 720 pixels");
  assert.equal(first.whole, true);
  assert.equal(first.line, `Places 1–${first.rows} of 40`);
  await board.waitForFunction(() => !document.getElementById("page-places").textContent.startsWith("Places 1–"), null, { timeout: 5000 });
  const second = await shown();
  assert.equal(second.line, `Places ${first.rows + 1}–${2 * first.rows} of 40`);
  assert.equal(second.whole, true);
  // The header row stays in view above the rows.
  const header = await board.locator("#standings thead th").first().boundingBox();
  const box = await board.locator("#standings-viewport").boundingBox();
  assert.ok(Math.abs(header.y - box.y) < 2, "the header on top");
  await board.waitForFunction(() => document.getElementById("page-places").textContent.startsWith("Places 1–"), null, { timeout: 15000 });
  await closeContext(context);
});

// ---- public standings -------------------------------------------------------------------------

test("public standings: live, CSV download, pairings by table and by name (Czech order), printable slips", async () => {
  const names = ["Petr", "Chrudoš", "Cyril", "Hana", "Čeněk", "Dana", "Jana", "Ema"];
  const t = await tournament("public", "catan", names);
  const [table1, table2] = t.sheet.tables.map((x) => x.players);
  await tallyd.must(201, "PUT", "/v1/tournaments/public/rounds/1/tables/2/result", catanResult(table2), {
    token: judges.Eva.token,
    headers: { "If-None-Match": "*" },
  });
  const standings = await tallyd.must(200, "GET", "/v1/tournaments/public/standings");

  const context = await openContext(browser, { viewport: DESK, ...WATCH });
  await context.addInitScript(() => {
    window.print = () => {}; // no print dialog in a test; the page's print CSS is what is checked
  });
  const page = await context.newPage();
  let deltas = 0; // standings that came as deltas (docs/api.md, "Standings deltas")
  page.on("websocket", (ws) =>
    ws.on("framereceived", ({ payload }) => {
      if (String(payload).startsWith('{"type":"standings_delta"')) deltas++;
    }),
  );
  await page.goto(`${tallyd.base}/t/public`);
  await page.locator("#standings tbody tr").first().waitFor();
  await page.locator("#pairings-by-table tbody tr").first().waitFor();
  assert.equal(await page.locator("h1").innerText(), "public open");
  const rows = await page.locator("#standings tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.innerText.trim())));
  assert.deepEqual(rows, standings.rows.map(catanRowTexts));

  // The CSV: UTF-8 with a byte-order mark, RFC 4180 lines, the same columns and values.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
  assert.equal(download.suggestedFilename(), "public-standings.csv");
  const csv = readFileSync(await download.path(), "utf8");
  const expectedCsv =
    "\ufeff#,Name,Games,Round points,VP,VP share\r\n" + standings.rows.map((r) => catanRowTexts(r).join(",") + "\r\n").join("");
  assert.equal(csv, expectedCsv);

  // Pairings: by table in seat order; by name in Czech collation (Č after C, Ch after H).
  const byTable = await page.locator("#pairings-by-table tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.innerText)));
  assert.deepEqual(byTable, [
    ["1", table1.map((p) => t.nameOf[p]).join(", ")],
    ["2", table2.map((p) => t.nameOf[p]).join(", ")],
  ]);
  const byName = await page.locator("#pairings-by-name tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.innerText)));
  const tableOf = (name) => String(table1.map((p) => t.nameOf[p]).includes(name) ? 1 : 2);
  const czechOrder = ["Cyril", "Čeněk", "Dana", "Ema", "Hana", "Chrudoš", "Jana", "Petr"];
  assert.deepEqual(byName, czechOrder.map((n) => [n, tableOf(n)]));

  // Printing the slips: only the slips, one per table, every player in seat order.
  await page.getByRole("button", { name: "Print result slips" }).click();
  await page.emulateMedia({ media: "print" });
  assert.equal(await page.evaluate(() => document.body.dataset.print), "slips");
  assert.equal(await page.locator("#slips").isVisible(), true);
  assert.equal(await page.locator("#standings-section").isVisible(), false);
  assert.equal(await page.locator(".site-nav").isVisible(), false);
  assert.equal(await page.locator("#pairings-by-table").isVisible(), false);
  assert.equal(await page.locator(".slip").count(), 2);
  assert.deepEqual(
    await page.locator('.slip[data-table="1"] tbody th').allInnerTexts(),
    table1.map((p, i) => `${i + 1}. ${t.nameOf[p]}`),
  );
  assert.equal(await page.locator('.slip[data-table="1"] h3').innerText(), "public open · Round 1 · Table 1");
  // A box for every field the judge types, as the game's description (GET /v1/games) has them.
  assert.deepEqual(
    await page.locator('.slip[data-table="1"] thead th').allInnerTexts(),
    ["Player (seat order)", "Settlements", "Cities", "VP cards", "Knights", "Roads", "Longest road", "Largest Army ✓", "Longest Road ✓", "Claimed the win ✓", "VP on the score sheet"],
  );
  await screenshot(page, "standings-print-slips");
  await page.evaluate(() => window.dispatchEvent(new Event("afterprint")));
  await page.emulateMedia({ media: "screen" });
  await page.getByRole("button", { name: "Print pairings by name" }).click();
  await page.emulateMedia({ media: "print" });
  assert.equal(await page.locator("#pairings-by-name").isVisible(), true);
  assert.equal(await page.locator("#slips").isVisible(), false);
  assert.equal(await page.locator("#pairings-by-table").isVisible(), false);
  await page.evaluate(() => window.dispatchEvent(new Event("afterprint")));
  await page.emulateMedia({ media: "screen" });
  assert.equal(await page.locator("#slips").isVisible(), false, "slips are for paper only");
  await screenshot(page, "standings");

  // The page follows the live feed: table 1's result moves the standings and the round's count.
  await tallyd.must(201, "PUT", "/v1/tournaments/public/rounds/1/tables/1/result", catanResult(table1), {
    token: judges.Olga.token,
    headers: { "If-None-Match": "*" },
  });
  await page.locator("#round-select option:checked").filter({ hasText: "Round 1 (2 of 2 reported)" }).waitFor({ state: "attached", timeout: 3000 });
  const now = await tallyd.must(200, "GET", "/v1/tournaments/public/standings");
  const everyonePlayed = () => [...document.querySelectorAll("#standings td.games")].every((td) => td.textContent === "1");
  await page.waitForFunction(everyonePlayed, null, { timeout: 3000 });
  const live = await page.locator("#standings tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.innerText.trim())));
  assert.deepEqual(live, now.rows.map(catanRowTexts));

  // A correction after it: its standings come as a delta from what the page holds, which the
  // page's LiveFeed applies to exactly the server's standings.
  const swapped = { ...catanResult(table2, [...CATAN_SHEETS].reverse()), reason: "the sheets of table 2 were swapped" };
  await tallyd.must(200, "PUT", "/v1/tournaments/public/rounds/1/tables/2/result", swapped, {
    token: judges.Olga.token,
    headers: { "If-Match": '"1"' },
  });
  const corrected = (await tallyd.must(200, "GET", "/v1/tournaments/public/standings")).rows.map(catanRowTexts);
  await page.waitForFunction(
    (rows) =>
      JSON.stringify([...document.querySelectorAll("#standings tbody tr")].map((tr) => [...tr.cells].map((c) => c.innerText.trim()))) ===
      JSON.stringify(rows),
    corrected,
    { timeout: 3000 },
  );
  assert.ok(deltas >= 1, "the correction's standings came as a delta");
  await closeContext(context);
});

// ---- accessibility: contrast ------------------------------------------------------------------


test("text contrast is at least 4.5:1 on every page (3:1 for large text)", async () => {
  const t = await tournament("contrast", "catan", ["Ida", "Jan", "Kim", "Lea", "Max", "Nia", "Ota", "Pia"]);
  await tallyd.must(201, "PUT", "/v1/tournaments/contrast/rounds/1/tables/1/result", catanResult(t.sheet.tables[0].players), {
    token: judges.Eva.token,
    headers: { "If-None-Match": "*" },
  });
  const context = await openContext(browser, { viewport: DESK, ...WATCH });
  const page = await context.newPage();
  // Each page once its content is there (the positive signal: its texts to measure are shown,
  // translated, the switcher drawn), not after a pause that may end before it is.
  const shown = {
    "/": '#tournaments tbody tr a[href="/t/contrast"]',
    "/t/contrast": "#standings tbody tr",
    "/t/contrast/board": "#standings tbody tr",
    "/t/contrast/judge": "#token-section:not([hidden])",
  };
  for (const [url, content] of Object.entries(shown)) {
    await page.goto(tallyd.base + url);
    await page.locator(content).first().waitFor({ state: "visible" });
    await page.locator("#languages button").first().waitFor();
    await page.waitForLoadState("networkidle");
    assert.deepEqual(await lowContrastTexts(page), [], url);
  }
  // The judge page with its form and an error shown.
  await page.getByLabel("Token", { exact: true }).fill(judges.Olga.token);
  await page.getByRole("button", { name: "Save the token" }).click();
  await page.locator("#picker").waitFor();
  await chooseTable(page, 1);
  await page.getByRole("button", { name: "Correct this result" }).click();
  await page.getByRole("button", { name: "Save the correction" }).click();
  await page.locator("#error-summary").waitFor();
  assert.deepEqual(await lowContrastTexts(page), [], "judge page with a form and errors");
  await closeContext(context);
});
