// The table's token on the self-reporting page (/t/{t}/report?round=R&table=N#token=…) and the
// requests made with it.
//
// The token comes in the address's fragment (a browser never sends a fragment to a server), is
// kept in this tab's sessionStorage for that table (a reload, or a language switch, still has
// it) and leaves the address at once. It is only ever sent in the Authorization header, to the
// few endpoints a table token may call (POST …/result/check, POST and GET …/proposals, POST
// …/proposals/{id}/flag); the public reads (the tournament, the round, the games, the live feed)
// are made without it. It is never put into a path or a query, nor written to the console.
//
//   const token = takeToken(tournament, scope);       // from the fragment, else the tab's storage
//   const answer = await tableRequest("GET", path, { token });
//   refusalOf(answer)  → "token" | "round_closed" | "off" | "rate" | null

import { language } from "./i18n.js";

const STORAGE_PREFIX = "tallyd.table-token";

// Where a table's token is kept in this tab: one key per tournament, round and table.
export const storageKey = (tournament, round, table) => `${STORAGE_PREFIX}.${tournament}.${round}.${table}`;

function whole(text) {
  return /^[1-9]\d{0,5}$/.test(text || "") ? Number(text) : null;
}

// The round and table the address names (?round=R&table=N), each null when missing or not a
// number.
export function scopeOfAddress(loc = window.location) {
  const query = new URLSearchParams(loc.search);
  return { round: whole(query.get("round")), table: whole(query.get("table")) };
}

// The tournament, round and table a token shaped as a table token names
// ("tt.{t}.{r}.{n}.{mac}"), or null. Only its shape: whether it is good is the server's to say.
export function scopeOfToken(token) {
  const match = /^tt\.([a-z0-9][a-z0-9-]*)\.(\d+)\.(\d+)\.[A-Za-z0-9_=-]+$/.exec(token || "");
  return match ? { tournament: match[1], round: Number(match[2]), table: Number(match[3]) } : null;
}

function storage() {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage refused (a privacy setting): the token lives as long as the page
  }
}

// The token of the link (#token=…), or null. It leaves the address at once, replaced in the
// history, so that neither the address bar nor Back shows it; the rest of the fragment stays.
export function tokenFromFragment() {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const token = fragment.get("token");
  if (token === null) return null;
  fragment.delete("token");
  const rest = fragment.toString();
  window.history.replaceState(null, "", `${window.location.pathname}${window.location.search}${rest ? `#${rest}` : ""}`);
  return token.trim() || null;
}

// The token for this table: the link's (then kept in the tab), else the one kept, else null.
// `linked` is what tokenFromFragment() gave.
export function tokenFor(tournament, { round, table }, linked) {
  const store = storage();
  const key = storageKey(tournament, round, table);
  if (linked) {
    try {
      store?.setItem(key, linked);
    } catch {
      // full or refused: the page goes on with the token it has
    }
    return linked;
  }
  try {
    return store?.getItem(key) || null;
  } catch {
    return null;
  }
}

// Forgets a token the server refused, so that the next scan of the table's QR code starts clean.
export function forgetToken(tournament, { round, table }) {
  try {
    storage()?.removeItem(storageKey(tournament, round, table));
  } catch {
    // nothing kept
  }
}

// One request, with the table's token when given. Never throws for an HTTP status; a network
// failure answers status 0. {status, ok, body, retryAfter (seconds, for a 429)}.
export async function tableRequest(method, path, { token = null, body, headers = {}, signal } = {}) {
  const sent = { Accept: "application/json", "Accept-Language": language(), ...headers };
  if (token) sent.Authorization = `Bearer ${token}`;
  if (body !== undefined) sent["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: sent,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
      signal,
    });
  } catch (e) {
    if (e && e.name === "AbortError") throw e;
    return { status: 0, ok: false, body: { detail: String(e && e.message) }, retryAfter: null };
  }
  const text = await response.text().catch(() => "");
  let parsed = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = { detail: text };
  }
  const retry = Number.parseInt(response.headers.get("Retry-After") || "", 10);
  return { status: response.status, ok: response.ok, body: parsed, retryAfter: Number.isFinite(retry) ? retry : null };
}

// The rule ids a problem answer names (errors[].rule), e.g. ["auth.table_round_closed"].
export function rulesOf(answer) {
  const errors = answer && answer.body && Array.isArray(answer.body.errors) ? answer.body.errors : [];
  const rules = errors.map((e) => e && e.rule).filter(Boolean);
  if (answer && answer.body && typeof answer.body.rule === "string") rules.push(answer.body.rule);
  return rules;
}

// What kind of refusal an answer is, for the page's plain words:
//   "round_closed" the round is closed (403 auth.table_round_closed);
//   "token"        the token is not this table's, or not a token at all (401, any other 403);
//   "off"          self-reporting is off for the tournament (409 self_reporting.off);
//   "rate"         too many requests from this table (429, wait answer.retryAfter seconds);
//   "unreachable"  no answer (the network, or tallyd down);
//   null           none of these (the caller reads the answer).
export function refusalOf(answer) {
  const rules = rulesOf(answer);
  if (answer.status === 0) return "unreachable";
  if (answer.status === 403 && rules.includes("auth.table_round_closed")) return "round_closed";
  if (answer.status === 401 || answer.status === 403) return "token";
  if (answer.status === 409 && rules.includes("self_reporting.off")) return "off";
  if (answer.status === 429) return "rate";
  return null;
}

// A new Idempotency-Key: a random UUID (version 4). crypto.randomUUID() exists only in a secure
// context, and a phone at the venue usually opens tallyd over plain http on the local network,
// so the UUID is made from crypto.getRandomValues(), which every context has.
export function newIdempotencyKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
