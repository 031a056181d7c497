// The console's word on replication (docs/operations.md, "A standby and a public mirror"): a
// line above the sections, shown only when the organizer must know something — this server is a
// follower (a read-only copy), a former primary (it takes no writes any more), or its synchronous
// standby is gone (the judges' saves wait for it, or go on without it, as replicas_ack_missing
// says). GET /v1/replication is read when the console starts and every 10 s; the server decides
// what is missing, the page says it.

import { say } from "./dom.js";
import { t } from "./i18n.js";

const EVERY_MS = 10000;

// What the organizer is told about `status` (GET /v1/replication), or null when all is well.
export function replicationNotice(status) {
  if (!status) return null;
  if (status.fenced) return { kind: "error", text: t("console.replication.fenced", { epoch: status.fenced.epoch }) };
  if (status.role === "follower") {
    const key = status.state === "following" || status.state === "catching_up" ? "console.replication.follower" : "console.replication.follower_cut";
    return { kind: "warn", text: t(key, { primary: status.primary, lag: status.lag_events ?? 0 }) };
  }
  const standby = status.standby;
  if (standby && standby.missing) {
    const key = standby.when_missing === "alone" ? "console.replication.standby_alone" : "console.replication.standby_wait";
    return { kind: standby.when_missing === "alone" ? "warn" : "error", text: t(key, { required: standby.required, present: standby.present }) };
  }
  return null;
}

// Keeps `line` (a .message element) saying what replicationNotice says. Answers stop(). The
// line's data-readings counts the answers it has said (shown or not): what a test waits for
// before it looks at the line, so that "nothing said" is a reading, not a reading yet to come.
export function mountReplicationNotice(ctx, line) {
  let timer = null;
  let readings = 0;
  const check = async () => {
    if (!ctx.token) return;
    const answer = await ctx.call("GET", "/v1/replication");
    // A server that cannot say is not a reason to alarm anyone: the line keeps what it had.
    if (answer.ok) {
      const notice = replicationNotice(answer.body);
      say(line, notice ? notice.text : "", notice ? notice.kind : "");
      line.dataset.readings = String(++readings);
    }
    timer = setTimeout(check, EVERY_MS);
  };
  check();
  return () => clearTimeout(timer);
}
