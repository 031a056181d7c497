// The self-reporting page's live checks and its errors at their fields, as the judge page does
// them (judge.js): the entry typed so far is sent to POST …/result/check (with the table's
// token) once the player pauses, and what the server answers is shown where it belongs — the
// computed VP beside each player and the order when every check passes; each broken rule at its
// field, with its rule id and the server's message, which names the player. The page holds no
// rule: a schema error about a field still empty only counts toward "N fields to fill".
//
// Only the answer about the newest entry is shown: a newer check aborts the one under way, and an
// answer that arrives for an older entry is dropped. The table's phones share the token's rate
// limit (a burst of 30, then one request every 2 s), which a player typing slowly would spend on
// checks alone, leaving nothing for sending the result: so a check waits for a pause, at most one
// is sent every 2 s (the limit's own pace), none while nothing is typed, and a 429 puts the
// checks off until the time it names has passed.
//
//   const checker = createChecker({ getForm, checkPath, token, playerName, game, onRefusal });
//   form.element.addEventListener("input", checker.schedule);
//   checker.showErrors(answer.body.errors, players, answer.body.detail);

import { el } from "./dom.js";
import { compact } from "./format.js";
import { t } from "./i18n.js";
import { resultHeadings } from "./judge-forms.js";
import { refusalOf, tableRequest } from "./report-api.js";

const CHECK_DELAY_MS = 500; // after the last keystroke
const CHECK_SPACING_MS = 2000; // between two checks sent

const $ = (id) => document.getElementById(id);

// An entry with nothing typed yet: every value empty, unticked or unchosen.
function nothingTyped(players) {
  const empty = (value) => value === undefined || value === false || (Array.isArray(value) && !value.length);
  return players.every((p) => Object.entries(p).every(([key, value]) => key === "player" || empty(value)));
}

// A server error as shown: its rule id (the same in every language) and its message (in the
// page's language, as the server words it for Accept-Language).
export function errorText(error) {
  const message = error.message || error.detail || "";
  return error.rule ? `${error.rule}: ${message}` : message;
}

// The player and the field an error is about: its `player` and `field`, or the index in its
// path or field ("players[2].vp_cards").
function locate(error, players) {
  let player = error.player || "";
  let field = error.field || "";
  const inField = /^players\[(\d+)\](?:\.(\w+))?$/.exec(field);
  if (inField) field = inField[2] || "player";
  const index = inField || /^players\[(\d+)\]/.exec(error.path || "");
  if (!player && index && players[Number(index[1])]) player = players[Number(index[1])].player;
  return { player, field };
}

// options: getForm() → the form (judge-forms.js) or null; checkPath() → POST path of the check;
// token() → the table's token; playerName(id); game() → the tournament's game; note() → the note typed (sent as the
// `reason`); onRefusal(kind, answer): the token, the round or self-reporting refused the check.
export function createChecker({ getForm, checkPath, token, playerName, game, note, onRefusal }) {
  const check = { timer: null, seq: 0, controller: null, pausedUntil: 0, sentAt: -Infinity };
  let errorCounter = 0;

  function setHint(text, kind) {
    const hint = $("form-hint");
    hint.textContent = text;
    hint.dataset.state = kind;
  }

  // Forgets the check waiting or under way: its answer, if it comes, is not shown.
  function cancel() {
    clearTimeout(check.timer);
    check.timer = null;
    check.seq++;
    if (check.controller) check.controller.abort();
    check.controller = null;
  }

  // The entry changed: a new check once the player pauses (or once a 429's wait is over).
  function schedule() {
    if (!getForm()) return;
    cancel();
    const wait = Math.max(CHECK_DELAY_MS, check.pausedUntil - Date.now(), check.sentAt + CHECK_SPACING_MS - Date.now());
    check.timer = setTimeout(now, wait);
  }

  async function now() {
    cancel();
    const form = getForm();
    if (!form) return;
    const players = form.players();
    if (nothingTyped(players)) {
      form.showComputed(null);
      clearErrors();
      setHint(t("report.check.empty"), "pending");
      return;
    }
    if (Date.now() < Math.max(check.pausedUntil, check.sentAt + CHECK_SPACING_MS)) {
      schedule();
      return;
    }
    check.sentAt = Date.now();
    const seq = check.seq;
    const body = { players };
    const reason = note();
    if (reason) body.reason = reason;
    const controller = new AbortController();
    check.controller = controller;
    let answer;
    try {
      answer = await tableRequest("POST", checkPath(), { token: token(), body, signal: controller.signal });
    } catch {
      return; // aborted: a newer entry is being checked
    }
    if (seq !== check.seq || form !== getForm()) return; // an answer about an older entry
    check.controller = null;
    show(answer, players, form);
  }

  // The order the server computed: "1. Eva (VP 10, round points 5), 2. …", by its places.
  function orderText(result) {
    const [scoreLabel, pointsLabel] = resultHeadings(game(), "in_text");
    const rows = [...result.players].sort((a, b) => parseInt(a.place, 10) - parseInt(b.place, 10));
    return rows
      .map((p) =>
        t("report.check.order_entry", {
          place: p.place,
          player: playerName(p.player),
          score_label: scoreLabel,
          score: compact(p.score),
          points_label: pointsLabel,
          points: compact(p.points),
        }),
      )
      .join(", ");
  }

  function show(answer, players, form) {
    clearErrors();
    if (answer.status === 200) {
      const result = answer.body && answer.body.result;
      form.showComputed(result);
      if (result && result.players && result.players.length) setHint(t("report.check.passes_order", { order: orderText(result) }), "ok");
      else setHint(t("report.check.passes"), "ok");
      return;
    }
    form.showComputed(null);
    const refusal = refusalOf(answer);
    if (refusal === "rate") {
      const seconds = Math.max(1, answer.retryAfter || 2);
      check.pausedUntil = Date.now() + seconds * 1000;
      setHint(t("report.check.paused", { seconds }), "off");
      schedule();
      return;
    }
    if (refusal === "unreachable") {
      setHint(t("report.check.unreachable"), "off");
      return;
    }
    if (refusal) {
      setHint("", "off");
      onRefusal(refusal, answer);
      return;
    }
    if (answer.status !== 422 || !answer.body || !Array.isArray(answer.body.errors)) {
      const why = answer.body?.detail || t("common.server_answered", { status: String(answer.status) });
      setHint(t("report.check.not_checked", { why }), "off");
      return;
    }
    // A schema error about a field the checked entry left empty is "not filled in yet".
    const left = (player, field) => {
      const sheet = players.find((p) => p.player === player);
      return Boolean(sheet) && field !== null && sheet[field] === undefined;
    };
    const toFill = new Set();
    const broken = [];
    let wantsReason = false;
    for (const error of answer.body.errors) {
      const { player, field } = locate(error, players);
      const asked = form.askedField(field);
      if (error.rule === "reason" || field === "reason") wantsReason = true;
      else if (error.rule === "schema" && player && left(player, asked)) toFill.add(`${player}/${asked}`);
      else broken.push(error);
    }
    const unplaced = broken.filter((error) => !markField(error, players, "check-hint"));
    const parts = [];
    if (broken.length) {
      parts.push(t("report.check.broken", { count: broken.length, marked: broken.length > unplaced.length ? "yes" : "no" }));
    }
    for (const error of unplaced) parts.push(errorText(error));
    if (toFill.size) parts.push(t("report.check.to_fill", { count: toFill.size }));
    if (wantsReason && !broken.length && !toFill.size) parts.push(t("report.check.say_why"));
    setHint(`${parts.join(" · ")}.`.replace(/\.\.$/, "."), broken.length ? "broken" : "pending");
  }

  function clearErrors() {
    for (const e of document.querySelectorAll("#result-form .field-error, #result-form .check-hint")) {
      if (e.id === "note-error") e.textContent = "";
      else e.remove();
    }
    for (const e of document.querySelectorAll('#result-form [aria-invalid="true"]')) {
      e.removeAttribute("aria-invalid");
      if (e.id === "note") e.setAttribute("aria-describedby", "note-error");
      else e.removeAttribute("aria-describedby");
    }
    $("error-summary").hidden = true;
  }

  // The text at a field: the error, with the player's name first when the message does not
  // already name them (a schema error names only the field).
  function fieldText(error, player) {
    const text = errorText(error);
    const name = player ? playerName(player) : "";
    return name && !text.includes(name) ? `${name} — ${text}` : text;
  }

  // Puts an error next to its field (the player's cell, the column's footer for the whole table,
  // the note) as a message of `kind` ("field-error": the proposal's; "check-hint": the check's),
  // and marks the field's controls invalid. Answers the control to take the focus to, or null
  // when the error has no place in the form.
  function markField(error, players, kind) {
    const form = getForm();
    const { player, field } = locate(error, players);
    let target = null;
    if (field === "reason" || field === "note") target = $("note-field");
    else if (form && player && field) target = form.cell(player, field) || form.cell(player, "player");
    else if (form && field) target = form.column(field);
    if (!target) return null;
    const id = `report-error-${++errorCounter}`;
    const onNote = target.id === "note-field";
    const message = onNote ? $("note-error") : el("span", { class: kind, id });
    message.textContent = fieldText(error, player);
    if (!onNote) target.append(message);
    const controls = target.matches("input, select, textarea, fieldset")
      ? [target]
      : [...target.querySelectorAll("input:not([type=hidden]), select, textarea, fieldset")];
    for (const control of controls) {
      control.setAttribute("aria-invalid", "true");
      control.setAttribute("aria-describedby", message.id);
    }
    const anchor = controls[0] || target;
    if (!anchor.id) anchor.id = `report-field-${errorCounter}`;
    return anchor;
  }

  // Each error next to its field, and every error in a summary at the top that links to them.
  function showErrors(errors, players, detail = "") {
    const summary = $("error-summary");
    const list = el("ul");
    for (const error of errors) {
      const { player } = locate(error, players);
      const anchor = markField(error, players, "field-error");
      const who = player && !errorText(error).includes(playerName(player)) ? `${playerName(player)}: ` : "";
      const text = who + errorText(error);
      list.append(el("li", {}, anchor ? fieldLink(anchor, text) : text));
    }
    summary.replaceChildren(
      el("p", {}, detail ? t("report.send.not_sent_because", { detail }) : t("report.send.not_sent")),
      list,
    );
    summary.hidden = false;
    summary.focus();
  }

  // A link in the error summary that takes the focus to the field (without touching the address).
  function fieldLink(control, text) {
    const link = el("a", { href: `#${control.id}` }, text);
    link.addEventListener("click", (event) => {
      event.preventDefault();
      const focusable = control.matches("fieldset") ? control.querySelector("input:enabled") || control : control;
      focusable.scrollIntoView({ block: "center" });
      focusable.focus();
    });
    return link;
  }

  return { schedule, now, cancel, clearErrors, showErrors, setHint };
}
