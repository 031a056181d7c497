// The console's Self-reporting section: the players propose their table's result from their
// phones (the table's QR code opens its report page, /t/{t}/report?round=R&table=N#token=…), and
// a judge or the organizer approves it before it counts.
//
// - the switch: PATCH /v1/tournaments/{t} {"self_reporting": true|false}; the tournament's
//   `self_reporting` says which it is (read again after every live event, like every section);
// - the current round's table links and their QR codes (GET …/rounds/{r}/keys: `url` is
//   path-absolute, the page puts the address phones reach in front, ?public= as for the judges'
//   links), with the warning when that address is this computer's own (loopback.js);
// - "Print slips with QR codes": the result slips (slips.js) of every table, each with its
//   table's QR code, printed on their own;
// - "Proposals waiting": the same list and actions as the judge page's (judge-proposals.js).

import { el, people, say, setChildren } from "./dom.js";
import { loadGames } from "./games.js";
import { t } from "./i18n.js";
import { mountProposals } from "./judge-proposals.js";
import { isLoopbackOrigin } from "./loopback.js";
import { encodeQr, qrSvg } from "./qr-code.js";
import { resultSlip } from "./slips.js";
import { clearRefusals, showRefusal } from "./console-refusals.js";
import { publicOrigin } from "./console-judges.js";

const $ = (id) => document.getElementById(id);

export function mountSelfReporting(ctx) {
  const message = $("selfreport-message");
  const state = {
    description: null, // the game's (GET /v1/games): the slips' columns, the proposals' labels
    keys: null, // {round, keys: [{table, token, url}]} of the round shown
    sheet: null, // GET …/rounds/{r} of that round: the tables' players in seat order
    loadedFor: "", // "round/enabled/closed": what the keys were read for
    loading: 0,
  };

  const proposals = mountProposals($("proposals"), {
    tournamentId: ctx.tournamentId,
    call: (method, path, body, headers) => ctx.call(method, path, body, headers),
    playerName: (id) => ctx.playerName(id),
    level: 3,
    game: () => ctx.tournament.game,
    description: () => state.description,
    onApproved: () => ctx.reload(),
  });

  const enabled = () => Boolean(ctx.tournament && ctx.tournament.self_reporting === true);

  // ---- the switch ---------------------------------------------------------------------------------

  $("selfreport-switch").addEventListener("change", async (event) => {
    const input = event.currentTarget;
    const wanted = input.checked;
    clearRefusals($("selfreport"), message);
    input.disabled = true;
    let answer;
    try {
      answer = await ctx.call("PATCH", ctx.path(), { self_reporting: wanted });
    } finally {
      input.disabled = false;
    }
    if (!answer.ok) {
      input.checked = !wanted;
      showRefusal(answer, { box: message, fields: { self_reporting: input } });
      return;
    }
    say(message, t(answer.body.self_reporting ? "console.selfreport.turned_on" : "console.selfreport.turned_off"), "ok");
    await ctx.reload();
  });

  // ---- what the section shows --------------------------------------------------------------------

  async function render(tournament) {
    const on = enabled();
    $("selfreport-switch").checked = on;
    const stateLine = $("selfreport-state");
    stateLine.textContent = t(on ? "console.selfreport.on" : "console.selfreport.off");
    stateLine.dataset.on = String(on);
    if (!state.description) {
      try {
        state.description = (await loadGames(ctx.token)).get(tournament.game) || null;
      } catch {
        state.description = null; // slips with a score column, fields by their names
      }
    }
    const round = ctx.lastRound();
    proposals.show({ round: round ? round.round : null, enabled: on });
    $("proposals").hidden = !on; // off, the state line above says it all

    const box = $("selfreport-keys-box");
    if (!on || !round) {
      box.hidden = true;
      state.loadedFor = "";
      return;
    }
    box.hidden = false;
    $("selfreport-keys-heading").textContent = t("console.selfreport.keys_heading", { round: round.round });
    if (round.closed) {
      $("selfreport-keys-intro").textContent = t("console.selfreport.round_closed", { round: round.round });
      $("selfreport-print").hidden = true;
      setChildren($("selfreport-keys"));
      state.loadedFor = "";
      return;
    }
    $("selfreport-keys-intro").textContent = t("console.selfreport.keys_intro");
    const origin = publicOrigin();
    const warning = $("selfreport-loopback");
    warning.hidden = !isLoopbackOrigin(origin);
    warning.textContent = warning.hidden ? "" : t("console.selfreport.loopback", { origin });
    const wanted = `${round.round}/${round.tables_total ?? ""}`;
    if (state.loadedFor === wanted) return drawKeys(); // names may have changed, the keys not
    await loadKeys(round.round, wanted);
  }

  async function loadKeys(round, wanted) {
    const ticket = ++state.loading;
    const [keys, sheet] = await Promise.all([
      ctx.call("GET", ctx.path(`/rounds/${round}/keys`)),
      ctx.call("GET", ctx.path(`/rounds/${round}`)),
    ]);
    if (ticket !== state.loading) return; // a newer read is under way
    if (!keys.ok || !sheet.ok) {
      state.keys = null;
      setChildren($("selfreport-keys"));
      $("selfreport-print").hidden = true;
      // Turned off meanwhile: the next reload of the tournament says so.
      showRefusal(keys.ok ? sheet : keys, { box: message });
      return;
    }
    state.keys = keys.body;
    state.sheet = sheet.body;
    state.loadedFor = wanted;
    drawKeys();
  }

  // The address a table's QR code and link carry: the phones' origin and the key's url.
  const address = (key) => `${publicOrigin()}${key.url}`;

  function keyOf(table) {
    return state.keys ? state.keys.keys.find((k) => k.table === table) || null : null;
  }

  function drawKeys() {
    if (!state.keys || !state.sheet) return;
    const tables = state.sheet.tables.filter((table) => table.players.length > 1 && keyOf(table.table));
    $("selfreport-print").hidden = !tables.length;
    setChildren(
      $("selfreport-keys"),
      tables.map((table) => {
        const link = address(keyOf(table.table));
        const qr = qrSvg(document, encodeQr(link), { title: t("console.selfreport.qr_title", { table: table.table }) });
        qr.setAttribute("class", "qr");
        return el(
          "li",
          { class: "key-card", dataset: { table: table.table } },
          el("strong", {}, table.league ? t("console.table_in_league", { table: table.table, league: table.league }) : t("console.table_title", { table: table.table })),
          el("span", { class: "players" }, people(table.players.map((id) => ctx.playerName(id)))),
          el("div", { class: "qr-box" }, qr),
          el("a", { class: "link", href: link }, t("console.selfreport.link", { table: table.table })),
        );
      }),
    );
  }

  // ---- printing the slips ---------------------------------------------------------------------

  $("selfreport-print").addEventListener("click", () => {
    if (!state.keys || !state.sheet) return;
    const slips = state.sheet.tables.map((table) => {
      const key = keyOf(table.table);
      return resultSlip(ctx.tournament, state.sheet, table, (id) => ctx.playerName(id), state.description, { qr: key ? address(key) : null });
    });
    setChildren($("selfreport-slips"), slips);
    document.body.dataset.print = "slips";
    window.print();
  });
  window.addEventListener("afterprint", () => delete document.body.dataset.print);

  ctx.subscribe(render);

  return {
    // A live event: the proposals of the round are read again when it concerns its tables.
    onEvent: (event) => proposals.onEvent(event),
  };
}
