// The pages' MessageFormat interpreter (client/web/static/i18n.js) against ICU's, which the server
// renders its own texts with: every message of the pages' catalogs (static/locale/{en,cs,it,ru}.json)
// with sample arguments — each plural's and number's argument 0, 1, 2, 5, 21 and 1.5, each select
// with each of its branches and a value none names, the other arguments as a name, a number and a
// list of names — rendered by i18n.js's t() in node and in Debian's headless Chromium, and by
// tally::i18n::Catalogs (ICU MessageFormat, tests/i18n/render_messages.cpp), and the texts
// compared. The first difference fails the test with its key, language and arguments.
//
// Environment (set by CMake): TALLY_RENDER_MESSAGES, the renderer's path; TALLYD_TEST,
// TALLY_BROWSER_DEPS, TALLY_ARTIFACTS, CHROMIUM for the browser.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { parse, t, useCatalog } from "../../client/web/static/i18n.js";
import { startStack, stopStack } from "./support/stack.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const localeDir = path.resolve(here, "../../client/web/static/locale");
const CODES = ["en", "cs", "it", "ru"];
const catalogs = Object.fromEntries(CODES.map((lang) => [lang, JSON.parse(readFileSync(path.join(localeDir, `${lang}.json`), "utf8"))]));

const NUMBERS = [0, 1, 2, 5, 21, 1.5];
const NAME = "Jana Nováková";
// A plain {arg} given a number and a list. Under 1,000: whether Italian groups four digits
// ("1.234" or "1234") is CLDR's data, which changed between ICU 72 (Debian's, the server's) and
// the ICU node and browsers bring (78) — not the interpreter's doing.
const OTHER_SIMPLE = [21.5, ["Eva", "Petr", "Jana"]];
const NO_BRANCH = "no-such-branch";

// The arguments of a pattern by role: numeric (a plural's, a selectordinal's, a {n, number}),
// selects (name → their branch keys) and simple ({name}).
function shapeOf(pattern) {
  const numeric = new Set();
  const selects = new Map();
  const simple = new Set();
  const walk = (parts) => {
    for (const part of parts) {
      if (typeof part !== "object" || part.type === "pound") continue;
      if (part.type === "select") selects.set(part.name, [...new Set([...(selects.get(part.name) || []), ...Object.keys(part.options)])]);
      else if (part.type === "arg") simple.add(part.name);
      else numeric.add(part.name);
      if (part.options) Object.values(part.options).forEach(walk);
    }
  };
  walk(parse(pattern));
  for (const name of numeric) simple.delete(name);
  for (const name of selects.keys()) simple.delete(name);
  return { numeric: [...numeric], selects, simple: [...simple] };
}

// The sample arguments of a pattern (see the top).
function samplesOf(pattern) {
  const { numeric, selects, simple } = shapeOf(pattern);
  const make = (n, chosen = {}, plain = NAME) => {
    const args = {};
    for (const name of numeric) args[name] = n;
    for (const [name, keys] of selects) args[name] = name in chosen ? chosen[name] : keys.find((k) => k !== "other") || "other";
    for (const name of simple) args[name] = plain;
    return args;
  };
  const samples = (numeric.length ? NUMBERS : [2]).map((n) => make(n));
  for (const [name, keys] of selects) for (const key of [...keys, NO_BRANCH]) samples.push(make(2, { [name]: key }));
  if (simple.length) for (const plain of OTHER_SIMPLE) samples.push(make(2, {}, plain));
  return samples;
}

// Every case (each catalog message with each of its samples) and ICU's text of it.
function casesAndIcu() {
  const cases = [];
  for (const lang of CODES) {
    for (const [key, pattern] of Object.entries(catalogs[lang])) {
      for (const args of samplesOf(pattern)) cases.push({ lang, key, args });
    }
  }
  const tmp = mkdtempSync(path.join(os.tmpdir(), "tally-icu-"));
  try {
    const file = path.join(tmp, "cases.json");
    writeFileSync(file, JSON.stringify(cases));
    const renderer = process.env.TALLY_RENDER_MESSAGES;
    assert.ok(renderer, "TALLY_RENDER_MESSAGES names the renderer (i18n-render-messages)");
    const icu = JSON.parse(execFileSync(renderer, [localeDir, file], { encoding: "utf8", maxBuffer: 1 << 28 }));
    assert.equal(icu.length, cases.length);
    return { cases, icu };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

// Fails on the first case whose text `rendered` differs from ICU's.
function compare(where, cases, rendered, icu) {
  const messages = new Set();
  for (const [i, { lang, key, args }] of cases.entries()) {
    if (rendered[i] !== icu[i]) {
      assert.fail(
        `${lang} ${key} with ${JSON.stringify(args)}:\n  i18n.js (${where}): ${JSON.stringify(rendered[i])}\n` +
          `  ICU:     ${JSON.stringify(icu[i])}\n  pattern: ${JSON.stringify(catalogs[lang][key])}`,
      );
    }
    messages.add(`${lang} ${key}`);
  }
  console.log(`# ${where}: ${messages.size} messages (${Object.keys(catalogs.en).length} keys × ${CODES.length} languages), ${cases.length} renderings: all alike`);
}

const { cases, icu } = casesAndIcu();

test("every page message renders in i18n.js in node as ICU renders it, in the four languages", () => {
  const rendered = cases.map(({ lang, key, args }) => {
    useCatalog(lang, catalogs[lang]);
    return t(key, args);
  });
  compare("node", cases, rendered, icu);
});

// The same in Debian's Chromium (its own Intl and ICU data), i18n.js as a page loads it.
test("every page message renders in i18n.js in Chromium as ICU renders it, in the four languages", async () => {
  const stack = await startStack("tally-icu-");
  try {
    const page = await stack.browser.newPage();
    await page.goto(`${stack.tallyd.base}/`);
    const rendered = await page.evaluate(
      async ({ cases, catalogs }) => {
        const { t, useCatalog } = await import("/static/i18n.js");
        return cases.map(({ lang, key, args }) => {
          useCatalog(lang, catalogs[lang]);
          return t(key, args);
        });
      },
      { cases, catalogs },
    );
    compare("Chromium", cases, rendered, icu);
  } finally {
    await stopStack(stack);
  }
});
