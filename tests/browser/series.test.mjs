// The series pages (/s/{s}, client/web/series.html; a person's: /s/{s}?person={p}) in Debian's
// headless Chromium against the real tallyd (its test build): a Catan qualification season of two
// qualifiers of this server and one imported from a venue's server (a second tallyd), people
// linked across them; a ladder whose shared places earn fractions of points; and a season of
// 60-character names with a 41-player qualifier. Checked against the API's answers (the page never
// decides a rule itself): every row with its rank, name, status (a word and a mark, not a colour
// alone), points and "missing"; each tournament with its size, who qualified there, an import's
// origin; a person's results (place, size, passed over) and what is still missing, in Czech and
// English; no sideways scrolling at 360×740 and 390×844. Screenshots: $TALLY_ARTIFACTS/series-*.png
// (and /tmp/series-*.png).
//
// Environment (set by CMake): TALLYD_TEST, TALLY_BROWSER_DEPS, TALLY_ARTIFACTS, CHROMIUM.

import assert from "node:assert/strict";
import { copyFileSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";

import { artifacts, startStack, stopStack } from "./support/stack.mjs";
import { closeContext, openContext } from "./support/contexts.mjs";
import { lowContrastTexts } from "./support/a11y.mjs";
import { Tallyd } from "./support/tallyd.mjs";

const SIZES = {
  tv: { width: 1920, height: 1080 },
  laptop: { width: 1366, height: 768 },
  phone: { width: 390, height: 844 },
  small: { width: 360, height: 740 },
};

let stack;
let tallyd; // the federation's server
let venue; // a venue's server, whose qualifier is imported
let browser;

// ---- a season through the API ---------------------------------------------------------------

const catanRow = (player, cities) => ({
  player, settlements: 2, cities, vp_cards: 0, knights: 0, roads: 5, longest_road: 3,
  largest_army: false, longest_road_holder: false,
});

// A Catan tournament of `rounds` rounds played out on `server`: `players` [{id, name}] seated the
// same way every round (as tests/daemon/series-test.cpp does: table k seats the k-th of each
// quarter; 3-player tables first when the count is not a multiple of 4), seat 1 making 10 VP,
// seat 2 8, seat 3 6, seat 4 4, each round closed (the last close is final).
async function playCatan(server, id, name, players, { rounds = 4, locale = "cs" } = {}) {
  await server.must(201, "POST", "/v1/tournaments", { id, name, game: "catan", locale, rules: { rounds } });
  for (const p of players) await server.must(201, "POST", `/v1/tournaments/${id}/players`, p);
  const n = players.length;
  const m = (4 - (n % 4)) % 4; // tables of three
  const tables = (n + m) / 4;
  const seating = Array.from({ length: tables }, (_, k) => {
    const seats = [0, 1, 2].map((s) => players[s * tables + k].id);
    if (k >= m) seats.push(players[3 * tables + (k - m)].id);
    return seats;
  });
  for (let round = 1; round <= rounds; round++) {
    await server.must(201, "POST", `/v1/tournaments/${id}/rounds`, { method: "manual", tables: seating, reason: "the plan" });
    for (const [k, seats] of seating.entries()) {
      const body = { players: seats.map((p, s) => catanRow(p, 4 - s)) };
      await server.must(201, "PUT", `/v1/tournaments/${id}/rounds/${round}/tables/${k + 1}/result`, body, { headers: { "If-None-Match": "*" } });
    }
    await server.must(201, "POST", `/v1/tournaments/${id}/rounds/${round}/close`, {});
  }
}

const numbered = (prefix, names) => names.map((name, i) => ({ id: `${prefix}${String(i + 1).padStart(2, "0")}`, name }));

// The qualification season "ctt": people a…n; q1 and q2 here, q3 imported from the venue.
const PEOPLE = ["Anna Adamová", "Bohdan Beneš", "Cyril Čech", "Dana Dvořáková", "Eva Erbenová", "Filip Fiala",
  "Gita Hájková", "Hana Horáková", "Ivan Ilek", "Jana Nováková", "Karel Kos", "Lída Lišková", "Marek Malý", "Nela Nová"];

async function qualificationSeason() {
  const q1 = numbered("a", PEOPLE.slice(0, 12));
  const q2 = numbered("b", [PEOPLE[0], PEOPLE[2], PEOPLE[4], PEOPLE[3], PEOPLE[6], PEOPLE[12], PEOPLE[13], PEOPLE[7], PEOPLE[9], PEOPLE[8], PEOPLE[10], PEOPLE[11]]);
  const q3 = numbered("c", [PEOPLE[3], PEOPLE[9], PEOPLE[13], PEOPLE[12], "Olga Orlová", "Pavel Pokorný", "Radek Rys", "Sára Sýkorová",
    "Tomáš Tichý", "Uršula Urbanová", "Věra Vlková", "Zbyněk Zach"]);
  await playCatan(tallyd, "brno", "Brno Open", q1);
  await playCatan(tallyd, "praha", "Praha Cup", q2);
  await playCatan(venue, "olomouc", "Olomouc Qualifier", q3);

  await tallyd.must(201, "POST", "/v1/series", { id: "ctt", name: "Czech Catan Tour 2027", game: "catan", locale: "cs", scoring: { kind: "qualification" } });
  await tallyd.must(201, "POST", "/v1/series/ctt/tournaments", { tournament: "brno" });
  await tallyd.must(201, "POST", "/v1/series/ctt/tournaments", { tournament: "praha" });
  const exported = await venue.api("GET", "/v1/export?tournament=olomouc");
  assert.equal(exported.status, 200);
  const imported = await fetch(`${tallyd.base}/v1/series/ctt/imports`, {
    method: "POST",
    headers: { Authorization: `Bearer ${tallyd.organizer()}`, "Content-Type": "application/x-ndjson" },
    body: typeof exported.body === "string" ? exported.body : JSON.stringify(exported.body),
  });
  assert.equal(imported.status, 201, await imported.text());

  // People: everyone of Brno; those of Praha and Olomouc linked to them by name, new ones added.
  const ids = new Map(); // name → person id
  let next = 1;
  for (const [tournament, players] of [["brno", q1], ["praha", q2], ["olomouc", q3]]) {
    for (const p of players) {
      if (ids.has(p.name)) {
        await tallyd.must(201, "POST", "/v1/series/ctt/links", { tournament, player: p.id, person: ids.get(p.name), decision: "confirm" });
      } else if (p.name !== "Zbyněk Zach") { // one player left unlinked: a row of his own
        const id = `p${next++}`;
        ids.set(p.name, id);
        await tallyd.must(201, "POST", "/v1/series/ctt/people", { id, name: p.name, from: { tournament, player: p.id } });
      }
    }
  }
  return ids;
}

// The ladder "liga": one round of twelve at three tables seated alike, so three share each place
// by four (1st–3rd: (25 + 20 + 16) / 3 = 61/3 each).
async function ladderSeason() {
  const players = numbered("l", PEOPLE.slice(0, 12));
  await playCatan(tallyd, "liga1", "Liga, kolo 1", players, { rounds: 1 });
  await tallyd.must(201, "POST", "/v1/series", { id: "liga", name: "Liga 2027", game: "catan", locale: "en", scoring: { kind: "ladder" } });
  await tallyd.must(201, "POST", "/v1/series/liga/tournaments", { tournament: "liga1" });
  for (const p of players) await tallyd.must(201, "POST", "/v1/series/liga/people", { id: `x${p.id}`, name: p.name, from: { tournament: "liga1", player: p.id } });
}

before(async () => {
  stack = await startStack("tally-series-");
  ({ tallyd, browser } = stack);
  venue = new Tallyd(process.env.TALLYD_TEST, path.join(stack.tmp, "venue"));
  await venue.start();
  await qualificationSeason();
  await ladderSeason();
});

after(async () => {
  if (venue) await venue.stop();
  await stopStack(stack);
});

// The longest content: a 60-character series and tournament names, 40-character names (one an
// unbroken word), a qualifier of 41 players (the largest bracket: 8 direct, 8 on points).
const LONG_FIRST = ["Maximiliána", "Bartoloměj", "Svatopluk", "Františka", "Přemyslava", "Hubertus"];
const LONG_LAST = ["Šťastná-Dvořáková", "Wolfeschlegelsteinhausen", "Konstantinopolská", "Nepomucká-Kratochvílová"];
function longNames(count) {
  const names = [];
  for (let i = 0; i < count; i++) {
    const base = `${LONG_FIRST[i % LONG_FIRST.length]} ${LONG_LAST[Math.floor(i / LONG_FIRST.length) % LONG_LAST.length]} ${i + 1}`;
    names.push(`${base} ${"Zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz".slice(0, Math.max(0, 39 - base.length))}`.trim());
  }
  names[0] = "Wolfeschlegelsteinhausenbergerdorffovacc"; // 40 letters, no break
  return names;
}
const LONG_SERIES = "Mistrovství České republiky v Osadnících z Katanu 2027/2028";
const LONG_TOURNAMENT = "Velký kvalifikační turnaj Moravskoslezského kraje, Ostrava";

async function longSeason() {
  const players = numbered("z", longNames(41));
  await playCatan(tallyd, "ostrava", LONG_TOURNAMENT, players);
  await tallyd.must(201, "POST", "/v1/series", { id: "mcr", name: LONG_SERIES, game: "catan", locale: "cs", scoring: { kind: "qualification" } });
  await tallyd.must(201, "POST", "/v1/series/mcr/tournaments", { tournament: "ostrava" });
  for (const p of players) await tallyd.must(201, "POST", "/v1/series/mcr/people", { id: `m${p.id}`, name: p.name, from: { tournament: "ostrava", player: p.id } });
}

// ---- the pages --------------------------------------------------------------------------------

// The page's route is the server's (daemon/http/pages.cpp, /s/{s}).
async function openSeries(context, pathAndQuery) {
  const page = await context.newPage();
  const response = await page.goto(`${tallyd.base}${pathAndQuery}`);
  assert.equal(response.status(), 200, `GET ${pathAndQuery}: the page's route (daemon/http/pages.cpp, /s/{s}) in this tallyd?`);
  await page.locator("body[data-ready='true'], #load-error:not([hidden])").first().waitFor();
  return page;
}

const fitsWidth = (page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

// Elements wider than their box or past the screen's side (names of what overflows).
const overflowing = (page) =>
  page.evaluate(() => {
    const out = [];
    const width = document.documentElement.clientWidth;
    for (const node of document.querySelectorAll("main *, header *, .top-bar *")) {
      if (node.closest("[hidden]") || node.closest(".visually-hidden")) continue;
      const box = node.getBoundingClientRect();
      if (box.width === 0) continue;
      if (box.right > width + 1 || box.left < -1) out.push(`${node.tagName}.${node.className}: ${node.textContent.slice(0, 40)}`);
    }
    return out.slice(0, 5);
  });

async function shoot(page, name) {
  const file = path.join(artifacts, `series-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  copyFileSync(file, `/tmp/series-${name}.png`);
}

const cellText = (locator) => locator.innerText().then((s) => s.replace(/\s+/g, " ").trim());

test("the series standings: every row with its rank, name, status, points and missing; the tournaments with their sizes and who qualified", async () => {
  const standings = await tallyd.must(200, "GET", "/v1/series/ctt/standings");
  const series = await tallyd.must(200, "GET", "/v1/series/ctt");
  const context = await openContext(browser, { viewport: SIZES.phone, lang: "en" });
  const page = await openSeries(context, "/s/ctt");
  assert.equal(await page.locator("#series-name").innerText(), "Czech Catan Tour 2027");
  const rows = page.locator("#series-standings tbody tr");
  assert.equal(await rows.count(), standings.rows.length);
  const shared = new Map();
  for (const r of standings.rows) shared.set(r.rank, (shared.get(r.rank) || 0) + 1);
  const statusWords = new Set();
  for (const [i, r] of standings.rows.entries()) {
    const row = rows.nth(i);
    assert.equal(await row.getAttribute("data-key"), r.key, `row ${i + 1} in the server's order`);
    assert.equal(await cellText(row.locator(".rank")), shared.get(r.rank) > 1 ? `${r.rank}=` : String(r.rank), `${r.name}'s rank`);
    assert.equal(await cellText(row.locator(".name bdi.person")), r.name);
    assert.equal(await cellText(row.locator(".points")), String(r.points.value));
    assert.equal(await cellText(row.locator(".missing")), r.status || r.points_missing === 0 ? "" : String(r.points_missing), `${r.name}: missing`);
    const badge = row.locator(".status");
    if (r.status) {
      const text = await cellText(badge);
      assert.equal(text, r.status === "direct" ? "★Qualified directly" : "◆Qualified on points", `${r.name}'s status in words and a mark`);
      statusWords.add(text);
      const where = series.tournaments.find((x) => x.id === r.qualified_at).name;
      assert.equal(await cellText(row.locator(".status-line .where")), where);
    } else {
      assert.equal(await badge.count(), 0, `${r.name} is not qualified`);
    }
    assert.equal(await row.locator("a[href]").count(), r.person ? 1 : 0, `${r.name}: a link to the person's page`);
  }
  assert.equal(statusWords.size, 2, "both kinds of qualification, each in its own words");
  // The player not linked to a person: a row of his own, with his tournament.
  const unlinked = standings.rows.find((r) => !r.person);
  assert.equal(await cellText(page.locator(`#series-standings tr[data-key="${unlinked.key}"] .where`)), "Olomouc Qualifier");

  const nameOf = new Map(standings.rows.map((r) => [r.key, r.name]));
  for (const x of standings.tournaments) {
    const card = page.locator(`#series-tournaments li[data-tournament="${x.id}"]`);
    assert.equal(await cellText(card.locator(".tournament-name")), x.name);
    assert.equal(await cellText(card.locator(".size")), `Players counted: ${x.size}`);
    assert.equal(await cellText(card.locator("dd.direct")), x.direct.map((k) => nameOf.get(k)).join(", "), `${x.id}: qualified directly there`);
    assert.equal(await cellText(card.locator("dd.points")), x.points.map((k) => nameOf.get(k)).join(", "), `${x.id}: a point there`);
    const origin = series.tournaments.find((y) => y.id === x.id).origin;
    if (x.imported) {
      assert.equal(await cellText(card.locator(".badge.imported")), "⇩ imported");
      assert.equal(await cellText(card.locator(".origin")), `Imported from the server ${origin.server}`);
    } else {
      assert.equal(await card.locator(".badge.imported, .origin").count(), 0);
    }
  }
  assert.ok(await fitsWidth(page), "no sideways scrolling at 390×844");
  await shoot(page, "standings-390x844");
  assert.deepEqual(await lowContrastTexts(page), [], "every text at least 4.5:1 (3:1 large)");

  // A name leads to the person's page.
  await page.locator(`#series-standings tr[data-key="p4"] a`).click();
  await page.locator("body[data-ready='true']").waitFor();
  assert.equal(new URL(page.url()).search, "?person=p4");
  assert.equal(await cellText(page.locator("#person-name")), "Dana Dvořáková");
  await closeContext(context);
});

test("a ladder: points by place, the shared places' fractions exact", async () => {
  const standings = await tallyd.must(200, "GET", "/v1/series/liga/standings");
  const context = await openContext(browser, { viewport: SIZES.small, lang: "en" });
  const page = await openSeries(context, "/s/liga");
  const rows = page.locator("#series-standings tbody tr");
  assert.equal(await rows.count(), standings.rows.length);
  let fractions = 0;
  for (const [i, r] of standings.rows.entries()) {
    const text = await cellText(rows.nth(i).locator(".points"));
    if (r.points.exact.includes("/")) {
      fractions++;
      const approx = new Intl.NumberFormat("en", { maximumFractionDigits: 2 }).format(r.points.value);
      assert.equal(text, `${r.points.exact} ≈ ${approx}`, `${r.name}: the exact fraction`);
    } else {
      assert.equal(text, r.points.exact);
    }
  }
  assert.ok(fractions >= 3, "three share 1st: 61/3 each");
  assert.equal(await page.locator("#series-standings .missing, #series-standings .status").count(), 0, "a ladder qualifies nobody");
  assert.ok(await fitsWidth(page));
  await shoot(page, "ladder-360x740");
  await closeContext(context);
});

test("a person's page: results by tournament (place, size, passed over) and what is missing, in Czech and English", async () => {
  for (const lang of ["cs", "en"]) {
    const context = await openContext(browser, { viewport: SIZES.small, lang });
    for (const p of ["p7", "p4", "p16", "p1"]) {
      const answer = await tallyd.must(200, "GET", `/v1/series/ctt/people/${p}`, undefined, { headers: { "Accept-Language": lang } });
      const page = await openSeries(context, `/s/ctt?person=${p}`);
      assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
      assert.equal(await cellText(page.locator("#person-name")), answer.name);
      const missing = page.locator("#person-missing");
      if (answer.standing.status) {
        assert.ok(await missing.isHidden(), `${p}: qualified, nothing missing`);
      } else {
        assert.equal(await cellText(missing), answer.missing, `${p}: the server's words in ${lang}`);
      }
      const rows = page.locator("#person-results tbody tr");
      assert.equal(await rows.count(), answer.standing.results.length);
      for (const [i, r] of answer.standing.results.entries()) {
        const row = rows.nth(i);
        assert.equal(await row.getAttribute("data-tournament"), r.tournament);
        assert.equal(await cellText(row.locator(".place")), String(r.place));
        assert.equal(await cellText(row.locator(".size")), String(r.size));
        assert.equal(await row.locator(".passed-over").count(), r.passed_over ? 1 : 0, `${p} at ${r.tournament}: passed over`);
        assert.equal(await row.locator(".status-direct").count(), r.earned === "direct" ? 1 : 0);
        assert.equal(await row.locator(".status-points").count(), r.earned === "point" ? 1 : 0);
      }
      assert.ok(await fitsWidth(page), `${p} in ${lang} at 360×740`);
      assert.deepEqual(await lowContrastTexts(page), [], `${p} in ${lang}: contrast`);
      if (p === "p7" || p === "p4") await shoot(page, `person-${p}-${lang}-360x740`);
      await page.close();
    }
    await closeContext(context);
  }
  // The words themselves (the server's catalog): one point short, in both languages.
  const context = await openContext(browser, { viewport: SIZES.phone, lang: "cs", keepLang: true });
  const page = await openSeries(context, "/s/ctt?person=p7");
  assert.equal(await cellText(page.locator("#person-missing")), "ještě jeden kvalifikační bod");
  assert.match(await cellText(page.locator("#person-results tbody tr[data-tournament='praha'] .outcome")), /Kvalifikační bod/);
  await page.evaluate(() => localStorage.setItem("tallyd.lang", "en"));
  await page.reload();
  await page.locator("body[data-ready='true']").waitFor();
  assert.equal(await cellText(page.locator("#person-missing")), "one more qualification point");
  const dana = await openSeries(context, "/s/ctt?person=p4");
  assert.match(await cellText(dana.locator("#person-results tbody tr[data-tournament='olomouc'] .outcome")), /^Passed over/);
  await closeContext(context);
});

test("the series' language: its locale unless the visitor chose; an unknown series said in words", async () => {
  const context = await openContext(browser, { viewport: SIZES.phone, lang: null, allowed: [/404/] });
  const page = await openSeries(context, "/s/ctt");
  assert.equal(await page.evaluate(() => document.documentElement.lang), "cs", "the series' locale");
  assert.equal(await cellText(page.locator("#standings-heading")), "Pořadí");
  assert.equal(await page.locator("#languages button[aria-pressed='true']").getAttribute("data-lang"), "cs");
  const none = await openSeries(context, "/s/nope");
  assert.match(await cellText(none.locator("#load-error")), /nope/);
  await closeContext(context);
});

test("the longest content in four languages: nothing past the screen's side at 360×740 and 390×844; screenshots", async () => {
  await longSeason();
  for (const lang of ["cs", "en", "it", "ru"]) {
    for (const [name, viewport] of Object.entries(SIZES)) {
      // The TV and the laptop are looked at (screenshots) in Czech and Russian; the phones' width
      // is checked in every language.
      const phone = name === "phone" || name === "small";
      if (!phone && lang !== "cs" && lang !== "ru") continue;
      const context = await openContext(browser, { viewport, lang });
      for (const where of ["/s/mcr", "/s/mcr?person=mz01", "/s/ctt", "/s/ctt?person=p4"]) {
        if (!phone && lang === "ru" && where.startsWith("/s/ctt")) continue;
        const page = await openSeries(context, where);
        assert.equal(await page.locator("body[data-ready='true']").count(), 1, where);
        if (lang === "cs" || (lang === "ru" && where === "/s/mcr")) {
          const label = `${where.includes("person") ? "person" : "standings"}-${where.includes("mcr") ? "long" : "ctt"}-${lang}-${viewport.width}x${viewport.height}`;
          await shoot(page, label);
        }
        if (phone) {
          assert.ok(await fitsWidth(page), `${where} in ${lang} at ${viewport.width}×${viewport.height}: sideways scrolling`);
          assert.deepEqual(await overflowing(page), [], `${where} in ${lang} at ${viewport.width}: past the side`);
        }
        await page.close();
      }
      await closeContext(context);
    }
  }
});
