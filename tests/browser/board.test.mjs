// The venue board (client/web/board.html) for fields of 24 to 1,000 players, in Debian's
// headless Chromium against the real tallyd (its test build), on a 1920×1080 screen: pages of
// whole rows only (every row shown ends inside the list), "Places 9–16 of 24" and a dot per
// page, the pages in turn and back to the first; shared ranks written "3="; the movement arrows
// against the previous round's final standings (none in round 1); rows lit only when few changed;
// a warning on the board when its QR code names a loopback address (none with ?public=); a
// 200-character unbroken name that leaves every column on the screen. The pure parts (pages,
// their times, loopback addresses) are tested without a browser. Screenshots of the boards of 24
// and 120 players are kept in $TALLY_ARTIFACTS as 21-board-*.png.
//
// Environment (set by CMake): TALLYD_TEST, TALLY_BROWSER_DEPS, TALLY_ARTIFACTS, CHROMIUM.

import assert from "node:assert/strict";
import path from "node:path";
import { after, before, test } from "node:test";

import { fullRows, pageSeconds, paginate, placesOf } from "../../client/web/static/board-paging.js";
import { isLoopbackHost } from "../../client/web/static/loopback.js";
import { CATAN_SHEETS, catanField } from "./support/field.mjs";
import { artifacts, startStack, stopStack } from "./support/stack.mjs";
import { closeContext, openContext } from "./support/contexts.mjs";

const BOARD = { width: 1920, height: 1080 };

let stack;
let tallyd;
let browser;
let judge;
const fields = {}; // players → the field (support/field.mjs)

before(async () => {
  stack = await startStack("tally-board-");
  ({ tallyd, browser } = stack);
  judge = await tallyd.must(201, "POST", "/v1/judges", { name: "Eva" });
  for (const count of [24, 120]) fields[count] = await catanField(tallyd, judge, `board${count}`, count);
});

after(() => stopStack(stack));

// ---- helpers ----------------------------------------------------------------------------------

async function openBoard(context, id, query = "") {
  const page = await context.newPage();
  await page.goto(`${tallyd.base}/t/${id}/board${query}`);
  await page.locator("#standings tbody tr").first().waitFor();
  await page.waitForFunction(() => document.getElementById("page-places").textContent !== ""); // the rows are paged
  return page;
}

// What the board shows now: the page line, the dots, and the rows shown with where they end
// against the bottom of the list (the standings' viewport).
function shownPage(page) {
  return page.evaluate(() => {
    const viewport = document.getElementById("standings-viewport").getBoundingClientRect();
    const rows = [...document.querySelectorAll("#standings tbody tr")].filter((tr) => !tr.hidden);
    return {
      line: document.getElementById("page-places").textContent,
      pagerShown: getComputedStyle(document.getElementById("pager")).visibility === "visible",
      dots: document.querySelectorAll("#page-dots .page-dot").length,
      current: [...document.querySelectorAll("#page-dots .page-dot")].findIndex((d) => d.classList.contains("current")),
      players: rows.map((tr) => tr.dataset.player),
      bottoms: rows.map((tr) => tr.getBoundingClientRect().bottom),
      listBottom: viewport.bottom,
      ranks: rows.map((tr) => tr.querySelector("td.rank").lastChild.textContent),
    };
  });
}

// The rows shown are whole: each ends inside the list.
function assertWholeRows(shown, what) {
  assert.ok(shown.players.length > 0, `${what}: rows are shown`);
  for (const [i, bottom] of shown.bottoms.entries()) {
    assert.ok(bottom <= shown.listBottom + 0.5, `${what}: row ${i + 1} ends at ${bottom}, below the list's bottom ${shown.listBottom}`);
  }
}

// ---- the pure parts -----------------------------------------------------------------------------

test("board-paging.js: pages of whole rows, their times in proportion, the page line's numbers", () => {
  assert.deepEqual(paginate([], 500), []);
  assert.deepEqual(paginate([100, 100, 100, 100, 100], 300), [
    { first: 0, last: 2 },
    { first: 3, last: 4 },
  ]);
  // A two-line row that does not fit whole starts the next page; one taller than a page has its own.
  assert.deepEqual(paginate([100, 100, 150, 100, 400, 50], 300), [
    { first: 0, last: 1 },
    { first: 2, last: 3 },
    { first: 4, last: 4 },
    { first: 5, last: 5 },
  ]);
  const pages = paginate(new Array(24).fill(90), 730); // 8 a page
  assert.equal(pages.length, 3);
  assert.deepEqual(placesOf(pages[1], 24), { first: 9, last: 16, total: 24 });
  assert.equal(fullRows(paginate(new Array(20).fill(90), 730)), 8);
  const last = paginate(new Array(20).fill(90), 730)[2]; // rows 17–20: 4 rows
  assert.equal(pageSeconds(pages[0], 8, 10), 10, "a full page: the whole time");
  assert.equal(pageSeconds(last, 8, 10), 5, "half a page: half the time");
  assert.equal(pageSeconds({ first: 0, last: 0 }, 8, 10), 3, "never less than 3 s");
  assert.equal(pageSeconds({ first: 0, last: 0 }, 8, 1), 1, "nor more than the full page's time");
});

test("loopback.js: which addresses a phone cannot use", () => {
  for (const host of ["127.0.0.1", "127.1.2.3", "localhost", "LOCALHOST", "board.localhost", "[::1]", "::1", "[::ffff:7f00:1]", "localhost."]) {
    assert.equal(isLoopbackHost(host), true, host);
  }
  for (const host of ["192.168.1.20", "10.0.0.1", "scores.example", "[fe80::1]", "128.0.0.1", "localhost.example", ""]) {
    assert.equal(isLoopbackHost(host), false, host);
  }
});

// ---- pages of whole rows ----------------------------------------------------------------------

for (const count of [24, 120]) {
  test(`${count} players on 1920×1080: whole rows only, "Places X–Y of ${count}" and a dot a page, every page in turn`, async () => {
    const field = fields[count];
    const standings = await tallyd.must(200, "GET", `/v1/tournaments/${field.id}/standings`);
    const context = await openContext(browser, { viewport: BOARD });
    const board = await openBoard(context, field.id, "?page=2");
    const onFirstPage = () => board.waitForFunction(() => document.getElementById("page-places").textContent.startsWith("Places 1–"), null, { timeout: 60000 });

    // Every page once, from the first back to it: whole rows, the line says which, the dot moves.
    await onFirstPage();
    const seen = [];
    let shown = await shownPage(board);
    const pages = shown.dots;
    assert.ok(pages >= 2, `${count} rows take more than one page (${pages})`);
    assert.equal(shown.pagerShown, true);
    for (let i = 0; i < pages; i++) {
      assertWholeRows(shown, `page ${i + 1}`);
      assert.equal(shown.dots, pages, "the dots stay one a page");
      const first = seen.reduce((n, s) => n + s.players.length, 0) + 1;
      const last = first + shown.players.length - 1;
      assert.equal(shown.line, `Places ${first}–${last} of ${count}`);
      assert.equal(shown.current, seen.length, "the current page's dot");
      assert.deepEqual(shown.players, standings.rows.slice(first - 1, last).map((r) => r.player), "the places as the server ranks them");
      seen.push(shown);
      const line = shown.line;
      await board.waitForFunction((before) => document.getElementById("page-places").textContent !== before, line, { timeout: 5000 });
      shown = await shownPage(board);
    }
    assert.equal(seen.reduce((n, s) => n + s.players.length, 0), count, "the pages show every row once");
    assert.equal(shown.line, seen[0].line, "after the last page, the first again");
    await board.screenshot({ path: path.join(artifacts, `21-board-${count}.png`) });
    // Full pages are alike; the last may be shorter.
    for (const s of seen.slice(0, -1)) assert.equal(s.players.length, seen[0].players.length);
    if (count > 48) assert.equal(await board.evaluate(() => document.body.classList.contains("dense")), true, "a big field's rows are smaller");
    // The names are read from afar: at least 36 px high.
    const size = await board.locator("#standings td.name").first().evaluate((td) => parseFloat(getComputedStyle(td).fontSize));
    assert.ok(size >= 36, `the names are ${size} px`);
    await closeContext(context);
  });
}

test("a 200-character unbroken name wraps on the board and leaves every column on the screen", async () => {
  const long = "W".repeat(200);
  await tallyd.must(201, "POST", "/v1/tournaments", { id: "longname", name: "longname open", game: "catan", locale: "en" });
  for (const [i, name] of [long, "Ann", "Ben", "Cid"].entries()) {
    await tallyd.must(201, "POST", "/v1/tournaments/longname/players", { id: `p${i + 1}`, name });
  }
  const context = await openContext(browser, { viewport: BOARD });
  const board = await openBoard(context, "longname");
  const layout = await board.evaluate(() => {
    const right = document.getElementById("standings-viewport").getBoundingClientRect().right;
    const cells = [...document.querySelectorAll("#standings th, #standings td")].map((c) => c.getBoundingClientRect().right);
    const name = document.querySelector('#standings tr[data-player="p1"] td.name');
    const line = parseFloat(getComputedStyle(name).lineHeight);
    return { right, widest: Math.max(...cells), nameHeight: name.querySelector(".name-line").getBoundingClientRect().height, line };
  });
  assert.ok(layout.widest <= layout.right + 0.5, `a cell ends at ${layout.widest}, past the list's right edge ${layout.right}`);
  assert.ok(layout.nameHeight <= 2 * layout.line + 1, `the name takes ${layout.nameHeight} px: two lines at most`);
  assert.equal(await board.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth), true);
  assertWholeRows(await shownPage(board), "with the long name");
  await board.screenshot({ path: path.join(artifacts, "21-board-long-name.png") });
  await closeContext(context);
});

// ---- ranks and movement -------------------------------------------------------------------------

test('shared ranks are written "3=" on the board and on the phone page, as the server gives them', async () => {
  const field = fields[24];
  const standings = await tallyd.must(200, "GET", `/v1/tournaments/${field.id}/standings`);
  // The live feed played by the test: rows 3 and 4 share rank 3 (the server decides ties; the
  // pages show them).
  const rows = standings.rows.map((row, i) => ({ ...row, rank: i === 3 ? 3 : i + 1 }));
  const round = { round: 2, reported: 1, tables_total: 6, closed: false, final: false, clock: null };
  const context = await openContext(browser, { viewport: BOARD });
  for (const [url, viewport] of [
    [`/t/${field.id}/board`, BOARD],
    [`/t/${field.id}`, { width: 390, height: 844 }],
  ]) {
    const page = await context.newPage();
    await page.setViewportSize(viewport);
    await page.routeWebSocket(/\/live/, (ws) => ws.send(JSON.stringify({ type: "snapshot", seq: standings.seq, standings: { ...standings, rows }, round })));
    await page.goto(tallyd.base + url);
    await page.locator("#standings tbody tr").nth(4).waitFor({ state: "attached" });
    const ranks = await page.locator("#standings tbody td.rank").evaluateAll((tds) => tds.slice(0, 5).map((td) => td.lastChild.textContent));
    assert.deepEqual(ranks, ["1", "2", "3=", "3=", "5"], url);
    await page.close();
  }
  await closeContext(context);
});

test("movement arrows compare with the previous round's final standings; none in round 1", async () => {
  const field = fields[24];
  const sheet = await tallyd.must(200, "GET", `/v1/tournaments/${field.id}/rounds/2`);
  const before = await tallyd.must(200, "GET", `/v1/tournaments/${field.id}/standings?as_of=${sheet.seating_seq - 1}`);
  const now = await tallyd.must(200, "GET", `/v1/tournaments/${field.id}/standings`);
  const rankBefore = new Map(before.rows.map((r) => [r.player, r.rank]));
  const context = await openContext(browser, { viewport: BOARD });
  const board = await openBoard(context, field.id, "?page=600");
  await board.locator("#standings .movement").first().waitFor();
  const shown = await board.locator("#standings tbody tr:not([hidden])").evaluateAll((trs) =>
    trs.map((tr) => ({ player: tr.dataset.player, arrow: tr.querySelector(".movement")?.textContent || "" })),
  );
  assert.ok(shown.length >= 6);
  for (const { player, arrow } of shown) {
    const rank = now.rows.find((r) => r.player === player).rank;
    const was = rankBefore.get(player);
    assert.equal(arrow, rank < was ? "▲" : rank > was ? "▼" : "", `${player}: ${was} → ${rank}`);
  }
  // The arrows are not against the alphabetical start of round 1: someone who won in round 1
  // and has not played round 2 yet went down from a winner's place, not from their name's.
  assert.ok(shown.some((s) => s.arrow === "▼"));

  // Round 1 of another tournament: results move rows, but nothing is compared with a start that
  // is only the order of the names.
  const fresh = await catanFieldRound1("arrows1");
  const first = await openBoard(context, "arrows1");
  await tallyd.must(201, "PUT", "/v1/tournaments/arrows1/rounds/1/tables/1/result", fresh, { token: judge.token, headers: { "If-None-Match": "*" } });
  await first.locator("#progress-text").filter({ hasText: "1 of 2 tables reported" }).waitFor();
  // The positive signal first: the rows show round 1's arrows as the board decided them (a
  // baseline it fetched would be in them by now). Then there are none.
  await first.locator('#standings[data-arrows-round="1"]').waitFor({ state: "attached" });
  assert.equal(await first.locator("#standings .movement").count(), 0, "no arrows in round 1");
  await closeContext(context);
});

// A Catan tournament of 8 players with round 1 seated: the body of table 1's result.
async function catanFieldRound1(id) {
  await tallyd.must(201, "POST", "/v1/tournaments", { id, name: `${id} open`, game: "catan", locale: "en" });
  for (const [i, name] of ["Zoe", "Yan", "Xia", "Wim", "Val", "Uma", "Tom", "Sid"].entries()) {
    await tallyd.must(201, "POST", `/v1/tournaments/${id}/players`, { id: `p${i + 1}`, name });
  }
  const sheet = await tallyd.must(201, "POST", `/v1/tournaments/${id}/rounds`, { method: "random", seed: 5 });
  return { players: sheet.tables[0].players.map((player, i) => ({ player, ...CATAN_SHEETS[i] })) };
}

test("rows are lit when few changed (a table's result), none when many did at once", async () => {
  const field = fields[24];
  const context = await openContext(browser, { viewport: BOARD });
  const board = await openBoard(context, field.id, "?page=600");
  const open = field.round2.tables.filter((table) => table.status !== "reported");
  const report = (table) =>
    tallyd.must(201, "PUT", `/v1/tournaments/${field.id}/rounds/2/tables/${table.table}/result`, {
      players: table.players.map((player, i) => ({ player, ...CATAN_SHEETS[i] })),
    }, { token: judge.token, headers: { "If-None-Match": "*" } });
  const progress = (n) => board.locator("#progress-text").filter({ hasText: `${n} of 6 tables reported` }).waitFor();
  assert.equal(await board.locator("#standings tr.changed").count(), 0, "nothing lit at first");

  await report(open[0]);
  await progress(2);
  const lit = await board.locator("#standings tr.changed").evaluateAll((trs) => trs.map((tr) => tr.dataset.player).sort());
  assert.deepEqual(lit, [...open[0].players].sort(), "the four players of the table");

  // Two more tables within the light's six seconds: twelve rows changed, the light means nothing.
  await report(open[1]);
  await report(open[2]);
  await progress(4);
  assert.equal(await board.locator("#standings tr.changed").count(), 0, "too many rows changed: none is lit");
  await closeContext(context);
});

// ---- the QR code's address --------------------------------------------------------------------

test("a warning when the QR code names a loopback address, none with ?public= a LAN address", async () => {
  const field = fields[24];
  const context = await openContext(browser, { viewport: BOARD });
  const board = await openBoard(context, field.id);
  const warning = board.locator("#qr-warning");
  assert.equal(await warning.isVisible(), true, "at 127.0.0.1");
  const text = await warning.innerText();
  assert.match(text, /The QR code points at 127\.0\.0\.1, which phones cannot reach\./);
  assert.ok(text.includes(`?public=http://<LAN address>:${tallyd.port}`), text);
  assertWholeRows(await shownPage(board), "with the warning");

  const local = await context.newPage();
  await local.goto(`http://localhost:${tallyd.port}/t/${field.id}/board`);
  await local.locator("#standings tbody tr").first().waitFor();
  assert.equal(await local.locator("#qr-warning").isVisible(), true, "at localhost");
  assert.match(await local.locator("#qr-warning").innerText(), /points at localhost/);

  const lan = await openBoard(context, field.id, "?public=http://192.168.1.20:8080");
  assert.equal(await lan.locator("#qr-svg").getAttribute("data-text"), `http://192.168.1.20:8080/t/${field.id}`);
  assert.equal(await lan.locator("#qr-warning").isVisible(), false, "with ?public=http://192.168.1.20:8080");
  await closeContext(context);
});
