// The live feed of a tournament (WebSocket /v1/tournaments/{t}/live), kept open: it reconnects
// by itself with since= the last seq received, so nothing is missed after a network hiccup or
// a restart of tallyd, and it says when the connection is lost.
//
// Standings may arrive as deltas (`standings_delta`, docs/api.md): the feed applies them to the
// standings it holds and hands its listener a whole `standings` message, so pages never see a
// delta; one that does not fit what it holds (a gap) makes it reconnect with since=, which
// brings a fresh snapshot. Applying a delta copies rows and adds rank shifts: no sorting, no
// tie-breaks — the server's order is kept as it is.
//
//   const feed = new LiveFeed("brno-2026", {
//     onMessage: (m) => …,            // snapshot, event, standings (docs/api.md)
//     onStatus: (s) => …,             // "connecting" | "live" | "lost"
//   });
//   feed.start();

const RETRY_DELAYS_MS = [500, 1000, 2000, 4000, 8000]; // then 8 s until it works
const PING_EVERY_MS = 20000; // a silent network is noticed by a ping nobody answers
const PONG_WITHIN_MS = 10000;

// `before` (a standings object) with `delta` applied, or null when the delta does not fit it.
export function applyStandingsDelta(before, delta) {
  const old = before.rows || [];
  const rows = [];
  for (const part of delta.order) {
    if (Array.isArray(part)) {
      const [from, count] = part;
      if (from < 0 || from + count > old.length) return null;
      for (let i = from; i < from + count; i++) rows.push({ ...old[i] });
    } else {
      rows.push(part.row);
    }
  }
  if (rows.length !== delta.rows) return null;
  for (const [begin, end, by] of delta.ranks) {
    if (begin < 0 || end > rows.length) return null;
    for (let i = begin; i < end; i++) rows[i].rank += by;
  }
  const out = { ...before, ...delta.set, rows };
  for (const key of delta.unset) delete out[key];
  return out;
}

export class LiveFeed {
  constructor(tournament, { onMessage = () => {}, onStatus = () => {} } = {}) {
    this.tournament = tournament;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.lastSeq = 0;
    this.standings = null; // the standings held, and the seq they are of (for deltas)
    this.standingsSeq = -1;
    this.failures = 0;
    this.socket = null;
    this.stopped = false;
    this.timers = new Set();
  }

  url() {
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    const path = `/v1/tournaments/${encodeURIComponent(this.tournament)}/live`;
    const since = this.lastSeq > 0 ? `?since=${this.lastSeq}` : "";
    return `${scheme}//${window.location.host}${path}${since}`;
  }

  start() {
    this.stopped = false;
    this.connect();
  }

  stop() {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    if (this.socket) this.socket.close(1000);
  }

  later(ms, fn) {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
    return t;
  }

  connect() {
    this.onStatus(this.failures === 0 ? "connecting" : "lost");
    const socket = new WebSocket(this.url());
    this.socket = socket;
    let pongTimer = null;
    let pingTimer = null;
    const schedulePing = () => {
      pingTimer = this.later(PING_EVERY_MS, () => {
        if (socket.readyState !== WebSocket.OPEN) return;
        socket.send(JSON.stringify({ type: "ping" }));
        pongTimer = this.later(PONG_WITHIN_MS, () => socket.close(4000, "no pong"));
      });
    };

    socket.addEventListener("message", (e) => {
      let message;
      try {
        message = JSON.parse(e.data);
      } catch {
        return;
      }
      if (message.type === "pong") {
        clearTimeout(pongTimer);
        this.timers.delete(pongTimer);
        schedulePing();
        return;
      }
      if (message.type === "standings_delta") {
        const next = message.base_seq === this.standingsSeq ? applyStandingsDelta(this.standings, message.delta) : null;
        if (!next) {
          // A gap: what we hold is not what the delta was made from. A fresh snapshot mends it.
          this.standings = null;
          this.standingsSeq = -1;
          socket.close(4001, "standings gap");
          return;
        }
        message = { type: "standings", seq: message.seq, standings: next, round: message.round };
      }
      if (message.type === "snapshot" || message.type === "standings") {
        this.standings = message.standings;
        this.standingsSeq = message.seq;
      }
      if (typeof message.seq === "number" && message.seq > this.lastSeq) this.lastSeq = message.seq;
      if (message.type === "snapshot") {
        this.failures = 0;
        this.onStatus("live");
        schedulePing();
      }
      this.onMessage(message);
    });

    socket.addEventListener("close", () => {
      clearTimeout(pingTimer);
      clearTimeout(pongTimer);
      this.timers.delete(pingTimer);
      this.timers.delete(pongTimer);
      if (this.socket !== socket || this.stopped) return;
      this.onStatus("lost");
      const delay = RETRY_DELAYS_MS[Math.min(this.failures, RETRY_DELAYS_MS.length - 1)];
      this.failures++;
      this.later(delay, () => this.connect());
    });
  }
}
