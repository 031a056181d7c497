// The server's refusals where they belong: each error (problem+json `errors[]`) whose `field`
// the form has, next to that field (marked invalid, described by the message); the rest, and
// the problem's detail, in the section's message box. The messages are the server's, already
// in the reader's language (api.js sends Accept-Language).
//
//   clearRefusals(form, box);
//   showRefusal(answer, { box, fields: { name: $("add-player-name") } });

import { problemDetail } from "./api.js";
import { el, say } from "./dom.js";
import { t } from "./i18n.js";

let counter = 0;

// Removes the messages of an earlier answer from `scope` (a form or a section) and hides `box`.
export function clearRefusals(scope, box) {
  for (const node of scope.querySelectorAll(".field-error.from-server")) node.remove();
  for (const node of scope.querySelectorAll('[aria-invalid="true"]')) {
    node.removeAttribute("aria-invalid");
    node.removeAttribute("aria-describedby");
  }
  if (box) say(box, "");
}

// The text of one error as the reader sees it: the server's message, with the CSV line.
export function errorText(error) {
  const message = error.message || error.rule || "";
  return typeof error.line === "number" ? t("console.error_line", { line: error.line, message }) : message;
}

// What a refused answer says when it has no errors of its own: its detail, or its status.
export function problemText(answer) {
  if (answer.status === 0) return t("console.unreachable", { error: answer.body?.detail || "" });
  return problemDetail(answer);
}

// Shows a refused answer. `fields`: error field → the control it belongs to. Answers the
// errors that had no field here (already shown in the box).
export function showRefusal(answer, { box, fields = {} }) {
  const errors = Array.isArray(answer.body?.errors) ? answer.body.errors : [];
  const unplaced = [];
  let first = null;
  for (const error of errors) {
    const control = error.field && Object.hasOwn(fields, error.field) ? fields[error.field] : null;
    if (!control) {
      unplaced.push(error);
      continue;
    }
    markField(control, errorText(error));
    first = first || control;
  }
  const detail = problemText(answer);
  if (box) {
    if (unplaced.length) {
      box.replaceChildren(
        el("p", {}, detail),
        el("ul", {}, unplaced.map((e) => el("li", {}, errorText(e)))),
      );
      box.className = "message error";
      box.hidden = false;
    } else if (!first) {
      say(box, detail, "error");
    } else {
      say(box, t("console.see_fields", { detail }), "error");
    }
  }
  if (first) first.focus();
  return unplaced;
}

// One message under a control, which is marked invalid and described by it.
export function markField(control, text) {
  const id = `refusal-${++counter}`;
  const message = el("span", { class: "field-error from-server", id }, text);
  control.setAttribute("aria-invalid", "true");
  control.setAttribute("aria-describedby", id);
  // After the control's label-and-input pair: at the end of its field paragraph if it has one.
  const holder = control.closest(".field, .inline-form, li") || control.parentElement;
  holder.append(message);
  return message;
}

// The server's warnings (e.g. same_name: "Another player is called Jana Nováková") as one line.
export function warningsText(warnings) {
  if (!Array.isArray(warnings) || !warnings.length) return "";
  return warnings.map((w) => w.message || w.rule).join(" ");
}
