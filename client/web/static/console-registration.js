// The console's Players section: the registered players (rename, drop with a reason), one
// player added by hand, and a CSV file imported in two steps: the server's check of the file
// (POST …/players/import/check: who would be added, who is already there, who is renamed, who
// may be a duplicate) shown as a preview, then "Import" (POST …/players/import) with the same
// file. The file goes as its bytes (`csv_base64`) with the encoding chosen (`auto` by default):
// which code page a spreadsheet saved it in is the server's reading (ICU's detector), shown in
// the preview with a selector to read it otherwise. Whether two names are the same person is the server's call (its `same_name` warnings
// and `possible_duplicate` rows); the page only shows them.

import { el, person, say, setChildren } from "./dom.js";
import { t } from "./i18n.js";
import { clearRefusals, errorText, showRefusal, warningsText } from "./console-refusals.js";

const $ = (id) => document.getElementById(id);

// The status of an import row as the reader sees it (literal keys: the catalogs' test reads them).
// The registrations' turn into players shows the same preview (console-registrations.js).
export const ROW_STATUS = {
  added: () => t("console.import.status_added"),
  unchanged: () => t("console.import.status_unchanged"),
  changed: (row) => t("console.import.status_changed", { previous: row.previous_name || "" }),
  possible_duplicate: (row) =>
    t("console.import.status_duplicate", { names: (row.matches || []).map((m) => m.name).join(", ") }),
};

export function mountRegistration(ctx) {
  const message = $("players-message");
  let editing = null; // {player, node}: the player whose rename or drop form is open
  let csvBase64 = null; // the chosen file's bytes, once read, in base64

  // ---- the list ---------------------------------------------------------------------------------

  function render(tournament) {
    const players = tournament.players;
    const dropped = players.filter((p) => p.dropped).length;
    $("players-count").textContent = t("console.players.count", { count: players.length, dropped });
    const items = players.map((player) => {
      if (editing && editing.player === player.id && editing.node.isConnected) return editing.node; // being typed in
      return playerItem(player);
    });
    setChildren($("player-list"), items);
  }

  function playerItem(player) {
    const badges = [];
    if (player.dropped) badges.push(el("span", { class: "badge dropped" }, t("common.dropped")));
    else if (player.present) badges.push(el("span", { class: "badge present" }, t("console.players.present")));
    if (player.fixed_table) badges.push(el("span", { class: "badge" }, t("console.players.fixed_badge", { table: player.fixed_table })));
    const item = el(
      "li",
      { dataset: { player: player.id }, class: player.dropped ? "dropped" : "" },
      el("span", { class: "who" }, el("strong", { class: "name" }, person(player.name)), " ", el("code", { class: "id" }, player.id), badges),
    );
    const actions = el("span", { class: "actions" });
    actions.append(
      el("button", { type: "button", class: "secondary", onclick: () => openRename(item, player) }, t("console.players.rename")),
    );
    if (player.dropped) {
      actions.append(
        el("button", { type: "button", class: "secondary", onclick: () => openReinstate(item, player) }, t("console.players.reinstate")),
      );
    } else {
      actions.append(el("button", { type: "button", class: "secondary", onclick: () => openDrop(item, player) }, t("console.players.drop")));
    }
    actions.append(
      el("button", { type: "button", class: "secondary", onclick: () => openFixedTable(item, player) }, t("console.players.fixed_table")),
      el("button", { type: "button", class: "secondary", onclick: () => openPenalty(item, player) }, t("console.players.penalty")),
    );
    item.append(actions);
    return item;
  }

  function closeEditing() {
    editing = null;
    render(ctx.tournament);
  }

  // An inline form in a player's row: one text field, a submit and a cancel.
  function inlineForm(item, player, { label, value = "", submit, onSubmit }) {
    const id = `edit-${player.id}`;
    const input = el("input", { id, autocomplete: "off", value });
    const form = el(
      "form",
      { class: "inline-form", novalidate: true },
      el("label", { for: id }, label),
      input,
      el("button", { type: "submit" }, submit),
      el("button", { type: "button", class: "secondary", onclick: closeEditing }, t("console.cancel")),
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      clearRefusals(form, message);
      await onSubmit(input, form);
    });
    item.replaceChildren(el("span", { class: "who" }, el("strong", { class: "name" }, person(player.name))), form);
    editing = { player: player.id, node: item };
    input.focus();
  }

  function openRename(item, player) {
    inlineForm(item, player, {
      label: t("console.players.new_name", { name: player.name }),
      value: player.name,
      submit: t("console.players.save_name"),
      onSubmit: async (input) => {
        const answer = await ctx.call("PATCH", ctx.path(`/players/${encodeURIComponent(player.id)}`), { name: input.value.trim() });
        if (!answer.ok) return showRefusal(answer, { box: message, fields: { name: input } });
        editing = null;
        const done = t("console.players.renamed", { old: player.name, name: answer.body.name });
        const warned = warningsText(answer.body.warnings);
        say(message, warned ? `${done} ${warned}` : done, warned ? "warn" : "ok");
        await ctx.reload();
      },
    });
  }

  function openDrop(item, player) {
    inlineForm(item, player, {
      label: t("console.players.drop_reason", { name: player.name }),
      submit: t("console.players.drop"),
      onSubmit: async (input) => {
        const answer = await ctx.call("POST", ctx.path(`/players/${encodeURIComponent(player.id)}/drop`), { reason: input.value.trim() });
        if (!answer.ok) return showRefusal(answer, { box: message, fields: { reason: input } });
        editing = null;
        say(message, t("console.players.dropped", { name: player.name }), "ok");
        await ctx.reload();
      },
    });
  }

  // A dropped player (by hand or as a no-show) seated again from the next round; the rounds
  // missed stay missed. Whether the player can be reinstated is the server's call (409
  // api.player.not_dropped when someone else reinstated them meanwhile).
  function openReinstate(item, player) {
    inlineForm(item, player, {
      label: t("console.players.reinstate_reason", { name: player.name }),
      submit: t("console.players.reinstate"),
      onSubmit: async (input) => {
        const answer = await ctx.call("POST", ctx.path(`/players/${encodeURIComponent(player.id)}/reinstate`), { reason: input.value.trim() });
        if (!answer.ok) return showRefusal(answer, { box: message, fields: { reason: input } });
        editing = null;
        say(message, t("console.players.reinstated", { name: player.name }), "ok");
        await ctx.reload();
      },
    });
  }

  // S-10: the number the player's table has in every round; empty takes it back. Whether the
  // number is one is the server's call (422 at fixed_table).
  function openFixedTable(item, player) {
    inlineForm(item, player, {
      label: t("console.players.fixed_table_label", { name: player.name }),
      value: player.fixed_table ? String(player.fixed_table) : "",
      submit: t("console.players.fixed_table_save"),
      onSubmit: async (input) => {
        const text = input.value.trim();
        const fixed = text === "" ? null : /^[0-9]+$/.test(text) ? Number(text) : text;
        const answer = await ctx.call("PATCH", ctx.path(`/players/${encodeURIComponent(player.id)}`), { fixed_table: fixed });
        if (!answer.ok) return showRefusal(answer, { box: message, fields: { fixed_table: input } });
        editing = null;
        say(message, fixed === null ? t("console.players.fixed_table_none", { name: player.name })
          : t("console.players.fixed_table_done", { name: player.name, table: answer.body.fixed_table }), "ok");
        await ctx.reload();
      },
    });
  }

  // S-11: points beside the games ("-1", "-1/2", "+1" a bonus) and a reason; the points go as
  // the text typed (the server reads them exactly and refuses what is not a number of points).
  function openPenalty(item, player) {
    const points = el("input", { id: `penalty-points-${player.id}`, autocomplete: "off", inputmode: "text", size: 6 });
    const reason = el("input", { id: `penalty-reason-${player.id}`, autocomplete: "off" });
    const form = el(
      "form",
      { class: "inline-form", novalidate: true },
      el("label", { for: points.id }, t("console.players.penalty_points", { name: player.name })),
      points,
      el("label", { for: reason.id }, t("console.players.penalty_reason")),
      reason,
      el("button", { type: "submit" }, t("console.players.penalty_give")),
      el("button", { type: "button", class: "secondary", onclick: closeEditing }, t("console.cancel")),
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      clearRefusals(form, message);
      const text = points.value.trim().replace(/^\+/, "");
      const value = /^-?[0-9]+$/.test(text) ? Number(text) : text;
      const answer = await ctx.call("POST", ctx.path(`/players/${encodeURIComponent(player.id)}/penalties`), { points: value, reason: reason.value.trim() });
      if (!answer.ok) return showRefusal(answer, { box: message, fields: { points, reason } });
      editing = null;
      say(message, t("console.players.penalty_given", { name: player.name, points: text }), "ok");
      await ctx.reload();
    });
    item.replaceChildren(el("span", { class: "who" }, el("strong", { class: "name" }, person(player.name))), form);
    editing = { player: player.id, node: item };
    points.focus();
  }

  // S-9: two or more players never seated at one table, with a reason.
  $("keep-apart-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    clearRefusals(form, message);
    const players = $("keep-apart-players").value.split(/[\s,]+/).filter((id) => id !== "");
    const answer = await ctx.call("POST", ctx.path("/keep-apart"), { players, reason: $("keep-apart-reason").value.trim() });
    if (!answer.ok) return showRefusal(answer, { box: message, fields: { players: $("keep-apart-players"), reason: $("keep-apart-reason") } });
    say(message, t("console.players.keep_apart_done", { count: players.length }), "ok");
    form.reset();
    await ctx.reload();
  });

  // ---- one player by hand -----------------------------------------------------------------------

  $("add-player-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    clearRefusals(form, message);
    const body = { name: $("add-player-name").value.trim() };
    const id = $("add-player-id").value.trim();
    if (id) body.id = id;
    const answer = await ctx.call("POST", ctx.path("/players"), body);
    if (!answer.ok) return showRefusal(answer, { box: message, fields: { name: $("add-player-name"), id: $("add-player-id") } });
    const done = t("console.players.added", { name: answer.body.name, id: answer.body.id });
    const warned = warningsText(answer.body.warnings);
    say(message, warned ? `${done} ${warned}` : done, warned ? "warn" : "ok");
    form.reset();
    $("add-player-name").focus();
    await ctx.reload();
  });

  // ---- the CSV import ---------------------------------------------------------------------------

  const importBody = () => ({
    csv_base64: csvBase64,
    encoding: $("import-encoding").value,
    add_possible_duplicates: $("import-duplicates").checked,
  });

  function resetPreview() {
    setChildren($("import-preview"));
    $("import-commit").hidden = true;
  }

  async function checkFile() {
    clearRefusals($("import-form"), message);
    resetPreview();
    if (csvBase64 === null) return;
    const answer = await ctx.call("POST", ctx.path("/players/import/check"), importBody());
    if (!answer.ok) return showImportRefusal(answer);
    renderPreview(answer.body, "preview");
    $("import-commit").hidden = false;
  }

  function showImportRefusal(answer) {
    const errors = answer.body?.errors || [];
    showRefusal(answer, { box: message, fields: { csv: $("import-file"), csv_base64: $("import-file"), encoding: $("import-encoding") } });
    // Several lines may be wrong: each said under the file, one line each.
    const fileErrors = errors.filter((e) => e.field === "csv" || e.field === "csv_base64");
    if (fileErrors.length > 1) {
      const list = el("ul", { class: "field-error from-server" }, fileErrors.map((e) => el("li", {}, errorText(e))));
      for (const single of $("import-form").querySelectorAll(".field .field-error.from-server")) single.remove();
      $("import-file").closest(".field").append(list);
    }
  }

  // The server's reading of the file: its counts, then one row per line of the file.
  function renderPreview(result, kind) {
    const counts = el(
      "p",
      {
        id: "import-counts",
        class: "counts",
        dataset: {
          added: result.added,
          unchanged: result.unchanged,
          changed: result.changed,
          possibleDuplicates: result.possible_duplicates,
        },
      },
      t(kind === "preview" ? "console.import.preview_counts" : "console.import.done_counts", {
        added: result.added,
        unchanged: result.unchanged,
        changed: result.changed,
        duplicates: result.possible_duplicates,
      }),
    );
    const rows = (result.rows || []).map((row) =>
      el(
        "tr",
        { class: `status-${row.status}`, dataset: { status: row.status, line: row.line } },
        el("td", { class: "number" }, String(row.line)),
        el("th", { scope: "row" }, person(row.name)),
        el("td", {}, row.id ? el("code", {}, row.id) : ""),
        el("td", {}, (ROW_STATUS[row.status] || (() => row.status))(row)),
      ),
    );
    const table = el(
      "div",
      { class: "table-scroll" },
      el(
        "table",
        { id: "import-rows", class: "import-rows" },
        el("caption", { class: "visually-hidden" }, t("console.import.caption")),
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            el("th", { scope: "col", class: "number" }, t("console.import.line")),
            el("th", { scope: "col" }, t("console.players.name")),
            el("th", { scope: "col" }, t("console.import.id")),
            el("th", { scope: "col" }, t("console.import.status")),
          ),
        ),
        el("tbody", {}, rows),
      ),
    );
    // How the server read the file: the encoding used, recognized (`auto`) or as chosen — a
    // wrong choice shows as odd letters in the rows below.
    const encoding = result.encoding
      ? el(
          "p",
          { id: "import-encoding-used", class: "muted", dataset: { encoding: result.encoding, detected: String(Boolean(result.encoding_detected)) } },
          t(result.encoding_detected ? "console.import.encoding_detected" : "console.import.encoding_chosen", { encoding: encodingName(result.encoding) }),
        )
      : null;
    setChildren($("import-preview"), counts, encoding, kind === "preview" ? table : null);
  }

  // An encoding by the name the selector gives it ("Windows-1250 (Central European)").
  function encodingName(encoding) {
    const option = [...$("import-encoding").options].find((o) => o.value === encoding);
    return option ? option.textContent : encoding;
  }

  $("import-file").addEventListener("change", async (event) => {
    const file = event.target.files && event.target.files[0];
    csvBase64 = file ? base64(new Uint8Array(await file.arrayBuffer())) : null;
    await checkFile();
  });
  $("import-encoding").addEventListener("change", checkFile);
  $("import-duplicates").addEventListener("change", checkFile);

  $("import-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (csvBase64 === null) return;
    clearRefusals($("import-form"), message);
    $("import-commit").disabled = true;
    try {
      const answer = await ctx.call("POST", ctx.path("/players/import"), importBody());
      if (!answer.ok) return showImportRefusal(answer);
      renderPreview(answer.body, "done");
      $("import-commit").hidden = true;
      $("import-file").value = "";
      csvBase64 = null;
      say(message, t("console.import.done"), "ok");
      await ctx.reload();
    } finally {
      $("import-commit").disabled = false;
    }
  });

  ctx.subscribe(render);
}

// Bytes as base64, in slices (String.fromCharCode takes a bounded number of arguments).
function base64(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}
