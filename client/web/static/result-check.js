// The result form's live check and its errors at their fields, for the judge page (judge.js) and
// the table's self-reporting page (report-check.js): the entry typed so far is sent to POST
// …/result/check once the person typing pauses, and the server's answer is shown where it
// belongs — the computed values beside each player and the order when every check passes; each
// broken rule at its field, with its rule id and the server's message; a schema error about a
// field still empty only counted ("N fields to fill"); while a field the game's description marks
// required is empty, nothing is sent: the page counts those itself. The errors of a refused save or proposal
// (422) go to their fields the same way, and into a summary at the top that links to them.
//
// The page knows no rule: what is computed and what is broken are the server's answers. Only the
// answer about the newest entry is shown: a newer check aborts the one under way, and an answer
// that arrives for an older entry is dropped. The page has #result-form holding #form-hint (the
// check's line) and #error-summary, and the field of the reason (the judge's correction, the
// players' note) with its message.
//
//   const check = createResultCheck({ form, path, token, playerName, game, reason, reasonIds,
//                                     names, delay, spacing, texts, onOther });
//   form.element.addEventListener("input", check.schedule);
//   check.showErrors(answer.body.errors, players, detail);   // a refused save's 422
//
// options:
//   form()      the form (judge-forms.js) to check, or null when there is nothing to check now
//   path()      the check's path; token() the token it is sent with
//   playerName(id); game() the tournament's game (the order's headings)
//   reason()    the reason sent with the check ("" for none)
//   reasonIds   {field, message}: the ids of the reason's field and of its message
//   names       how an error names its player: "row" (the judge page: at the field the player's
//               row says who, the summary puts the name first) or "text" (the name first at the
//               field and in the summary, unless the server's message already says it)
//   delay       ms after the last keystroke; spacing: ms at least between two checks sent
//   texts       catalog keys: passes, passesOrder, orderEntry, broken, toFill, notSent,
//               notSentBecause; reason() → the key said when the server asks for a reason;
//               empty (optional): said instead of a check while nothing is typed
//   onOther(answer, {setHint, pause}): an answer that is neither 200 nor a 422 with errors
//               (pause(seconds) puts the checks off, as a 429 asks)

import { tryRequest } from "./api.js";
import { el } from "./dom.js";
import { compact } from "./format.js";
import { t } from "./i18n.js";
import { resultHeadings } from "./judge-forms.js";

const $ = (id) => document.getElementById(id);

let counter = 0; // the ids of the messages at the fields, unique in the page

// A server error as shown: its rule id (the same in every language) and its message (in the
// page's language, as the server words it for Accept-Language).
function errorText(error) {
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

// An entry with nothing typed yet: every value empty, unticked or unchosen.
function nothingTyped(players) {
  const empty = (value) => value === undefined || value === false || (Array.isArray(value) && !value.length);
  return players.every((p) => Object.entries(p).every(([key, value]) => key === "player" || empty(value)));
}

// The hint's parts as one sentence: "2 rules are broken · 3 fields to fill."
const sentence = (parts) => `${parts.join(" · ")}.`.replace(/\.\.$/, ".");

export function createResultCheck(options) {
  const { form: currentForm, playerName, texts, reasonIds } = options;
  const delay = options.delay ?? 300;
  const spacing = options.spacing ?? 0;
  const check = {
    timer: null,
    seq: 0, // the newest check asked for
    controller: null, // aborts the check under way
    pausedUntil: 0, // no check before (a 429's wait)
    sentAt: -Infinity,
    last: null, // {key, answer}: the newest answer shown, and the players it was for
  };

  function setHint(text, kind) {
    const hint = $("form-hint");
    hint.textContent = text;
    hint.dataset.state = kind;
  }

  // ---- checking ------------------------------------------------------------------------------

  // Forgets the check waiting or under way: its answer, if it comes, is not shown.
  function cancel() {
    clearTimeout(check.timer);
    check.timer = null;
    check.seq++;
    if (check.controller) check.controller.abort();
    check.controller = null;
  }

  // The entry changed: a new check once the typing pauses (and the spacing or a 429's wait is over).
  function schedule() {
    if (!currentForm()) return;
    cancel();
    const wait = Math.max(delay, check.pausedUntil - Date.now(), check.sentAt + spacing - Date.now());
    check.timer = setTimeout(now, wait);
  }

  function pause(seconds) {
    check.pausedUntil = Date.now() + seconds * 1000;
    schedule();
  }

  async function now() {
    cancel();
    const form = currentForm();
    if (!form) return;
    const players = form.players();
    if (texts.empty && nothingTyped(players)) {
      form.showComputed(null);
      clearErrors();
      setHint(t(texts.empty), "pending");
      return;
    }
    // A value the game requires is still empty: the server would only say so (a 422 in the
    // browser's console for every keystroke); the page counts them itself, from the description.
    const missing = form.missing ? form.missing() : 0;
    if (missing > 0) {
      form.showComputed(null);
      clearErrors();
      setHint(sentence([t(texts.toFill, { count: missing })]), "pending");
      return;
    }
    if (Date.now() < Math.max(check.pausedUntil, check.sentAt + spacing)) {
      schedule();
      return;
    }
    check.sentAt = Date.now();
    const seq = check.seq;
    const body = { players };
    const reason = options.reason();
    if (reason) body.reason = reason;
    const controller = new AbortController();
    check.controller = controller;
    let answer;
    try {
      answer = await tryRequest("POST", options.path(), { token: options.token(), body, signal: controller.signal });
    } catch {
      return; // aborted: a newer entry is being checked
    }
    if (seq !== check.seq || form !== currentForm()) return; // an answer about an older entry
    check.controller = null;
    check.last = { key: JSON.stringify(players), answer };
    show(answer, players, form);
  }

  // The server's result for `players` if the newest check was about exactly them and passed.
  function checkedResult(players) {
    const last = check.last;
    if (!last || last.key !== JSON.stringify(players) || last.answer.status !== 200) return null;
    return (last.answer.body && last.answer.body.result) || null;
  }

  // The order the server computed: "1. Eva (VP 10, round points 5), 2. …", by its places.
  function orderText(result) {
    const [scoreLabel, pointsLabel] = resultHeadings(options.game(), "in_text");
    const rows = [...result.players].sort((a, b) => parseInt(a.place, 10) - parseInt(b.place, 10));
    return rows
      .map((p) =>
        t(texts.orderEntry, {
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

  // A check's answer: the computed values and the order when it passes; when it does not, each
  // broken rule at its field, and the fields still empty only counted.
  function show(answer, players, form) {
    clearErrors(); // the messages of an earlier save were about an earlier entry
    if (answer.status === 200) {
      const result = answer.body && answer.body.result;
      form.showComputed(result);
      if (result && result.players && result.players.length) setHint(t(texts.passesOrder, { order: orderText(result) }), "ok");
      else setHint(t(texts.passes), "ok");
      return;
    }
    form.showComputed(null);
    if (answer.status !== 422 || !answer.body || !Array.isArray(answer.body.errors)) {
      options.onOther(answer, { setHint, pause });
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
      const asked = form.askedField(field); // a derived field's: the one it comes from
      if (error.rule === "reason") wantsReason = true;
      else if (error.rule === "schema" && player && left(player, asked)) toFill.add(`${player}/${asked}`);
      else broken.push(error);
    }
    // A correction without its reason: the server asks for it before it checks anything else.
    if (wantsReason) {
      setHint(sentence([t(texts.reason())]), "pending");
      return;
    }
    const unplaced = broken.filter((error) => !markField(error, players, "check-hint"));
    const parts = [];
    if (broken.length) {
      parts.push(t(texts.broken, { count: broken.length, marked: broken.length > unplaced.length ? "yes" : "no" }));
    }
    for (const error of unplaced) parts.push(errorText(error));
    if (toFill.size) parts.push(t(texts.toFill, { count: toFill.size }));
    setHint(sentence(parts), broken.length ? "broken" : "pending");
  }

  // ---- errors at their fields ----------------------------------------------------------------

  function clearErrors() {
    for (const e of document.querySelectorAll("#result-form .field-error, #result-form .check-hint")) {
      if (e.id === reasonIds.message) e.textContent = "";
      else e.remove();
    }
    const reasonField = $(reasonIds.field);
    for (const e of document.querySelectorAll('#result-form [aria-invalid="true"]')) {
      e.removeAttribute("aria-invalid");
      // The reason's control keeps its message as its description.
      if (reasonField && reasonField.contains(e)) e.setAttribute("aria-describedby", reasonIds.message);
      else e.removeAttribute("aria-describedby");
    }
    $("error-summary").hidden = true;
  }

  // Whether the text of an error at its field, or in the summary, is to name the player first.
  function namesFirst(error, player, where) {
    if (!player) return false;
    if (options.names === "text") return !errorText(error).includes(playerName(player));
    return where === "summary";
  }

  // Puts an error next to its field (the player's cell, the column's footer for the whole table,
  // the reason) as a message of `kind` ("field-error": the save's; "check-hint": the check's),
  // and marks the field's controls invalid. Answers the control to take the focus to, or null
  // when the error has no place in the form.
  function markField(error, players, kind) {
    const form = currentForm();
    const { player, field } = locate(error, players);
    let target = null;
    if (field === "reason" || field === "note") target = $(reasonIds.field);
    else if (form && player && field) target = form.cell(player, field) || form.cell(player, "player");
    else if (form && field) target = form.column(field);
    if (!target) return null;
    const id = `result-error-${++counter}`;
    const onReason = target.id === reasonIds.field;
    const message = onReason ? $(reasonIds.message) : el("span", { class: kind, id });
    const text = errorText(error);
    message.textContent = namesFirst(error, player, "field") ? `${playerName(player)} — ${text}` : text;
    if (!onReason) target.append(message);
    const controls = target.matches("input, select, textarea, fieldset")
      ? [target]
      : [...target.querySelectorAll("input:not([type=hidden]), select, textarea, fieldset")];
    for (const control of controls) {
      control.setAttribute("aria-invalid", "true");
      control.setAttribute("aria-describedby", message.id);
    }
    const anchor = controls[0] || target;
    if (!anchor.id) anchor.id = `result-field-${counter}`;
    return anchor;
  }

  // Each error next to its field, and every error in a summary at the top that links to them.
  function showErrors(errors, players, detail = "") {
    const summary = $("error-summary");
    const list = el("ul");
    for (const error of errors) {
      const { player } = locate(error, players);
      const anchor = markField(error, players, "field-error");
      const text = (namesFirst(error, player, "summary") ? `${playerName(player)}: ` : "") + errorText(error);
      list.append(el("li", {}, anchor ? fieldLink(anchor, text) : text));
    }
    summary.replaceChildren(el("p", {}, detail ? t(texts.notSentBecause, { detail }) : t(texts.notSent)), list);
    summary.hidden = false;
    summary.focus();
  }

  return { schedule, now, cancel, pause, checkedResult, clearErrors, showErrors, setHint };
}

// A link in the error summary that takes the focus to the field. Following the fragment itself
// would replace the page's own fragment in the address (#round=…&table=…) and only scroll.
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
