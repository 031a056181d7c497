// The organizer's venue console (/t/{t}/console) and the "New tournament" form of the
// tournaments list, in Debian's headless Chromium against the real tallyd (its test build).
// A whole event day is driven through the pages only: a Catan tournament created from `/`, 24
// players imported from a CSV file and the updated file imported again (a rename, an addition,
// nobody twice), a player dropped, check-in with two no-shows dropped with a reason, round 1
// previewed and seated, the clock started, paused and extended, a judge added whose QR link
// opens the judge page signed in, every table entered there, an event voided with a reason,
// the round closed as the final one and the venue screen showing the final standings. Then an
// AGoT and a Carcassonne round seated and clocked the same way, refusals shown at their
// fields, the organizer token renewed (the old one refused, the page going on with the new),
// and the console on a phone without sideways scrolling. Screenshots (1920×1080 and 390×844,
// English and Czech) go to $TALLY_ARTIFACTS as console-*.png.
//
// The API is read directly only to check what the pages did, with one exception no page can
// do: the judge's claimed win at a table (the judge page has no claim form) is recorded with
// the judge's token through the API, so that the console has a claim to void.
//
// Environment (set by CMake): TALLYD_TEST, TALLY_BROWSER_DEPS, TALLY_ARTIFACTS, CHROMIUM.

import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";

import { encodeQr } from "./qr-library.mjs";
import { artifacts, startStack, stopStack } from "./support/stack.mjs";
import { lowContrastTexts, scrollsSideways, unnamedControls } from "./support/a11y.mjs";
import { closeContext, openContext } from "./support/contexts.mjs";
import { pageTimePasses } from "./support/page-time.mjs";

// How the pages are watched (support/contexts.mjs): the refusals the test provokes are no errors.
const WATCH = { allowed: [/Failed to load resource: the server responded with a status of (401|403|409|422)/], timeout: 15000 };
const LAPTOP = { width: 1920, height: 1080 };
const PHONE = { width: 390, height: 844 };

let stack;
let tallyd;
let browser;
let organizer; // the browser context the organizer works in (English chosen)
let consolePage; // its console tab

before(async () => {
  stack = await startStack("tally-console-");
  ({ tallyd, browser } = stack);
  organizer = await openContext(browser, { viewport: LAPTOP, ...WATCH });
});

after(async () => {
  if (organizer) await closeContext(organizer);
  await stopStack(stack);
});

// ---- helpers ----------------------------------------------------------------------------------

async function screenshot(page, name) {
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
}

// Shows a section of the console by its link, as the organizer taps it.
async function openSection(page, linkName, id) {
  await page.locator("#sections").getByRole("link", { name: linkName, exact: true }).click();
  await page.locator(`#${id}`).waitFor({ state: "visible" });
}

// The console of `t` in `context`, signed in with the organizer token typed once (or kept).
async function openConsole(context, t, token = null) {
  const page = await context.newPage();
  await page.goto(`${tallyd.base}/t/${t}/console`);
  if (token) {
    await page.locator("#token-input").fill(token);
    await page.locator("#token-form button[type=submit]").click();
  }
  await page.locator("#sections").waitFor({ state: "visible" });
  return page;
}

// A CSV file chosen in the import form: the server's preview, its counts.
async function chooseCsv(page, name, text) {
  const file = path.join(stack.tmp, name);
  writeFileSync(file, text);
  const check = page.waitForResponse((r) => r.url().endsWith("/players/import/check"));
  await page.getByLabel("CSV file").setInputFiles(file);
  assert.equal((await check).status(), 200);
  const counts = page.locator("#import-counts");
  await counts.waitFor();
  return counts.evaluate((node) => ({
    added: Number(node.dataset.added),
    unchanged: Number(node.dataset.unchanged),
    changed: Number(node.dataset.changed),
    duplicates: Number(node.dataset.possibleDuplicates),
    text: node.textContent,
  }));
}

async function importChosen(page) {
  const done = page.waitForResponse((r) => r.url().endsWith("/players/import") && r.request().method() === "POST");
  await page.getByRole("button", { name: "Import", exact: true }).click();
  const answer = await done;
  assert.ok([200, 201].includes(answer.status()), `import answered ${answer.status()}`);
  await page.locator("#players-message").filter({ hasText: "The file is imported." }).waitFor();
  return answer.json();
}

// A new tournament through the form of `/` (the organizer token already kept, or typed).
async function createTournament(page, { id, name, game, locale, token = null }) {
  await page.goto(`${tallyd.base}/`);
  await page.locator("#create-game option").first().waitFor({ state: "attached" });
  if (token) await page.getByLabel("Organizer token").fill(token);
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel(/^Id/).fill(id);
  await page.getByLabel("Game", { exact: true }).selectOption(game);
  await page.getByLabel("Language of the tournament").selectOption(locale);
  await page.getByRole("button", { name: "Create the tournament" }).click();
  await page.waitForURL(`${tallyd.base}/t/${id}/console`);
  await page.locator("#sections").waitFor({ state: "visible" });
}

// Previews round `round` with the game's default method and seats it as previewed. Answers the
// preview's tables as the page showed them: [[player ids…], …].
async function previewAndSeat(page, round) {
  await openSection(page, "Seating", "seating");
  const previewed = page.waitForResponse((r) => r.url().endsWith("/rounds/check"));
  await page.getByRole("button", { name: "Preview the tables" }).click();
  const answer = await previewed;
  assert.equal(answer.status(), 200);
  const preview = await answer.json();
  // The page shows this preview (not an earlier one): its seed, its tables.
  if (preview.seed !== undefined) await page.locator("#seating-preview-box").filter({ hasText: `Seed ${preview.seed}` }).waitFor();
  const tables = await shownTables(page);
  assert.deepEqual(tables, preview.tables.map((t) => t.players), "the preview shows the server's tables");
  const seated = page.waitForResponse((r) => r.url().endsWith("/rounds") && r.request().method() === "POST");
  await page.getByRole("button", { name: `Seat round ${round} as previewed` }).click();
  assert.equal((await seated).status(), 201);
  await page.locator("#seating-message").filter({ hasText: `Round ${round} is seated` }).waitFor();
  return tables;
}

// The preview's tables as shown: each card's player names, mapped back to ids.
async function shownTables(page) {
  const tournament = await tallyd.must(200, "GET", `/v1/tournaments/${await page.evaluate(() => location.pathname.split("/")[2])}`);
  const idOf = new Map(tournament.players.map((p) => [p.name, p.id]));
  const texts = await page.locator("#seating-tables li .players").allInnerTexts();
  return texts.map((text) => text.split(", ").map((name) => idOf.get(name)));
}

// Starts the round's clock with `minutes` and waits until the page shows it running.
async function startClock(page, minutes) {
  await openSection(page, "Clock", "clock");
  await page.getByLabel("Minutes", { exact: true }).fill(String(minutes));
  await page.getByRole("button", { name: "Start", exact: true }).click();
  await page.locator("#clock-state").filter({ hasText: "Running" }).waitFor();
}

const clockSeconds = (text) => {
  const [m, s] = text.split(":").map(Number);
  return m * 60 + s;
};


// A valid Catan table in seat order: 10, 8, 6, 5 VP.
const CATAN_SHEETS = [
  { settlements: 2, cities: 3, vp_cards: 0, knights: 3, roads: 6, longest_road: 4, largest_army: true, longest_road_holder: false },
  { settlements: 3, cities: 1, vp_cards: 1, knights: 1, roads: 10, longest_road: 6, largest_army: false, longest_road_holder: true },
  { settlements: 4, cities: 1, vp_cards: 0, knights: 2, roads: 7, longest_road: 4, largest_army: false, longest_road_holder: false },
  { settlements: 2, cities: 1, vp_cards: 1, knights: 0, roads: 5, longest_road: 3, largest_army: false, longest_road_holder: false },
];
const NUMBER_FIELDS = [
  ["settlements", "settlements"],
  ["cities", "cities"],
  ["vp_cards", "VP cards"],
  ["knights", "knights"],
  ["roads", "roads"],
  ["longest_road", "longest road"],
];

// Types a Catan table into the judge page's form, as a judge would (pages.test.mjs does the same).
async function typeCatan(page, names) {
  for (const [i, name] of names.entries()) {
    const sheet = CATAN_SHEETS[i];
    for (const [field, label] of NUMBER_FIELDS) {
      await page.getByLabel(`${name}: ${label}`, { exact: true }).fill(String(sheet[field]));
    }
    if (sheet.largest_army) await page.getByLabel(`${name} holds Largest Army`).check();
    if (sheet.longest_road_holder) await page.getByLabel(`${name} holds Longest Road`).check();
  }
}

// ---- the Catan day ------------------------------------------------------------------------------

const CATAN = "catan-cup";
// 24 players; the file is the organizer's registration list (ids of their own, `;`-separated).
const NAMES = [
  "Adéla Bártová", "Bohumil Čech", "Cyril Dvořák", "Čeněk Eliáš", "Dana Fialová", "Emil Hájek",
  "František Horák", "Hana Chalupová", "Chrudoš Jelínek", "Ivana Kopecká", "Jan Král", "Karla Kučerová",
  "Ladislav Marek", "Marie Němcová", "Norbert Pokorný", "Olga Procházková", "Pavel Růžička", "Radka Říhová",
  "Stanislav Svoboda", "Šárka Šimková", "Tomáš Urban", "Ursula Vacková", "Václav Vaněk", "Zdena Zemanová",
];
const idOf = (i) => `c${String(i + 1).padStart(2, "0")}`;
const FIRST_FILE = `id;name\n${NAMES.map((n, i) => `${idOf(i)};${n}`).join("\n")}\n`;
// The updated list: Dana Fialová married (c05 renamed), one more player, columns in another order,
// commas, quotes.
const RENAMED = "Dana Fialová Horáková";
const ADDED = "Zuzana Malá";
const SECOND_FILE =
  `name,id\n${NAMES.map((n, i) => `"${i === 4 ? RENAMED : n}",${idOf(i)}`).join("\n")}\n"${ADDED}",c25\n`;

let judgeToken = null;

test("the organizer creates a Catan tournament from the tournaments list and lands in its console", async () => {
  const page = await organizer.newPage();
  await page.goto(`${tallyd.base}/`);
  // A wrong token is refused at its field; nothing is created.
  await page.getByLabel("Organizer token").fill("tly_not-a-token");
  await page.getByLabel("Name", { exact: true }).fill("Catan Cup");
  await page.getByLabel(/^Id/).fill(CATAN);
  await page.getByLabel("Game", { exact: true }).selectOption("catan");
  await page.getByLabel("Language of the tournament").selectOption("cs");
  await page.getByRole("button", { name: "Create the tournament" }).click();
  await page.locator("#create-token .field-error").filter({ hasText: "This token is not valid" }).waitFor();
  assert.equal(await page.getByLabel("Organizer token").getAttribute("aria-invalid"), "true");
  assert.equal((await tallyd.api("GET", `/v1/tournaments/${CATAN}`)).status, 404);
  await screenshot(page, "console-index-refused");

  await createTournament(page, { id: CATAN, name: "Catan Cup", game: "catan", locale: "cs", token: tallyd.organizer() });
  consolePage = page;
  assert.equal(await page.locator("#tournament-info").innerText(), "Catan Cup · Catan");
  assert.equal(await page.locator("#token-section").isVisible(), false, "the token typed on / is kept for the console");
  const created = await tallyd.must(200, "GET", `/v1/tournaments/${CATAN}`);
  assert.deepEqual([created.name, created.game, created.locale], ["Catan Cup", "catan", "cs"]);

  // The list links the console; the form no longer asks for the token.
  await page.goto(`${tallyd.base}/`);
  const link = page.locator(`tr[data-tournament="${CATAN}"] a`, { hasText: "Console" });
  assert.equal(await link.getAttribute("href"), `/t/${CATAN}/console`);
  assert.equal(await page.locator("#create-token").isVisible(), false);
  assert.equal(await page.locator("#create-token-saved").isVisible(), true);
  await screenshot(page, "console-index");
  await link.click();
  await page.locator("#sections").waitFor({ state: "visible" });
});

test("players: 24 imported from a CSV file; the updated file renames one and adds one, nobody twice", async () => {
  const page = consolePage;
  await openSection(page, "Players", "players");
  const first = await chooseCsv(page, "players.csv", FIRST_FILE);
  assert.deepEqual([first.added, first.unchanged, first.changed, first.duplicates], [24, 0, 0, 0]);
  assert.equal(first.text, "To add: 24 · unchanged: 0 · renamed: 0 · possible duplicates: 0");
  assert.equal(await page.locator("#import-rows tbody tr").count(), 24);
  await importChosen(page);
  await page.locator("#players-count").filter({ hasText: "24 players registered" }).waitFor();
  let players = (await tallyd.must(200, "GET", `/v1/tournaments/${CATAN}`)).players;
  assert.deepEqual(players.map((p) => [p.id, p.name]), NAMES.map((n, i) => [idOf(i), n]));

  // The updated file: the preview says what will happen, line by line.
  const second = await chooseCsv(page, "players-updated.csv", SECOND_FILE);
  assert.deepEqual([second.added, second.unchanged, second.changed, second.duplicates], [1, 23, 1, 0]);
  const renamedRow = page.locator('#import-rows tr[data-status="changed"]');
  assert.equal(await renamedRow.count(), 1);
  assert.match(await renamedRow.innerText(), new RegExp(`${RENAMED}.*renamed \\(was Dana Fialová\\)`, "s"));
  assert.match(await page.locator('#import-rows tr[data-status="added"]').innerText(), new RegExp(ADDED));
  await screenshot(page, "console-import-preview");
  await importChosen(page);
  await page.locator("#players-count").filter({ hasText: "25 players registered" }).waitFor();
  players = (await tallyd.must(200, "GET", `/v1/tournaments/${CATAN}`)).players;
  assert.equal(players.length, 25);
  assert.equal(new Set(players.map((p) => p.name)).size, 25, "nobody is registered twice");
  assert.equal(players.find((p) => p.id === "c05").name, RENAMED);
  assert.equal(players.find((p) => p.id === "c25").name, ADDED);

  // The same file a third time: nothing to add.
  const third = await chooseCsv(page, "players-again.csv", SECOND_FILE);
  assert.deepEqual([third.added, third.unchanged, third.changed], [0, 25, 0]);

  // A name that differs only in case and accents is a possible duplicate: shown with whom it
  // may be, and not registered unless asked for.
  const dupe = await chooseCsv(page, "players-dupe.csv", "name\nADELA BARTOVA\n");
  assert.deepEqual([dupe.added, dupe.unchanged, dupe.changed, dupe.duplicates], [0, 0, 0, 1]);
  assert.match(await page.locator('#import-rows tr[data-status="possible_duplicate"]').innerText(), /possible duplicate of Adéla Bártová: not added/);

  // Czech Excel's CSV is Windows-1250: sent as its bytes, read by the server as what it is (the
  // preview says so), never as mojibake; read as UTF-8 on purpose it is refused at the file, in
  // words naming the line, and cannot be imported until read right again.
  const cp1250 = Buffer.from([
    ...Buffer.from("name;id\n"),
    0xc8, 0x65, 0x6e, 0xec, 0x6b, 0x20, 0x8a, 0x9d, 0x61, 0x73, 0x74, 0x6e, 0xfd, ...Buffer.from(";w1\n"), // Čeněk Šťastný
    0x8e, 0x6f, 0x66, 0x69, 0x65, 0x20, 0x44, 0x76, 0x6f, 0xf8, 0xe1, 0x6b, 0x6f, 0x76, 0xe1, ...Buffer.from(";w2\n"), // Žofie Dvořáková
  ]);
  assert.equal(new TextDecoder("windows-1250").decode(cp1250), "name;id\nČeněk Šťastný;w1\nŽofie Dvořáková;w2\n");
  const windows = await chooseCsv(page, "excel-cz.csv", cp1250);
  assert.deepEqual([windows.added, windows.unchanged, windows.changed, windows.duplicates], [2, 0, 0, 0]);
  const addedNames = await page.locator('#import-rows tr[data-status="added"] th').allInnerTexts();
  assert.deepEqual(addedNames, ["Čeněk Šťastný", "Žofie Dvořáková"]);
  const used = page.locator("#import-encoding-used");
  assert.deepEqual(await used.evaluate((n) => [n.dataset.encoding, n.dataset.detected]), ["windows-1250", "true"]);
  assert.equal(await used.innerText(), "Read as Windows-1250 (Central European), recognized from the file.");
  await page.getByRole("button", { name: "Import", exact: true }).waitFor();
  await screenshot(page, "console-import-cp1250");
  let recheck = page.waitForResponse((r) => r.url().endsWith("/players/import/check"));
  await page.getByLabel("The file's character encoding").selectOption("utf-8");
  const asUtf8 = await recheck;
  assert.equal(asUtf8.status(), 422);
  const sent = asUtf8.request().postDataJSON();
  assert.deepEqual([sent.encoding, Buffer.from(sent.csv_base64, "base64").equals(cp1250), "csv" in sent], ["utf-8", true, false]);
  const [refusal] = (await asUtf8.json()).errors;
  assert.deepEqual([refusal.rule, refusal.field], ["csv", "csv_base64"]);
  // rules.csv.not_in_encoding, at the file field, naming the line.
  await page.locator("#import-form .field .field-error").filter({ hasText: "line 2 is not valid utf-8 text: choose the encoding the file was saved in" }).waitFor();
  assert.equal(await page.getByLabel("CSV file").getAttribute("aria-invalid"), "true");
  assert.equal(await page.getByRole("button", { name: "Import", exact: true }).isVisible(), false, "a file refused cannot be imported");
  recheck = page.waitForResponse((r) => r.url().endsWith("/players/import/check"));
  await page.getByLabel("The file's character encoding").selectOption("auto");
  assert.equal((await recheck).status(), 200);
  await page.getByRole("button", { name: "Import", exact: true }).waitFor();
  assert.equal((await tallyd.must(200, "GET", `/v1/tournaments/${CATAN}`)).players.length, 25, "a preview writes nothing");

  // A broken file: the server's message at the file field, with its line.
  const broken = path.join(stack.tmp, "broken.csv");
  writeFileSync(broken, "nom;prénom\nEva;Nová\n");
  const refused = page.waitForResponse((r) => r.url().endsWith("/players/import/check"));
  await page.getByLabel("CSV file").setInputFiles(broken);
  assert.equal((await refused).status(), 422);
  await page.locator("#import-form .field .field-error").first().waitFor();
  assert.equal(await page.getByLabel("CSV file").getAttribute("aria-invalid"), "true");
  assert.equal(await page.getByRole("button", { name: "Import", exact: true }).isVisible(), false);

  // A player who will not come is dropped by hand, with a reason; a rename in place.
  const item = page.locator('#player-list li[data-player="c10"]');
  await item.getByRole("button", { name: "Drop" }).click();
  await page.getByLabel("Why is Ivana Kopecká dropped?").fill("withdrew by e-mail");
  await page.locator('#player-list li[data-player="c10"] button[type=submit]').click();
  await page.locator("#players-message").filter({ hasText: "Ivana Kopecká is dropped" }).waitFor();
  await page.locator('#player-list li[data-player="c10"] .badge.dropped').waitFor();
  const tournament = await tallyd.must(200, "GET", `/v1/tournaments/${CATAN}`);
  assert.equal(tournament.players.find((p) => p.id === "c10").dropped, true);
});

test("check-in: all present, two no-shows unticked, shown as left out, then dropped with a reason", async () => {
  const page = consolePage;
  await openSection(page, "Check-in", "checkin");
  await page.getByRole("button", { name: "All present" }).click();
  await page.locator("#checkin-counts").filter({ hasText: "Present: 24 of 24 · absent: 0" }).waitFor();
  for (const name of ["Cyril Dvořák", "Pavel Růžička"]) {
    await page.locator("#checkin-list").getByLabel(name, { exact: true }).uncheck();
  }
  await page.locator("#checkin-counts").filter({ hasText: "Present: 22 of 24 · absent: 2" }).waitFor();
  assert.match(await page.locator("#drop-absent-who").innerText(), /2 absent: Cyril Dvořák and Pavel Růžička/);
  let tournament = await tallyd.must(200, "GET", `/v1/tournaments/${CATAN}`);
  assert.equal(tournament.checkin.round, 1);
  assert.equal(tournament.checkin.present.length, 22);
  await screenshot(page, "console-checkin");

  // Before the drop, the preview leaves the absent players out and says so.
  await openSection(page, "Seating", "seating");
  await page.getByRole("button", { name: "Preview the tables" }).click();
  await page.locator("#seating-left-out").filter({ hasText: "2 not seated: Cyril Dvořák, Pavel Růžička" }).waitFor();

  // Dropping the absent needs a reason: refused at the reason field first.
  await openSection(page, "Check-in", "checkin");
  await page.getByRole("button", { name: "Drop the absent players" }).click();
  await page.locator("#drop-absent-form .field .field-error").waitFor();
  assert.equal(await page.locator("#drop-absent-reason").getAttribute("aria-invalid"), "true");
  await page.locator("#drop-absent-reason").fill("no-show");
  await page.getByRole("button", { name: "Drop the absent players" }).click();
  await page.locator("#checkin-message").filter({ hasText: "2 players dropped: Cyril Dvořák and Pavel Růžička." }).waitFor();
  await page.locator("#checkin-counts").filter({ hasText: "Present: 22 of 22 · absent: 0" }).waitFor();
  tournament = await tallyd.must(200, "GET", `/v1/tournaments/${CATAN}`);
  assert.deepEqual(tournament.players.filter((p) => p.dropped).map((p) => p.id).sort(), ["c03", "c10", "c17"]);
});

test("seating: round 1 previewed with nobody left out, seated exactly as previewed", async () => {
  const page = consolePage;
  await openSection(page, "Seating", "seating");
  await page.getByRole("button", { name: "Preview the tables" }).click();
  await page.locator("#seating-left-out").filter({ hasText: "Nobody is left out." }).waitFor();
  assert.equal(await page.locator("#seating-left-out").getAttribute("data-count"), "0");
  await screenshot(page, "console-seating-preview");
  const previewed = await previewAndSeat(page, 1);
  const round = await tallyd.must(200, "GET", `/v1/tournaments/${CATAN}/rounds/1`);
  assert.deepEqual(round.tables.map((t) => t.players), previewed, "the tables seated are the tables previewed");
  const seated = round.tables.flatMap((t) => t.players);
  assert.equal(seated.length, 22);
  assert.equal(new Set(seated).size, 22);
  for (const absent of ["c03", "c10", "c17"]) assert.ok(!seated.includes(absent), absent);
  // The game's tables (Catan: of 3 and 4), as the server made them.
  assert.ok(round.tables.every((t) => t.players.length === 3 || t.players.length === 4));
});

test("clock: started with 60 minutes, paused, extended by 5 with a reason; refusals at their fields", async () => {
  const page = consolePage;
  await startClock(page, 60);
  const running = clockSeconds(await page.locator("#clock-time").innerText());
  assert.ok(running <= 3600 && running > 3590, `running: ${running}`);
  await page.getByRole("button", { name: "Pause", exact: true }).click();
  await page.locator("#clock-state").filter({ hasText: "Paused" }).waitFor();
  const paused = await page.locator("#clock-time").innerText();
  // 1.5 s of the console's own timers (a running clock would have ticked by then).
  await pageTimePasses(page, 1500);
  assert.equal(await page.locator("#clock-time").innerText(), paused, "a paused clock stands still");

  // Pausing a paused clock: the server's refusal, said in the section.
  await page.getByRole("button", { name: "Pause", exact: true }).click();
  await page.locator("#clock-message.error").waitFor();
  // Extending needs a reason: refused at the reason field.
  await page.getByLabel("Minutes to add").fill("5");
  await page.getByRole("button", { name: "Extend", exact: true }).click();
  await page.locator("#clock-extend .field .field-error").waitFor();
  assert.equal(await page.locator("#clock-extend-reason").getAttribute("aria-invalid"), "true");
  await page.locator("#clock-extend-reason").fill("the fire alarm went off");
  await page.getByRole("button", { name: "Extend", exact: true }).click();
  await page.locator("#clock-extended").filter({ hasText: "+5 min" }).waitFor();
  assert.equal(await page.locator("#clock-state").innerText(), "Paused");
  const extended = clockSeconds(await page.locator("#clock-time").innerText());
  assert.equal(extended, clockSeconds(paused) + 300, "the five minutes are on the clock");
  const clock = (await tallyd.must(200, "GET", `/v1/tournaments/${CATAN}/rounds/1`)).clock;
  assert.equal(clock.state, "paused");
  assert.equal(clock.extended_s, 300);
  assert.equal(Math.ceil(clock.remaining_s), extended, "the page shows the server's time left");
  await screenshot(page, "console-clock");

  await page.getByRole("button", { name: "Resume", exact: true }).click();
  await page.locator("#clock-state").filter({ hasText: "Running" }).waitFor();
  assert.equal((await tallyd.must(200, "GET", `/v1/tournaments/${CATAN}/rounds/1`)).clock.state, "running");
});

test("a judge added in the console opens the judge page through the QR code's link and enters every table", async () => {
  const page = consolePage;
  await openSection(page, "Judges", "judges");
  await page.getByLabel("Judge's name").fill("Eva");
  await page.getByRole("button", { name: "Add the judge" }).click();
  await page.locator("#new-judge").waitFor({ state: "visible" });
  judgeToken = await page.locator("#new-judge-token").innerText();
  assert.match(judgeToken, /^tly_/);
  const link = await page.locator("#new-judge-link").getAttribute("href");
  assert.equal(link, `${tallyd.base}/t/${CATAN}/judge#token=${encodeURIComponent(judgeToken)}`);
  // The QR code is of that link, module for module.
  const d = await page.locator("#new-judge svg path").getAttribute("d");
  const expected = encodeQr(link);
  const drawn = Array.from({ length: expected.size }, () => new Array(expected.size).fill(false));
  for (const [, x, y] of d.matchAll(/M(\d+),(\d+)h1v1h-1z/g)) drawn[Number(y) - 4][Number(x) - 4] = true;
  assert.deepEqual(drawn, expected.modules);
  await page.locator('#judge-list li[data-judge]').filter({ hasText: "Eva" }).waitFor();
  await screenshot(page, "console-judge-added");

  // The tables at a glance before any result: all open.
  await openSection(page, "Tables", "tables");
  const round = await tallyd.must(200, "GET", `/v1/tournaments/${CATAN}/rounds/1`);
  const total = round.tables.length;
  await page.locator("#tables-progress").filter({ hasText: `Reported: 0 of ${total} tables` }).waitFor();
  await page.getByLabel("Only tables not reported yet").check();
  assert.equal(await page.locator("#table-list li.table-card.open").count(), total);

  // Eva's phone: the scanned link; the judge page keeps the token and drops it from the address.
  const phone = await openContext(browser, { viewport: PHONE, ...WATCH });
  const judge = await phone.newPage();
  await judge.goto(link);
  await judge.locator("#picker").waitFor({ state: "visible" });
  assert.equal(new URL(judge.url()).hash.includes("token"), false, "the token is not left in the address");
  const nameOf = new Map((await tallyd.must(200, "GET", `/v1/tournaments/${CATAN}`)).players.map((p) => [p.id, p.name]));

  // Closing the round with tables open: refused, the tables said in words, force offered.
  for (const [index, table] of round.tables.entries()) {
    if (index === total - 1) {
      await openSection(page, "Close the round", "close");
      await page.getByRole("button", { name: "Close round 1" }).click();
      await page.locator("#close-force").waitFor({ state: "visible" });
      assert.equal(await page.locator("#close-force-why").innerText(), `Table ${table.table} of round 1 has no result yet.`);
      // The filter shows the one table still open, once the console has followed the judge.
      await openSection(page, "Tables", "tables");
      await page.waitForFunction(
        (open) => [...document.querySelectorAll("#table-list li.table-card")].map((li) => li.dataset.table).join() === open,
        String(table.table),
      );
    }
    await judge.locator(`#tables button[data-table="${table.table}"]`).click();
    await judge.locator("#table-heading").filter({ hasText: `Table ${table.table}` }).waitFor();
    await typeCatan(judge, table.players.map((p) => nameOf.get(p)));
    await judge.getByRole("button", { name: "Save the result" }).click();
    await judge.locator("#save-status").filter({ hasText: `Saved: table ${table.table} is reported` }).waitFor();
  }
  await screenshot(judge, "console-judge-phone");
  await closeContext(phone);

  // The console follows: every table reported by Eva, with the time.
  await page.locator("#tables-progress").filter({ hasText: `Reported: ${total} of ${total} tables` }).waitFor();
  await page.locator("#table-list li").filter({ hasText: "Every table is reported." }).waitFor();
  await page.getByLabel("Only tables not reported yet").uncheck();
  const statuses = await page.locator("#table-list li.table-card .status").allInnerTexts();
  assert.equal(statuses.length, total);
  for (const status of statuses) assert.match(status, /^Entered by Eva at \d\d:\d\d$/);
  await screenshot(page, "console-tables");
});

test("an event voided in the console with a reason: a claimed win, from the table's audit", async () => {
  const page = consolePage;
  const table = (await tallyd.must(200, "GET", `/v1/tournaments/${CATAN}/rounds/1`)).tables[0];
  // Eva records that the winner claimed the win (the judge page has no claim form: the API,
  // with her token).
  const claim = await tallyd.must(201, "POST", `/v1/tournaments/${CATAN}/rounds/1/tables/${table.table}/claims`, { player: table.players[0] }, { token: judgeToken });
  await openSection(page, "Tables", "tables");
  await page.getByRole("button", { name: `Audit of table ${table.table}` }).click();
  const event = page.locator(`#audit-events li[data-seq="${claim.seq}"]`);
  await event.waitFor();
  assert.match(await event.innerText(), /claimed win/);

  // A result is corrected, not voided: the server says it is not voidable, and the page offers
  // no void for it (the claim has one).
  const result = page.locator(`#audit-events li[data-seq="${table.result_seq}"]`);
  await event.getByRole("button", { name: "Void" }).waitFor();
  assert.equal(await result.getByRole("button", { name: "Void" }).count(), 0, "no void for a result (voidable: false)");

  await event.getByRole("button", { name: "Void" }).click();
  await page.getByLabel(`Why is #${claim.seq} voided?`).fill("recorded at the wrong table");
  await page.getByRole("button", { name: "Void the event" }).click();
  await page.locator("#audit-message").filter({ hasText: `Event #${claim.seq} is voided.` }).waitFor();
  await page.locator(`#audit-events li[data-seq="${claim.seq}"].superseded`).waitFor();
  const audit = await tallyd.must(200, "GET", `/v1/tournaments/${CATAN}/audit?round=1&table=${table.table}`);
  const voided = audit.events.find((e) => e.seq === claim.seq);
  assert.ok(voided.superseded_by, "the claim is superseded");
  const voiding = audit.events.find((e) => e.seq === voided.superseded_by);
  assert.equal(voiding.type, "void");
  assert.equal(voiding.reason, "recorded at the wrong table");
  // Eva corrects the result: the audit names her and says what changed, with the form's words.
  const entered = (await tallyd.must(200, "GET", `/v1/tournaments/${CATAN}/audit?round=1&table=${table.table}`)).events.find((e) => e.seq === table.result_seq);
  const players = entered.payload.players.map((p, i) => (i === 1 ? { ...p, vp_cards: p.vp_cards === 0 ? 1 : 0 } : p));
  const corrected = await tallyd.must(200, "PUT", `/v1/tournaments/${CATAN}/rounds/1/tables/${table.table}/result`, { players, reason: "a VP card miscounted" }, { token: judgeToken, headers: { "If-Match": `"${(await tallyd.must(200, "GET", `/v1/tournaments/${CATAN}/rounds/1`)).tables[0].version}"` } });
  const who = (await tallyd.must(200, "GET", `/v1/tournaments/${CATAN}`)).players.find((p) => p.id === players[1].player).name;
  const change = page.locator(`#audit-events li[data-seq="${corrected.result_seq}"] .changes li`);
  await change.first().waitFor();
  assert.equal(await change.first().innerText(), `${who}: VP cards ${entered.payload.players[1].vp_cards} → ${players[1].vp_cards}`);
  assert.match(await page.locator(`#audit-events li[data-seq="${corrected.result_seq}"]`).innerText(), /Eva, \d\d:\d\d/);

  await screenshot(page, "console-audit");

  // Eva's phone shows the same change under the table's result, from the same audit, worded alike.
  const phone = await openContext(browser, { viewport: { width: 360, height: 740 }, ...WATCH });
  const judge = await phone.newPage();
  await judge.goto(`${tallyd.base}/t/${CATAN}/judge#token=${encodeURIComponent(judgeToken)}`);
  await judge.locator(`#tables button[data-table="${table.table}"]`).click();
  const line = judge.locator("#last-correction .changes li");
  await line.first().waitFor();
  assert.equal(await line.first().innerText(), `${who}: VP cards ${entered.payload.players[1].vp_cards} → ${players[1].vp_cards}`);
  assert.match(await judge.locator("#last-correction p").innerText(), /^Corrected by Eva at \d\d:\d\d \(a VP card miscounted\):$/);
  await judge.locator("#last-correction").scrollIntoViewIfNeeded();
  await judge.screenshot({ path: path.join(artifacts, "judge-last-correction-360.png") });
  // A table entered once shows no correction line.
  const other = (await tallyd.must(200, "GET", `/v1/tournaments/${CATAN}/rounds/1`)).tables.find((t) => t.table !== table.table);
  await judge.locator(`#tables button[data-table="${other.table}"]`).click();
  await judge.locator("#table-heading").filter({ hasText: `Table ${other.table}` }).waitFor();
  await judge.locator("#current-result table").waitFor();
  const otherAudit = await tallyd.must(200, "GET", `/v1/tournaments/${CATAN}/audit?round=1&table=${other.table}`);
  assert.equal(otherAudit.events.find((e) => e.seq === other.result_seq).changes, null);
  assert.equal(await judge.locator("#last-correction .changes").count(), 0);
  await closeContext(phone);
});

test("the round closed as the final one; the venue screen shows the final standings", async () => {
  const page = consolePage;
  await openSection(page, "Close the round", "close");
  await page.getByLabel(/This is the final round/).check();
  await page.getByRole("button", { name: "Close round 1" }).click();
  await page.locator("#close-message").filter({ hasText: "Round 1 is closed as the final round." }).waitFor();
  await page.locator("#close-status").filter({ hasText: "Round 1 is closed as the final round" }).waitFor();
  const tournament = await tallyd.must(200, "GET", `/v1/tournaments/${CATAN}`);
  assert.equal(tournament.final, true);
  assert.equal(tournament.rounds[0].closed, true);
  assert.equal(tournament.rounds[0].final, true);
  // Closing stopped the clock.
  assert.equal((await tallyd.must(200, "GET", `/v1/tournaments/${CATAN}/rounds/1`)).clock.state, "stopped");
  await screenshot(page, "console-closed");

  const board = await organizer.newPage();
  await board.setViewportSize(LAPTOP);
  await board.goto(`${tallyd.base}/t/${CATAN}/board`);
  await board.getByText("Final standings").first().waitFor();
  await board.close();
});

test("judges: a link for the address phones reach (?public=), a judge revoked after a confirmation", async () => {
  const page = consolePage;
  // Opened at 127.0.0.1 the console warns that phones cannot follow its links.
  await openSection(page, "Judges", "judges");
  await page.getByLabel("Judge's name").fill("Olga");
  await page.getByRole("button", { name: "Add the judge" }).click();
  await page.locator("#new-judge .message.warn").filter({ hasText: `This link uses ${tallyd.base}` }).waitFor();

  await page.goto(`${tallyd.base}/t/${CATAN}/console?public=http://192.0.2.10:8080#judges`);
  await page.getByLabel("Judge's name").fill("Petr");
  await page.getByRole("button", { name: "Add the judge" }).click();
  await page.locator("#new-judge").waitFor({ state: "visible" });
  const token = await page.locator("#new-judge-token").innerText();
  assert.equal(await page.locator("#new-judge-link").getAttribute("href"), `http://192.0.2.10:8080/t/${CATAN}/judge#token=${encodeURIComponent(token)}`);
  assert.equal(await page.locator("#new-judge .message.warn").count(), 0);

  const petr = (await tallyd.must(200, "GET", "/v1/judges")).find((j) => j.name === "Petr");
  const row = page.locator(`#judge-list li[data-judge="${petr.id}"]`);
  await row.getByRole("button", { name: "Revoke" }).click();
  await row.getByRole("button", { name: "Revoke the token of Petr" }).click();
  await page.locator("#judges-message").filter({ hasText: "The token of Petr is revoked." }).waitFor();
  await page.locator(`#judge-list li[data-judge="${petr.id}"].revoked`).waitFor();
  assert.equal((await tallyd.must(200, "GET", "/v1/judges")).find((j) => j.id === petr.id).revoked, true);
  assert.equal((await tallyd.api("GET", `/v1/tournaments/${CATAN}/audit`, undefined, { token })).status, 401, "the revoked token is refused");
});

// ---- AGoT and Carcassonne: one round each, seated and clocked the same way ---------------------

for (const { id, game, count } of [
  { id: "agot-cup", game: "agot", count: 12 },
  { id: "carc-cup", game: "carcassonne", count: 8 },
]) {
  test(`${game}: ${count} players imported, round 1 previewed, seated and clocked`, async () => {
    const page = await organizer.newPage();
    await createTournament(page, { id, name: `${game} cup`, game, locale: "en" });
    await openSection(page, "Players", "players");
    const names = Array.from({ length: count }, (_, i) => `${game} player ${i + 1}`);
    const counts = await chooseCsv(page, `${id}.csv`, `name\n${names.join("\n")}\n`);
    assert.equal(counts.added, count);
    await importChosen(page);
    await page.locator("#players-count").filter({ hasText: `${count} players registered` }).waitFor();
    const previewed = await previewAndSeat(page, 1);
    const round = await tallyd.must(200, "GET", `/v1/tournaments/${id}/rounds/1`);
    assert.deepEqual(round.tables.map((t) => t.players), previewed);
    assert.equal(round.tables.flatMap((t) => t.players).length + (round.byes || []).length, count);
    await startClock(page, 50);
    assert.equal((await tallyd.must(200, "GET", `/v1/tournaments/${id}/rounds/1`)).clock.state, "running");
    await openSection(page, "Tables", "tables");
    await page.locator("#tables-progress").filter({ hasText: `Reported: 0 of ${round.tables.length} table` }).waitFor();
    await screenshot(page, `console-${game}-tables`);

    if (game === "agot") {
      // Round 2 while round 1 has no result: the server refuses; the page names the tables and
      // seats it once the organizer gives a reason.
      await openSection(page, "Seating", "seating");
      await page.getByRole("button", { name: "Preview the tables" }).click();
      await page.locator("#seating-force").waitFor({ state: "visible" });
      const open = round.tables.map((t) => t.table);
      assert.equal(await page.locator("#seating-force-why").innerText(), `Tables ${open.join(" and ")} of round 1 have no result yet.`);
      await screenshot(page, "console-seating-force");
      await page.locator("#seating-force").getByLabel("Why go on without them?").fill("round 1 is replayed later");
      const forced = page.waitForRequest((r) => r.url().endsWith("/rounds/check"));
      await page.getByRole("button", { name: "Force with this reason" }).click();
      assert.deepEqual((await forced).postDataJSON(), { force: true, reason: "round 1 is replayed later" });
      await page.locator("#seating-tables li").first().waitFor();
      const seated = page.waitForRequest((r) => r.url().endsWith("/rounds") && r.method() === "POST");
      await page.getByRole("button", { name: "Seat round 2 as previewed" }).click();
      const body = (await seated).postDataJSON();
      assert.deepEqual([body.force, body.reason], [true, "round 1 is replayed later"]);
      await page.locator("#seating-message").filter({ hasText: "Round 2 is seated" }).waitFor();
      const second = await tallyd.must(200, "GET", `/v1/tournaments/${id}/rounds/2`);
      assert.equal(second.forced, true);
    } else {
      // A player added by hand with a name already there (ignoring case): registered, with the
      // server's warning; then renamed in place.
      await openSection(page, "Players", "players");
      await page.getByLabel("Name", { exact: true }).fill(names[0].toUpperCase());
      await page.getByRole("button", { name: "Add the player" }).click();
      const message = page.locator("#players-message.warn");
      await message.waitFor();
      assert.match(await message.innerText(), new RegExp(`${names[0].toUpperCase()} is registered \\(.+\\)\\. .+`));
      await screenshot(page, "console-same-name");
      const added = (await tallyd.must(200, "GET", `/v1/tournaments/${id}`)).players.find((p) => p.name === names[0].toUpperCase());
      const row = page.locator(`#player-list li[data-player="${added.id}"]`);
      await row.getByRole("button", { name: "Rename" }).click();
      await page.getByLabel(`New name for ${added.name}`).fill("Brother of the first");
      await row.getByRole("button", { name: "Save the name" }).click();
      await page.locator("#players-message").filter({ hasText: `${added.name} is now Brother of the first.` }).waitFor();
      const renamed = (await tallyd.must(200, "GET", `/v1/tournaments/${id}`)).players.find((p) => p.id === added.id);
      assert.equal(renamed.name, "Brother of the first");
    }
    await page.close();
  });
}

// ---- round 2 after no-shows: the empty check-in said in words; a no-show reinstated ------------

test("round 2 with nobody checked in after two no-shows: the preview names them, one dropped is reinstated, 'seat everyone' seats both", async () => {
  const id = "noshow-cup";
  const names = ["Marta Benešová", "Ondřej Cibulka", "Alena Dušková", "Bořek Fiala", "Jitka Holá", "Kamil Jirásek", "Lenka Kadlecová", "Miloš Lukáš", "Nina Málková", "Oto Nový"];
  await tallyd.must(201, "POST", "/v1/tournaments", { id, name: "No-show cup", game: "catan", locale: "en" });
  await tallyd.must(201, "POST", `/v1/tournaments/${id}/players/import`, { csv: `id,name\n${names.map((n, i) => `n${i + 1},${n}`).join("\n")}\n` });
  // Round 1: Marta and Ondřej did not come; Marta was dropped as a no-show, Ondřej was not.
  await tallyd.must(201, "POST", `/v1/tournaments/${id}/checkin`, { players: names.slice(2).map((_, i) => `n${i + 3}`), present: true });
  await tallyd.must(201, "POST", `/v1/tournaments/${id}/rounds`, { method: "random" });
  await tallyd.must(200, "POST", `/v1/tournaments/${id}/players/n1/drop`, { reason: "no-show" });

  const page = await openConsole(organizer, id);
  await openSection(page, "Players", "players");
  const marta = page.locator('#player-list li[data-player="n1"]');
  await marta.locator(".badge.dropped").waitFor();
  await marta.getByRole("button", { name: "Reinstate" }).click();
  const reason = page.getByLabel("Why is Marta Benešová reinstated?");
  await page.locator('#player-list li[data-player="n1"] button[type=submit]').click();
  await page.locator('#player-list li[data-player="n1"] .field-error').waitFor(); // a reason is needed
  assert.equal(await reason.getAttribute("aria-invalid"), "true");
  await reason.fill("arrived for round 2");
  await page.locator('#player-list li[data-player="n1"] button[type=submit]').click();
  await page.locator("#players-message").filter({ hasText: "Marta Benešová is reinstated: seated again from the next round on." }).waitFor();
  await page.locator('#player-list li[data-player="n1"]:not(.dropped)').getByRole("button", { name: "Drop" }).waitFor();
  assert.equal((await tallyd.must(200, "GET", `/v1/tournaments/${id}`)).players.find((p) => p.id === "n1").dropped, false);
  // Reinstated twice: the server's refusal, as it says it.
  assert.equal((await tallyd.api("POST", `/v1/tournaments/${id}/players/n1/reinstate`, { reason: "again" })).status, 409);

  // Round 2: round 1 has no results yet (forced with a reason), and nobody is checked in.
  await openSection(page, "Seating", "seating");
  await page.getByRole("button", { name: "Preview the tables" }).click();
  await page.locator("#seating-force").waitFor({ state: "visible" });
  await page.locator("#seating-force").getByLabel("Why go on without them?").fill("round 1 is entered later");
  const previewed = page.waitForResponse((r) => r.url().endsWith("/rounds/check"));
  await page.getByRole("button", { name: "Force with this reason" }).click();
  const preview = await (await previewed).json();
  assert.deepEqual(preview.warnings.map((w) => [w.rule, w.players]), [["checkin.empty", ["n1", "n2"]]]);
  const warning = page.locator('#seating-warnings li[data-rule="checkin.empty"]');
  await warning.waitFor();
  assert.match(await warning.innerText(), /^Nobody is checked in for round 2, and Marta Benešová and Ondřej Cibulka did not play round 1: seating now seats everyone not dropped, these players included\./);
  assert.equal(await page.locator("#seating-commit").isVisible(), false, "the warning's two actions stand instead of the plain seat button");
  await page.setViewportSize({ width: 1366, height: 768 });
  await warning.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, "console-checkin-empty-1366.png") });
  await page.setViewportSize({ width: 360, height: 740 });
  await warning.scrollIntoViewIfNeeded();
  assert.equal(await scrollsSideways(page), false, "no sideways scrolling at 360 px");
  await page.screenshot({ path: path.join(artifacts, "console-checkin-empty-360.png") });
  await page.setViewportSize(LAPTOP);

  // "Check in first" takes the organizer to the check-in; the preview waits in its section.
  await warning.getByRole("link", { name: "Check in first" }).click();
  await page.locator("#checkin").waitFor({ state: "visible" });
  assert.equal(new URL(page.url()).hash, "#checkin");
  await openSection(page, "Seating", "seating");
  // "Seat everyone not dropped" seats the previewed tables, both no-shows included.
  const seated = page.waitForResponse((r) => r.url().endsWith("/rounds") && r.request().method() === "POST");
  await warning.getByRole("button", { name: "Seat everyone not dropped in round 2" }).click();
  const answer = await seated;
  assert.equal(answer.status(), 201);
  assert.deepEqual([answer.request().postDataJSON().force, answer.request().postDataJSON().reason], [true, "round 1 is entered later"]);
  await page.locator("#seating-message").filter({ hasText: "Round 2 is seated" }).waitFor();
  const round = await tallyd.must(200, "GET", `/v1/tournaments/${id}/rounds/2`);
  assert.deepEqual(round.tables.map((t) => t.players), preview.tables.map((t) => t.players), "seated as previewed");
  const everyone = round.tables.flatMap((t) => t.players).sort();
  assert.deepEqual(everyone, names.map((_, i) => `n${i + 1}`).sort(), "all ten seated, Marta and Ondřej included");
  await page.close();
});

// ---- Czech, on a phone and a laptop ----------------------------------------------------------------

test("the console in Czech (the tournament's language) on a phone and a laptop: no English, no sideways scrolling", async () => {
  for (const [viewport, size] of [
    [PHONE, "phone"],
    [{ width: 360, height: 740 }, "phone360"],
    [LAPTOP, "laptop"],
  ]) {
    const context = await openContext(browser, { viewport, lang: null, ...WATCH });
    const page = await openConsole(context, CATAN, tallyd.organizer());
    assert.equal(await page.evaluate(() => document.documentElement.lang), "cs");
    for (const [link, id] of [
      ["Hráči", "players"],
      ["Prezence", "checkin"],
      ["Nasazení ke stolům", "seating"],
      ["Časomíra", "clock"],
      ["Stoly", "tables"],
      ["Uzavřít kolo", "close"],
      ["Rozhodčí", "judges"],
      ["Token pořadatele", "organizer"],
    ]) {
      await openSection(page, link, id);
      if (id === "tables") await page.locator("#table-list li.table-card").first().waitFor();
      assert.equal(await scrollsSideways(page), false, `${size} ${id} scrolls sideways`);
      if (size !== "phone360" && ["players", "checkin", "clock", "tables", "judges"].includes(id)) await screenshot(page, `console-${id}-${size}-cs`);
    }
    await openSection(page, "Stoly", "tables");
    await page.locator("#tables-progress").filter({ hasText: /^Výsledky: \d+ z \d+ stolů/ }).waitFor();
    await closeContext(context);
  }
  const context = await openContext(browser, { viewport: PHONE, lang: "cs", ...WATCH });
  const index = await context.newPage();
  await index.goto(`${tallyd.base}/`);
  await index.getByRole("heading", { name: "Nový turnaj" }).waitFor();
  assert.equal(await scrollsSideways(index), false);
  await screenshot(index, "console-index-phone-cs");
  await closeContext(context);
});

test("on a phone in English: every section fits, every control is named, the text readable, the clock big", async () => {
  const context = await openContext(browser, { viewport: PHONE, ...WATCH });
  const page = await openConsole(context, "agot-cup", tallyd.organizer());
  for (const [link, id] of [
    ["Players", "players"],
    ["Check-in", "checkin"],
    ["Seating", "seating"],
    ["Clock", "clock"],
    ["Tables", "tables"],
    ["Close the round", "close"],
    ["Judges", "judges"],
    ["Organizer token", "organizer"],
  ]) {
    await openSection(page, link, id);
    if (id === "seating") {
      await page.getByRole("button", { name: "Preview the tables" }).click();
      await page.locator("#seating-force, #seating-tables").first().waitFor();
    }
    if (id === "tables") await page.locator("#table-list li.table-card").first().waitFor();
    if (id === "judges") {
      // The new judge's token, QR code and link on the phone's width.
      await page.getByLabel("Judge's name").fill("Radka");
      await page.getByRole("button", { name: "Add the judge" }).click();
      await page.locator("#new-judge svg").waitFor();
    }
    assert.equal(await scrollsSideways(page), false, `${id} scrolls sideways`);
    assert.deepEqual(await unnamedControls(page), [], `${id}: controls without a name`);
    assert.deepEqual(await lowContrastTexts(page), [], `${id}: text below the contrast minimum`);
    await screenshot(page, `console-${id}-phone-en`);
  }
  await openSection(page, "Clock", "clock");
  const size = await page.locator("#clock-time").evaluate((node) => parseFloat(getComputedStyle(node).fontSize));
  assert.ok(size >= 64, `the clock's digits are ${size}px`);
  await closeContext(context);
});

// ---- the organizer token renewed: last, the old token is refused from then on -------------------

test("the organizer token renewed in the console: the old one is refused (401), the page goes on with the new", async () => {
  const old = tallyd.organizer();
  const page = consolePage;
  await page.goto(`${tallyd.base}/t/${CATAN}/console#organizer`);
  await page.locator("#organizer").waitFor({ state: "visible" });
  await page.getByRole("button", { name: "Make a new organizer token" }).click();
  await page.getByRole("button", { name: "Yes, make a new token" }).click();
  await page.locator("#organizer-token").waitFor();
  const fresh = await page.locator("#organizer-token").innerText();
  assert.notEqual(fresh, old);
  assert.equal((await tallyd.api("GET", "/v1/judges", undefined, { token: old })).status, 401, "the old token is refused");
  assert.equal((await tallyd.api("GET", "/v1/judges", undefined, { token: fresh })).status, 200);
  assert.equal(await page.evaluate(() => localStorage.getItem("tallyd.organizer-token")), fresh);
  await screenshot(page, "console-organizer-rotated");

  // The page works with the new token, also after a reload.
  await page.reload();
  await openSection(page, "Players", "players");
  await page.getByLabel("Name", { exact: true }).fill("Late Comer");
  await page.getByRole("button", { name: "Add the player" }).click();
  await page.locator("#players-message").filter({ hasText: "Late Comer is registered" }).waitFor();
  const players = (await tallyd.must(200, "GET", `/v1/tournaments/${CATAN}`, undefined, { token: fresh })).players;
  assert.ok(players.some((p) => p.name === "Late Comer"));

  // Another browser with the old token is asked for the current one.
  const other = await openContext(browser, { viewport: LAPTOP, ...WATCH });
  const stale = await other.newPage();
  await stale.goto(`${tallyd.base}/t/${CATAN}/console`);
  await stale.evaluate((token) => localStorage.setItem("tallyd.organizer-token", token), old);
  await stale.reload();
  await stale.locator("#token-error").filter({ hasText: "This token is not valid" }).waitFor();
  await stale.locator("#token-input").fill(fresh);
  await stale.locator("#token-form button[type=submit]").click();
  await stale.locator("#sections").waitFor({ state: "visible" });
  await closeContext(other);
});
