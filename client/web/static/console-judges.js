// The console's Judges section: the judges (GET /v1/judges), one added (POST /v1/judges: its
// token is in that answer only, so the page shows it once, with a QR code of the judge page's
// link carrying it in the fragment, /t/{t}/judge#token=…, which the browser never sends to
// the server), and a judge's token revoked (DELETE /v1/judges/{id}) after a confirmation.

import { el, person, say, setChildren } from "./dom.js";
import { t } from "./i18n.js";
import { isLoopbackOrigin } from "./loopback.js";
import { encodeQr, qrSvg } from "./qr-code.js";
import { clearRefusals, showRefusal, warningsText } from "./console-refusals.js";

const $ = (id) => document.getElementById(id);

// The address phones reach this server at: ?public=http://192.168.1.20:8080 when the console
// is opened by another one (as on the venue screen), else the console's own.
export function publicOrigin(loc = window.location) {
  const wanted = new URLSearchParams(loc.search).get("public");
  return wanted ? wanted.replace(/\/+$/, "") : loc.origin;
}

// The judge page of the tournament signed in with `token`, as a phone reaches this server.
export function judgeLink(tournamentId, token, origin = publicOrigin()) {
  return `${origin}/t/${encodeURIComponent(tournamentId)}/judge#token=${encodeURIComponent(token)}`;
}

export function mountJudges(ctx) {
  const message = $("judges-message");
  let loaded = false;

  async function loadJudges() {
    const answer = await ctx.call("GET", "/v1/judges");
    if (!answer.ok) return showRefusal(answer, { box: message });
    loaded = true;
    const judges = answer.body;
    setChildren(
      $("judge-list"),
      judges.length ? judges.map(judgeItem) : el("li", { class: "muted" }, t("console.judges.none")),
    );
  }

  function judgeItem(judge) {
    const item = el(
      "li",
      { dataset: { judge: judge.id }, class: judge.revoked ? "revoked" : "" },
      el("span", { class: "who" }, el("strong", {}, person(judge.name)), " ", el("code", {}, judge.id)),
      judge.revoked ? el("span", { class: "badge" }, t("console.judges.revoked")) : null,
    );
    if (!judge.revoked) {
      item.append(el("button", { type: "button", class: "secondary", onclick: () => confirmRevoke(item, judge) }, t("console.judges.revoke")));
    }
    return item;
  }

  function confirmRevoke(item, judge) {
    const yes = el("button", { type: "button" }, t("console.judges.revoke_yes", { name: judge.name }));
    const no = el("button", { type: "button", class: "secondary", onclick: () => loadJudges() }, t("console.cancel"));
    yes.addEventListener("click", async () => {
      clearRefusals($("judges"), message);
      const answer = await ctx.call("DELETE", `/v1/judges/${encodeURIComponent(judge.id)}`);
      if (!answer.ok) return showRefusal(answer, { box: message });
      say(message, t("console.judges.revoked_done", { name: judge.name }), "ok");
      await loadJudges();
    });
    item.replaceChildren(el("span", { class: "who" }, t("console.judges.revoke_confirm", { name: judge.name })), yes, no);
    no.focus();
  }

  // The new judge's token, once: written out, as a link, and as a QR code of that link.
  function showNewJudge(judge) {
    const link = judgeLink(ctx.tournamentId, judge.token);
    const qr = qrSvg(document, encodeQr(link), { title: t("console.judges.qr_title", { name: judge.name }) });
    qr.setAttribute("class", "qr");
    const box = $("new-judge");
    const warned = warningsText(judge.warnings);
    setChildren(
      box,
      el("h3", {}, t("console.judges.new_heading", { name: judge.name })),
      warned ? el("p", { class: "message warn" }, warned) : null,
      el("p", {}, t("console.judges.token_once")),
      el("p", {}, el("code", { id: "new-judge-token", class: "token" }, judge.token)),
      el("div", { class: "qr-box" }, qr),
      el("p", {}, t("console.judges.scan")),
      el("p", { class: "link" }, el("a", { id: "new-judge-link", href: link }, t("console.judges.link", { name: judge.name }))),
      // A console opened at this computer's own address makes links no phone can follow.
      isLoopbackOrigin(publicOrigin()) ? el("p", { class: "message warn" }, t("console.judges.loopback", { origin: publicOrigin() })) : null,
      el("p", {}, el("button", { type: "button", class: "secondary", onclick: () => (box.hidden = true) }, t("console.judges.hide_token"))),
    );
    box.hidden = false;
  }

  $("add-judge-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    clearRefusals(form, message);
    $("new-judge").hidden = true;
    const answer = await ctx.call("POST", "/v1/judges", { name: $("judge-name").value.trim() });
    if (!answer.ok) return showRefusal(answer, { box: message, fields: { name: $("judge-name") } });
    form.reset();
    showNewJudge(answer.body);
    await loadJudges();
  });

  ctx.subscribe(() => {
    if (!loaded) loadJudges();
  });
}
