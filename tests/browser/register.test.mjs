// The public registration page (/t/{t}/register, client/web/register.html, contract rule Q-7) and
// the console's Registrations section, in Debian's headless Chromium against the real tallyd (its
// test build): on a 360×740 phone someone registers, is told they have a place or where they
// wait, gets the private link and cancels with it (the first one waiting moves up); the same name
// again is refused at its field; a closed registration says so; the console lists registered,
// waiting and cancelled with the e-mail addresses, and turns the registrations into players
// through the import's preview. Nothing wider than the screen. Screenshots are kept in
// $TALLY_ARTIFACTS as register-*.png.
//
// Environment (set by CMake): TALLYD_TEST, TALLY_BROWSER_DEPS, TALLY_ARTIFACTS, CHROMIUM.

import assert from "node:assert/strict";
import path from "node:path";
import { after, before, test } from "node:test";

import { artifacts, startStack, stopStack } from "./support/stack.mjs";
import { closeContext, openContext } from "./support/contexts.mjs";

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1366, height: 768 };

let stack;
let tallyd;
let browser;

before(async () => {
  stack = await startStack("tally-register-");
  ({ tallyd, browser } = stack);
  await tallyd.must(201, "POST", "/v1/tournaments", {
    id: "open-cup",
    name: "Brno Open Cup",
    game: "catan",
    rules: { registration: "open", capacity: 2 },
  });
  await tallyd.must(201, "POST", "/v1/tournaments", { id: "closed-cup", name: "Closed Cup", game: "catan" });
});

after(() => stopStack(stack));

const fitsWidth = (page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

async function screenshot(page, name) {
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
}

// Registers `name` on `page` (the form shown); answers the status line's text once it says so.
async function register(page, name, { club = "", email = "" } = {}) {
  await page.getByLabel("Name").fill(name);
  if (club) await page.getByLabel("Club (optional)").fill(club);
  if (email) await page.getByLabel("E-mail (optional)").fill(email);
  const answer = page.waitForResponse((r) => r.url().endsWith("/registrations") && r.request().method() === "POST");
  await page.getByRole("button", { name: "Register", exact: true }).click();
  return (await answer).status();
}

test("a phone registers, sees the private link, waits in line, and cancels with the link", async () => {
  // The same name again is refused on purpose (409).
  const context = await openContext(browser, { viewport: PHONE, allowed: [/status of 409/] });
  const page = await context.newPage();
  await page.goto(`${tallyd.base}/t/open-cup/register`);
  await page.locator("#form").waitFor({ state: "visible" });
  assert.equal(await page.locator("#tournament-info").textContent(), "Brno Open Cup");
  assert.equal(await page.locator("#places").textContent(), "2 places left of 2.");

  assert.equal(await register(page, "Jana Nováková", { club: "KSH Brno", email: "jana@example.org" }), 201);
  await page.locator("#mine").waitFor({ state: "visible" });
  assert.equal(await page.locator("#mine-status").textContent(), "You have a place.");
  const link = await page.locator("#mine-link").textContent();
  assert.match(link, /\/t\/open-cup\/register#r=r1&key=tly_[0-9a-f]{64}$/);
  assert.equal(await fitsWidth(page), true, "no sideways scrolling at 360 px");
  await screenshot(page, "register-phone-registered");

  // Two more from other phones: the second holds the last place, the third waits as number 1.
  const other = await context.newPage();
  await other.goto(`${tallyd.base}/t/open-cup/register`);
  await other.locator("#mine").waitFor({ state: "visible" }); // this phone remembers Jana's
  await other.evaluate(() => localStorage.removeItem("tallyd.registration.open-cup"));
  await other.reload();
  await other.locator("#form").waitFor({ state: "visible" });
  assert.equal(await register(other, "Petr Novák"), 201);
  await other.locator("#mine").waitFor({ state: "visible" });
  await other.getByRole("button", { name: "Register someone else" }).click();
  await other.locator("#form").waitFor({ state: "visible" });
  assert.equal(await other.locator("#places").textContent(), "All 2 places are taken: a new registration waits in line (0 waiting).");

  // The same name, another spelling: refused at the name, with the first one's status.
  assert.equal(await register(other, "jana novakova"), 409);
  await other.locator("#name-error").waitFor({ state: "visible" });
  assert.match(await other.locator("#status").textContent(), /Jana Nováková is already registered under this name \(holding a place\)/);

  assert.equal(await register(other, "Eva Malá"), 201);
  await other.locator("#mine").waitFor({ state: "visible" });
  assert.equal(await other.locator("#mine-status").textContent(), "You are number 1 in line for a place.");
  await screenshot(other, "register-phone-waiting");

  // The private link opened again (a fresh tab: from the link alone) shows the registration.
  const fresh = await openContext(browser, { viewport: PHONE });
  const linked = await fresh.newPage();
  await linked.goto(link);
  await linked.locator("#mine").waitFor({ state: "visible" });
  assert.equal(await linked.locator("#mine-name").textContent(), "Jana Nováková · KSH Brno");
  // … and cancels it: the first one waiting moves up.
  linked.once("dialog", (dialog) => dialog.accept());
  const cancelled = linked.waitForResponse((r) => r.request().method() === "DELETE");
  await linked.getByRole("button", { name: "Cancel my registration" }).click();
  assert.equal((await cancelled).status(), 200);
  await linked.locator("#mine-status").getByText("Cancelled.").waitFor();
  assert.equal(await linked.locator("#cancel").isHidden(), true);
  await other.reload();
  await other.locator("#mine-status").getByText("You have a place.").waitFor();
  await screenshot(linked, "register-phone-cancelled");
  await closeContext(fresh);
  await closeContext(context);
});

test("a closed registration says so and shows no form", async () => {
  const context = await openContext(browser, { viewport: PHONE });
  const page = await context.newPage();
  await page.goto(`${tallyd.base}/t/closed-cup/register`);
  await page.locator("#status").getByText("Registration is closed.").waitFor();
  assert.equal(await page.locator("#form").isHidden(), true);
  await closeContext(context);
});

test("the page in Czech on a desktop", async () => {
  const context = await openContext(browser, { viewport: DESKTOP, lang: "cs" });
  const page = await context.newPage();
  await page.goto(`${tallyd.base}/t/open-cup/register`);
  await page.locator("#places").getByText("Všech 2 míst je obsazeno", { exact: false }).waitFor();
  assert.equal(await page.locator("#register-heading").textContent(), "Přihláška do turnaje");
  await screenshot(page, "register-desktop-cs");
  await closeContext(context);
});

test("the console lists registered, waiting and cancelled and turns them into players with the preview", async () => {
  await tallyd.must(201, "POST", "/v1/tournaments/open-cup/registrations", { name: "Karel Svoboda", email: "karel@example.org" }, { token: "" });
  const context = await openContext(browser, { viewport: DESKTOP });
  const page = await context.newPage();
  await page.goto(`${tallyd.base}/t/open-cup/console`);
  await page.locator("#token-input").fill(tallyd.organizer());
  await page.locator("#token-form button[type=submit]").click();
  await page.locator("#sections").waitFor({ state: "visible" });
  await page.locator("#sections").getByRole("link", { name: "Registrations", exact: true }).click();
  await page.locator("#registrations").waitFor({ state: "visible" });
  const counts = page.locator("#registrations-counts");
  await counts.getByText("2 with a place, 1 waiting, 1 cancelled").waitFor();
  const rows = page.locator("#registrations-list tr");
  assert.equal(await rows.count(), 4);
  assert.equal(await page.locator('#registrations-list tr[data-registration="r1"] td.email').textContent(), "jana@example.org");
  assert.equal(await page.locator('#registrations-list tr[data-registration="r4"]').getAttribute("data-status"), "waiting");
  await screenshot(page, "register-console");
  // The same section on a phone: nothing wider than the screen.
  await page.setViewportSize(PHONE);
  assert.equal(await fitsWidth(page), true, "the console's Registrations section at 360 px");
  await screenshot(page, "register-console-phone");
  await page.setViewportSize(DESKTOP);

  await page.getByRole("button", { name: "Preview", exact: true }).click();
  await page.locator("#registrations-preview-counts").getByText("2 registrations would become players:").waitFor();
  await page.getByRole("button", { name: "Turn into players" }).click();
  await page.locator("#registrations-preview-counts").getByText("2 registrations turned into players.").waitFor();
  const tournament = await tallyd.must(200, "GET", "/v1/tournaments/open-cup");
  assert.deepEqual(
    tournament.players.map((p) => p.name),
    ["Petr Novák", "Eva Malá"],
  );
  await page.locator('#registrations-list tr[data-registration="r2"]').getByText("player").waitFor();
  await closeContext(context);
});
