// The console's Stages section (a tournament whose rules have `stages`, docs/games/stages.md):
// the stages with their state (from the standings' `stages`), the next one previewed
// (POST …/stages/check: for a cut who is in, the first one out and the standings criterion that
// decided; the tables or the games it would seat) and started (POST …/stages). When the stage
// before is not complete the server refuses (409, rule S-2, field force): the page shows why and
// offers to start it anyway with a reason, as seating a round does. Below, the stage being played:
// its tables or its bracket, each table's status (a result in, the winner). Who is in, the seeds,
// the winners: all the server's; the page names them.

import { el, people, person, say, setChildren } from "./dom.js";
import { t } from "./i18n.js";
import { clearRefusals, errorText, problemText, showRefusal } from "./console-refusals.js";
import { bracketRounds, criterionLabel, seedOf, stageDetail, stageName, stateName } from "./stages.js";

const $ = (id) => document.getElementById(id);

export function mountStages(ctx) {
  const message = $("stages-message");
  let standings = null; // GET …/standings, read with the tournament
  let force = null; // {reason}: start although the stage before is not complete
  let lastAction = null; // what to do again once the force reason is given
  let shownKey = ""; // the stages' states the preview was made for
  let reading = 0;

  const staged = () => Boolean(ctx.tournament && Array.isArray(ctx.tournament.rules?.stages));

  async function render() {
    const link = document.querySelector('#sections a[data-section="stages"]');
    link.hidden = !staged();
    if (!staged()) return;
    const mine = ++reading;
    const answer = await ctx.call("GET", ctx.path("/standings"));
    if (mine !== reading || !answer.ok) return;
    standings = answer.body;
    const stages = standings.stages || [];
    const key = stages.map((s) => s.state).join("/");
    if (key !== shownKey) {
      // A stage started or ended (here or elsewhere): the preview is of the past.
      if (shownKey) clearPreview();
      shownKey = key;
    }
    renderList(stages);
    renderPlay(stages);
  }

  function renderList(stages) {
    setChildren(
      $("stages-list"),
      stages.map((stage) =>
        el(
          "li",
          { class: `stage-item ${stage.state}`, dataset: { index: stage.index, state: stage.state, kind: stage.kind } },
          el("strong", {}, t("console.stages.item", { index: stage.index + 1, kind: stageName(stage) })),
          el("span", { class: "muted" }, stageDetail(stage)),
          el("span", { class: `badge stage-state ${stage.state}` }, stateName(stage.state)),
        ),
      ),
    );
    const next = stages.find((s) => s.state === "pending");
    $("stages-form").hidden = !next;
    if (next) $("stages-next").textContent = t("console.stages.next", { index: next.index + 1, kind: stageName(next) });
  }

  // The started stages that seat tables, latest first: each table or game with its status.
  function renderPlay(stages) {
    const playing = stages.filter((s) => s.state !== "pending" && (Array.isArray(s.tables) || Array.isArray(s.rounds))).reverse();
    setChildren(
      $("stages-play"),
      playing.map((stage) =>
        el(
          "section",
          { class: "card stage-play", dataset: { index: stage.index, kind: stage.kind } },
          el("h3", {}, t("console.stages.play_heading", { index: stage.index + 1, kind: stageName(stage), state: stateName(stage.state) })),
          stage.kind === "knockout" ? bracket(stage) : tables(stage),
        ),
      ),
    );
  }

  function seeded(stage, player) {
    return el("span", { class: "seeded" }, el("span", { class: "seed" }, t("console.stages.seed", { seed: seedOf(stage, player) })), " ", person(ctx.playerName(player)));
  }

  function tables(stage) {
    return el(
      "ol",
      { class: "table-cards" },
      stage.tables.map((table) => {
        const done = Array.isArray(table.order);
        return el(
          "li",
          { class: `table-card ${done ? "reported" : ""}`, dataset: { round: table.round, table: table.table } },
          el("strong", {}, t("console.table_title", { table: table.table })),
          el("ol", { class: "stage-seats" }, (done ? table.order : table.players).map((p) => el("li", {}, seeded(stage, p)))),
          el("span", { class: "muted table-status" }, done ? t("console.stages.table_reported") : t("console.stages.table_waiting")),
        );
      }),
    );
  }

  function bracket(stage) {
    return el(
      "div",
      { class: "stage-bracket" },
      bracketRounds(stage)
        .filter((round) => round.round !== null)
        .map((round) =>
          el(
            "div",
            { class: "bracket-round", dataset: { round: round.round } },
            el("h4", {}, t("console.stages.round_heading", { name: round.name, round: round.round })),
            el(
              "ol",
              { class: "table-cards" },
              round.games.map((game) =>
                el(
                  "li",
                  { class: `table-card ${game.winner ? "reported" : ""}`, dataset: { table: game.table, winner: game.winner || "" } },
                  el("strong", {}, game.third_place ? t("console.stages.third_place_table", { table: game.table }) : t("console.table_title", { table: game.table })),
                  el("span", { class: "players" }, seeded(stage, game.players[0]), " – ", seeded(stage, game.players[1])),
                  el(
                    "span",
                    { class: "table-status" },
                    game.winner ? t("console.stages.winner", { name: ctx.playerName(game.winner) }) : t("console.stages.table_waiting"),
                  ),
                ),
              ),
            ),
          ),
        ),
    );
  }

  function clearPreview() {
    force = null;
    $("stages-force").hidden = true;
    setChildren($("stages-preview-box"));
    $("stages-start").hidden = true;
  }

  function requestBody() {
    return force ? { force: true, reason: force.reason } : {};
  }

  // A refusal: S-2 (the stage before is not complete) with the force form, else in the box.
  function refused(answer) {
    const errors = Array.isArray(answer.body?.errors) ? answer.body.errors : [];
    const s2 = errors.filter((e) => e.rule === "S-2" && e.field === "force");
    if (s2.length && !force) {
      setChildren($("stages-force-why"), el("p", {}, problemText(answer)), el("ul", {}, s2.map((e) => el("li", {}, errorText(e)))));
      $("stages-force").hidden = false;
      say(message, "");
      $("stages-force-reason").focus();
      return;
    }
    showRefusal(answer, { box: message, fields: { reason: $("stages-force-reason") } });
  }

  async function runPreview() {
    lastAction = runPreview;
    clearRefusals($("stages"), message);
    const answer = await ctx.call("POST", ctx.path("/stages/check"), requestBody());
    if (!answer.ok) {
      setChildren($("stages-preview-box"));
      $("stages-start").hidden = true;
      return refused(answer);
    }
    $("stages-force").hidden = true;
    renderPreview(answer.body);
  }

  async function start() {
    lastAction = start;
    clearRefusals($("stages"), message);
    $("stages-start").disabled = true;
    try {
      const answer = await ctx.call("POST", ctx.path("/stages"), requestBody());
      if (!answer.ok) return refused(answer);
      clearPreview();
      say(message, t("console.stages.started", { kind: stageName(answer.body) }), "ok");
      await ctx.reload();
    } finally {
      $("stages-start").disabled = false;
    }
  }

  // The preview: the players in seed order, for a cut who is in and who is the first one out and
  // why; the tables or games the start would seat; the server's notes (a kept-apart swap).
  function renderPreview(answer) {
    const seed = (p) => answer.players.indexOf(p) + 1;
    const seededName = (p) => el("span", { class: "seeded" }, el("span", { class: "seed" }, t("console.stages.seed", { seed: seed(p) })), " ", person(ctx.playerName(p)));
    const cut = answer.cut;
    const parts = [el("h3", {}, t("console.stages.preview_heading", { index: answer.stage + 1, kind: stageName(answer) }))];
    if (force) parts.push(el("p", { class: "message warn" }, t("console.stages.forced", { reason: force.reason })));
    if (cut) {
      parts.push(
        el("p", { id: "stages-cut-in-heading" }, t("console.stages.cut_in", { count: cut.in.length })),
        el("ol", { id: "stages-cut-in", class: "stage-seats columns" }, cut.in.map((p) => el("li", { dataset: { player: p } }, person(ctx.playerName(p))))),
        cut.first_out
          ? el(
              "p",
              { id: "stages-first-out", dataset: { player: cut.first_out, decidedBy: cut.decided_by || "" } },
              t("console.stages.first_out", { name: ctx.playerName(cut.first_out), criterion: criterionLabel(ctx.tournament.game, standings, cut.decided_by) }),
            )
          : el("p", { id: "stages-first-out" }, t("console.stages.nobody_out")),
        cut.passed_over && cut.passed_over.length
          ? el("p", { id: "stages-passed-over" }, t("console.stages.passed_over", { count: cut.passed_over.length }), " ", people(cut.passed_over.map((p) => ctx.playerName(p))))
          : null,
      );
    } else if (!answer.tables) {
      parts.push(el("ol", { class: "stage-seats columns" }, answer.players.map((p) => el("li", {}, seededName(p)))));
    }
    if (answer.tables) {
      parts.push(
        el("p", {}, t("console.stages.round_seated", { round: answer.round, tables: answer.tables.length })),
        el(
          "ol",
          { class: "table-cards", id: "stages-tables" },
          answer.tables.map((table) =>
            el(
              "li",
              { class: "table-card", dataset: { table: table.table } },
              el("strong", {}, t("console.table_title", { table: table.table })),
              el("span", { class: "players" }, table.players.flatMap((p, i) => (i ? [" – ", seededName(p)] : [seededName(p)]))),
            ),
          ),
        ),
      );
    }
    if (Array.isArray(answer.notes) && answer.notes.length) parts.push(el("ul", { class: "message warn" }, answer.notes.map((n) => el("li", {}, n))));
    setChildren($("stages-preview-box"), parts);
    $("stages-start").textContent = t("console.stages.start", { kind: stageName(answer) });
    $("stages-start").hidden = false;
  }

  $("stages-form").addEventListener("submit", (event) => {
    event.preventDefault();
    force = null;
    runPreview();
  });
  $("stages-start").addEventListener("click", start);
  $("stages-force").addEventListener("submit", (event) => {
    event.preventDefault();
    force = { reason: $("stages-force-reason").value.trim() };
    if (lastAction) lastAction();
  });

  ctx.subscribe(() => {
    render().catch(() => {}); // a failed read: the next reload tries again
  });
}
