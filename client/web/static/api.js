// Talking to tallyd from the pages: same origin, JSON bodies, problem+json errors. Every request
// asks for the page's language (Accept-Language), so the server's texts (problem details, the
// games' field texts) come in it. Also what every page reads the same way: a problem's words and
// rule ids, an Idempotency-Key for a write that may be retried, and a token brought by a link.

import { language, t } from "./i18n.js";

export class Problem extends Error {
  constructor(status, body) {
    super(problemDetail({ status, body }));
    this.status = status;
    this.body = body || {};
  }
}

// One request; never throws for an HTTP status (the caller decides what 412 or 422 mean).
// Answers {status, ok, etag, body, retryAfter} with the body parsed when it is JSON and
// retryAfter the seconds a 429 asks to wait (else null). `signal` (an AbortController's)
// cancels it: the promise then rejects with an AbortError.
export async function request(method, path, { token, body, headers = {}, signal } = {}) {
  const sent = { Accept: "application/json", "Accept-Language": language(), ...headers };
  if (token) sent.Authorization = `Bearer ${token}`;
  if (body !== undefined) sent["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers: sent,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
    signal,
  });
  const text = await response.text();
  let parsed = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = { detail: text };
  }
  const retry = Number.parseInt(response.headers.get("Retry-After") || "", 10);
  return {
    status: response.status,
    ok: response.ok,
    etag: response.headers.get("ETag"),
    body: parsed,
    retryAfter: Number.isFinite(retry) ? retry : null,
  };
}

// The same, never throwing for the network either: no answer is status 0 with "no answer" in
// the page's language as the detail. Only an abort (`signal`) still rejects.
export async function tryRequest(method, path, options = {}) {
  try {
    return await request(method, path, options);
  } catch (e) {
    if (e && e.name === "AbortError") throw e;
    // The browser's own words ("Failed to fetch") are English whatever the page's language: the
    // detail is the page's, the browser's kept as `cause` (for the console, not for people).
    return { status: 0, ok: false, etag: null, body: { detail: t("common.no_answer"), cause: String(e && e.message) }, retryAfter: null };
  }
}

// A read that must succeed: the body, or a Problem.
export async function getJson(path, options) {
  const answer = await tryRequest("GET", path, options); // no answer: a Problem with status 0
  if (!answer.ok) throw new Problem(answer.status, answer.body);
  return answer.body;
}

// What a refused answer says in words: its detail (in the page's language), else its title,
// else its status.
export function problemDetail(answer) {
  const body = answer && answer.body;
  return (body && (body.detail || body.title)) || t("common.server_answered", { status: String(answer && answer.status) });
}

// Whether a refusal carries `rule` (problem+json: errors[].rule, or the problem's own rule).
export function hasRule(answer, rule) {
  const body = answer && answer.body;
  if (!body) return false;
  if (body.rule === rule) return true;
  return Array.isArray(body.errors) && body.errors.some((e) => e && e.rule === rule);
}

// A new Idempotency-Key: a random UUID (version 4), so that a retried write is not done twice.
// crypto.randomUUID() exists only in a secure context, and a phone at the venue usually opens
// tallyd over plain http on the local network, so the UUID is made from
// crypto.getRandomValues(), which every context has.
export function newIdempotencyKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function tournamentPath(id) {
  return `/v1/tournaments/${encodeURIComponent(id)}`;
}

// The tournament id of a page at /t/{t}, /t/{t}/board or /t/{t}/judge.
export function tournamentIdFromLocation(loc = window.location) {
  const match = loc.pathname.match(/^\/t\/([^/]+)/);
  return match ? decodeURIComponent(match[1]) : null;
}

// The token a link brings in its fragment (/t/{t}/judge#token=…, /t/{t}/report?…#token=…: a
// browser never sends the fragment to a server), trimmed, or null when there is none. It leaves
// the address at once, replaced in the history, so that neither the address bar nor Back shows
// it; the rest of the fragment (#round=…&table=…) stays.
export function takeTokenFromFragment() {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const token = fragment.get("token");
  if (token === null) return null;
  fragment.delete("token");
  const rest = fragment.toString();
  window.history.replaceState(null, "", `${window.location.pathname}${window.location.search}${rest ? `#${rest}` : ""}`);
  return token.trim();
}
