// Stages on the pages (issue 42, docs/games/stages.md), in Debian's headless Chromium against the
// real tallyd (its test build): a Carcassonne event of 8 players in two-player games — 2 Swiss
// rounds, a cut of 4, a knockout — set up and played through the API (seating the rounds,
// entering results), its stages started with the console's buttons. The console's Stages section:
// the stages with their state, the refusal while round 2 has a table without a result (S-2, the
// force form), the cut's preview (who is in, the first one out and the criterion that decided,
// named as the standings column is), the knockout's semi-finals previewed and started; the venue
// board's bracket with each winner filled in live as the results arrive and the final seated by
// the server, then "Final standings" and the podium; the players' phone page with a finalist's
// match (round, table, opponent and seed) and then their final place. Screenshots in
// $TALLY_ARTIFACTS as stages-*.png.
//
// Environment (set by CMake): TALLYD_TEST, TALLY_BROWSER_DEPS, TALLY_ARTIFACTS, CHROMIUM.

import assert from "node:assert/strict";
import path from "node:path";
import { after, before, test } from "node:test";

import { artifacts, startStack, stopStack } from "./support/stack.mjs";
import { closeContext, openContext } from "./support/contexts.mjs";
import { boardHasSeen } from "./support/board.mjs";
import { stagedEvent } from "./support/staged.mjs";

const WATCH = { allowed: [/Failed to load resource: the server responded with a status of (409|422)/], timeout: 20000 };
const LAPTOP = { width: 1920, height: 1080 };
const PHONE = { width: 390, height: 844 };
const NAMES = ["Anna Bianchi", "Bruno Conti", "Carla Dini", "Dario Esposito", "Elena Fabbri", "Fabio Galli", "Giulia Rossi", "Hugo Neri"];
// The standings columns' English labels (standings-columns.js): what a cut's decided_by is shown as.
const CRITERIA = {
  wins: "Wins",
  round_points: "Round points",
  buchholz: "Buchholz",
  score_diff: "Score diff.",
  score: "Score",
  name: "the name (the sporting criteria were equal)",
  player: "the player id (the sporting criteria and the names were equal)",
};

let stack;
let tallyd;
let browser;
let judge;
let event;
let organizer; // the organizer's browser (English), with the token kept
let consolePage;
let board;
let boardContext; // the venue screen's browser
let phone; // a phone context
let phonePage;

before(async () => {
  stack = await startStack("tally-stages-");
  ({ tallyd, browser } = stack);
  judge = await tallyd.must(201, "POST", "/v1/judges", { name: "Eva" });
  event = await stagedEvent(tallyd, judge, "cwc", NAMES);
  organizer = await openContext(browser, { viewport: LAPTOP, ...WATCH });
  await organizer.addInitScript((token) => {
    try {
      localStorage.setItem("tallyd.organizer-token", token);
    } catch {
      // a page without storage
    }
  }, tallyd.organizer());
});

after(async () => {
  if (phone) await closeContext(phone);
  if (organizer) await closeContext(organizer);
  await stopStack(stack);
});

const screenshot = (page, name, options = {}) => page.screenshot({ path: path.join(artifacts, `stages-${name}.png`), ...options });

// The stages as the console lists them: [kind, state].
const listed = (page) => page.$$eval("#stages-list li", (items) => items.map((li) => [li.dataset.kind, li.dataset.state]));

test("a tournament without stages has no Stages section in its console", async () => {
  await tallyd.must(201, "POST", "/v1/tournaments", { id: "plain", name: "Plain", game: "carcassonne" });
  const page = await organizer.newPage();
  await page.goto(`${tallyd.base}/t/plain/console`);
  await page.locator("#sections").waitFor({ state: "visible" });
  await page.locator('#sections a[data-section="close"]').waitFor();
  // The section's link is hidden once the tournament has been read (the signed-in line shows then).
  await page.locator("#tournament-info").filter({ hasText: "Plain" }).waitFor();
  assert.equal(await page.locator('#sections a[data-section="stages"]').isHidden(), true);
  await page.close();
});

test("the console: the stages listed, S-2 refused with the force form, the cut previewed and started", async () => {
  await event.playRound(1);
  await event.playRound(2, { except: [4] });
  consolePage = await organizer.newPage();
  await consolePage.goto(`${tallyd.base}/t/cwc/console#stages`);
  await consolePage.locator("#stages").waitFor({ state: "visible" });
  await consolePage.locator('#stages-list li[data-kind="knockout"]').waitFor();
  assert.deepEqual(await listed(consolePage), [
    ["rounds", "playing"],
    ["cut", "pending"],
    ["knockout", "pending"],
  ]);
  assert.equal(await consolePage.locator("#stages-next").innerText(), "Next: stage 2, Cut");

  // Round 2's table 4 has no result: the server refuses (S-2) and the page offers to force.
  await consolePage.locator("#stages-preview").click();
  await consolePage.locator("#stages-force").waitFor({ state: "visible" });
  assert.match(await consolePage.locator("#stages-force-why").innerText(), /not complete|without a result/);
  assert.equal(await consolePage.locator("#stages-start").isHidden(), true, "nothing to start while refused");
  await screenshot(consolePage, "console-refused", { fullPage: true });

  // The last result comes in (answered: the server has it): the preview of the cut. The rounds
  // stage stays "being played" until a later stage starts.
  await event.reportRound(2);
  await consolePage.locator("#stages-preview").click();
  await consolePage.locator("#stages-cut-in li").first().waitFor();
  assert.equal(await consolePage.locator("#stages-force").isHidden(), true);
  const check = await tallyd.must(200, "POST", "/v1/tournaments/cwc/stages/check", {});
  assert.equal(check.kind, "cut");
  assert.deepEqual(
    await consolePage.locator("#stages-cut-in li").allInnerTexts(),
    check.cut.in.map((p) => event.nameOf[p]),
    "who is in, in the server's seed order",
  );
  assert.ok(check.cut.first_out, "someone is out");
  assert.ok(Object.hasOwn(CRITERIA, check.cut.decided_by), `decided_by ${check.cut.decided_by}`);
  assert.equal(
    await consolePage.locator("#stages-first-out").innerText(),
    `First out: ${event.nameOf[check.cut.first_out]}, decided by ${CRITERIA[check.cut.decided_by]}`,
  );
  assert.equal(await consolePage.locator("#stages-start").innerText(), "Start: Cut");
  await screenshot(consolePage, "console-cut-preview", { fullPage: true });

  await consolePage.locator("#stages-start").click();
  await consolePage.locator("#stages-message").filter({ hasText: "Cut: started." }).waitFor();
  await consolePage.locator('#stages-list li[data-kind="cut"][data-state="complete"]').waitFor();
  await consolePage.locator('#stages-list li[data-kind="rounds"][data-state="complete"]').waitFor();
  const standings = await event.standings();
  assert.deepEqual(standings.stages[1].players, check.cut.in, "the cut the server made is the one previewed");
});

test("the console: the knockout's semi-finals previewed and started; the board shows the bracket", async () => {
  await consolePage.locator("#stages-next").filter({ hasText: "Next: stage 3, Knockout" }).waitFor();
  await consolePage.locator("#stages-preview").click();
  await consolePage.locator("#stages-tables li").first().waitFor();
  const check = await tallyd.must(200, "POST", "/v1/tournaments/cwc/stages/check", {});
  const seeded = (p) => `seed ${check.players.indexOf(p) + 1} ${event.nameOf[p]}`;
  assert.deepEqual(
    await consolePage.locator("#stages-tables li .players").allInnerTexts(),
    check.tables.map((table) => table.players.map(seeded).join(" – ")),
  );
  await consolePage.locator("#stages-start").click();
  await consolePage.locator("#stages-message").filter({ hasText: "Knockout: started." }).waitFor();
  await consolePage.locator('#stages-play section[data-kind="knockout"] li.table-card').nth(1).waitFor();
  await screenshot(consolePage, "console-knockout", { fullPage: true });

  boardContext = await openContext(browser, { viewport: LAPTOP, ...WATCH });
  board = await boardContext.newPage();
  await board.goto(`${tallyd.base}/t/cwc/board`);
  await board.locator(".bracket .bracket-round").first().waitFor();
  assert.equal(await board.locator("#standings-viewport").isHidden(), true, "the bracket instead of the standings");
  // The semi-finals seated, the final and the game for 3rd place still to come.
  assert.deepEqual(await board.locator(".bracket-round h3").allInnerTexts(), ["SEMI-FINALS", "FINAL"]);
  assert.equal(await board.locator('.bracket-round[data-round="3"] .bracket-game').count(), 2);
  assert.equal(await board.locator(".bracket-game.placeholder").count(), 2, "the final and the game for 3rd place, to come");
  assert.equal(await board.locator("#round-heading").innerText(), "Knockout · Semi-finals");
  for (const table of check.tables) {
    const names = await board.locator(`.bracket-round[data-round="3"] .bracket-game[data-table="${table.table}"] .stage-name`).allInnerTexts();
    assert.deepEqual(names, table.players.map((p) => event.nameOf[p]));
  }
  await screenshot(board, "board-semi-finals");
});

test("the phone page: a semi-finalist's match — round, table, opponent and seeds", async () => {
  const standings = await event.standings();
  const knockout = standings.stages[2];
  const game = knockout.rounds[0].games[0];
  const [me, opponent] = game.players;
  phone = await openContext(browser, { viewport: PHONE, touch: true, ...WATCH });
  await phone.addInitScript(([id, player]) => {
    try {
      localStorage.setItem(`tallyd.me.${id}`, player);
    } catch {
      // a page without storage (about:blank)
    }
  }, ["cwc", me]);
  phonePage = await phone.newPage();
  await phonePage.goto(`${tallyd.base}/t/cwc`);
  await phonePage.locator("#me-stage").waitFor();
  const text = await phonePage.locator("#me-stage").innerText();
  assert.match(text, /Knockout · Semi-finals/);
  assert.match(text, new RegExp(`Round 3: table ${game.table} · seed ${game.seeds[0]}`));
  assert.match(text, new RegExp(`Against ${event.nameOf[opponent]} \\(seed ${game.seeds[1]}\\)`));
  assert.equal(await phonePage.locator("#me-now").count(), 0, "the match says where the player sits, once");
  await screenshot(phonePage, "phone-semi-final", { fullPage: true });
});

test("the board fills in each winner live, then the final the server seats", async () => {
  const standings = await event.standings();
  const [semi1, semi2] = standings.stages[2].rounds[0].games;
  // Table 1's result: its winner marked, table 2 still open.
  const seq1 = await event.reportRound(3, { except: [semi2.table] });
  await board.locator(`.bracket-game[data-table="${semi1.table}"][data-winner="${semi1.players[0]}"]`).waitFor();
  await boardHasSeen(board, seq1);
  assert.equal(await board.locator(`.bracket-round[data-round="3"] .bracket-game[data-table="${semi2.table}"]`).getAttribute("data-winner"), "");
  assert.deepEqual(
    await board.locator(`.bracket-game[data-table="${semi1.table}"] .stage-player.won .stage-name`).allInnerTexts(),
    [event.nameOf[semi1.players[0]]],
  );
  // The phone's player (semi1's first) won: said so, live.
  await phonePage.locator("#me-stage .me-match.won").filter({ hasText: `Won against ${event.nameOf[semi1.players[1]]}` }).waitFor();

  // Table 2's result completes the round: the server seats the final and the game for 3rd place.
  await event.reportRound(3);
  await board.locator('.bracket-round[data-round="4"] .bracket-game').nth(1).waitFor();
  assert.equal(await board.locator(".bracket-game.placeholder").count(), 0);
  const after = await event.standings();
  const final = after.stages[2].rounds[1].games.find((g) => !g.third_place);
  assert.deepEqual(final.players, [semi1.players[0], semi2.players[0]], "the winners meet in the final");
  assert.equal(await board.locator("#round-heading").innerText(), "Knockout · Final");
  await board.locator(`.bracket-game.third-place .bracket-table`).filter({ hasText: "Game for 3rd place" }).waitFor();
  await phonePage.locator("#me-stage").filter({ hasText: "Knockout · Final" }).waitFor();
  assert.match(await phonePage.locator("#me-stage").innerText(), new RegExp(`Against ${event.nameOf[semi2.players[0]]}`));
  await screenshot(board, "board-final-seated");
  await screenshot(phonePage, "phone-final", { fullPage: true });
});

test("once the knockout is over: final standings with the podium on the board, the final place on the phone", async () => {
  await event.reportRound(4);
  await board.locator("#podium:not([hidden]) .podium-step").first().waitFor();
  const { final } = await event.standings();
  assert.equal(final.length, 8);
  assert.equal(await board.locator("#round-heading").innerText(), "Final standings");
  assert.equal(await board.locator("#stage-view").isHidden(), true);
  const steps = await board.$$eval(".podium-step", (items) => items.map((li) => [li.dataset.rank, li.querySelector(".podium-names").innerText]));
  assert.deepEqual(steps, final.slice(0, 3).map((f) => [String(f.place), f.name]));
  // The rows are the final standings: places 1–8 as the server gives them, with the stage.
  await board.locator("#standings tbody tr").nth(7).waitFor({ state: "attached" });
  const rows = await board.$$eval("#standings tbody tr", (trs) => trs.map((tr) => [tr.cells[0].innerText, tr.cells[1].innerText, tr.cells[2].innerText]));
  assert.deepEqual(rows.map((r) => r[1]), final.map((f) => f.name));
  assert.deepEqual(rows.slice(0, 4).map((r) => r[2]), ["Knockout", "Knockout", "Knockout", "Knockout"]);
  assert.deepEqual(rows.slice(4).map((r) => r[2]), ["Rounds", "Rounds", "Rounds", "Rounds"]);
  await screenshot(board, "board-podium");

  const phoneMe = await phonePage.evaluate(() => localStorage.getItem("tallyd.me.cwc"));
  const place = final.find((f) => f.player === phoneMe).place;
  await phonePage.locator("#me-final").filter({ hasText: `Final place ${place} of 8` }).waitFor();
  assert.equal(await phonePage.locator("#me-stage").count(), 0, "the match is over");
  await screenshot(phonePage, "phone-final-place", { fullPage: true });

  // The console lists every stage complete, the bracket with its winners.
  await consolePage.locator('#stages-list li[data-kind="knockout"][data-state="complete"]').waitFor();
  assert.equal(await consolePage.locator("#stages-form").isHidden(), true, "no stage left to start");
  assert.equal(await consolePage.locator('#stages-play li.table-card.reported').count(), 4);
  await closeContext(boardContext);
});
