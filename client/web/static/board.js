// The venue screen (/t/{t}/board): live standings in large type, the current round's progress
// and its clock, rows that changed lit up for a moment, automatic paging when the standings do
// not fit, a visible "connection lost" state while the live feed reconnects, and a QR code of the
// public standings page. Once the last round is closed as the final one: "Final standings" and a
// podium of the first three places.
//
// Query parameters: ?page=SECONDS how long each page of standings stays (default 10);
// ?public=http://192.168.1.20:8080 the address phones reach this server at, for the QR code
// (default: the address the screen itself uses, useless to a phone when that is 127.0.0.1).

import { getJson, tournamentIdFromLocation, tournamentPath } from "./api.js";
import { createClock } from "./clock.js";
import { clear, el, setChildren } from "./dom.js";
import { clockTime, localTime } from "./format.js";
import { formatList, startI18n, t } from "./i18n.js";
import { LiveFeed } from "./live.js";
import { encodeQr, qrSvg } from "./qr.js";
import { gameName, standingsColumns } from "./standings-columns.js";

const HIGHLIGHT_MS = 6000; // as long as the CSS animation of tr.changed
const WAITING_TABLES_SHOWN = 12; // more open tables than this: only their count is shown
const PODIUM_PLACES = 3;

const $ = (id) => document.getElementById(id);
const tournament = tournamentIdFromLocation();
const params = new URLSearchParams(window.location.search);
let game = null;
let previousRows = null; // player → {rank, signature} of the last standings shown
const changedAt = new Map(); // player → when their row last changed (ms), while it is lit
let progressKey = "";
let roundClock = null; // clock.js, once the catalog is loaded

// The live round closed as the tournament's final one.
const isFinal = (round) => Boolean(round && round.closed && round.final);

// ---- standings --------------------------------------------------------------------------------

function renderStandings(standings) {
  const columns = standingsColumns(game, standings).filter((c) => c.board && !c.csvOnly);
  const table = $("standings");
  const head = el("tr", {}, columns.map((c) => el("th", { scope: "col", class: c.numeric ? "number" : "" }, c.label)));
  setChildren(table.tHead, head);

  const rows = new Map();
  const body = clear(table.tBodies[0]);
  for (const row of standings.rows) {
    const cells = columns.map((c) => c.text(row));
    const signature = cells.slice(1).join("\u0001"); // all but the rank
    rows.set(row.player, { rank: row.rank, signature });
    const before = previousRows && previousRows.get(row.player);
    // Lit: the rows whose own values changed (a result came in). A row that only moved because
    // others overtook it gets its arrow, not the light, so the light says where the news is.
    const changed = previousRows !== null && (!before || before.signature !== signature);

    const tr = el("tr", { dataset: { player: row.player } });
    columns.forEach((c, i) => {
      const td = el("td", { class: [c.key, c.numeric ? "number" : ""].join(" ") });
      if (c.key === "rank" && before && before.rank !== row.rank) {
        const up = row.rank < before.rank;
        td.append(
          el("span", { class: `movement ${up ? "up" : "down"}`, "aria-hidden": "true" }, up ? "▲" : "▼"),
          el("span", { class: "visually-hidden" }, t(up ? "board.moved_up" : "board.moved_down", { rank: String(before.rank) })),
        );
      }
      td.append(cells[i]);
      if (c.key === "name" && row.dropped) td.append(el("span", { class: "badge" }, t("common.dropped")));
      if (c.key === "name" && (standings.conqueror || []).includes(row.player)) {
        td.append(el("span", { class: "badge", title: t("common.conqueror_title") }, t("common.conqueror")));
      }
      tr.append(td);
    });
    if (changed) changedAt.set(row.player, Date.now());
    light(tr, row.player);
    body.append(tr);
  }
  $("empty-standings").hidden = standings.rows.length > 0;
  previousRows = rows;
  $("updated").textContent = t("board.updated", { time: clockTime() });
}

// A changed row stays lit for HIGHLIGHT_MS, also across re-renders in between: its animation
// resumes where it was (a negative delay) instead of starting over.
function light(tr, player) {
  const since = changedAt.has(player) ? Date.now() - changedAt.get(player) : Infinity;
  if (since >= HIGHLIGHT_MS) {
    changedAt.delete(player);
    return;
  }
  tr.classList.add("changed");
  tr.style.animationDelay = `-${since}ms`;
  setTimeout(() => tr.classList.remove("changed"), HIGHLIGHT_MS - since);
}

// ---- the round's progress ---------------------------------------------------------------------

function renderProgress(round) {
  const heading = $("round-heading");
  const bar = $("progress-bar");
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
  heading.textContent = t("board.round", { round: String(round.round) });
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
  const final = isFinal(round);
  podium.hidden = !final;
  document.body.classList.toggle("final", final);
  $("standings").caption.textContent = t(final ? "board.final_heading" : "board.caption");
  if (!final) return;
  const steps = [];
  for (const row of standings.rows) {
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
        el("span", { class: "podium-names" }, step.names.map((name) => el("span", { class: "podium-name" }, name))),
      ),
    ),
  );
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

// ---- automatic paging -------------------------------------------------------------------------

// When the standings are taller than the screen, show them a page at a time: each page stays
// `pageSeconds`, the last one too, then back to the top.
function startPaging(viewport, pageSeconds) {
  const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  setInterval(() => {
    const max = viewport.scrollHeight - viewport.clientHeight;
    if (max <= 0) {
      viewport.scrollTop = 0;
      return;
    }
    if (viewport.scrollTop >= max - 1) {
      viewport.scrollTo({ top: 0 });
      return;
    }
    const header = $("standings").tHead.offsetHeight;
    const step = Math.max(1, viewport.clientHeight - header);
    viewport.scrollTo({ top: Math.min(max, viewport.scrollTop + step), behavior: reduceMotion ? "auto" : "smooth" });
  }, pageSeconds * 1000);
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
  $("qr-url").textContent = url;
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
    $("game-name").textContent = gameName(loaded.game);
    document.title = t("board.title_named", { name: loaded.name });
  } catch (e) {
    $("tournament-name").textContent =
      e.status === 404 ? t("common.no_tournament", { id: tournament }) : t("common.cannot_load_tournament", { error: e.message });
    return;
  }
  const feed = new LiveFeed(tournament, {
    onStatus: renderStatus,
    onMessage: (message) => {
      if (message.type === "snapshot" || message.type === "standings") {
        const receivedAt = Date.now();
        renderClock(message.round, receivedAt);
        renderStandings(message.standings);
        renderProgress(message.round);
        renderPodium(message.round, message.standings);
      }
    },
  });
  feed.start();
  const pageSeconds = Number(params.get("page")) || 10;
  startPaging($("standings-viewport"), Math.max(1, pageSeconds));
}

main();
