// Time as a page lives it, for tests that say something did not change with time.

// Waits until `ms` have passed on the page's own event loop, counted by a chain of its own
// `step`-ms timers. A timer the page set before (a clock's 250 ms tick) has had at least as many
// turns by then: the positive signal that the page could have changed, before a test asserts that
// it did not. A sleep in the test's process says nothing of a page whose timers were held up.
export async function pageTimePasses(page, ms, step = 250) {
  await page.evaluate(
    ([total, every]) =>
      new Promise((resolve) => {
        const until = performance.now() + total;
        const tick = () => (performance.now() >= until ? resolve() : setTimeout(tick, every));
        setTimeout(tick, every);
      }),
    [ms, step],
  );
}
