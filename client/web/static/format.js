// How numbers and times are shown. Values that can be fractional come from tallyd as
// {"value": 2.5, "exact": "5/2"}: `value` is for display, `exact` is the truth.
//
// On the page numbers are the page language's (Intl, i18n.js): "2.50" in English, "2,50" in
// Czech and Italian. The CSV download is for machines and keeps one form in every language
// (the plain* functions): "2.50", "41.96%".

import { formatDateTime, formatNumber } from "./i18n.js";

export function numberOf(v) {
  if (v === null || v === undefined) return null;
  return typeof v === "object" ? v.value : v;
}

// Two decimals, always (Catan: "display round points with two decimals").
export function fixed2(v) {
  const n = numberOf(v);
  return n === null ? "" : formatNumber(n, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

// A whole number as it is; a fraction with up to two decimals ("1.5", "3.33"; "1,5" in Czech).
export function compact(v) {
  const n = numberOf(v);
  return n === null ? "" : formatNumber(n, { maximumFractionDigits: 2 });
}

// A share 0..1 as a percentage with two decimals ("41.96%", "41,96 %").
export function percent2(v) {
  const n = numberOf(v);
  return n === null ? "" : formatNumber(n, { style: "percent", minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

export function plainFixed2(v) {
  const n = numberOf(v);
  return n === null ? "" : n.toFixed(2);
}

export function plainCompact(v) {
  const n = numberOf(v);
  if (n === null) return "";
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100);
}

export function plainPercent2(v) {
  const n = numberOf(v);
  return n === null ? "" : `${(n * 100).toFixed(2)}%`;
}

// An ISO time from the server as the venue's local clock time, "14:32".
export function localTime(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return formatDateTime(date, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
}

// Now on the venue's clock with seconds, "14:32:05".
export function clockTime(date = new Date()) {
  return formatDateTime(date, { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
}

// A rank as the standings show it: "3", or "3=" when another row has the same rank (tallyd
// shares a rank where the game's criteria tie; the pages never decide a tie themselves).
export function rankText(rank, shared) {
  return shared ? `${rank}=` : String(rank);
}

// The ranks that more than one row of `rows` has (a Set).
export function sharedRanks(rows) {
  const seen = new Set();
  const shared = new Set();
  for (const row of rows) {
    if (seen.has(row.rank)) shared.add(row.rank);
    seen.add(row.rank);
  }
  return shared;
}
