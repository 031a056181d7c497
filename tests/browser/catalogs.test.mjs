// The pages' message catalogs (client/web/static/locale/{en,cs,it,ru}.json), in node: the four
// have the same keys and, per key, the same argument names; every key is used by some page
// source and every key the sources use exists; every plural covers the categories its
// language's numbers take; and the texts come out right through the pages' own t():
// plural forms by Intl.PluralRules ("1 stůl / 2 stoly / 5 stolů") and Czech and Italian
// decimal commas ("2,50").

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { compact, fixed2, percent2, plainFixed2 } from "../../client/web/static/format.js";
import { argumentNames, chooseLanguage, formatMessage, LANGUAGES, pluralsOf, t, useCatalog } from "../../client/web/static/i18n.js";
import { standingsColumns, standingsCsv } from "../../client/web/static/standings-columns.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const web = path.resolve(here, "../../client/web");
const localeDir = path.join(web, "static/locale");
const CODES = ["en", "cs", "it", "ru"];

const catalogs = Object.fromEntries(CODES.map((lang) => [lang, JSON.parse(readFileSync(path.join(localeDir, `${lang}.json`), "utf8"))]));
const use = (lang) => useCatalog(lang, catalogs[lang]);

// The page sources: every .html and .js under client/web except the catalogs themselves.
function sources(dir = web) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (full !== localeDir) out.push(...sources(full));
    } else if (/\.(html|js)$/.test(entry.name)) {
      out.push({ file: path.relative(web, full), text: readFileSync(full, "utf8") });
    }
  }
  return out;
}

// The areas of the catalogs' keys ("board.round" → "board").
const AREAS = [...new Set(Object.keys(catalogs.en).map((k) => k.split(".")[0]))];

// Every key a source names: t("…") / tParts("…"), data-i18n="…", data-i18n-attr="attr:…;…",
// and any quoted string that looks like a key of one of the catalogs' areas (the keys kept in
// tables, such as the games' names). File names ("board.css") are not keys.
function keysNamed(text) {
  const found = new Set();
  const keyLike = new RegExp(`["'\`]((?:${AREAS.join("|")})\\.[a-z0-9_.]+)["'\`]`, "g");
  for (const [, key] of text.matchAll(keyLike)) if (!/\.(js|css|html|json)$/.test(key)) found.add(key);
  for (const [, pairs] of text.matchAll(/data-i18n-attr="([^"]*)"/g)) {
    for (const pair of pairs.split(";")) found.add(pair.split(":")[1].trim());
  }
  for (const [, key] of text.matchAll(/\bt(?:Parts)?\(\s*["'`]([^"'`]+)["'`]/g)) found.add(key);
  return found;
}

test("the four catalogs have the same keys, and each key the same argument names", () => {
  const keys = Object.keys(catalogs.en).sort();
  assert.ok(keys.length > 100, `only ${keys.length} keys`);
  for (const lang of CODES) {
    assert.deepEqual(Object.keys(catalogs[lang]).sort(), keys, `${lang}.json's keys`);
    for (const key of keys) {
      assert.equal(typeof catalogs[lang][key], "string", `${lang} ${key}`);
      assert.ok(catalogs[lang][key].trim() !== "", `${lang} ${key} is empty`);
      assert.deepEqual(argumentNames(catalogs[lang][key]), argumentNames(catalogs.en[key]), `${lang} ${key}: its arguments`);
    }
  }
});

test("every key is used by a page and every key a page uses exists", () => {
  const used = new Map(); // key → the files naming it
  for (const { file, text } of sources()) {
    for (const key of keysNamed(text)) used.set(key, [...(used.get(key) || []), file]);
  }
  const missing = [...used.keys()].filter((key) => !(key in catalogs.en)).map((key) => `${key} (${used.get(key).join(", ")})`);
  assert.deepEqual(missing, [], "keys the pages use that the catalogs lack");
  const unused = Object.keys(catalogs.en).filter((key) => !used.has(key));
  assert.deepEqual(unused, [], "keys no page uses");
});

test("every plural has a branch for each category its language's counts take", () => {
  // The categories of counts up to 1000 and of one-decimal fractions: Czech and Russian need
  // one, few, many and other; Italian's "many" (millions) never comes up at a tournament.
  const samples = [...Array.from({ length: 1001 }, (_, i) => i), 0.5, 1.5, 2.5, 5.5];
  for (const lang of CODES) {
    const rules = new Intl.PluralRules(lang);
    const needed = [...new Set(samples.map((n) => rules.select(n)))].sort();
    for (const [key, pattern] of Object.entries(catalogs[lang])) {
      for (const plural of pluralsOf(pattern)) {
        const missing = needed.filter((c) => !plural.keys.includes(c));
        assert.deepEqual(missing, [], `${lang} ${key}: {${plural.name}, plural} lacks ${missing.join(", ")}`);
      }
    }
  }
});

test("plural forms come from Intl.PluralRules through t()", () => {
  const waiting = (n) => t("board.waiting_count", { count: n });
  use("cs");
  assert.deepEqual([1, 2, 5].map(waiting), ["Čeká se na 1 stůl", "Čeká se na 2 stoly", "Čeká se na 5 stolů"]);
  assert.equal(waiting(22), "Čeká se na 22 stolů", "Czech: few is 2–4 only");
  assert.equal(t("standings.info", { game: "Catan", players: 4 }), "Catan · 4 hráči");
  assert.equal(t("standings.info", { game: "Catan", players: 8 }), "Catan · 8 hráčů");
  assert.equal(t("board.progress", { reported: 1, total: 2 }), "Výsledky: 1 z 2 stolů");
  use("ru");
  assert.deepEqual([1, 2, 5].map(waiting), ["Остался 1 стол", "Осталось 2 стола", "Осталось 5 столов"]);
  assert.deepEqual([21, 22, 25].map(waiting), ["Остался 21 стол", "Осталось 22 стола", "Осталось 25 столов"]);
  assert.equal(t("judge.check.to_fill", { count: 24 }), "Осталось заполнить 24 поля");
  use("it");
  assert.deepEqual([1, 2].map(waiting), ["Manca 1 tavolo", "Mancano 2 tavoli"]);
  assert.equal(t("judge.check.broken", { count: 1, marked: "yes" }), "1 regola violata (vedi i campi evidenziati)");
  use("en");
  assert.deepEqual([1, 2].map(waiting), ["Waiting for 1 table", "Waiting for 2 tables"]);
  assert.equal(t("judge.check.to_fill", { count: 1 }), "1 field to fill");
  assert.equal(t("judge.check.broken", { count: 2, marked: "no" }), "2 rules are broken");
});

test("points with a decimal comma in Czech and Italian, a point in English and Russian's own form", () => {
  const points = { value: 2.5, exact: "5/2" };
  use("cs");
  assert.equal(fixed2(points), "2,50");
  assert.equal(compact(1.5), "1,5");
  assert.equal(percent2(0.3448), "34,48\u00a0%");
  use("it");
  assert.equal(fixed2(points), "2,50");
  use("ru");
  assert.equal(fixed2(points), "2,50");
  use("en");
  assert.equal(fixed2(points), "2.50");
  assert.equal(percent2(0.3448), "34.48%");
  // The CSV is the same in every language: "2.50".
  use("cs");
  assert.equal(plainFixed2(points), "2.50");
  const standings = { rows: [{ rank: 1, player: "p1", name: "Eva", games: 1, round_points: points, vp: 10, vp_share: { value: 0.3448 } }] };
  assert.equal(standingsCsv("catan", standings), "#,Name,Games,Round points,VP,VP share\r\n1,Eva,1,2.50,10,34.48%\r\n");
  assert.deepEqual(
    standingsColumns("catan", standings).map((c) => [c.label, c.text(standings.rows[0])]),
    [["#", "1"], ["Jméno", "Eva"], ["Hry", "1"], ["Body za kolo", "2,50"], ["VB", "10"], ["Podíl VB", "34,48\u00a0%"]],
  );
});

test("the MessageFormat interpreter reads the catalogs' syntax as ICU does", () => {
  const f = (pattern, args = {}, lang = "en") => formatMessage(pattern, args, lang).join("");
  assert.equal(f("{n, plural, =0 {none} one {# item} other {# items}}", { n: 0 }), "none");
  assert.equal(f("{n, plural, =0 {none} one {# item} other {# items}}", { n: 1 }), "1 item");
  assert.equal(f("{n, plural, =0 {none} one {# item} other {# items}}", { n: 1234 }), "1,234 items");
  assert.equal(f("{n, number}", { n: 2.5 }, "cs"), "2,5");
  assert.equal(f("{x, select, a {Alpha} other {Other {x}}}", { x: "b" }), "Other b");
  // Apostrophes: doubled is one; before a brace it quotes; elsewhere it is itself.
  assert.equal(f("L'organizzatore dell''evento"), "L'organizzatore dell'evento");
  assert.equal(f("'{literal}' {x}", { x: "y" }), "{literal} y");
  assert.equal(f("{judge}'s entry", { judge: "Eva" }), "Eva's entry");
  // A nested select inside a plural keeps '#'.
  assert.equal(f("{n, plural, one {# x{s, select, a {!} other {?}}} other {# xs}}", { n: 1, s: "a" }), "1 x!");
  assert.throws(() => formatMessage("{n, plural, one {x}}", { n: 1 }, "en"), /other/);
  assert.deepEqual(argumentNames("{count, plural, one {# a {tables}} other {b}}{marked, select, yes {c} other {}}"), ["count", "marked", "tables"]);
});

test("a page's language: the visitor's choice, else the tournament's locale, else English", () => {
  assert.deepEqual(LANGUAGES.map((l) => l.name), ["Čeština", "Italiano", "Русский", "English"]);
  assert.equal(chooseLanguage({ stored: "ru", hasTournament: true, tournamentLocale: "cs" }), "ru");
  assert.equal(chooseLanguage({ stored: null, hasTournament: true, tournamentLocale: "cs-CZ" }), "cs");
  assert.equal(chooseLanguage({ stored: "xx", hasTournament: true, tournamentLocale: "it" }), "it");
  assert.equal(chooseLanguage({ hasTournament: true, tournamentLocale: "de", browser: ["ru"] }), "en", "a tournament page ignores the browser");
  assert.equal(chooseLanguage({ hasTournament: true, tournamentLocale: "" }), "en");
  assert.equal(chooseLanguage({ browser: ["de-DE", "it-IT", "en"] }), "it");
  assert.equal(chooseLanguage({ browser: ["de"] }), "en");
});

// A form that does something and lets one step back must not offer one word twice: "Zrušit
// záznam" (void the entry) beside "Zrušit" (cancel) asks the organizer to guess (issue 38, item 6).
test("a confirming button and the cancel beside it share no word, in every language", () => {
  const words = (text) => new Set(text.toLocaleLowerCase().replace(/\{[^}]*\}/g, " ").split(/[^\p{L}]+/u).filter((w) => w.length > 2));
  for (const lang of CODES) {
    const cancel = words(catalogs[lang]["console.cancel"]);
    for (const key of ["console.audit.void", "console.audit.void_confirm", "console.judges.revoke", "console.judges.revoke_yes"]) {
      const shared = [...words(catalogs[lang][key])].filter((w) => cancel.has(w));
      assert.deepEqual(shared, [], `${lang}: "${catalogs[lang][key]}" (${key}) beside "${catalogs[lang]["console.cancel"]}"`);
    }
  }
});
