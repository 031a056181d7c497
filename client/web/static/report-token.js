// The table's token on the self-reporting page (/t/{t}/report?round=R&table=N#token=…), and
// what the server's refusals of it mean.
//
// The token comes in the address's fragment (a browser never sends a fragment to a server; the
// page takes it with api.js takeTokenFromFragment(), which removes it from the address at once),
// and is kept in this tab's sessionStorage for that table (a reload, or a language switch, still
// has it). It is only ever sent in the Authorization header, to the few endpoints a table token
// may call (POST …/result/check, POST and GET …/proposals, POST …/proposals/{id}/flag); the
// public reads (the tournament, the round, the games, the live feed) are made without it. It is
// never put into a path or a query, nor written to the console.
//
//   const token = tokenFor(tournament, scope, takeTokenFromFragment() || null);  // else the tab's
//   refusalOf(answer)  → "token" | "round_closed" | "off" | "rate" | "unreachable" | null

import { hasRule } from "./api.js";

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

// The token for this table: the link's (then kept in the tab), else the one kept, else null.
// `linked` is the link's token, or null.
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

// What kind of refusal an answer is, for the page's plain words:
//   "round_closed" the round is closed (403 auth.table_round_closed);
//   "token"        the token is not this table's, or not a token at all (401, any other 403);
//   "off"          self-reporting is off for the tournament (409 self_reporting.off);
//   "rate"         too many requests from this table (429, wait answer.retryAfter seconds);
//   "unreachable"  no answer (the network, or tallyd down);
//   null           none of these (the caller reads the answer).
export function refusalOf(answer) {
  if (answer.status === 0) return "unreachable";
  if (answer.status === 403 && hasRule(answer, "auth.table_round_closed")) return "round_closed";
  if (answer.status === 401 || answer.status === 403) return "token";
  if (answer.status === 409 && hasRule(answer, "self_reporting.off")) return "off";
  if (answer.status === 429) return "rate";
  return null;
}
