// Every page under the longest realistic content (issue 38): a 60-character tournament name in
// Czech, Italian, Russian and English, 120- and 180-minute clocks, three-digit table numbers,
// 40-character names with diacritics, 1,000 players, AGoT's seven columns — at 1920×1080,
// 1366×768, 390×844 and 360×740. On every page and screen: nothing overflows its box or the
// viewport sideways, no word is broken inside (a title shrinks or is cut with "…"); the board
// shows at least 8 whole rows below its header at 1920×1080; a console tab on a phone opens its
// section on the first screen, its heading under the tabs, never behind them. Staged events
// (issue 42) in each language — a knockout's semi-finals with a winner in, its final seated, its
// podium, Catan's four final tables — on the board and a finalist's phone page, the same checks.
// Screenshots in $TALLY_ARTIFACTS as layout-*.png.
//
// Environment (set by CMake): TALLYD_TEST, TALLY_BROWSER_DEPS, TALLY_ARTIFACTS, CHROMIUM.

import assert from "node:assert/strict";
import path from "node:path";
import { after, before, test } from "node:test";

import { artifacts, startStack, stopStack } from "./support/stack.mjs";
import { closeContext, openContext } from "./support/contexts.mjs";
import { stagedEvent } from "./support/staged.mjs";

const SCREENS = {
  "1920x1080": { width: 1920, height: 1080 },
  "1366x768": { width: 1366, height: 768 },
  "390x844": { width: 390, height: 844 },
  "360x740": { width: 360, height: 740 },
};
const PHONES = ["390x844", "360x740"];
// What phones reach the server at (a venue's LAN): the board's QR code names it.
const PUBLIC = "http://192.168.100.200:18080";

// Words of the names, with their diacritics, per language; each name is about 40 characters.
const WORDS = {
  cs: ["Přemysl", "Šťastný", "Kratochvílová", "Dvořáčková", "Žaneta", "Řehoř", "Čeňková", "Ludmila", "Hořejší", "Blažena", "Ďurišová", "Ťoupalík"],
  it: ["Giancarlo", "Niccolò", "Dell'Acqua", "Santangelo", "Maria", "Pierluigi", "Accardi", "Benedetta", "Caffè", "Lucrezia", "Ferraù", "Tommasò"],
  ru: ["Святослав", "Всеволодович", "Преображенская", "Ёлкина", "Василиса", "Ярослав", "Пётр", "Лебедев", "Щербакова", "Евгений", "Жуковский", "Аполлинария"],
  en: ["Bartholomew", "Fitzgerald-Whitmore", "Ælfric", "Zoë", "Chloé", "Montgomery", "Seán", "O'Sullivan", "Renée", "Pennington", "Björn", "Ashworth"],
};

// `count` different names of some 40 characters (at most 40), from the language's words.
function names(lang, count) {
  const words = WORDS[lang];
  const out = [];
  for (let i = 0; out.length < count; i++) {
    let name = "";
    for (let k = 0; ; k++) {
      const word = words[(i * 7 + k * 5 + Math.floor(i / words.length)) % words.length];
      if ((name + " " + word).trim().length > 36) break;
      name = (name + " " + word).trim();
    }
    out.push(`${name} ${i + 1}`.slice(0, 40));
  }
  return out;
}

// The tournaments: 60-character names, one per language and game.
const TOURNAMENTS = [
  { id: "ru-agot", game: "agot", locale: "ru", name: "Открытый Кубок Москвы по Игре престолов имени Петра Лебедева", players: 13, minutes: 120 },
  { id: "it-carc", game: "carcassonne", locale: "it", name: "Torneo Nazionale di Carcassonne della Città di Reggio Emilia", players: 24, minutes: 180 },
  { id: "cs-catan", game: "catan", locale: "cs", name: "Velký otevřený turnaj v Osadnících z Katanu Brno-Královo Pole", players: 40, minutes: 120 },
  { id: "en-thousand", game: "catan", locale: "en", name: "The Grand Northern Settlers of Catan Championship Manchester", players: 1000, minutes: 180 },
];

// LAYOUT_ONLY=ru-agot,it-carc: only those (a quicker run while working on one).
if (process.env.LAYOUT_ONLY) TOURNAMENTS.splice(0, TOURNAMENTS.length, ...TOURNAMENTS.filter((t) => process.env.LAYOUT_ONLY.split(",").includes(t.id)));

const CATAN_SHEETS = [
  { settlements: 2, cities: 3, vp_cards: 0, knights: 3, roads: 6, longest_road: 4, largest_army: true, longest_road_holder: false },
  { settlements: 3, cities: 1, vp_cards: 1, knights: 1, roads: 10, longest_road: 6, largest_army: false, longest_road_holder: true },
  { settlements: 4, cities: 1, vp_cards: 0, knights: 2, roads: 7, longest_road: 4, largest_army: false, longest_road_holder: false },
  { settlements: 2, cities: 1, vp_cards: 1, knights: 0, roads: 5, longest_road: 3, largest_army: false, longest_road_holder: false },
];

let stack;
let tallyd;
let browser;
let judge;
const made = {}; // id → {t, names, round, table (one reported), open (one open), key}

async function makeTournament(t) {
  await tallyd.must(201, "POST", "/v1/tournaments", { id: t.id, name: t.name, game: t.game, locale: t.locale, self_reporting: true });
  const list = names(t.locale, t.players);
  const csv = `name\n${list.map((n) => `"${n.replace(/"/g, '""')}"`).join("\n")}\n`;
  await tallyd.must(201, "POST", `/v1/tournaments/${t.id}/players/import`, { csv });
  const round = await tallyd.must(201, "POST", `/v1/tournaments/${t.id}/rounds`, { method: "random", seed: 5 });
  await tallyd.must(201, "POST", `/v1/tournaments/${t.id}/rounds/1/clock`, { action: "start", minutes: t.minutes });
  const tables = round.tables.filter((table) => table.players.length > 1);
  const reported = tables[tables.length - 1]; // the highest table number: three digits with 1,000 players
  const put = (table, body) =>
    tallyd.must(201, "PUT", `/v1/tournaments/${t.id}/rounds/1/tables/${table.table}/result`, body, { token: judge.token, headers: { "If-None-Match": "*" } });
  if (t.game === "catan") {
    for (const table of tables.slice(-3)) await put(table, { players: table.players.map((player, i) => ({ player, ...CATAN_SHEETS[i % 4] })) });
  } else if (t.game === "agot") {
    await tallyd.must(201, "POST", `/v1/tournaments/${t.id}/rounds/1/tables/${reported.table}/picks/auto`, {});
    const { houses } = (await tallyd.must(200, "GET", `/v1/tournaments/${t.id}/rounds/1`)).tables.find((x) => x.table === reported.table);
    const castles = [7, 6, 5, 4, 3, 2];
    const players = reported.players.map((player, i) => ({ player, house: houses[player], place: i + 1, winner: i === 0, castles: castles[i], capitals_captured: [], capitals_held: 1, lands_captured: i }));
    await put(reported, { players });
  } else {
    await put(reported, { players: reported.players.map((player, i) => ({ player, score: 120 - 17 * i })) });
  }
  const keys = await tallyd.must(200, "GET", `/v1/tournaments/${t.id}/rounds/1/keys`, undefined, { token: judge.token });
  const open = tables[0];
  const reportedPlayer = reported.players[0];
  made[t.id] = { t, names: list, round, reported, open, reportedPlayer, key: keys.keys.find((k) => k.table === open.table) };
}

// Staged events (support/staged.mjs): 60-character names, 40-character player names, each at
// another point of its stages.
const STAGED = [
  { id: "cs-ko", locale: "cs", name: "Mistrovství České republiky v Carcassonne, vyřazovací pavouk", at: "semi" },
  { id: "it-ko", locale: "it", name: "Campionato Italiano di Carcassonne a eliminazione diretta 2026", at: "final" },
  { id: "ru-ko", locale: "ru", name: "Чемпионат России по Каркассону, плей-офф и финал в Петербурге", at: "over" },
  { id: "en-ko", locale: "en", name: "The Grand Northern Carcassonne Knockout Championship, Leeds", at: "semi" },
];
const STAGED_IDS = [...STAGED.map((s) => s.id), "cs-final-tables"];
const stagedMe = {}; // id → the player whose phone is shown

// A staged Carcassonne event of 8 brought to `at`: "semi" (semi-finals, table 1 reported), "final"
// (final and game for 3rd seated), "over" (the final standings).
async function makeStaged({ id, locale, name, at }) {
  const event = await stagedEvent(tallyd, judge, id, names(locale, 8), { locale, name });
  await event.playRound(1);
  await event.playRound(2);
  await tallyd.must(201, "POST", `/v1/tournaments/${id}/stages`, {});
  const knockout = await tallyd.must(201, "POST", `/v1/tournaments/${id}/stages`, {});
  stagedMe[id] = knockout.tables[0].players[0];
  await event.reportRound(3, { except: at === "semi" ? [knockout.tables[1].table] : [] });
  if (at === "over") await event.reportRound(4);
}

// Catan: 20 players, 1 round, a cut of 16, four final tables by snake (the first of each goes
// on) and a final: the final tables being played.
async function makeFinalTables() {
  const id = "cs-final-tables";
  await tallyd.must(201, "POST", "/v1/tournaments", {
    id, game: "catan", locale: "cs", name: "Velký otevřený turnaj v Osadnících z Katanu, finálové stoly",
    rules: { stages: [{ kind: "rounds", rounds: 1 }, { kind: "cut", top: 16 }, { kind: "final_tables", tables: 4, advance: 1 }, { kind: "final" }] },
  });
  await tallyd.must(201, "POST", `/v1/tournaments/${id}/players/import`, { csv: `name\n${names("cs", 20).join("\n")}\n` });
  const round = await tallyd.must(201, "POST", `/v1/tournaments/${id}/rounds`, { method: "random", seed: 3 });
  for (const table of round.tables) {
    await tallyd.must(201, "PUT", `/v1/tournaments/${id}/rounds/1/tables/${table.table}/result`, {
      players: table.players.map((player, i) => ({ player, ...CATAN_SHEETS[i % 4] })),
    }, { token: judge.token, headers: { "If-None-Match": "*" } });
  }
  await tallyd.must(201, "POST", `/v1/tournaments/${id}/stages`, {});
  const tables = await tallyd.must(201, "POST", `/v1/tournaments/${id}/stages`, {});
  stagedMe[id] = tables.tables[0].players[0];
}

before(async () => {
  stack = await startStack("tally-layout-");
  ({ tallyd, browser } = stack);
  judge = await tallyd.must(201, "POST", "/v1/judges", { name: "Bartholomew Fitzgerald-Whitmore Ashworth" });
  for (const t of TOURNAMENTS) await makeTournament(t);
  // 13 AGoT players not seated yet: the preview of round 1 has a bye.
  await tallyd.must(201, "POST", "/v1/tournaments", { id: "ru-bye", name: "Кубок с баем", game: "agot", locale: "ru" });
  await tallyd.must(201, "POST", "/v1/tournaments/ru-bye/players/import", { csv: `name\n${names("ru", 13).join("\n")}\n` });
  if (!process.env.LAYOUT_ONLY || process.env.LAYOUT_ONLY.includes("ko")) {
    for (const s of STAGED) await makeStaged(s);
    await makeFinalTables();
  }
});

// Not a layout: the preview says who has no table and why, and not also that nobody is left out
// (issue 38, item 8).
test("a seating preview with a bye names who is not at a table, and does not say that nobody is left out", async () => {
  const context = await openContext(browser, { viewport: SCREENS["390x844"], lang: null });
  await context.addInitScript((token) => {
    try {
      localStorage.setItem("tallyd.organizer-token", token);
    } catch {
      // a page without storage
    }
  }, tallyd.organizer());
  const page = await context.newPage();
  await page.goto(`${tallyd.base}/t/ru-bye/console#seating`);
  await page.locator("#seating").waitFor({ state: "visible" });
  const previewed = page.waitForResponse((r) => r.url().endsWith("/rounds/check"));
  await page.locator("#seating-preview").click();
  const answer = await (await previewed).json();
  const byes = answer.byes || (answer.not_seated || []).map((p) => p.player);
  assert.equal(byes.length, 1, "13 players: one bye");
  await page.locator("#seating-tables li").first().waitFor();
  const box = await page.locator("#seating-preview-box").innerText();
  assert.doesNotMatch(box, /Никто не остался без стола/, "a bye is someone without a table");
  const { players } = await tallyd.must(200, "GET", "/v1/tournaments/ru-bye");
  const name = players.find((p) => p.id === byes[0]).name;
  const line = await page.locator("#seating-not-seated, #seating-byes").first().innerText();
  assert.ok(line.includes(name), `who is not at a table, and why: "${line}"`);
  await screenshot(page, "console-seating-bye-390x844");
  await closeContext(context);
});

after(() => stopStack(stack));

// ---- what is measured -------------------------------------------------------------------------

// The layout's problems on the page as it is now: the page scrolling sideways, an element whose
// content is wider than its box (a scroll box included: on first sight its content is cut), and a
// word broken inside (breaking after "/" or "-" is a line break, not a broken word). Elements
// that cut their text on purpose with "…" (text-overflow: ellipsis, line-clamp) are left out.
function layoutProblems(page) {
  return page.evaluate(() => {
    const problems = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth) problems.push(`the page scrolls sideways: ${doc.scrollWidth} px in ${doc.clientWidth}`);
    const describe = (e) => {
      const id = e.id ? `#${e.id}` : "";
      const cls = typeof e.className === "string" && e.className ? `.${e.className.trim().split(/\s+/).join(".")}` : "";
      const text = (e.textContent || "").trim().replace(/\s+/g, " ").slice(0, 40);
      const within = e.parentElement && e.parentElement.closest("[id]");
      return `${e.tagName.toLowerCase()}${id}${cls} "${text}"${within ? ` in #${within.id}` : ""}`;
    };
    const hidden = (e) => !e.checkVisibility() || e.closest(".visually-hidden, svg, [aria-hidden='true']");
    const cutOnPurpose = (s) => s.textOverflow === "ellipsis" || (s.webkitLineClamp && s.webkitLineClamp !== "none");
    for (const e of document.body.querySelectorAll("*")) {
      if (["INPUT", "SELECT", "TEXTAREA", "OPTION", "PROGRESS", "BR", "WBR", "SCRIPT"].includes(e.tagName) || hidden(e)) continue;
      const style = getComputedStyle(e);
      if (style.display === "inline" || style.display === "contents" || e.clientWidth === 0) continue;
      if (cutOnPurpose(style)) continue;
      if (e.scrollWidth > e.clientWidth + 1) {
        // Only the innermost: a box whose overflow is a child's that overflows already says nothing more.
        const child = [...e.children].some((c) => !hidden(c) && c.scrollWidth > c.clientWidth + 1 && getComputedStyle(c).display !== "inline");
        if (!child) problems.push(`${describe(e)} overflows its box: ${e.scrollWidth} px in ${e.clientWidth}`);
      }
    }
    // Words broken inside: each piece between break opportunities (spaces, after "/" and "-")
    // must stand on one line.
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    const broken = new Set();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!node.textContent.trim() || hidden(parent) || parent.closest("input, select, textarea, option, script, style")) continue;
      const text = node.textContent;
      const re = /[^\s/\-–]+[/\-–]?/g;
      for (let m = re.exec(text); m; m = re.exec(text)) {
        if (m[0].length < 2) continue;
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top / 4)));
        if (tops.size > 1) broken.add(`"${m[0]}" in ${describe(parent)}`);
      }
    }
    for (const word of broken) problems.push(`a word broken inside: ${word}`);
    return problems;
  });
}

async function screenshot(page, name) {
  await page.screenshot({ path: path.join(artifacts, `layout-${name}.png`) });
}

// Adds the page's layout problems to `failures`, each with `what` the page is.
async function checkLayout(page, what, failures) {
  const problems = await layoutProblems(page);
  if (problems.length) await screenshot(page, `problem-${what.replace(/\s+/g, "-")}`);
  failures.push(...problems.map((p) => `${what}: ${p}`));
}

// ---- the board ------------------------------------------------------------------------------------

test("the board: titles whole, nothing over its box, 8 whole rows and more below the header at 1920×1080", async () => {
  const failures = [];
  for (const [screen, viewport] of Object.entries(SCREENS)) {
    const context = await openContext(browser, { viewport, lang: null });
    for (const { id } of TOURNAMENTS) {
      const page = await context.newPage();
      await page.goto(`${tallyd.base}/t/${id}/board?public=${encodeURIComponent(PUBLIC)}`);
      await page.locator("#standings tbody tr").first().waitFor();
      await page.locator("#round-clock .round-clock-time").filter({ hasText: /\d:\d\d$/ }).waitFor();
      await page.waitForFunction(() => document.getElementById("page-places").textContent !== "");
      const what = `board ${id} ${screen}`;
      await screenshot(page, `board-${id}-${screen}`);
      await checkLayout(page, what, failures);
      if (screen === "1920x1080") {
        const wholeRows = () => {
          const header = document.querySelector(".board-header").getBoundingClientRect().bottom;
          const list = document.getElementById("standings-viewport").getBoundingClientRect().bottom;
          const rows = [...document.querySelectorAll("#standings tbody tr")].filter((tr) => !tr.hidden);
          const whole = rows.filter((tr) => tr.getBoundingClientRect().top >= header && tr.getBoundingClientRect().bottom <= Math.min(list, innerHeight) + 0.5);
          return whole.length >= Math.min(8, document.querySelectorAll("#standings tbody tr").length);
        };
        // The board settles once its title has its size (a moment after the first rows).
        await page.waitForFunction(wholeRows, null, { timeout: 5000 }).catch(() => {});
        const shown = await page.evaluate(() => {
          const header = document.querySelector(".board-header").getBoundingClientRect().bottom;
          const list = document.getElementById("standings-viewport").getBoundingClientRect().bottom;
          const rows = [...document.querySelectorAll("#standings tbody tr")].filter((tr) => !tr.hidden);
          return {
            header,
            whole: rows.filter((tr) => tr.getBoundingClientRect().top >= header && tr.getBoundingClientRect().bottom <= Math.min(list, innerHeight) + 0.5).length,
            total: document.querySelectorAll("#standings tbody tr").length,
          };
        });
        if (shown.whole < Math.min(8, shown.total)) failures.push(`${what}: ${shown.whole} whole rows below a header ending at ${shown.header} px`);
      }
      await page.close();
    }
    await closeContext(context);
  }
  assert.deepEqual(failures, []);
});

// ---- stages: the board and a finalist's phone ------------------------------------------------------

test("stages: the bracket, the final tables and the podium on the board, a finalist's phone; nothing over its box", { skip: Boolean(process.env.LAYOUT_ONLY && !process.env.LAYOUT_ONLY.includes("ko")) }, async () => {
  const failures = [];
  for (const [screen, viewport] of Object.entries(SCREENS)) {
    const context = await openContext(browser, { viewport, lang: null });
    for (const id of STAGED_IDS) {
      const page = await context.newPage();
      await page.goto(`${tallyd.base}/t/${id}/board?public=${encodeURIComponent(PUBLIC)}`);
      await page.locator(".stage-player, #podium:not([hidden]) .podium-step").first().waitFor();
      // The stage's type has its size (fitStage), or the final rows their pages.
      await page.waitForFunction(() => document.getElementById("stage-view").dataset.scale || document.getElementById("page-places").textContent !== "");
      const what = `board ${id} ${screen}`;
      await screenshot(page, `board-${id}-${screen}`);
      await checkLayout(page, what, failures);
      // Nothing of the stage below the screen: it is shown whole.
      const cut = await page.evaluate(() => {
        const view = document.getElementById("stage-view");
        return view.hidden ? 0 : view.scrollHeight - view.clientHeight;
      });
      if (cut > 1) failures.push(`${what}: the stage is ${cut} px taller than its room`);
      await page.close();

      const phone = await context.newPage();
      await phone.goto(`${tallyd.base}/t/${id}`);
      await phone.evaluate(([key, player]) => localStorage.setItem(key, player), [`tallyd.me.${id}`, stagedMe[id]]);
      await phone.reload();
      await phone.locator("#me-stage, #me-final").first().waitFor();
      await phone.locator("#standings tbody tr").first().waitFor();
      await checkLayout(phone, `public ${id} ${screen}`, failures);
      if (PHONES.includes(screen)) await phone.locator("#me-card").screenshot({ path: path.join(artifacts, `layout-public-me-${id}-${screen}.png`) });
      await phone.close();
    }
    await closeContext(context);
  }
  assert.deepEqual(failures, []);
});

// ---- the players' page (/t/{t}) -------------------------------------------------------------------

test("the players' page: a player's own results, the pairings and the standings fit, the points whole", async () => {
  const failures = [];
  for (const [screen, viewport] of Object.entries(SCREENS)) {
    const context = await openContext(browser, { viewport, lang: null });
    for (const { id } of TOURNAMENTS) {
      const page = await context.newPage();
      await page.goto(`${tallyd.base}/t/${id}`);
      // The player of the reported table chose themselves ("Find me", kept on the phone).
      await page.evaluate(([key, player]) => localStorage.setItem(key, player), [`tallyd.me.${id}`, made[id].reportedPlayer]);
      await page.reload();
      await page.locator("#me-card .my-round .result-summary").first().waitFor();
      await page.locator("#standings tbody tr").first().waitFor();
      const what = `public ${id} ${screen}`;
      await page.screenshot({ path: path.join(artifacts, `layout-public-${id}-${screen}.png`), fullPage: PHONES.includes(screen) && id !== "en-thousand" });
      await checkLayout(page, what, failures);
      if (PHONES.includes(screen)) await page.locator("#me-card").screenshot({ path: path.join(artifacts, `layout-public-me-${id}-${screen}.png`) });
      if (process.env.LAYOUT_DEBUG) console.log(what, await page.evaluate(() => [...document.querySelectorAll("#me-card .result-summary tr")].slice(0, 2).map((tr) => [...tr.cells].map((c) => `${c.getBoundingClientRect().width} ${getComputedStyle(c).padding} ${getComputedStyle(c).whiteSpace}`))));
      // The player's results: every column of the table inside its box (AGoT's "game points").
      const cut = await page.locator("#me-card .result-scroll").first().evaluate((box) => ({ table: box.scrollWidth, box: box.clientWidth }));
      if (cut.table > cut.box) failures.push(`${what}: the player's results are ${cut.table} px in a ${cut.box} px box`);
      await page.close();
    }
    await closeContext(context);
  }
  assert.deepEqual(failures, []);
});

// ---- the console ------------------------------------------------------------------------------------

const SECTIONS = ["players", "checkin", "seating", "clock", "tables", "selfreport", "close", "judges", "organizer"];

// Where the section's heading is against the screen and the section links (sticky or not).
function headingPlace(page, section) {
  return page.evaluate((id) => {
    const heading = document.getElementById(`${id}-heading`).getBoundingClientRect();
    const links = document.getElementById("sections");
    const sticky = getComputedStyle(links).position === "sticky";
    return { top: heading.top, bottom: heading.bottom, under: sticky ? links.getBoundingClientRect().bottom : 0, screen: innerHeight };
  }, section);
}

test("the console: each section's heading on the first screen after its link, never behind the links; nothing over its box", async () => {
  const failures = [];
  for (const [screen, viewport] of Object.entries(SCREENS)) {
    const context = await openContext(browser, { viewport, lang: null });
    await context.addInitScript((token) => {
      try {
        localStorage.setItem("tallyd.organizer-token", token);
      } catch {
        // a page without storage (about:blank)
      }
    }, tallyd.organizer());
    for (const { id } of TOURNAMENTS) {
      const page = await context.newPage();
      await page.goto(`${tallyd.base}/t/${id}/console`);
      await page.locator("#sections").waitFor({ state: "visible" });
      await page.locator("#player-list li").first().waitFor();
      for (const section of SECTIONS) {
        const what = `console ${id} ${screen} #${section}`;
        // From the bottom of a long section on a laptop (the links stay at the top), from the top
        // of the page on a phone (there the links scroll away with the page).
        if (PHONES.includes(screen)) await page.evaluate(() => window.scrollTo(0, 0));
        else await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        await page.locator(`#sections a[data-section="${section}"]`).click();
        await page.locator(`#sections a[data-section="${section}"][aria-current="true"]`).waitFor();
        await page.locator(`#${section}`).waitFor({ state: "visible" });
        const place = await headingPlace(page, section);
        if (place.top < place.under - 0.5) failures.push(`${what}: the heading (top ${place.top}) is behind the section links (down to ${place.under})`);
        // The section, not only its heading: the heading in the screen's upper half.
        if (place.top > place.screen / 2) failures.push(`${what}: the heading starts at ${place.top} px, the section below the first screen (${place.screen} px)`);
        if (place.top < 0) failures.push(`${what}: the heading is above the screen (${place.top} px)`);
        if (section === "players" || section === "tables" || section === "seating") await checkLayout(page, what, failures);
        if (id === "ru-agot" && ["players", "tables"].includes(section)) await screenshot(page, `console-${id}-${section}-${screen}`);
      }
      await page.close();
    }
    await closeContext(context);
  }
  assert.deepEqual(failures, []);
});

// ---- the judge page and the table's page ------------------------------------------------------------

test("the judge page and the table's page: the result form, the tables and the proposals fit", async () => {
  const failures = [];
  for (const [screen, viewport] of Object.entries(SCREENS)) {
    const context = await openContext(browser, { viewport, lang: null, allowed: [/status of 422/] });
    for (const { id } of TOURNAMENTS) {
      const { open, reported, key } = made[id];
      const judgePage = await context.newPage();
      await judgePage.goto(`${tallyd.base}/t/${id}/judge#token=${judge.token}&round=1&table=${open.table}`);
      await judgePage.locator("#result-form").waitFor();
      await checkLayout(judgePage, `judge ${id} ${screen} table ${open.table}`, failures);
      await screenshot(judgePage, `judge-${id}-${screen}`);
      await judgePage.close();
      const judged = await context.newPage(); // the token is kept in this browser now
      await judged.goto(`${tallyd.base}/t/${id}/judge#round=1&table=${reported.table}`);
      await judged.locator("#current-result .result-summary").first().waitFor();
      await checkLayout(judged, `judge ${id} ${screen} table ${reported.table} (reported)`, failures);
      await judged.close();

      const report = await context.newPage();
      await report.goto(`${tallyd.base}${key.url}`);
      await report.locator(".entry-table").first().waitFor();
      await checkLayout(report, `report ${id} ${screen}`, failures);
      await screenshot(report, `report-${id}-${screen}`);
      await report.close();
    }
    await closeContext(context);
  }
  assert.deepEqual(failures, []);
});

// Not a layout: the live check is not sent while a value the game requires is empty (each would
// be a 422 in the browser's console); the page counts the values to fill (issue 38, item 8).
test("the judge's live check waits until every required value is typed, and says how many are left", async () => {
  const { open, names: list } = made["en-thousand"];
  const context = await openContext(browser, { viewport: SCREENS["1366x768"], lang: null });
  const page = await context.newPage();
  const checks = [];
  page.on("request", (r) => r.url().endsWith("/result/check") && checks.push(r.postDataJSON()));
  const statuses = [];
  page.on("response", (r) => r.url().endsWith("/result/check") && statuses.push(r.status()));
  await page.goto(`${tallyd.base}/t/en-thousand/judge#token=${judge.token}&round=1&table=${open.table}`);
  await page.locator("#result-form").waitFor();
  const nameOf = (player) => list[Number(player.slice(1)) - 1];
  const fields = ["settlements", "cities", "VP cards", "knights", "roads", "longest road"];
  const keys = ["settlements", "cities", "vp_cards", "knights", "roads", "longest_road"];
  await page.getByLabel(`${nameOf(open.players[0])}: settlements`, { exact: true }).fill("2");
  await page.locator("#form-hint").filter({ hasText: `${fields.length * open.players.length - 1} fields to fill` }).waitFor();
  for (const [i, player] of open.players.entries()) {
    for (const [k, label] of fields.entries()) await page.getByLabel(`${nameOf(player)}: ${label}`, { exact: true }).fill(String(CATAN_SHEETS[i][keys[k]]));
    if (CATAN_SHEETS[i].largest_army) await page.getByLabel(`${nameOf(player)} holds Largest Army`).check();
    if (CATAN_SHEETS[i].longest_road_holder) await page.getByLabel(`${nameOf(player)} holds Longest Road`).check();
  }
  await page.locator("#form-hint").filter({ hasText: /^Every check passes/ }).waitFor();
  assert.ok(checks.length >= 1, "the complete entry is checked");
  for (const body of checks) {
    for (const p of body.players) assert.deepEqual(keys.filter((k) => p[k] === undefined), [], "a check sent with a required value empty");
  }
  assert.deepEqual(statuses.filter((s) => s !== 200), [], "no refused check");
  await closeContext(context);
});
