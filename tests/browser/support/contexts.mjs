// Browser contexts the page tests watch: every page error and every console error (a CSP
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

// Closes `context`; fails when one of its pages had an error.
export async function closeContext(context) {
  const problems = context.problems;
  await context.close();
  assert.deepEqual(problems, [], "errors in the pages (a CSP violation shows here too)");
}
