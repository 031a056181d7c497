// Talking to tallyd from the pages: same origin, JSON bodies, problem+json errors. Every request
// asks for the page's language (Accept-Language), so the server's texts (problem details, the
// games' field texts) come in it.

import { language, t } from "./i18n.js";

export class Problem extends Error {
  constructor(status, body) {
    super((body && body.detail) || t("common.server_answered", { status: String(status) }));
    this.status = status;
    this.body = body || {};
  }
}

// One request; never throws for an HTTP status (the caller decides what 412 or 422 mean).
// Answers {status, ok, etag, body} with the body parsed when it is JSON. `signal` (an
// AbortController's) cancels it: the promise then rejects with an AbortError.
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
  return { status: response.status, ok: response.ok, etag: response.headers.get("ETag"), body: parsed };
}

// A read that must succeed: the body, or a Problem.
export async function getJson(path, options) {
  const answer = await request("GET", path, options);
  if (!answer.ok) throw new Problem(answer.status, answer.body);
  return answer.body;
}

export function tournamentPath(id) {
  return `/v1/tournaments/${encodeURIComponent(id)}`;
}

// The tournament id of a page at /t/{t}, /t/{t}/board or /t/{t}/judge.
export function tournamentIdFromLocation(loc = window.location) {
  const match = loc.pathname.match(/^\/t\/([^/]+)/);
  return match ? decodeURIComponent(match[1]) : null;
}
