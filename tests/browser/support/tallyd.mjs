// tallyd for the page tests: the test build (tallyd-test, which serves the pages from
// client/web) as a child process on a loopback port, and a small HTTP client for its API.
//
//   const tallyd = new Tallyd(binary, dataDir);
//   await tallyd.start();                 // port 0: a free one; start({port}) to come back on it
//   await tallyd.api("POST", "/v1/judges", {name: "Eva"}, {token: tallyd.organizer()});
//   await tallyd.stop();                  // SIGTERM, and waits for the exit

import { spawn } from "node:child_process";
import { existsSync, openSync, readFileSync, rmSync, closeSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

export class Tallyd {
  // `flags`: more of tallyd's flags, e.g. ["--replicas-ack", "1"].
  constructor(binary, dataDir, flags = []) {
    this.binary = binary;
    this.dataDir = dataDir;
    this.flags = flags;
    this.logPath = `${dataDir}.log`;
    this.readyPath = `${dataDir}.ready`;
    this.child = null;
    this.base = null;
    this.port = 0;
    // A test that dies must not leave tallyd behind.
    process.on("exit", () => this.child && this.child.kill("SIGKILL"));
  }

  async start({ port = this.port } = {}) {
    rmSync(this.readyPath, { force: true });
    const log = openSync(this.logPath, "a");
    const args = ["--data", this.dataDir, "--listen", `127.0.0.1:${port}`, "--ready-file", this.readyPath, ...this.flags];
    this.child = spawn(this.binary, args, { stdio: ["ignore", "ignore", log] });
    closeSync(log);
    let exited = null;
    this.child.once("exit", (code, signal) => (exited = { code, signal }));
    const deadline = Date.now() + 30000;
    while (!existsSync(this.readyPath) || readFileSync(this.readyPath, "utf8").trim() === "") {
      if (exited) throw new Error(`tallyd exited at start (${JSON.stringify(exited)}):\n${this.log()}`);
      if (Date.now() > deadline) throw new Error(`tallyd did not start within 30 s:\n${this.log()}`);
      await sleep(20);
    }
    const address = readFileSync(this.readyPath, "utf8").trim();
    this.port = Number(address.slice(address.lastIndexOf(":") + 1));
    this.base = `http://127.0.0.1:${this.port}`;
  }

  // SIGTERM; tallyd shuts down gracefully within 10 s by design. Answers the exit code.
  async stop() {
    if (!this.child) return null;
    const child = this.child;
    this.child = null;
    if (child.exitCode !== null) return child.exitCode;
    const done = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    const timeout = sleep(30000, "timeout", { ref: false }); // does not keep the test alive
    const outcome = await Promise.race([done, timeout]);
    if (outcome === "timeout") {
      child.kill("SIGKILL");
      throw new Error(`tallyd did not stop within 30 s of SIGTERM:\n${this.log()}`);
    }
    return outcome;
  }

  organizer() {
    return readFileSync(`${this.dataDir}/organizer.token`, "utf8").trim();
  }

  log() {
    return existsSync(this.logPath) ? readFileSync(this.logPath, "utf8") : "";
  }

  // One API request: {status, headers, body} (the body parsed as JSON when it is).
  async api(method, path, body, { token = this.organizer(), headers = {} } = {}) {
    const sent = { ...headers };
    if (token) sent.Authorization = `Bearer ${token}`;
    if (body !== undefined) sent["Content-Type"] = "application/json";
    const response = await fetch(this.base + path, {
      method,
      headers: sent,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    return { status: response.status, headers: response.headers, body: parsed };
  }

  // Like api(), but the status must be the expected one.
  async must(status, method, path, body, options) {
    const answer = await this.api(method, path, body, options);
    if (answer.status !== status) {
      throw new Error(`${method} ${path}: expected ${status}, got ${answer.status}: ${JSON.stringify(answer.body)}`);
    }
    return answer.body;
  }
}
