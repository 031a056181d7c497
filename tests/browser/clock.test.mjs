// The round clock and the end of the event on the pages (client/web), in Debian's headless
// Chromium against the real tallyd (its test build): the organizer runs a round's clock through
// the API (start, pause, extend with a reason, resume) and the venue board follows it live in
// large mm:ss, ticking on its own; the last ten minutes in the warning colour; "Time!" when the
// time has run out (the screen's own time is moved on, so no test waits a real minute; the
// server's "expired" state is the module's test); a reload shows the same time; a screen whose
// own clock is wrong still shows the server's time; the public page and the judge page show the
// clock small; the judge page takes a token from the organizer's link (#token=…) and leaves it
// neither in the address nor in the history; a round closed as the final one turns the board
// into "Final standings" with a podium of the places the standings give (shared ones too), and
// the public page too. Screenshots (board 1920×1080, phone 390×844) are kept in
// $TALLY_ARTIFACTS as clock-*.png.
//
// Environment (set by CMake): TALLYD_TEST, TALLY_BROWSER_DEPS, TALLY_ARTIFACTS, CHROMIUM.

import assert from "node:assert/strict";
import path from "node:path";
import { after, before, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";

import { clockView, formatRemaining, remainingSeconds, WARNING_SECONDS } from "../../client/web/static/clock.js";
import { artifacts, startStack, stopStack } from "./support/stack.mjs";
import { lowContrastTexts } from "./support/a11y.mjs";
import { closeContext, openContext } from "./support/contexts.mjs";
import { pageTimePasses } from "./support/page-time.mjs";

const BOARD = { width: 1920, height: 1080 };
const PHONE = { width: 390, height: 844 };
const BOARD_WARNING = "rgb(255, 179, 71)"; // board.css --board-clock-warning
const BOARD_OVER = "rgb(255, 107, 107)"; // board.css --board-clock-over

let stack;
let tallyd;
let browser;
let judge;

before(async () => {
  stack = await startStack("tally-clock-");
  ({ tallyd, browser } = stack);
  judge = await tallyd.must(201, "POST", "/v1/judges", { name: "Eva" });
});

after(() => stopStack(stack));

// ---- helpers ----------------------------------------------------------------------------------

const screenshot = (page, name) => page.screenshot({ path: path.join(artifacts, `clock-${name}.png`) });

// A Catan tournament of the given players (p1, p2, …) with round 1 seated.
async function tournament(id, names) {
  await tallyd.must(201, "POST", "/v1/tournaments", { id, name: `${id} open`, game: "catan", locale: "en" });
  for (const [i, name] of names.entries()) {
    await tallyd.must(201, "POST", `/v1/tournaments/${id}/players`, { id: `p${i + 1}`, name });
  }
  return tallyd.must(201, "POST", `/v1/tournaments/${id}/rounds`, { method: "random", seed: 11 });
}

const clockAction = (id, body) => tallyd.must(201, "POST", `/v1/tournaments/${id}/rounds/1/clock`, body);

// The clock as a page shows it: {state, warning, time (the text), seconds (of an mm:ss), badge,
// status, colour}.
async function shownClock(page) {
  return page.locator("#round-clock").evaluate((clock) => {
    if (!clock.querySelector(".round-clock-time")) return { state: "not built yet" };
    const time = clock.querySelector(".round-clock-time").textContent;
    const match = /^(\d+):(\d\d)$/.exec(time);
    const visible = (e) => !e.hidden && e.textContent !== "";
    const badge = clock.querySelector(".round-clock-badge");
    const status = clock.querySelector(".round-clock-status");
    return {
      hidden: clock.hidden,
      state: clock.dataset.state,
      warning: clock.dataset.warning === "true",
      time,
      seconds: match ? Number(match[1]) * 60 + Number(match[2]) : null,
      badge: visible(badge) ? badge.textContent : "",
      status: visible(status) ? status.textContent : "",
      colour: getComputedStyle(clock.querySelector(".round-clock-time")).color,
    };
  });
}

// Waits until the page's clock is in `state` (and `when` holds for it), and answers it.
async function clockWhen(page, state, when = () => true, timeout = 10000) {
  const deadline = Date.now() + timeout;
  let last = null;
  while (Date.now() < deadline) {
    last = await shownClock(page);
    if (last.state === state && when(last)) return last;
    await sleep(100);
  }
  assert.fail(`the clock did not show ${state} within ${timeout} ms; it shows ${JSON.stringify(last)}`);
}

// The seconds the server's clock has left now, by GET …/rounds/1.
async function serverSeconds(id) {
  const round = await tallyd.must(200, "GET", `/v1/tournaments/${id}/rounds/1`);
  return { clock: round.clock, seconds: round.clock.remaining_s };
}


// Nothing of the page is wider than the screen (no sideways scrolling on a phone).
const overflowsSideways = (page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

// ---- the module alone -------------------------------------------------------------------------

test("clock.js: the time left is the server's, corrected for the time since it said it", () => {
  const running = {
    state: "running",
    duration_s: 3600,
    remaining_s: 1800,
    ends_at: "2026-05-02T10:30:00Z",
    server_time: "2026-05-02T10:00:00Z",
    extended_s: 0,
  };
  // The screen's own clock says another day: only the time since receipt counts.
  const received = Date.parse("2031-01-01T00:00:00Z");
  assert.equal(remainingSeconds(running, received, received), 1800);
  assert.equal(remainingSeconds(running, received, received + 61500), 1738.5);
  assert.equal(remainingSeconds(running, received, received + 3 * 3600 * 1000), 0, "never below zero");
  assert.equal(formatRemaining(1800), "30:00");
  assert.equal(formatRemaining(1738.5), "28:59", "whole seconds rounded up");
  assert.equal(formatRemaining(3900), "65:00", "minutes past 59");
  assert.equal(formatRemaining(0.2), "00:01");
  assert.equal(formatRemaining(0), "00:00");

  const view = (clock, after = 0) => clockView(clock, received, received + after);
  assert.deepEqual(view(running), { state: "running", seconds: 1800, time: "30:00", warning: false, extendedMinutes: 0 });
  assert.equal(view(running, (1800 - WARNING_SECONDS) * 1000).warning, true, "the last ten minutes");
  assert.equal(view(running, (1800 - WARNING_SECONDS - 1) * 1000).warning, false);
  assert.equal(view(running, 1800 * 1000).state, "expired", "run out on the screen before the server says so");
  assert.equal(view(running, 1800 * 1000).warning, false, "Time! is not a warning");

  const paused = { ...running, state: "paused", remaining_s: 300, ends_at: null, extended_s: 300 };
  assert.deepEqual(view(paused, 60000), { state: "paused", seconds: 300, time: "05:00", warning: true, extendedMinutes: 5 });
  assert.deepEqual(view({ ...running, state: "expired", remaining_s: 0 }, 0).state, "expired");
  assert.equal(view({ ...running, state: "stopped", remaining_s: 754, ends_at: null }, 9000).time, "12:34");
  assert.equal(view({ ...running, state: "idle", remaining_s: 0, ends_at: null }).state, "hidden");
  assert.equal(view(null).state, "hidden");
  assert.equal(view(undefined).state, "hidden");
});

// ---- the board follows the organizer's clock ----------------------------------------------------

test("the board shows the organizer's clock: running, paused, extended, resumed, and the same after a reload", async () => {
  await tournament("hall", ["Ann", "Ben", "Cid", "Dan"]);
  const context = await openContext(browser, { viewport: BOARD });
  const board = await context.newPage();
  await board.goto(`${tallyd.base}/t/hall/board`);
  await board.locator("#standings tbody tr").first().waitFor();
  assert.equal(await board.locator("#round-clock").isHidden(), true, "no clock before it is started");

  await clockAction("hall", { action: "start", minutes: 60 });
  let shown = await clockWhen(board, "running");
  assert.ok(shown.seconds >= 3598 && shown.seconds <= 3600, `~60:00 after the start: ${shown.time}`);
  assert.equal(shown.warning, false);
  assert.equal(shown.badge, "");
  assert.equal(shown.status, "");
  // It ticks by itself: no message comes from the server while a clock runs.
  const ticked = await clockWhen(board, "running", (c) => c.seconds <= shown.seconds - 2, 5000);
  assert.ok(ticked.seconds >= shown.seconds - 4, `ticks once a second: ${shown.time} → ${ticked.time}`);
  await screenshot(board, "board-running");

  await clockAction("hall", { action: "pause" });
  const paused = await clockWhen(board, "paused", (c) => c.status === "Paused");
  const server = await serverSeconds("hall");
  assert.equal(server.clock.state, "paused");
  assert.ok(Math.abs(paused.seconds - server.seconds) <= 1, `paused at the server's time: ${paused.time} vs ${server.seconds} s`);
  // Two seconds of the board's own timers (a running clock would have ticked twice by then).
  await pageTimePasses(board, 2200);
  assert.equal((await shownClock(board)).time, paused.time, "a paused clock stands still");

  await clockAction("hall", { action: "extend", minutes: 5, reason: "table 2 started late" });
  const extended = await clockWhen(board, "paused", (c) => c.badge === "+5 min");
  assert.equal(extended.seconds, paused.seconds + 300, `~65:00: ${paused.time} + 5 min = ${extended.time}`);
  assert.ok(extended.seconds >= 3890 && extended.seconds <= 3900, extended.time);

  await clockAction("hall", { action: "resume" });
  const resumed = await clockWhen(board, "running", (c) => c.seconds < extended.seconds);
  assert.equal(resumed.badge, "+5 min", "the extension stays marked");
  assert.equal(resumed.status, "");

  // A reload shows the same time: the clock is the log's, not the page's.
  const before = await shownClock(board);
  await board.reload();
  const reloaded = await clockWhen(board, "running");
  assert.ok(Math.abs(reloaded.seconds - before.seconds) <= 2, `after a reload: ${before.time} → ${reloaded.time}`);
  assert.equal(reloaded.badge, "+5 min");
  await closeContext(context);

  // A screen whose own clock is 37 minutes behind shows the server's time all the same.
  const skewed = await openContext(browser, { viewport: BOARD });
  const wrong = await skewed.newPage();
  await wrong.clock.install({ time: Date.now() - 37 * 60 * 1000 });
  await wrong.goto(`${tallyd.base}/t/hall/board`);
  const onWrongScreen = await clockWhen(wrong, "running");
  const truth = await serverSeconds("hall");
  assert.ok(Math.abs(onWrongScreen.seconds - truth.seconds) <= 2, `a screen with a wrong clock: ${onWrongScreen.time} vs ${truth.seconds} s`);
  await closeContext(skewed);
});

test("the last ten minutes in the warning colour, and Time! when they have run out on the screen", async () => {
  await tournament("warning", ["Eli", "Fay", "Gus", "Hal"]);
  await clockAction("warning", { action: "start", minutes: 5 });
  const context = await openContext(browser, { viewport: BOARD });
  const board = await context.newPage();
  await board.clock.install(); // the page's own time, moved on below without waiting for it
  await board.goto(`${tallyd.base}/t/warning/board`);
  const shown = await clockWhen(board, "running");
  assert.ok(shown.seconds >= 298 && shown.seconds <= 300, shown.time);
  assert.equal(shown.warning, true, "inside the last ten minutes");
  assert.equal(shown.colour, BOARD_WARNING);
  assert.deepEqual(await lowContrastTexts(board), [], "the board with the warning colour");
  await screenshot(board, "board-warning");

  // Five minutes later on this screen, with no word from the server: "Time!".
  await board.clock.fastForward(5 * 60 * 1000 + 1000);
  const over = await clockWhen(board, "expired");
  assert.equal(over.time, "Time!");
  assert.equal(over.status, "Time!", "said once to a screen reader");
  assert.equal(over.colour, BOARD_OVER);
  assert.equal(over.warning, false);
  assert.deepEqual(await lowContrastTexts(board), [], "the board with Time!");
  await screenshot(board, "board-time-up");
  await closeContext(context);
});

test("the public page and the judge page show the clock small; the judge page takes the token from the link", async () => {
  await tournament("phones", ["Ivo", "Jan", "Kim", "Lea"]);
  await clockAction("phones", { action: "start", minutes: 45 });
  await clockAction("phones", { action: "extend", minutes: 5, reason: "late start" });
  const context = await openContext(browser, { viewport: PHONE });

  const standings = await context.newPage();
  await standings.goto(`${tallyd.base}/t/phones`);
  const onPhone = await clockWhen(standings, "running");
  assert.ok(onPhone.seconds >= 2995 && onPhone.seconds <= 3000, `~50:00: ${onPhone.time}`);
  assert.equal(onPhone.badge, "+5 min");
  assert.equal(await standings.locator("#round-clock .round-clock-label").innerText(), "Round 1, time left");
  assert.equal(await standings.locator("#standings-heading").innerText(), "Standings");
  assert.equal(await overflowsSideways(standings), false, "the public page on a phone");
  assert.deepEqual(await lowContrastTexts(standings), [], "the public page with the clock");
  await standings.screenshot({ path: path.join(artifacts, "clock-standings-phone.png") });

  // The organizer's link for a new judge: the token in the fragment, never sent but as the
  // Authorization header, and gone from the address once the page has it.
  const token = judge.token;
  const sent = [];
  const judgePage = await context.newPage();
  judgePage.on("request", (r) => sent.push({ url: r.url(), headers: r.headers() }));
  await judgePage.goto(`${tallyd.base}/t/phones/judge#token=${encodeURIComponent(token)}`);
  await judgePage.locator("#picker").waitFor({ state: "visible" });
  assert.equal(await judgePage.locator("#token-section").isHidden(), true, "no token to type");
  assert.equal(judgePage.url(), `${tallyd.base}/t/phones/judge`, "the token left the address");
  assert.equal(await judgePage.evaluate(() => window.location.hash), "");
  assert.equal(await judgePage.evaluate(() => localStorage.getItem("tallyd.token")), token, "kept like a typed token");
  assert.ok(sent.length > 0);
  for (const request of sent) {
    assert.ok(!request.url.includes(token) && !request.url.includes(encodeURIComponent(token)), `no token in ${request.url}`);
    for (const [name, value] of Object.entries(request.headers)) {
      if (name === "authorization") assert.equal(value, `Bearer ${token}`);
      else assert.ok(!value.includes(token), `no token in the ${name} header of ${request.url}`);
    }
  }
  assert.ok(sent.some((r) => r.headers.authorization === `Bearer ${token}`), "the token is used");
  // It works: the tables of round 1 are there to choose.
  assert.equal(await judgePage.locator("#tables button").count(), 1);
  const onJudgePage = await clockWhen(judgePage, "running");
  assert.ok(Math.abs(onJudgePage.seconds - onPhone.seconds) <= 30, onJudgePage.time);
  assert.equal(await judgePage.locator("#round-clock .round-clock-label").innerText(), "Round 1, time left");
  assert.equal(await overflowsSideways(judgePage), false, "the judge page on a phone");
  await judgePage.screenshot({ path: path.join(artifacts, "clock-judge-phone.png") });

  // The history holds no entry with it: back is the blank page the tab opened with, forward
  // the page without the token, where the judge is still signed in.
  await judgePage.goBack();
  assert.equal(judgePage.url(), "about:blank");
  await judgePage.goForward();
  assert.equal(judgePage.url(), `${tallyd.base}/t/phones/judge`);
  await judgePage.locator("#picker").waitFor({ state: "visible" });

  // A link with a token that is not valid: the form says so, and the address is clean too.
  const bad = await (await openContext(browser, { viewport: PHONE })).newPage();
  await bad.goto(`${tallyd.base}/t/phones/judge#token=tly_not-a-token`);
  await bad.locator("#token-error").filter({ hasText: "This token is not valid" }).waitFor();
  assert.equal(bad.url(), `${tallyd.base}/t/phones/judge`);
  assert.equal(await bad.evaluate(() => localStorage.getItem("tallyd.token")), null);
  await bad.context().close(); // its 401 is the one this test provokes
  await closeContext(context);
});

// ---- the end of the event -----------------------------------------------------------------------

const CATAN_SHEETS = [
  { settlements: 2, cities: 3, vp_cards: 0, knights: 3, roads: 6, longest_road: 4, largest_army: true, longest_road_holder: false },
  { settlements: 3, cities: 1, vp_cards: 1, knights: 1, roads: 10, longest_road: 6, largest_army: false, longest_road_holder: true },
  { settlements: 4, cities: 1, vp_cards: 0, knights: 2, roads: 7, longest_road: 4, largest_army: false, longest_road_holder: false },
  { settlements: 2, cities: 1, vp_cards: 1, knights: 0, roads: 5, longest_road: 3, largest_army: false, longest_road_holder: false },
];

test("a round closed as the final one: the board's final standings with a podium, and the public page's", async () => {
  const names = ["Olga", "Pavel", "Quido", "Radka", "Soňa", "Tomáš", "Uršula", "Václav"];
  const sheet = await tournament("finale", names);
  await clockAction("finale", { action: "start", minutes: 90 });
  for (const [t, table] of sheet.tables.entries()) {
    // The second table's winner has one VP card more, so that the two winners do not tie (a tie
    // shares a place: the shared podium is checked below with a replayed feed).
    const result = {
      players: table.players.map((player, i) => ({
        player,
        ...CATAN_SHEETS[i],
        ...(t === 1 && i === 0 ? { vp_cards: CATAN_SHEETS[0].vp_cards + 1 } : {}),
      })),
    };
    await tallyd.must(201, "PUT", `/v1/tournaments/finale/rounds/1/tables/${table.table}/result`, result, {
      token: judge.token,
      headers: { "If-None-Match": "*" },
    });
  }
  const context = await openContext(browser, { viewport: BOARD });
  const board = await context.newPage();
  await board.goto(`${tallyd.base}/t/finale/board`);
  await clockWhen(board, "running");
  const phoneContext = await openContext(browser, { viewport: PHONE });
  const phone = await phoneContext.newPage();
  await phone.goto(`${tallyd.base}/t/finale`);
  await clockWhen(phone, "running");
  assert.equal(await board.locator("#podium").isHidden(), true, "no podium before the end");
  assert.equal(await board.locator("#round-heading").innerText(), "Round 1");

  const closed = await tallyd.must(201, "POST", "/v1/tournaments/finale/rounds/1/close", { final: true });
  assert.equal(closed.final, true);
  await board.locator("#round-heading").filter({ hasText: "Final standings" }).waitFor();
  await board.locator("#podium").waitFor({ state: "visible" });
  assert.equal(await board.locator("#round-clock").isHidden(), true, "a closed round's clock is gone");

  // The podium is the standings' places 1 to 3 as they are, shared places on one step.
  const standings = await tallyd.must(200, "GET", "/v1/tournaments/finale/standings");
  const expected = [];
  for (const row of standings.rows.filter((r) => r.rank <= 3)) {
    const step = expected.find((s) => s.rank === String(row.rank));
    if (step) step.names.push(row.name);
    else expected.push({ rank: String(row.rank), names: [row.name] });
  }
  assert.equal(expected.length, 3);
  const podium = await board.locator("#podium-steps > li").evaluateAll((steps) =>
    steps.map((li) => ({ rank: li.dataset.rank, names: [...li.querySelectorAll(".podium-name")].map((n) => n.textContent) })),
  );
  assert.deepEqual(podium, expected);
  assert.equal(await board.locator("#podium-steps > li").first().locator(".visually-hidden").innerText(), "Place 1:");
  // Read from afar: the winners' names large.
  const nameSize = await board.locator("#podium .podium-name").first().evaluate((n) => parseFloat(getComputedStyle(n).fontSize));
  assert.ok(nameSize >= 60, `the winners' names are ${nameSize} px high on a 1920 px screen`);
  assert.deepEqual(await lowContrastTexts(board), [], "the final board");
  await screenshot(board, "board-final");

  await phone.locator("#standings-heading").filter({ hasText: "Final standings" }).waitFor();
  assert.equal(await phone.locator("#round-clock").isHidden(), true);
  assert.equal(await overflowsSideways(phone), false);
  await phone.screenshot({ path: path.join(artifacts, "clock-standings-final-phone.png") });
  // A page opened after the end says it from the start.
  await phone.reload();
  await phone.locator("#standings-heading").filter({ hasText: "Final standings" }).waitFor();
  await closeContext(phoneContext);

  // Shared places: no game of tallyd's shares a rank today, so the live feed is played by the
  // test here, with the standings' rows ranked 1, 1, 3, 3, 5, …: the board takes the ranks as
  // they come, two steps of two names each, and no third step.
  const shared = standings.rows.map((row, i) => ({ ...row, rank: i - (i % 2) + 1 }));
  const feedPlayed = await context.newPage();
  await feedPlayed.routeWebSocket(/\/live/, (ws) => {
    const round = { round: 1, reported: 2, tables_total: 2, closed: true, final: true, clock: null };
    ws.send(JSON.stringify({ type: "snapshot", seq: standings.seq, standings: { ...standings, rows: shared }, round }));
  });
  await feedPlayed.goto(`${tallyd.base}/t/finale/board`);
  await feedPlayed.locator("#podium").waitFor({ state: "visible" });
  const sharedPodium = await feedPlayed.locator("#podium-steps > li").evaluateAll((steps) =>
    steps.map((li) => ({ rank: li.dataset.rank, names: [...li.querySelectorAll(".podium-name")].map((n) => n.textContent) })),
  );
  assert.deepEqual(sharedPodium, [
    { rank: "1", names: [shared[0].name, shared[1].name] },
    { rank: "3", names: [shared[2].name, shared[3].name] },
  ]);
  await screenshot(feedPlayed, "board-final-shared");
  await closeContext(context);
});
