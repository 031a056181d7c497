// The pages in Czech, Italian and Russian, in Debian's headless Chromium against the real tallyd
// (its test build): a page speaks its tournament's locale, or the language its visitor chose
// with the switcher (kept in the browser); the venue board and the players' phone page then show
// no word of the English interface; the requests ask the server for that language; numbers have
// the language's decimal comma. Screenshots of each (board 1920×1080, phone 390×844) are kept in
// $TALLY_ARTIFACTS as board-{lang}.png and standings-phone-{lang}.png.
//
// Environment (set by CMake): TALLYD_TEST, TALLY_BROWSER_DEPS, TALLY_ARTIFACTS, CHROMIUM.

import assert from "node:assert/strict";
import path from "node:path";
import { after, before, test } from "node:test";

import { artifacts, startStack, stopStack } from "./support/stack.mjs";
import { closeContext, openContext } from "./support/contexts.mjs";

const BOARD = { width: 1920, height: 1080 };
const PHONE = { width: 390, height: 844 };

// Words of the English interface (its catalog's headings, labels and status lines). None may be
// left on a page shown in another language.
const ENGLISH_UI_WORDS = [
  "round", "rounds", "table", "tables", "standings", "points", "place", "player", "players",
  "result", "results", "pairings", "connection", "connecting", "lost", "live", "games", "game",
  "name", "score", "total", "wins", "download", "print", "venue", "screen", "updated", "waiting",
  "reported", "league", "capitals", "lands", "judge", "judges", "entry", "tournament",
  "tournaments", "phone", "bye", "share", "dropped", "conqueror", "slips", "seat", "order", "pages",
  "language", "the", "of", "on", "your", "by", "yet", "all", "vp",
];

let stack;
let tallyd;
let browser;
let judge;

before(async () => {
  stack = await startStack("tally-languages-");
  ({ tallyd, browser } = stack);
  judge = await tallyd.must(201, "POST", "/v1/judges", { name: "Eva" });
});

after(() => stopStack(stack));

// A tournament of `game` in `locale` with `names` (ids p1, p2, …), round 1 seated.
async function tournament(id, game, locale, names) {
  await tallyd.must(201, "POST", "/v1/tournaments", { id, name: `${id} open`, game, locale });
  for (const [i, name] of names.entries()) {
    await tallyd.must(201, "POST", `/v1/tournaments/${id}/players`, { id: `p${i + 1}`, name });
  }
  const sheet = await tallyd.must(201, "POST", `/v1/tournaments/${id}/rounds`, { method: "random", seed: 11 });
  return { id, sheet, names: [...names, `${id} open`] };
}

const CATAN_SHEETS = [
  { settlements: 2, cities: 3, vp_cards: 0, knights: 3, roads: 6, longest_road: 4, largest_army: true, longest_road_holder: false },
  { settlements: 3, cities: 1, vp_cards: 1, knights: 1, roads: 10, longest_road: 6, largest_army: false, longest_road_holder: true },
  { settlements: 4, cities: 1, vp_cards: 0, knights: 2, roads: 7, longest_road: 4, largest_army: false, longest_road_holder: false },
  { settlements: 2, cities: 1, vp_cards: 1, knights: 0, roads: 5, longest_road: 3, largest_army: false, longest_road_holder: false },
];

async function report(t, table, players) {
  await tallyd.must(201, "PUT", `/v1/tournaments/${t.id}/rounds/1/tables/${table}/result`, { players }, {
    token: judge.token,
    headers: { "If-None-Match": "*" },
  });
}

// What a person reads on the page: the visible text, the title, and the names given to controls
// and images (aria-label, title, alt, placeholder) — without the names of players and
// tournaments, addresses, and the switcher's language names.
async function readableText(page, names) {
  let text = await page.evaluate(() => {
    const parts = [document.title, document.body.innerText];
    for (const el of document.querySelectorAll("[aria-label], [title], [alt], [placeholder], svg title")) {
      if (el.closest("[hidden]")) continue;
      if (el.tagName.toLowerCase() === "title") parts.push(el.textContent);
      for (const attribute of ["aria-label", "title", "alt", "placeholder"]) if (el.hasAttribute(attribute)) parts.push(el.getAttribute(attribute));
    }
    for (const option of document.querySelectorAll("option, optgroup")) parts.push(option.label || option.textContent);
    return parts.join("\n");
  });
  text = text.replace(/https?:\/\/\S+/g, " ");
  for (const name of [...names].sort((a, b) => b.length - a.length)) text = text.split(name).join(" ");
  for (const language of ["Čeština", "Italiano", "Русский", "English"]) text = text.split(language).join(" ");
  return text;
}

function englishWordsIn(text) {
  const words = new Set((text.match(/[A-Za-z]+/g) || []).map((w) => w.toLowerCase()));
  return ENGLISH_UI_WORDS.filter((w) => words.has(w));
}

const wide = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

async function screenshot(page, name, fullPage = false) {
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage });
}

// The board of `t` (1920×1080) once its standings and its round's progress are shown.
async function openBoard(context, t, progress) {
  const page = await context.newPage();
  await page.setViewportSize(BOARD);
  await page.goto(`${tallyd.base}/t/${t.id}/board`);
  await page.locator("#standings tbody tr").first().waitFor();
  await page.locator("#progress-text").filter({ hasText: progress }).waitFor();
  await page.locator("#waiting-tables").filter({ hasText: /\S/ }).waitFor();
  await page.locator("#updated").filter({ hasText: /\S/ }).waitFor();
  return page;
}

// The public standings page of `t` on a phone (390×844), once standings and pairings are shown.
async function openStandings(context, t) {
  const page = await context.newPage();
  await page.setViewportSize(PHONE);
  await page.goto(`${tallyd.base}/t/${t.id}`);
  await page.locator("#standings tbody tr").first().waitFor();
  await page.locator("#pairings-by-table tbody tr").first().waitFor();
  await page.locator("#live-status").filter({ hasText: /\S/ }).waitFor();
  await page.waitForLoadState("networkidle");
  return page;
}

// ---- Czech: the tournament's locale ---------------------------------------------------------

const CZECH_NAMES = ["Čeněk Dvořák", "Jana Nováková", "Chrudoš Šťastný", "Ida Veselá", "Přemysl Kratochvíl", "Eva Králová", "Hana Zelená", "Dana Malá"];

test("Czech (the tournament's locale): the board and the phone page, with no English word left", async () => {
  const t = await tournament("praha", "catan", "cs", CZECH_NAMES);
  await report(t, 1, t.sheet.tables[0].players.map((player, i) => ({ player, ...CATAN_SHEETS[i] })));

  const context = await openContext(browser, { viewport: BOARD, lang: null });
  const board = await openBoard(context, t, "Výsledky: 1 z 2 stolů");
  assert.equal(await board.evaluate(() => document.documentElement.lang), "cs");
  assert.equal(await board.locator("#round-heading").innerText(), "Kolo 1");
  assert.equal(await board.locator("#waiting-tables").innerText(), "Čeká se na stůl 2");
  assert.equal(await board.locator("#game-name").innerText(), "Osadníci z Katanu");
  const headings = await board.locator("#standings thead th").evaluateAll((ths) => ths.map((th) => th.textContent));
  assert.deepEqual(headings, ["#", "Jméno", "Hry", "Body za kolo", "VB", "Podíl VB"]);
  // Round points with a decimal comma, the share as Czech writes a percentage.
  const first = await board.locator("#standings tbody tr").first().locator("td").allInnerTexts();
  assert.equal(first[3], "5,00");
  assert.match(first[5], /^\d+,\d\d\s%$/);
  assert.equal(await board.locator('#languages button[aria-pressed="true"]').innerText(), "Čeština");
  assert.deepEqual(englishWordsIn(await readableText(board, t.names)), [], "English words on the Czech board");
  await screenshot(board, "board-cs");

  const phone = await openStandings(context, t);
  assert.equal(await phone.locator("h2#standings-heading").innerText(), "Celkové pořadí");
  assert.equal(await phone.locator("#tournament-info").innerText(), "Osadníci z Katanu · 8 hráčů");
  assert.equal(await phone.locator("#live-status").innerText(), "Živě");
  assert.deepEqual(englishWordsIn(await readableText(phone, t.names)), [], "English words on the Czech phone page");
  assert.equal(await wide(phone), 0, "the phone page does not scroll sideways");
  await screenshot(phone, "standings-phone-cs", true);
  await closeContext(context);
});

// ---- Italian: chosen with the switcher, by keyboard, and remembered --------------------------

test("Italian (chosen with the switcher by keyboard, remembered): board and phone page in Italian", async () => {
  const t = { id: "praha", names: [...CZECH_NAMES, "praha open"] };
  const context = await openContext(browser, { viewport: PHONE, lang: null });
  const phone = await context.newPage();
  await phone.goto(`${tallyd.base}/t/praha`);
  await phone.locator('#languages button[aria-pressed="true"]').filter({ hasText: "Čeština" }).waitFor();
  // The switcher: every language in its own name and language; the page's is pressed.
  const switcher = phone.locator("#languages button");
  assert.deepEqual(await switcher.allInnerTexts(), ["Čeština", "Italiano", "Русский", "English"]);
  assert.deepEqual(await switcher.evaluateAll((bs) => bs.map((b) => b.lang)), ["cs", "it", "ru", "en"]);
  assert.equal(await phone.locator("#languages").getAttribute("aria-label"), "Jazyk");
  // It fits a 360-pixel phone, every button inside the screen.
  await phone.setViewportSize({ width: 360, height: 740 });
  for (const box of await switcher.evaluateAll((bs) => bs.map((b) => b.getBoundingClientRect().toJSON()))) {
    assert.ok(box.left >= 0 && box.right <= 360, `a language button at ${box.left}–${box.right}`);
  }
  assert.equal(await wide(phone), 0);
  await phone.setViewportSize(PHONE);

  // By keyboard: Tab to "Italiano", Enter.
  await phone.locator('#languages button[data-lang="cs"]').focus();
  await phone.keyboard.press("Tab");
  assert.equal(await phone.evaluate(() => document.activeElement.dataset.lang), "it");
  await Promise.all([phone.waitForEvent("load"), phone.keyboard.press("Enter")]);
  await phone.locator("#standings tbody tr").first().waitFor();
  await phone.locator("#live-status").filter({ hasText: /\S/ }).waitFor();
  await phone.waitForLoadState("networkidle");
  assert.equal(await phone.evaluate(() => localStorage.getItem("tallyd.lang")), "it");
  assert.equal(await phone.evaluate(() => document.documentElement.lang), "it");
  assert.equal(await phone.locator("h2#standings-heading").innerText(), "Classifica");
  assert.equal(await phone.locator("#tournament-info").innerText(), "Catan · 8 giocatori");
  // The phone's compact standings: rank, name, round points (the rest behind a tap).
  const row = await phone.locator("#standings tbody tr").first().locator("th, td").allInnerTexts();
  assert.equal(row[2], "5,00", "points with Italy's decimal comma");
  assert.deepEqual(englishWordsIn(await readableText(phone, t.names)), [], "English words on the Italian phone page");
  assert.equal(await wide(phone), 0);
  await screenshot(phone, "standings-phone-it", true);

  // The choice is the browser's: the board of the same (Czech) tournament is Italian too.
  const board = await openBoard(context, t, "Risultati: 1 su 2 tavoli");
  assert.equal(await board.locator("#round-heading").innerText(), "Turno 1");
  assert.equal(await board.locator("#waiting-tables").innerText(), "In attesa del tavolo 2");
  assert.deepEqual(englishWordsIn(await readableText(board, t.names)), [], "English words on the Italian board");
  await screenshot(board, "board-it");
  await closeContext(context);
});

// ---- Russian: the tournament's locale; Carcassonne with a bye --------------------------------

test("Russian (the tournament's locale): a Carcassonne board and phone page, and the judges' requests ask for Russian", async () => {
  const names = ["Анна Иванова", "Борис Петров", "Вера Смирнова", "Глеб Кузнецов", "Дарья Соколова"];
  const t = await tournament("moskva", "carcassonne", "ru", names);
  const pair = t.sheet.tables.find((table) => table.players.length === 2);
  await report(t, pair.table, [{ player: pair.players[0], score: 92 }, { player: pair.players[1], score: 87 }]);
  const open = t.sheet.tables.length - 1 - 1; // less the bye and the reported table

  const context = await openContext(browser, { viewport: BOARD, lang: null });
  const board = await openBoard(context, t, `Результаты: 2 из 3 столов`);
  assert.equal(await board.evaluate(() => document.documentElement.lang), "ru");
  assert.equal(await board.locator("#round-heading").innerText(), "Тур 1");
  assert.equal(open, 1);
  assert.match(await board.locator("#waiting-tables").innerText(), /^Ещё играет стол \d$/);
  const headings = await board.locator("#standings thead th").evaluateAll((ths) => ths.map((th) => th.textContent));
  assert.deepEqual(headings, ["#", "Имя", "Партии", "Победы", "Бухгольц", "Разница счёта", "Счёт"]);
  assert.deepEqual(englishWordsIn(await readableText(board, t.names)), [], "English words on the Russian board");
  await screenshot(board, "board-ru");

  const phone = await openStandings(context, t);
  assert.equal(await phone.locator("#tournament-info").innerText(), "Каркассон · 5 игроков");
  assert.equal(await phone.locator("#round-select option:checked").innerText(), "Тур 1 (внесено 2 из 3)");
  assert.ok((await phone.locator("#pairings-by-table").innerText()).includes("— пропуск тура"), "the bye, in Russian");
  assert.deepEqual(englishWordsIn(await readableText(phone, t.names)), [], "English words on the Russian phone page");
  assert.equal(await wide(phone), 0);
  await screenshot(phone, "standings-phone-ru", true);

  // The judges' page asks the server for Russian (its forms' texts are the server's).
  const judgePage = await context.newPage();
  await judgePage.goto(`${tallyd.base}/t/moskva/judge`);
  await judgePage.getByLabel("Токен", { exact: true }).fill(judge.token);
  const games = judgePage.waitForRequest((r) => r.url().endsWith("/v1/games"));
  await judgePage.getByRole("button", { name: "Сохранить токен" }).click();
  assert.equal((await games).headers()["accept-language"], "ru");
  await judgePage.locator("#picker").waitFor();
  assert.equal(await judgePage.locator("#picker-heading").innerText(), "Выберите стол");
  await closeContext(context);
});

// ---- the tournaments list: the browser's language --------------------------------------------

test("the tournaments list speaks the browser's language when no language was chosen", async () => {
  const context = await openContext(browser, { viewport: PHONE, lang: null, locale: "ru-RU" });
  const page = await context.newPage();
  await page.goto(`${tallyd.base}/`);
  await page.locator('tr[data-tournament="praha"]').waitFor();
  assert.equal(await page.locator("h1").innerText(), "Турниры");
  assert.equal(await page.evaluate(() => document.documentElement.lang), "ru");
  const praha = page.locator('tr[data-tournament="praha"]');
  assert.equal(await praha.locator("td").first().innerText(), "Колонизаторы");
  assert.equal(await praha.getByRole("link", { name: "praha open: табло" }).getAttribute("href"), "/t/praha/board");
  await closeContext(context);
});
