// The live feed of a tournament (WebSocket /v1/tournaments/{t}/live), kept open: it reconnects
// by itself with since= the last seq received, so nothing is missed after a network hiccup or
// a restart of tallyd, and it says when the connection is lost.
//
//   const feed = new LiveFeed("brno-2026", {
//     onMessage: (m) => …,            // snapshot, event, standings (docs/api.md)
//     onStatus: (s) => …,             // "connecting" | "live" | "lost"
//   });
//   feed.start();

const RETRY_DELAYS_MS = [500, 1000, 2000, 4000, 8000]; // then 8 s until it works
const PING_EVERY_MS = 20000; // a silent network is noticed by a ping nobody answers
const PONG_WITHIN_MS = 10000;

export class LiveFeed {
  constructor(tournament, { onMessage = () => {}, onStatus = () => {} } = {}) {
    this.tournament = tournament;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.lastSeq = 0;
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
