// The venue screen (/t/{t}/board): live standings in large type, the current round's progress
// and its clock, rows that changed lit up for a moment (when few did), movement arrows against
// the previous round's final standings, pages of whole rows when the standings do not fit ("Places
// 9–16 of 24" and a dot per page), a visible "connection lost" state while the live feed
// reconnects, and a QR code of the public standings page (with a warning when its address is
// one phones cannot reach). Once the last round is closed as the final one: "Final standings" and
// a podium of the first three places. A staged tournament (docs/games/stages.md) shows, while final
// tables, a final or a knockout are played, their tables with the seeds or the bracket with the
// winners as the results arrive, instead of the standings; once the server gives the final
// standings (`final`), those with their podium.
//
// Query parameters: ?page=SECONDS how long a full page of standings stays (default 10; a shorter
// page less, in proportion to its rows); ?public=http://192.168.1.20:8080 the address phones
// reach this server at, for the QR code (default: the address the screen itself uses, useless to
// a phone when that is 127.0.0.1).

import { getJson, tournamentIdFromLocation, tournamentPath } from "./api.js";
import { fullRows, pageSeconds, paginate, placesOf } from "./board-paging.js";
import { createClock } from "./clock.js";
import { clear, el, person, setChildren } from "./dom.js";
import { clockTime, localTime, rankText } from "./format.js";
import { formatList, startI18n, t, tParts } from "./i18n.js";
import { LiveFeed } from "./live.js";
import { isLoopbackHost } from "./loopback.js";
import { breakableAddress, fitText, refitOnResize } from "./fit-text.js";
import { encodeQr, qrSvg } from "./qr-code.js";
import { gameName, standingsColumns } from "./standings-columns.js";
import { bracketRounds, liveStage, seedOf, stageName, stageRoundName } from "./stages.js";

const HIGHLIGHT_MS = 6000; // as long as the CSS animation of tr.changed
// More rows changed than this within HIGHLIGHT_MS (the end of a round, a reconnect): none is lit,
// a light is news only when it is rare; the arrows say who moved.
const HIGHLIGHT_MAX_ROWS = 5;
const WAITING_TABLES_SHOWN = 12; // more open tables than this: only their count is shown
const PODIUM_PLACES = 3;
const PAGE_DOTS_MAX = 30; // more pages than this: "page 7 of 125" instead of a row of dots
const DENSE_ROWS = 48; // more rows than this: smaller ones (board.css body.dense), more a page

const $ = (id) => document.getElementById(id);
const tournament = tournamentIdFromLocation();
const params = new URLSearchParams(window.location.search);
let game = null;
let previousRows = null; // player → {rank, signature} of the last standings shown
const changedAt = new Map(); // player → when their row last changed (ms), while it is lit
let progressKey = "";
let roundClock = null; // clock.js, once the catalog is loaded
let lastStandings = null; // the standings shown (re-rendered when the arrows' baseline arrives)
// The previous round's final standings, the arrows' baseline: {round, ranks: player → rank}, for
// the live round `round`; ranks null while loading, and in round 1 (no arrows then).
let baseline = { round: 0, ranks: null };

// The live round closed as the tournament's final one.
const isFinal = (round) => Boolean(round && round.closed && round.final);
// The final standings of a staged tournament, once its last stage is complete (S-8), or null.
const stagedFinal = (standings) => (standings && Array.isArray(standings.final) ? standings.final : null);

// The final standings as the board's rows: the place the server gives (shared: "3="), the name,
// and the stage the player's tournament ended in.
function finalStandings(final) {
  return { rows: final.map((f) => ({ rank: f.place, player: f.player, name: f.name, shared: f.shared, stage_kind: f.stage_kind })) };
}

function finalColumns() {
  return [
    { key: "rank", label: "#", numeric: true, text: (r) => rankText(r.rank, r.shared) },
    { key: "name", label: t("columns.name"), text: (r) => r.name },
    { key: "stage", label: t("board.column_stage"), text: (r) => stageName({ kind: r.stage_kind }) },
  ];
}

// ---- standings ---------------------------------------------------------------------------------

function renderStandings(message) {
  lastStandings = message;
  const final = stagedFinal(message);
  const standings = final ? finalStandings(final) : message;
  const columns = final ? finalColumns() : standingsColumns(game, standings).filter((c) => c.board && !c.csvOnly);
  const table = $("standings");
  const head = el("tr", {}, columns.map((c) => el("th", { scope: "col", class: c.numeric ? "number" : "" }, c.label)));
  setChildren(table.tHead, head);

  const rows = new Map();
  const now = Date.now();
  const cells = new Map(); // player → its cells' texts
  for (const row of standings.rows) {
    const texts = columns.map((c) => c.text(row));
    const signature = texts.slice(1).join("\u0001"); // all but the rank
    rows.set(row.player, { rank: row.rank, signature });
    cells.set(row.player, texts);
    const before = previousRows && previousRows.get(row.player);
    // Lit: the rows whose own values changed (a result came in). A row that only moved because
    // others overtook it gets its arrow, not the light, so the light says where the news is.
    if (previousRows !== null && (!before || before.signature !== signature)) changedAt.set(row.player, now);
  }
  for (const [player, at] of changedAt) if (now - at >= HIGHLIGHT_MS || !rows.has(player)) changedAt.delete(player);
  const lit = changedAt.size <= HIGHLIGHT_MAX_ROWS;

  const body = clear(table.tBodies[0]);
  for (const row of standings.rows) {
    const tr = el("tr", { dataset: { player: row.player } });
    const texts = cells.get(row.player);
    columns.forEach((c, i) => {
      const td = el("td", { class: [c.key, c.numeric ? "number" : ""].join(" ") });
      if (c.key === "rank") td.append(...(final ? [] : movement(row)), texts[i]);
      else if (c.key === "name") td.append(nameLine(row, texts[i], standings));
      else td.append(texts[i]);
      tr.append(td);
    });
    if (lit) light(tr, row.player);
    body.append(tr);
  }
  $("empty-standings").hidden = standings.rows.length > 0;
  document.body.classList.toggle("dense", standings.rows.length > DENSE_ROWS);
  previousRows = rows;
  $("updated").textContent = t("board.updated", { time: clockTime() });
  repaginate();
}

// A name longer than its column shrinks — down to NAME_ONE_LINE of the row's type — to stay on
// one line, so that a field of long names still shows its rows a page; one that would have to
// be smaller than that takes two lines instead, as large as lets its longest word fit whole
// (never under NAME_SMALLEST). A word too long even then (a phone's narrow column beside AGoT's
// seven) is never broken: the name is cut with "…" on one line. Measured on a canvas: no layout per row. Called by repaginate()
// with every row shown.
const NAME_ONE_LINE = 0.5;
const NAME_SMALLEST = 0.45;
let measure = null;
function fitNames() {
  const lines = [...$("standings").tBodies[0].querySelectorAll(".name-line")];
  if (lines.length === 0) return;
  for (const line of lines) {
    line.style.fontSize = "";
    line.classList.remove("cut");
  }
  const cell = lines[0].parentElement;
  const style = getComputedStyle(cell);
  const room = cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 1;
  const size = parseFloat(style.fontSize);
  measure = measure || document.createElement("canvas").getContext("2d");
  measure.font = `${style.fontWeight} ${size}px ${style.fontFamily}`;
  const badgeRoom = size * 0.8 * 0.8 + size; // a badge's padding, border and margin, at most
  for (const line of lines) {
    const badges = [...line.querySelectorAll(".badge")];
    const name = line.querySelector(".person").textContent;
    const width = measure.measureText(name).width + badges.reduce((sum, b) => sum + 0.8 * measure.measureText(b.textContent).width + badgeRoom, 0);
    if (width <= room) continue;
    let scale = room / width;
    if (scale < NAME_ONE_LINE) {
      const longest = Math.max(...name.split(/\s+/).map((word) => measure.measureText(word).width));
      scale = Math.min(1, room / longest, (2 * room) / width);
      if (scale < NAME_SMALLEST) {
        line.classList.add("cut");
        scale = NAME_ONE_LINE;
      }
    }
    line.style.fontSize = `${Math.floor(scale * 100) / 100}em`;
  }
}

// ▲ or ▼ when the row's rank is not the one it had in the previous round's final standings
// (none in round 1, nor for a player who was not in them).
function movement(row) {
  const before = baseline.ranks && baseline.ranks.get(row.player);
  if (before === undefined || before === null || before === row.rank) return [];
  const up = row.rank < before;
  return [
    el("span", { class: `movement ${up ? "up" : "down"}`, "aria-hidden": "true" }, up ? "▲" : "▼"),
    el("span", { class: "visually-hidden" }, t(up ? "board.moved_up" : "board.moved_down", { rank: String(before) })),
  ];
}

// The name, isolated and wrapping (at most two lines on the board, board.css), and its badges.
function nameLine(row, name, standings) {
  return el(
    "span",
    { class: "name-line" },
    person(name),
    row.dropped && el("span", { class: "badge" }, t("common.dropped")),
    (standings.conqueror || []).includes(row.player) && el("span", { class: "badge", title: t("common.conqueror_title") }, t("common.conqueror")),
  );
}

// The arrows' baseline for the live round: the standings as they were just before it was seated
// (GET …/standings?as_of= its seating_seq − 1), fetched once per round. Round 1 has none. Once
// the rows show the arrows of a round (or that it has none), the table's data-arrows-round names
// it: what a test waits for before it looks for arrows, or for their absence.
async function loadBaseline(round) {
  const number = round ? round.round : 0;
  if (number === baseline.round) return;
  baseline = { round: number, ranks: null };
  delete $("standings").dataset.arrowsRound;
  if (number <= 1) {
    $("standings").dataset.arrowsRound = String(number);
    return;
  }
  const sheet = await getJson(`${tournamentPath(tournament)}/rounds/${number}`);
  const before = await getJson(`${tournamentPath(tournament)}/standings?as_of=${sheet.seating_seq - 1}`);
  if (baseline.round !== number) return; // another round began meanwhile
  baseline = { round: number, ranks: new Map(before.rows.map((r) => [r.player, r.rank])) };
  if (lastStandings) renderStandings(lastStandings);
  $("standings").dataset.arrowsRound = String(number);
}

// A changed row stays lit for HIGHLIGHT_MS, also across re-renders in between: its animation
// resumes where it was (a negative delay) instead of starting over.
function light(tr, player) {
  const since = changedAt.has(player) ? Date.now() - changedAt.get(player) : Infinity;
  if (since >= HIGHLIGHT_MS) return;
  tr.classList.add("changed");
  tr.style.animationDelay = `-${since}ms`;
  setTimeout(() => tr.classList.remove("changed"), HIGHLIGHT_MS - since);
}

// ---- the round's progress ---------------------------------------------------------------------

function renderProgress(round, standings) {
  const heading = $("round-heading");
  const bar = $("progress-bar");
  if (stagedFinal(standings)) {
    progressKey = "final";
    heading.textContent = t("board.final_heading");
    $("progress-text").textContent = "";
    $("waiting-tables").textContent = "";
    bar.hidden = true;
    return;
  }
  if (!round) {
    heading.textContent = t("board.no_round");
    $("progress-text").textContent = "";
    $("waiting-tables").textContent = "";
    bar.hidden = true;
    return;
  }
  const key = `${round.round}/${round.reported}/${round.tables_total}/${Boolean(round.closed)}/${Boolean(round.final)}`;
  if (isFinal(round)) {
    progressKey = key;
    heading.textContent = t("board.final_heading");
    $("progress-text").textContent = t("board.final_after", { rounds: round.round });
    $("waiting-tables").textContent = "";
    bar.hidden = true;
    return;
  }
  heading.textContent = stageRoundName(standings, round.round) || t("board.round", { round: String(round.round) });
  $("progress-text").textContent = t("board.progress", { reported: round.reported, total: round.tables_total });
  bar.hidden = false;
  bar.max = Math.max(1, round.tables_total);
  bar.value = round.reported;
  if (round.closed) {
    progressKey = key;
    $("waiting-tables").textContent = t("board.round_closed");
    return;
  }
  if (key !== progressKey) {
    progressKey = key;
    showWaitingTables(round, key).catch(() => {}); // a detail: the next update tries again
  }
}

// Which tables the round still waits for (from the round sheet).
async function showWaitingTables(round, key) {
  const open = round.tables_total - round.reported;
  const line = $("waiting-tables");
  if (open === 0) {
    line.textContent = t("board.round_complete");
    return;
  }
  if (open > WAITING_TABLES_SHOWN) {
    line.textContent = t("board.waiting_count", { count: open });
    return;
  }
  const sheet = await getJson(`${tournamentPath(tournament)}/rounds/${round.round}`);
  if (key !== progressKey) return; // stale
  const waiting = sheet.tables.filter((table) => table.status !== "reported").map((table) => table.table);
  line.textContent = waiting.length ? t("board.waiting_tables", { count: waiting.length, tables: formatList(waiting.map(String)) }) : "";
}

// ---- the round clock ---------------------------------------------------------------------------

// The live round's clock, from the moment the message arrived; none for a closed round.
function renderClock(round, receivedAt) {
  roundClock.update(round && !round.closed ? round.clock : null, receivedAt);
}

// ---- the end of the event: the podium -----------------------------------------------------------

// The places 1 to 3 as the standings give them (a shared place is one step with several names:
// 1, 1, 3 is two steps, never ranks of our own), shown 2 – 1 – 3 by the style sheet.
function renderPodium(round, standings) {
  const podium = $("podium");
  const staged = stagedFinal(standings);
  const final = isFinal(round) || Boolean(staged);
  podium.hidden = !final;
  document.body.classList.toggle("final", final);
  $("standings").caption.textContent = t(final ? "board.final_heading" : "board.caption");
  if (!final) return;
  const steps = [];
  for (const row of staged ? finalStandings(staged).rows : standings.rows) {
    if (row.rank > PODIUM_PLACES) continue;
    const step = steps.find((s) => s.rank === row.rank);
    if (step) step.names.push(row.name);
    else steps.push({ rank: row.rank, names: [row.name] });
  }
  setChildren(
    $("podium-steps"),
    steps.map((step, i) =>
      el(
        "li",
        { class: "podium-step", dataset: { rank: step.rank, position: i + 1 } },
        el("span", { class: "podium-place", "aria-hidden": "true" }, String(step.rank)),
        el("span", { class: "visually-hidden" }, t("board.podium_place", { place: step.rank })),
        el("span", { class: "podium-names" }, step.names.map((name) => person(name, { class: "podium-name" }))),
      ),
    ),
  );
  fitPodium();
}

// A podium name takes two lines at most and is never broken inside a word: a long one is made
// smaller (down to PODIUM_SMALLEST of its size) until its longest word fits its step and it takes
// two lines; one too long even then is cut with "…" (board.css .podium-name.cut).
const PODIUM_SMALLEST = 0.35;
function fitPodium() {
  for (const name of $("podium-steps").querySelectorAll(".podium-name")) {
    name.style.fontSize = "";
    name.classList.remove("cut");
    const base = parseFloat(getComputedStyle(name).fontSize);
    const tooBig = () => {
      const line = parseFloat(getComputedStyle(name).lineHeight) || parseFloat(getComputedStyle(name).fontSize) * 1.15;
      return name.scrollWidth > name.clientWidth + 1 || name.getBoundingClientRect().height > 2 * line + 1;
    };
    let scale = 1;
    while (tooBig() && scale > PODIUM_SMALLEST) {
      scale = Math.round((scale - 0.05) * 100) / 100;
      name.style.fontSize = `${base * scale}px`;
    }
    if (tooBig()) name.classList.add("cut");
  }
}

// ---- a stage: its tables or its bracket ---------------------------------------------------------

// While final tables, a final or a knockout are played, the board shows them instead of the
// standings (which stay the qualifying rounds'): the tables with each player's seed, the order
// once a table is reported; the bracket round by round, the rounds still to come as empty games,
// each winner marked as its result arrives. The body's data-stage names the stage shown.
function renderStage(standings) {
  const stage = liveStage(standings);
  const view = $("stage-view");
  view.hidden = !stage;
  $("standings-viewport").hidden = Boolean(stage);
  $("pager").hidden = Boolean(stage);
  document.body.classList.toggle("staged", Boolean(stage));
  if (!stage) {
    delete document.body.dataset.stage;
    clear($("stage-body"));
    return;
  }
  document.body.dataset.stage = String(stage.index);
  const names = new Map(standings.rows.map((r) => [r.player, r.name]));
  $("stage-heading").textContent = stageName(stage);
  const name = (player) => el("span", { class: "stage-name" }, person(names.get(player) || player));
  const seat = (player, classes = "") =>
    el(
      "li",
      { class: `stage-player ${classes}`.trim(), dataset: { player: player || "" } },
      el("span", { class: "stage-seed", title: player ? t("board.seed", { seed: seedOf(stage, player) }) : "" }, player ? String(seedOf(stage, player)) : ""),
      player ? name(player) : el("span", { class: "stage-name open" }, "–"),
      el("span", { class: "stage-mark", "aria-hidden": "true" }, classes.includes("won") ? "✔" : ""),
      classes.includes("won") ? el("span", { class: "visually-hidden" }, t("board.winner")) : null,
    );
  if (stage.kind === "knockout") {
    setChildren(
      $("stage-body"),
      el(
        "div",
        { class: "bracket" },
        bracketRounds(stage).map((round) =>
          el(
            "section",
            { class: "bracket-round", dataset: { round: round.round === null ? "" : round.round } },
            el("h3", {}, round.name),
            el(
              "ol",
              { class: "bracket-games" },
              round.games.map((g) =>
                el(
                  "li",
                  { class: `bracket-game ${g.third_place ? "third-place" : ""} ${g.placeholder ? "placeholder" : ""}`.trim(), dataset: { table: g.table ?? "", winner: g.winner || "" } },
                  el("p", { class: "bracket-table" }, g.third_place ? t("stage.third_place") : g.table ? t("board.table", { table: g.table }) : ""),
                  el(
                    "ol",
                    { class: "stage-players" },
                    g.players.map((p) => seat(p, g.winner ? (g.winner === p ? "won" : "lost") : "")),
                  ),
                ),
              ),
            ),
          ),
        ),
      ),
    );
  } else {
    const continuing = new Set(stage.continuing || []);
    setChildren(
      $("stage-body"),
      el(
        "ol",
        { class: "stage-tables" },
        stage.tables.map((table) => {
          const done = Array.isArray(table.order);
          return el(
            "li",
            { class: `stage-table ${done ? "done" : ""}`.trim(), dataset: { table: table.table, round: table.round } },
            el("h3", {}, t("board.table", { table: table.table }), " ", el("span", { class: "stage-table-status" }, done ? t("board.table_done") : "")),
            el("ol", { class: "stage-players" }, (done ? table.order : table.players).map((p, i) => seat(p, done && i === 0 ? "won" : continuing.has(p) ? "on" : ""))),
          );
        }),
      ),
    );
  }
  fitStage();
}

// The stage's type as large as lets the whole of it fit the screen's room (from its full size
// down to half of it), measured: no scrolling, nothing cut at the side.
const STAGE_SMALLEST = 0.45;
const NAMES_WHOLE = 0.7;
function fitStage() {
  const view = $("stage-view");
  if (view.hidden) return;
  const body = $("stage-body");
  let scale = 1;
  body.style.fontSize = "1em";
  const fits = () => view.scrollHeight <= view.clientHeight + 1 && body.scrollWidth <= body.clientWidth + 1;
  // A name cut with "…" makes the type smaller too, while that leaves it large (NAMES_WHOLE).
  const names = [...body.querySelectorAll(".stage-name")];
  const cut = () => scale > NAMES_WHOLE && names.some((n) => n.scrollHeight > n.clientHeight + 1 || n.scrollWidth > n.clientWidth + 1);
  while ((!fits() || cut()) && scale > STAGE_SMALLEST) {
    scale = Math.round((scale - 0.05) * 100) / 100;
    body.style.fontSize = `${scale}em`;
  }
  view.dataset.scale = String(scale);
}

// ---- connection state -------------------------------------------------------------------------

let lastLive = null;
function renderStatus(status) {
  const banner = $("connection");
  if (status === "live") lastLive = new Date();
  const lost = status === "lost";
  document.body.classList.toggle("offline", lost);
  banner.hidden = !lost;
  if (!lost) banner.textContent = "";
  else if (lastLive) banner.textContent = t("board.connection_lost_since", { time: localTime(lastLive.toISOString()) });
  else banner.textContent = t("common.connection_lost");
}

// ---- pages of whole rows ------------------------------------------------------------------------
//
// When the standings are taller than their part of the screen, they are shown a page at a time:
// as many whole rows as fit (measured, since a long name may take two lines), never half a row.
// Each page stays in proportion to its rows (a full page `page` seconds), then the next, and
// back to the first. A line under them says which places are shown, a dot per page.

const paging = { pages: [], index: 0, timer: null, seconds: 10 };

// Measures the rows (all shown for it) and cuts them into pages; keeps the page shown (or the
// last one, when there are fewer now). Called after every render and when the screen changes.
function repaginate() {
  const viewport = $("standings-viewport");
  const table = $("standings");
  const rows = [...table.tBodies[0].rows];
  for (const tr of rows) tr.hidden = false;
  fitNames(); // with every row shown: the columns' widths are the whole list's
  const available = viewport.clientHeight - table.tHead.getBoundingClientRect().height;
  const heights = rows.map((tr) => tr.getBoundingClientRect().height);
  // Half a pixel of rounding is not a row cut in half.
  paging.pages = paginate(heights, available + 0.5);
  paging.index = Math.min(paging.index, Math.max(0, paging.pages.length - 1));
  showPage();
  if (paging.pages.length > 1 && paging.timer === null) scheduleNextPage();
  if (paging.pages.length <= 1 && paging.timer !== null) {
    clearTimeout(paging.timer);
    paging.timer = null;
  }
}

function showPage() {
  const rows = [...$("standings").tBodies[0].rows];
  const page = paging.pages[paging.index];
  rows.forEach((tr, i) => (tr.hidden = Boolean(page) && (i < page.first || i > page.last)));
  const pager = $("pager");
  const several = paging.pages.length > 1;
  pager.classList.toggle("single", !several); // the line keeps its place: the rows do not move
  if (!page) {
    $("page-places").textContent = "";
    clear($("page-dots"));
    return;
  }
  $("page-places").textContent = t("board.places", placesOf(page, rows.length));
  if (paging.pages.length > PAGE_DOTS_MAX) {
    setChildren($("page-dots"), el("span", { class: "page-number" }, t("board.page_of", { page: paging.index + 1, pages: paging.pages.length })));
  } else {
    setChildren(
      $("page-dots"),
      paging.pages.map((_, i) => el("span", { class: i === paging.index ? "page-dot current" : "page-dot" })),
      el("span", { class: "visually-hidden" }, t("board.page_of", { page: paging.index + 1, pages: paging.pages.length })),
    );
  }
}

function scheduleNextPage() {
  const page = paging.pages[paging.index];
  const seconds = page ? pageSeconds(page, fullRows(paging.pages), paging.seconds) : paging.seconds;
  paging.timer = setTimeout(() => {
    paging.timer = null;
    if (paging.pages.length <= 1) return;
    paging.index = (paging.index + 1) % paging.pages.length;
    showPage();
    scheduleNextPage();
  }, seconds * 1000);
}

// ---- start ------------------------------------------------------------------------------------

function showQr() {
  const base = (params.get("public") || window.location.origin).replace(/\/+$/, "");
  const url = `${base}/t/${encodeURIComponent(tournament)}`;
  const qr = encodeQr(url);
  const svg = qrSvg(document, qr, { title: t("board.qr_title", { url }) });
  svg.id = "qr-svg";
  svg.dataset.text = url;
  setChildren($("qr-code"), svg);
  setChildren($("qr-url"), breakableAddress(document, url));
  refitOnResize($("qr-url"), () => fitText($("qr-url"), { lines: 4, min: 0.6 }));
  warnIfLoopback(url);
}

// A QR code of 127.0.0.1 (the board opened on the computer that runs tallyd) takes every phone
// to itself: the organizer is told, on the board, how to give the address phones can reach.
function warnIfLoopback(url) {
  let host = "";
  try {
    host = new URL(url).hostname;
  } catch {
    return;
  }
  const warning = $("qr-warning");
  warning.hidden = !isLoopbackHost(host);
  if (warning.hidden) return;
  const port = window.location.port || (window.location.protocol === "https:" ? "443" : "80");
  const example = `?public=${window.location.protocol}//<${t("board.qr_lan_address")}>:${port}`;
  setChildren(warning, tParts("board.qr_loopback", { host: el("code", {}, host), example: el("code", {}, example) }));
}

async function main() {
  await startI18n({ tournament });
  if (!tournament) return;
  roundClock = createClock($("round-clock"), { size: "large" });
  showQr();
  try {
    const loaded = await getJson(tournamentPath(tournament));
    game = loaded.game;
    $("tournament-name").textContent = loaded.name;
    refitOnResize($("tournament-name"), () => fitText($("tournament-name"), { lines: 3, min: 0.45 }));
    $("game-name").textContent = gameName(loaded.game);
    document.title = t("board.title_named", { name: loaded.name });
  } catch (e) {
    $("tournament-name").textContent =
      e.status === 404 ? t("common.no_tournament", { id: tournament }) : t("common.cannot_load_tournament", { error: e.message });
    return;
  }
  paging.seconds = Math.max(1, Number(params.get("page")) || 10);
  const feed = new LiveFeed(tournament, {
    onStatus: renderStatus,
    onMessage: (message) => {
      if (message.type === "snapshot" || message.type === "standings") {
        const receivedAt = Date.now();
        renderClock(message.round, receivedAt);
        renderProgress(message.round, message.standings);
        renderStage(message.standings);
        renderPodium(message.round, message.standings); // before the rows: it takes their room
        renderStandings(message.standings);
        loadBaseline(message.round).catch(() => {
          baseline.round = 0; // no arrows for now; the next update tries again
        });
      }
      // The newest seq the board has taken in (every message before it is shown): what a test
      // waits for before it says that an event changed nothing on the board.
      if (typeof message.seq === "number") document.body.dataset.seq = String(message.seq);
    },
  });
  feed.start();
  // The rows' room changes with the screen, the podium, the warnings: the pages are cut again.
  new ResizeObserver(() => repaginate()).observe($("standings-viewport"));
  new ResizeObserver(() => fitStage()).observe($("stage-view"));
}

main();
