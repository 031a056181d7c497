// A table's proposals as the self-reporting page shows them (GET …/tables/{n}/proposals, newest
// first): each with its state — waiting for a judge, replaced by a newer one, approved (by whom,
// when), rejected (with the judge's reason) —, the result it proposes as it was sent (the VP and
// the order the server computed while it waits), how it differs from the result already entered
// (the server's `differences`), the proposer's note, and the flags players put on it. A waiting
// proposal that this phone did not send carries the flag form: "This is wrong", with a required
// note for the judge.
//
//   renderProposal(proposal, context) → <li data-proposal="812" data-status="pending">
//   proposalSummary(proposal, context) → the result it proposes (a list of players)
// context: {game, description, playerName, own(id) → sent from this phone?, drafts (Map id → a
// flag note being typed), canFlag, onFlag(proposal, textarea, errorNode)}

import { el, person } from "./dom.js";
import { compact, localTime } from "./format.js";
import { askedFields, choiceName, fieldHeading } from "./games.js";
import { t, tParts } from "./i18n.js";
import { resultHeadings } from "./judge-forms.js";
import { differenceLabel, differenceValue } from "./proposal-differences.js";

// A value of a player's field as it was sent: "Settlements 2", "Largest Army" (a title held),
// "House: Stark"; null for a field left empty or unticked.
function valueText(field, value) {
  if (value === undefined || value === null || value === false) return null;
  const heading = fieldHeading(field);
  switch (field.type) {
    case "integer":
      return `${heading} ${compact(value)}`;
    case "boolean":
      return heading;
    case "choice":
      return `${heading}: ${choiceName(value)}`;
    case "choices":
      return Array.isArray(value) && value.length ? `${heading}: ${value.map(choiceName).join(", ")}` : null;
    default:
      return `${heading}: ${String(value)}`;
  }
}

// The result a proposal proposes: one line per player — the place and VP the server computed
// (while it waits), the name, and every value as it was sent.
export function proposalSummary(proposal, { game, description, playerName }) {
  const fields = askedFields(description, "result");
  const sent = (proposal.body && Array.isArray(proposal.body.players) && proposal.body.players) || [];
  const computed = new Map(((proposal.result && proposal.result.players) || []).map((p) => [p.player, p]));
  const [scoreLabel, pointsLabel] = resultHeadings(game);
  let rows = sent.map((p, seat) => ({ sheet: p, seat, computed: computed.get(p.player) || null }));
  // While it waits: in the order of the places the server computed ("2=" shares a place).
  const place = (row) => parseInt(row.computed?.place, 10) || Infinity;
  if (computed.size) rows = [...rows].sort((a, b) => place(a) - place(b) || a.seat - b.seat);
  return el(
    "ul",
    { class: "proposal-result" },
    rows.map(({ sheet, computed: c }) => {
      // The round's points first, then what was typed: "Round points 5 · Settlements 2 · …".
      const values = [c ? `${pointsLabel} ${compact(c.points)}` : null, ...fields.map((f) => valueText(f, sheet[f.name]))].filter(Boolean);
      return el(
        "li",
        { dataset: { player: sheet.player } },
        el(
          "span",
          { class: "proposal-player" },
          c && el("span", { class: "place" }, t("report.proposal.place", { place: c.place })),
          person(playerName(sheet.player)),
          c && el("span", { class: "score" }, `${scoreLabel} ${compact(c.score)}`),
        ),
        // A short value whole on a line ("Longest road 4" never split), " · " between them.
        values.length
          ? el(
              "span",
              { class: "values" },
              values.flatMap((v, i) => [i ? " · " : null, el("span", { class: v.length <= 30 ? "value" : "" }, v)]),
            )
          : null,
      );
    }),
  );
}

// Who sent a proposal and when: "Sent from this phone at 14:02", "Sent from the table at 14:02",
// "Entered by Eva at 14:02".
function origin(proposal, own) {
  const time = localTime(proposal.at);
  if (own) return t("report.proposal.from_this_phone", { time });
  if (proposal.from_table) return t("report.proposal.from_table", { time });
  return tParts("report.proposal.by_judge", { judge: person(proposal.by || t("report.a_judge")), time });
}

// The state of a proposal in words, with who decided and why.
function stateLine(proposal) {
  const d = proposal.decision;
  const judge = person((d && d.by) || t("report.a_judge"));
  const time = d ? localTime(d.at) : "";
  switch (proposal.status) {
    case "pending":
      return null; // the badge says it
    case "superseded":
      return el("p", { class: "proposal-state" }, t("report.proposal.superseded"));
    case "approved":
      return el(
        "p",
        { class: "proposal-state" },
        tParts("report.proposal.approved", { judge, time }),
        d && d.reason ? [" ", el("q", { dir: "auto", class: "reason" }, d.reason)] : null,
      );
    case "rejected":
      return el(
        "p",
        { class: "proposal-state" },
        tParts("report.proposal.rejected", { judge, time }),
        d && d.reason ? [" ", el("q", { dir: "auto", class: "reason" }, d.reason)] : null,
      );
    default:
      return el("p", { class: "proposal-state" }, String(proposal.status || ""));
  }
}

const STATE_KEYS = {
  pending: "report.state.pending",
  superseded: "report.state.superseded",
  approved: "report.state.approved",
  rejected: "report.state.rejected",
};

// "Waiting for a judge", "Approved", … : the short name of a state, for a badge or a heading.
export function stateName(status) {
  return Object.hasOwn(STATE_KEYS, status) ? t(STATE_KEYS[status]) : String(status || "");
}

function differences(proposal, { game, description, playerName }) {
  const list = Array.isArray(proposal.differences) ? proposal.differences : [];
  if (!list.length) return null;
  return el(
    "div",
    { class: "proposal-differences" },
    el("p", {}, t("report.proposal.differences")),
    el(
      "ul",
      {},
      list.map((d) =>
        el(
          "li",
          { class: "proposal-difference", dataset: { field: d.field || "", player: d.player || "" } },
          d.player ? [person(playerName(d.player)), ": "] : null,
          t("report.proposal.difference", {
            field: differenceLabel(d.field, { game, description }),
            entered: differenceValue(d.entered),
            proposed: differenceValue(d.proposed),
          }),
        ),
      ),
    ),
  );
}

function flags(proposal) {
  const list = Array.isArray(proposal.flags) ? proposal.flags : [];
  if (!list.length) return null;
  return el(
    "ul",
    { class: "proposal-flags", "aria-label": t("report.flag.list") },
    list.map((f) =>
      el(
        "li",
        { class: "proposal-flag", dataset: { seq: f.seq } },
        el("span", { class: "flag-mark", "aria-hidden": "true" }, "⚑ "),
        el("q", { dir: "auto", class: "reason" }, f.note || ""),
        " ",
        el(
          "span",
          { class: "muted" },
          f.from_table
            ? t("report.flag.from_table", { time: localTime(f.at) })
            : tParts("report.flag.by", { judge: person(f.by || t("report.a_judge")), time: localTime(f.at) }),
        ),
      ),
    ),
  );
}

// The flag form of a waiting proposal: the note (required) and "This is wrong".
function flagForm(proposal, { drafts, onFlag }) {
  const id = `flag-note-${proposal.id}`;
  const errorId = `${id}-error`;
  const note = el("textarea", {
    id,
    name: "note",
    rows: "2",
    maxlength: "500",
    required: true,
    "aria-describedby": errorId,
    dataset: { proposal: proposal.id },
  });
  note.value = drafts.get(proposal.id) || "";
  note.addEventListener("input", () => drafts.set(proposal.id, note.value));
  const error = el("span", { class: "field-error", id: errorId });
  const form = el(
    "form",
    { class: "flag-form", novalidate: true, dataset: { proposal: proposal.id } },
    el("label", { for: id }, t("report.flag.label")),
    note,
    error,
    el("button", { type: "submit", class: "secondary flag-button", dataset: { action: "flag" } }, t("report.flag.button")),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    onFlag(proposal, note, error);
  });
  return form;
}

// One proposal as an item of the table's list.
export function renderProposal(proposal, context) {
  const own = context.own(proposal.id);
  const pending = proposal.status === "pending";
  return el(
    "li",
    { class: `proposal ${proposal.status}`, dataset: { proposal: proposal.id, status: proposal.status, own: own ? "yes" : "no" } },
    el(
      "div",
      { class: "proposal-head" },
      el("span", { class: `badge state ${proposal.status}` }, stateName(proposal.status)),
      el("span", { class: "proposal-origin" }, origin(proposal, own)),
    ),
    stateLine(proposal),
    pending && proposal.replaces_result ? el("p", { class: "muted" }, t("report.proposal.replaces_result")) : null,
    // What a waiting or rejected proposal holds is what matters on the table; an approved one is
    // the result in effect, a replaced one history: theirs behind a tap.
    pending || proposal.status === "rejected"
      ? proposalSummary(proposal, context)
      : el("details", { class: "proposal-details" }, el("summary", {}, t("report.proposal.show_sent")), proposalSummary(proposal, context)),
    differences(proposal, context),
    proposal.note
      ? el("p", { class: "proposal-note" }, tParts("report.proposal.note", { note: el("q", { dir: "auto", class: "reason" }, proposal.note) }))
      : null,
    flags(proposal),
    pending && !own && context.canFlag ? flagForm(proposal, context) : null,
  );
}
