// Browser contexts the page tests open and watch: every page error and every console error (a CSP
// violation shows there too) is collected, and closing the context fails the test when any came.

import assert from "node:assert/strict";

// Collects the problems of every page `context` opens (in context.problems), but for console
// errors matching one of context.allowed (the refusals a test provokes on purpose: `allowed`, and
// what a test adds later); `timeout` per action.
export function watchForProblems(context, { allowed = [], timeout = 10000 } = {}) {
  context.problems = [];
  context.allowed = [...allowed];
  context.on("page", (page) => {
    page.on("pageerror", (e) => context.problems.push(`page error: ${e.message}`));
    page.on("console", (m) => {
      if (m.type() === "error" && !context.allowed.some((re) => re.test(m.text())))
        context.problems.push(`console: ${m.text()}`);
    });
  });
  context.setDefaultTimeout(timeout);
}

// The venue's time zone (the server speaks UTC).
const TIMEZONE = "Europe/Prague";

// A browser context (one visitor's browser, its own storage) at the venue: `viewport`, time zone
// Europe/Prague, the browser's `locale`. `lang`: the language its visitor chose with the pages'
// switcher, kept in localStorage "tallyd.lang" (null: none, the page decides from the tournament
// or the locale); with `keepLang`, set only while none is kept (a choice made on a page then
// survives the reloads). `touch`: a touch screen (hasTouch); `downloads`: acceptDownloads;
// `noPrint`: window.print does nothing (no print dialog in a test: the print CSS is what is
// checked). Watched as watchForProblems does, with `allowed` and `timeout`.
export async function openContext(
  browser,
  { viewport, lang = "en", locale = "en-GB", keepLang = false, touch = false, downloads = false, noPrint = false, allowed = [], timeout } = {},
) {
  const options = { viewport, timezoneId: TIMEZONE, locale };
  if (touch) options.hasTouch = true;
  if (downloads) options.acceptDownloads = true;
  const context = await browser.newContext(options);
  if (lang || noPrint) {
    await context.addInitScript((chosen) => {
      try {
        if (chosen.lang && !(chosen.keepLang && localStorage.getItem("tallyd.lang"))) localStorage.setItem("tallyd.lang", chosen.lang);
      } catch {
        // a page without storage (about:blank)
      }
      if (chosen.noPrint) window.print = () => {};
    }, { lang, keepLang, noPrint });
  }
  watchForProblems(context, { allowed, timeout });
  return context;
}

// Closes `context`; fails when one of its pages had an error.
export async function closeContext(context) {
  const problems = context.problems;
  await context.close();
  assert.deepEqual(problems, [], "errors in the pages (a CSP violation shows here too)");
}
