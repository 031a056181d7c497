// How numbers and times are shown. Values that can be fractional come from tallyd as
// {"value": 2.5, "exact": "5/2"}: `value` is for display, `exact` is the truth.

export function numberOf(v) {
  if (v === null || v === undefined) return null;
  return typeof v === "object" ? v.value : v;
}

// Two decimals, always (Catan: "display round points with two decimals").
export function fixed2(v) {
  const n = numberOf(v);
  return n === null ? "" : n.toFixed(2);
}

// A whole number as it is; a fraction with up to two decimals ("1.5", "3.33").
export function compact(v) {
  const n = numberOf(v);
  if (n === null) return "";
  if (Number.isInteger(n)) return String(n);
  return String(Math.round(n * 100) / 100);
}

// A share 0..1 as a percentage with two decimals ("41.96%").
export function percent2(v) {
  const n = numberOf(v);
  return n === null ? "" : `${(n * 100).toFixed(2)}%`;
}

// An ISO time from the server as the venue's local clock time, "14:32".
export function localTime(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(date);
}
