// The self-reporting page's live check: the judge page's (result-check.js), with the table's
// token, the players' texts, the note as the reason's field, and what is the table's own.
//
// The table's phones share the token's rate limit (table_rate_burst requests, then
// table_rate_limit a second: 60, then 2 by default), so a phone spends little on checks: a check
// waits for a pause, at most one is sent every 2 s, none while nothing is typed (four phones
// typing at once stay inside the limit), and a 429 puts the checks off until the time it names
// has passed. A refused token, a closed round or self-reporting turned off goes to the page
// (onRefusal), which says it. An error names its player at the field too, unless the server's
// message already does (a player reads the form as cards, one per player, on a phone).
//
//   const checker = createChecker({ getForm, checkPath, token, playerName, game, note, onRefusal });
//   form.element.addEventListener("input", checker.schedule);
//   checker.showErrors(answer.body.errors, players, answer.body.detail);

import { problemDetail } from "./api.js";
import { t } from "./i18n.js";
import { refusalOf } from "./report-token.js";
import { createResultCheck } from "./result-check.js";

// options: getForm() → the form (judge-forms.js) or null; checkPath() → POST path of the check;
// token() → the table's token; playerName(id); game() → the tournament's game; note() → the note
// typed (sent as the `reason`); onRefusal(kind, answer): the token, the round or self-reporting
// refused the check.
export function createChecker({ getForm, checkPath, token, playerName, game, note, onRefusal }) {
  return createResultCheck({
    form: getForm,
    path: checkPath,
    token,
    playerName,
    game,
    reason: note,
    reasonIds: { field: "note-field", message: "note-error" },
    names: "text",
    delay: 500, // after the last keystroke
    spacing: 2000, // between two checks sent
    texts: {
      passes: "report.check.passes",
      passesOrder: "report.check.passes_order",
      orderEntry: "report.check.order_entry",
      broken: "report.check.broken",
      toFill: "report.check.to_fill",
      notSent: "report.send.not_sent",
      notSentBecause: "report.send.not_sent_because",
      reason: () => "report.check.say_why",
      empty: "report.check.empty",
    },
    onOther(answer, { setHint, pause }) {
      const refusal = refusalOf(answer);
      if (refusal === "rate") {
        const seconds = Math.max(1, answer.retryAfter || 2);
        setHint(t("report.check.paused", { seconds }), "off");
        pause(seconds);
      } else if (refusal === "unreachable") {
        setHint(t("report.check.unreachable"), "off");
      } else if (refusal) {
        setHint("", "off");
        onRefusal(refusal, answer);
      } else {
        setHint(t("report.check.not_checked", { why: problemDetail(answer) }), "off");
      }
    },
  });
}
