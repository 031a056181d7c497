// A series' public page (/s/{s}): the series standings with who qualified and how, each
// tournament with its size and who qualified there (an import with the server it came from); and
// a person's page (/s/{s}?person={p}): the person's results tournament by tournament and what is
// still missing, in the server's words. Everything is the server's: the statuses, the points, the
// sizes, the ranks and the "missing" text (docs/series.md); the page only lays them out.
//
// Its language: the visitor's choice, else the series' locale, else English (as a tournament's
// pages; i18n.js).

import { getJson } from "./api.js";
import { el, person, say, setChildren } from "./dom.js";
import { compact, numberOf, rankText, sharedRanks } from "./format.js";
import { chooseLanguage, formatDateTime, language, STORAGE_KEY, startI18n, t, translateDocument, useCatalog } from "./i18n.js";
import { gameName } from "./standings-columns.js";

// The series id of a page at /s/{s}.
export function seriesIdFromLocation(loc = window.location) {
  const match = loc.pathname.match(/^\/s\/([^/]+)/);
  return match ? decodeURIComponent(match[1]) : null;
}

const seriesPath = (id) => `/v1/series/${encodeURIComponent(id)}`;
export const personHref = (series, p) => `/s/${encodeURIComponent(series)}?person=${encodeURIComponent(p)}`;

// ---- the page's language ----------------------------------------------------------------------

function storedChoice() {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

// startI18n() knows a tournament's locale, not a series': the page starts in the visitor's choice
// (or the browser's language) and, when the series' locale decides otherwise, takes that catalog.
async function useSeriesLanguage(locale) {
  const lang = chooseLanguage({ stored: storedChoice(), hasTournament: true, tournamentLocale: locale || "" });
  if (lang === language()) return;
  const response = await fetch(`/static/locale/${lang}.json`).catch(() => null);
  if (!response || !response.ok) return;
  useCatalog(lang, await response.json());
  translateDocument(document);
  for (const button of document.querySelectorAll("#languages button[data-lang]")) {
    button.setAttribute("aria-pressed", String(button.dataset.lang === lang));
  }
}

// ---- pieces -----------------------------------------------------------------------------------

// A qualified row's status: a mark and a word (never a colour alone), and where it was earned.
function statusBadge(status) {
  if (status === "direct") return el("span", { class: "status status-direct" }, el("span", { class: "mark", "aria-hidden": "true" }, "★"), t("series.status.direct"));
  if (status === "points") return el("span", { class: "status status-points" }, el("span", { class: "mark", "aria-hidden": "true" }, "◆"), t("series.status.points"));
  return null;
}

// Points as the server gives them ({value, exact}): a whole number as it is; a fraction as its
// exact form with the value beside it ("61/3 ≈ 20.33").
function pointsCell(points) {
  const value = numberOf(points);
  if (value === null) return "";
  const exact = points && typeof points === "object" ? points.exact : null;
  if (!exact || !exact.includes("/")) return compact(value);
  return el("span", { class: "fraction" }, el("span", { class: "exact" }, exact), " ", el("span", { class: "approx" }, `≈ ${compact(value)}`));
}

function endedText(micros) {
  if (typeof micros !== "number") return null;
  return t("series.tournament.ended", { date: formatDateTime(new Date(micros / 1000), { day: "numeric", month: "long", year: "numeric" }) });
}

// ---- the series standings ---------------------------------------------------------------------

function renderStandings(seriesId, standings) {
  const qualification = standings.kind === "qualification";
  const table = document.getElementById("series-standings");
  table.classList.toggle("ladder", !qualification);
  const headers = [
    el("th", { scope: "col", class: "number" }, t("series.column.rank")),
    el("th", { scope: "col" }, t("series.column.name")),
    el("th", { scope: "col", class: "number" }, t("series.column.points")),
  ];
  if (qualification) headers.push(el("th", { scope: "col", class: "number" }, t("series.column.missing")));
  setChildren(table.tHead, el("tr", {}, headers));
  const shared = sharedRanks(standings.rows);
  const tournamentName = new Map(standings.tournaments.map((x) => [x.id, x.name]));
  setChildren(
    table.tBodies[0],
    standings.rows.map((row) => {
      const name = row.person ? el("a", { href: personHref(seriesId, row.person) }, person(row.name)) : person(row.name);
      const badge = statusBadge(row.status);
      const where = row.qualified_at ? tournamentName.get(row.qualified_at) || row.qualified_at : null;
      const from = !row.person && row.tournament ? tournamentName.get(row.tournament) || row.tournament : null;
      const missing = qualification && !row.status && row.points_missing > 0 ? String(row.points_missing) : "";
      const cells = [
        el("td", { class: "number rank" }, rankText(row.rank, shared.has(row.rank))),
        el(
          "th",
          { scope: "row", class: "name" },
          name,
          badge && el("span", { class: "status-line" }, badge, where && el("span", { class: "where" }, where)),
          from && el("span", { class: "status-line where" }, from),
        ),
        el("td", { class: "number points" }, pointsCell(row.points)),
      ];
      if (qualification) cells.push(el("td", { class: "number missing" }, missing));
      return el("tr", { dataset: { key: row.key, status: row.status || "" }, class: row.status ? `qualified qualified-${row.status}` : "" }, cells);
    }),
  );
  document.getElementById("standings-empty").hidden = standings.rows.length > 0;
  table.hidden = standings.rows.length === 0;
}

function renderTournaments(seriesId, series, standings) {
  const names = new Map(standings.rows.map((row) => [row.key, row]));
  const about = new Map(series.tournaments.map((x) => [x.id, x]));
  const who = (keys) =>
    keys.length
      ? keys.flatMap((key, i) => {
          const row = names.get(key);
          const name = row ? (row.person ? el("a", { href: personHref(seriesId, row.person) }, person(row.name)) : person(row.name)) : key;
          return i === 0 ? [name] : [", ", name];
        })
      : [t("series.tournament.nobody")];
  setChildren(
    document.getElementById("series-tournaments"),
    standings.tournaments.map((x) => {
      const info = about.get(x.id) || {};
      const origin = x.imported && info.origin ? info.origin.server : null;
      const differences = Array.isArray(info.differences) ? info.differences.length : 0;
      const facts = [
        el("span", { class: "size" }, t("series.tournament.size", { size: x.size })),
        !x.final ? el("span", { class: "not-final" }, t("series.tournament.not_final")) : x.counted === false ? el("span", { class: "not-counted" }, t("series.tournament.not_counted")) : endedText(x.ended_at),
      ].filter(Boolean);
      return el(
        "li",
        { class: "series-tournament", dataset: { tournament: x.id } },
        el("h3", {}, el("span", { class: "tournament-name" }, x.name),
          x.imported ? el("span", { class: "badge imported" }, el("span", { "aria-hidden": "true" }, "⇩ "), t("series.tournament.imported_badge")) : null),
        origin ? el("p", { class: "origin muted" }, t("series.tournament.imported", { server: origin })) : null,
        differences ? el("p", { class: "differences" }, t("series.tournament.differences", { count: differences })) : null,
        el("p", { class: "facts muted" }, facts.flatMap((f, i) => (i === 0 ? [f] : [" · ", f]))),
        standings.kind === "qualification" && x.final && x.counted !== false
          ? el(
              "dl",
              { class: "qualified-there" },
              el("dt", {}, statusBadge("direct")),
              el("dd", { class: "direct" }, who(x.direct || [])),
              el("dt", {}, el("span", { class: "status status-points" }, el("span", { class: "mark", "aria-hidden": "true" }, "◆"), t("series.tournament.point"))),
              el("dd", { class: "points" }, who(x.points || [])),
            )
          : null,
      );
    }),
  );
}

// ---- a person ---------------------------------------------------------------------------------

function renderPerson(seriesId, series, answer) {
  document.getElementById("series-link").hidden = false;
  document.getElementById("series-link").href = `/s/${encodeURIComponent(seriesId)}`;
  document.getElementById("person-name").replaceChildren(person(answer.name));
  document.title = `${answer.name} — ${series.name}`;
  const club = document.getElementById("person-club");
  club.hidden = !answer.club;
  club.textContent = answer.club || "";
  const standing = answer.standing;
  const qualification = series.scoring && series.scoring.kind === "qualification";
  const tournamentName = new Map(series.tournaments.map((x) => [x.id, x.name]));
  const badge = standing && statusBadge(standing.status);
  const where = standing && standing.qualified_at ? tournamentName.get(standing.qualified_at) || standing.qualified_at : null;
  setChildren(document.getElementById("person-status"), badge, where && el("span", { class: "where" }, where));
  // What is still missing, in the server's words (and language).
  const missing = document.getElementById("person-missing");
  missing.hidden = !(answer.missing && standing && !standing.status);
  missing.textContent = answer.missing || "";
  const figures = [];
  if (standing) {
    figures.push([t("series.person.rank"), rankText(standing.rank, false)]);
    figures.push([t("series.column.points"), pointsCell(standing.points)]);
  }
  if (answer.rating !== undefined && answer.rating !== null) {
    figures.push([t("series.person.rating"), typeof answer.rating === "object" ? pointsCell(answer.rating) : compact(answer.rating)]);
  }
  setChildren(document.getElementById("person-figures"), figures.map(([term, value]) => el("div", {}, el("dt", {}, term), el("dd", {}, value))));

  const results = (standing && standing.results) || [];
  const table = document.getElementById("person-results");
  const headers = [
    el("th", { scope: "col" }, t("series.person.column.tournament")),
    el("th", { scope: "col", class: "number" }, t("series.person.column.place")),
    el("th", { scope: "col", class: "number" }, t("series.person.column.size")),
  ];
  if (!qualification) headers.push(el("th", { scope: "col", class: "number" }, t("series.column.points")));
  setChildren(table.tHead, el("tr", {}, headers));
  setChildren(
    table.tBodies[0],
    results.map((r) => {
      const outcome = [];
      if (r.earned === "direct") outcome.push(statusBadge("direct"));
      if (r.earned === "point") outcome.push(el("span", { class: "status status-points" }, el("span", { class: "mark", "aria-hidden": "true" }, "◆"), t("series.earned.point")));
      if (r.passed_over) outcome.push(el("span", { class: "passed-over" }, t("series.earned.passed_over")));
      if (!qualification && r.counted === false) outcome.push(el("span", { class: "not-counted" }, t("series.earned.not_counted")));
      // What the result earned, under the tournament's name (a phone has no room for a column).
      const cells = [
        el(
          "th",
          { scope: "row", class: "tournament" },
          el("span", { class: "tournament-name" }, tournamentName.get(r.tournament) || r.tournament),
          outcome.length ? el("span", { class: "outcome status-line" }, outcome.flatMap((o, i) => (i === 0 ? [o] : [" ", o]))) : null,
        ),
        el("td", { class: "number place" }, String(r.place)),
        el("td", { class: "number size" }, String(r.size)),
      ];
      if (!qualification) cells.push(el("td", { class: "number points" }, pointsCell(r.points)));
      return el("tr", { dataset: { tournament: r.tournament } }, cells);
    }),
  );
  document.getElementById("person-none").hidden = results.length > 0;
  table.hidden = results.length === 0;
}

// ---- the page ---------------------------------------------------------------------------------

function fail(error) {
  document.getElementById("loading").hidden = true;
  say(document.getElementById("load-error"), t("series.load_error", { error: error.message }), "error");
}

async function main() {
  await startI18n();
  const id = seriesIdFromLocation();
  const personId = new URLSearchParams(window.location.search).get("person");
  let series;
  try {
    series = await getJson(seriesPath(id));
  } catch (e) {
    fail(e);
    return;
  }
  await useSeriesLanguage(series.locale);
  document.getElementById("series-name").textContent = series.name;
  document.title = series.name;
  const kind = series.scoring && series.scoring.kind;
  document.getElementById("series-info").textContent = t("series.info", {
    game: gameName(series.game),
    kind: kind === "ladder" ? "ladder" : "qualification",
    count: series.tournaments.length,
  });
  try {
    if (personId) {
      const answer = await getJson(`${seriesPath(id)}/people/${encodeURIComponent(personId)}`);
      renderPerson(id, series, answer);
      document.getElementById("person-view").hidden = false;
    } else {
      const standings = await getJson(`${seriesPath(id)}/standings`);
      renderStandings(id, standings);
      renderTournaments(id, series, standings);
      document.getElementById("series-view").hidden = false;
    }
  } catch (e) {
    fail(e);
    return;
  }
  document.getElementById("loading").hidden = true;
  document.body.dataset.ready = "true";
}

main();
