// The console's Seating section: the next round previewed (POST …/rounds/check: the tables the
// server would seat, who met before at a table, the leagues, who is left out) and then seated
// with exactly those tables (the preview's method and seed sent back to POST …/rounds). When
// the last round still has tables without a result the server refuses (409 round.unreported);
// the page says which tables and offers to go on anyway with a reason ("force").

import { el, people, person, say, setChildren } from "./dom.js";
import { t } from "./i18n.js";
import { clearRefusals, showRefusal } from "./console-refusals.js";
import { unreportedError, unreportedText } from "./console-unreported.js";

const $ = (id) => document.getElementById(id);

export function mountSeating(ctx) {
  const message = $("seating-message");
  let preview = null; // the server's answer to the last preview
  let force = null; // {reason}: go on although tables are unreported
  let lastAction = null; // what to do again once the force reason is given
  let seenRounds = -1;

  const roundToSeat = () => (ctx.tournament.checkin && ctx.tournament.checkin.round) || ctx.rounds().length + 1;

  function render() {
    const rounds = ctx.rounds().length;
    $("seating-round").textContent = t("console.seating.round", { round: roundToSeat() });
    if (rounds !== seenRounds) {
      // A round was seated (here or elsewhere): the preview is of the past.
      if (seenRounds !== -1) clearPreview();
      seenRounds = rounds;
    }
  }

  function clearPreview() {
    preview = null;
    force = null;
    $("seating-force").hidden = true;
    setChildren($("seating-preview-box"));
    $("seating-commit").hidden = true;
  }

  function requestBody(fromPreview) {
    const body = {};
    if (fromPreview) {
      body.method = preview.method;
      if (preview.seed !== undefined && preview.seed !== null) body.seed = preview.seed;
    } else {
      const method = $("seating-method").value;
      if (method) body.method = method;
      const seed = $("seating-seed").value.trim();
      if (seed) body.seed = /^\d+$/.test(seed) ? Number(seed) : seed; // the server says what a seed may be
    }
    if (force) {
      body.force = true;
      body.reason = force.reason;
    }
    return body;
  }

  // A refusal: the unreported tables in words with the force form, else at the fields.
  function refused(answer) {
    const unreported = unreportedError(answer);
    if (unreported) {
      $("seating-force-why").textContent = unreportedText(unreported, ctx.lastRound());
      $("seating-force").hidden = false;
      say(message, "");
      $("seating-force-reason").focus();
      return;
    }
    showRefusal(answer, {
      box: message,
      fields: { method: $("seating-method"), seed: $("seating-seed"), reason: $("seating-force-reason") },
    });
  }

  async function runPreview() {
    lastAction = runPreview;
    clearRefusals($("seating"), message);
    const answer = await ctx.call("POST", ctx.path("/rounds/check"), requestBody(false));
    if (!answer.ok) {
      preview = null;
      setChildren($("seating-preview-box"));
      $("seating-commit").hidden = true;
      return refused(answer);
    }
    $("seating-force").hidden = true;
    preview = answer.body;
    renderPreview(preview);
  }

  async function commit() {
    lastAction = commit;
    clearRefusals($("seating"), message);
    $("seating-commit").disabled = true;
    try {
      const answer = await ctx.call("POST", ctx.path("/rounds"), requestBody(true));
      if (!answer.ok) return refused(answer);
      const seated = answer.body;
      clearPreview();
      say(message, t("console.seating.seated", { round: seated.round, tables: seated.tables.length }), "ok");
      await ctx.reload();
    } finally {
      $("seating-commit").disabled = false;
    }
  }

  function names(ids) {
    return ids.map((id) => ctx.playerName(id)).join(", ");
  }

  function renderPreview(answer) {
    const tables = answer.tables.map((table) => {
      const repeats = (table.repeats || []).map((pair) => pair.map((id) => ctx.playerName(id)).join(" – "));
      return el(
        "li",
        { class: "table-card", dataset: { table: table.table } },
        el(
          "strong",
          {},
          table.league
            ? t("console.table_in_league", { table: table.table, league: table.league })
            : t("console.table_title", { table: table.table }),
        ),
        el("span", { class: "players" }, people(table.players.map((id) => ctx.playerName(id)))),
        repeats.length ? el("span", { class: "repeats" }, t("console.seating.repeats", { count: repeats.length, pairs: repeats.join("; ") })) : null,
      );
    });
    const leftOut = answer.left_out || [];
    const byes = answer.byes || [];
    // Who is not at a table and why, in the server's words when it gives them (not_seated);
    // "nobody is left out" only when nobody is — a bye is someone without a table.
    const notSeated = Array.isArray(answer.not_seated) ? answer.not_seated : [];
    const warnings = Array.isArray(answer.warnings) ? answer.warnings : [];
    setChildren(
      $("seating-preview-box"),
      el("h3", {}, t("console.seating.preview_heading", { round: answer.round, method: methodName(answer.method), tables: answer.tables.length })),
      answer.seed !== undefined && answer.seed !== null ? el("p", { class: "muted" }, t("console.seating.seed_used", { seed: String(answer.seed) })) : null,
      answer.notice ? el("p", { class: "message warn" }, answer.notice) : null,
      warnings.length ? el("ul", { id: "seating-warnings", class: "message warn" }, warnings.map(warningItem)) : null,
      leftOut.length || (!byes.length && !notSeated.some((p) => p.reason === "bye"))
        ? el(
            "p",
            { id: "seating-left-out", dataset: { count: leftOut.length } },
            leftOut.length ? t("console.seating.left_out", { count: leftOut.length, names: names(leftOut) }) : t("console.seating.nobody_left_out"),
          )
        : null,
      notSeated.length
        ? el("ul", { id: "seating-not-seated" }, notSeated.map((p) => notSeatedLine(p)))
        : byes.length
          ? el("p", { id: "seating-byes" }, t("console.seating.byes", { count: byes.length, names: names(byes) }))
          : null,
      el("ol", { class: "table-cards", id: "seating-tables" }, tables),
    );
    $("seating-commit").textContent = t("console.seating.commit", { round: answer.round });
    // An empty check-in after no-shows is a choice, not a slip: the warning's two actions
    // stand instead of the plain "seat" button.
    $("seating-commit").hidden = warnings.some((w) => w.rule === "checkin.empty");
  }

  // A warning in the server's words; `checkin.empty` (nobody checked in, last round's no-shows
  // would be seated) with its two ways on: check in first, or seat everyone not dropped.
  function warningItem(warning) {
    const text = warning.message || warning.rule;
    if (warning.rule !== "checkin.empty") return el("li", {}, text);
    return el(
      "li",
      { dataset: { rule: warning.rule } },
      el("span", {}, text),
      el(
        "span",
        { class: "actions" },
        el("a", { href: "#checkin", class: "button secondary", id: "seating-checkin-first" }, t("console.seating.checkin_first")),
        el("button", { type: "button", id: "seating-seat-everyone", onclick: commit }, t("console.seating.seat_everyone", { round: preview.round })),
      ),
    );
  }

  // "Name: why", or the server's message alone when it names the player already.
  function notSeatedLine(p) {
    const name = p.name || ctx.playerName(p.player);
    const why = p.message || p.reason || "";
    return el("li", {}, why.includes(name) ? why : [person(name), ": ", why]);
  }

  function methodName(method) {
    if (method === "random") return t("console.seating.method_random");
    if (method === "standings") return t("console.seating.method_standings");
    return method || "";
  }

  $("seating-form").addEventListener("submit", (event) => {
    event.preventDefault();
    force = null;
    runPreview();
  });
  $("seating-commit").addEventListener("click", commit);
  $("seating-force").addEventListener("submit", (event) => {
    event.preventDefault();
    force = { reason: $("seating-force-reason").value.trim() };
    if (lastAction) lastAction();
  });

  ctx.subscribe(render);
}
