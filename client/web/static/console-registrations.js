// The console's Registrations section (contract rule Q-7): everyone who registered on the public
// page (/t/{t}/register) — holding a place, waiting (with their place in line) or cancelled —
// with the e-mail addresses only the organizer sees (GET …/registrations); registration opened
// or closed (PATCH …/{t}); a registration cancelled for someone; a waiting registrant who came
// on the day checked in (POST …/checkin: "drop the absent" then moves them up in their order);
// and everyone holding a place turned into players in one step, through the CSV import's preview
// (POST …/registrations/admit/check, then …/admit). Who holds a place, who waits and what the
// preview says are the server's answers; the page only shows them.

import { el, person, say, setChildren } from "./dom.js";
import { t } from "./i18n.js";
import { clearRefusals, showRefusal } from "./console-refusals.js";
import { ROW_STATUS } from "./console-registration.js";

const $ = (id) => document.getElementById(id);

// The words of a registration's status (literal keys: the catalogs' test reads them).
const STATUS = {
  registered: (r) => (r.player ? t("console.registrations.status_player") : t("console.registrations.status_registered")),
  waiting: (r) => t("console.registrations.status_waiting", { position: r.position }),
  cancelled: () => t("console.registrations.status_cancelled"),
};

export function mountRegistrations(ctx) {
  const message = $("registrations-message");
  let last = null; // GET …/registrations

  async function load() {
    const answer = await ctx.call("GET", ctx.path("/registrations"));
    if (!answer.ok) return showRefusal(answer, { box: message });
    last = answer.body;
    render();
  }

  function render() {
    if (!last) return;
    $("registrations-settings").textContent = t(last.open ? "console.registrations.open" : "console.registrations.closed", {
      capacity: last.capacity === null ? "∞" : last.capacity,
    });
    $("registrations-toggle").textContent = t(last.open ? "console.registrations.close" : "console.registrations.open_it");
    const counts = $("registrations-counts");
    counts.textContent = t("console.registrations.counts", {
      registered: last.registered,
      waiting: last.waiting,
      cancelled: last.cancelled,
    });
    counts.dataset.registered = last.registered;
    counts.dataset.waiting = last.waiting;
    counts.dataset.cancelled = last.cancelled;
    const rows = last.registrations.map((r) =>
      el(
        "tr",
        { dataset: { registration: r.id, status: r.status } },
        el("td", {}, person(r.name)),
        el("td", {}, r.club || ""),
        el("td", { class: "email" }, typeof r.email === "string" ? r.email : r.email === false ? t("console.registrations.email_sealed") : ""),
        el("td", {}, STATUS[r.status](r)),
        el("td", { class: "actions" }, actions(r)),
      ),
    );
    setChildren($("registrations-list"), rows);
    $("registrations-check").disabled = !last.to_admit;
  }

  function actions(r) {
    const out = [];
    if (r.status === "waiting") {
      out.push(
        r.present
          ? el("span", { class: "muted" }, t("console.registrations.here"))
          : el("button", { type: "button", onclick: () => checkIn(r) }, t("console.registrations.check_in")),
      );
    }
    if (r.status !== "cancelled" && !r.player) {
      out.push(el("button", { type: "button", onclick: () => cancel(r) }, t("console.registrations.cancel")));
    }
    return out;
  }

  async function checkIn(r) {
    clearRefusals($("registrations"), message);
    const answer = await ctx.call("POST", ctx.path("/checkin"), { players: [r.id], present: true });
    if (!answer.ok) return showRefusal(answer, { box: message });
    say(message, t("console.registrations.checked_in", { name: r.name }), "ok");
    await load();
  }

  async function cancel(r) {
    if (!window.confirm(t("console.registrations.confirm_cancel", { name: r.name }))) return;
    clearRefusals($("registrations"), message);
    const answer = await ctx.call("DELETE", ctx.path(`/registrations/${encodeURIComponent(r.id)}`));
    if (!answer.ok) return showRefusal(answer, { box: message });
    const up = answer.body.moved_up;
    say(
      message,
      up ? t("console.registrations.cancelled_moved_up", { name: r.name, up: up.name }) : t("console.registrations.cancelled", { name: r.name }),
      "ok",
    );
    await load();
  }

  $("registrations-toggle").addEventListener("click", async () => {
    clearRefusals($("registrations"), message);
    const answer = await ctx.call("PATCH", ctx.path(), { registration: last && last.open ? "closed" : "open" });
    if (!answer.ok) return showRefusal(answer, { box: message });
    await load();
  });

  function renderPreview(result, kind) {
    const rows = (result.rows || []).map((row) =>
      el(
        "tr",
        { dataset: { status: row.status } },
        el("td", {}, person(row.name)),
        el("td", {}, (ROW_STATUS[row.status] || ROW_STATUS.added)(row)),
      ),
    );
    setChildren(
      $("registrations-preview"),
      el("p", { id: "registrations-preview-counts" }, t(kind === "preview" ? "console.registrations.preview_counts" : "console.registrations.done_counts", { count: rows.length })),
      el("table", { class: "import-rows" }, el("tbody", {}, rows)),
    );
  }

  $("registrations-check").addEventListener("click", async () => {
    clearRefusals($("registrations"), message);
    const answer = await ctx.call("POST", ctx.path("/registrations/admit/check"), {});
    if (!answer.ok) return showRefusal(answer, { box: message });
    renderPreview(answer.body, "preview");
    $("registrations-admit").hidden = false;
  });

  $("registrations-admit").addEventListener("click", async () => {
    clearRefusals($("registrations"), message);
    const answer = await ctx.call("POST", ctx.path("/registrations/admit"), {});
    $("registrations-admit").hidden = true;
    if (!answer.ok) return showRefusal(answer, { box: message });
    renderPreview(answer.body, "done");
    await ctx.reload();
  });

  ctx.subscribe((tournament) => {
    $("registrations-page").href = `/t/${encodeURIComponent(tournament.id)}/register`;
    load();
  });
}
