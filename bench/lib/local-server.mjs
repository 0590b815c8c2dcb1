// What the Node benches share (bench/realtime.mjs, bench/webhooks.mjs): `npm start` on a free loopback
// port with a throw-away data directory and a known platform key, stopped with its whole process group
// however the bench ends (done, error, deadline, Ctrl-C); an HTTP client that reads the Worker's
// Server-Timing costs; percentiles; a progress log with the elapsed time.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { root } from "../../scripts/lib/wrangler.mjs";

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** `log(line)` prints `[bench:<name>   12.3 s] line`. */
export function benchLog(name) {
  const startedAt = performance.now();
  return (line) => console.log(`[bench:${name} ${((performance.now() - startedAt) / 1000).toFixed(1).padStart(5)} s] ${line}`);
}

/**
 * Integer options, each bounded on purpose (a shared 2-core machine): `spec` maps a name to
 * `[default, max]`; a value outside 1..max ends the bench with a message.
 */
export function boundedOptions(spec) {
  const { values } = parseArgs({ options: Object.fromEntries(Object.entries(spec).map(([name, [fallback]]) => [name, { type: "string", default: String(fallback) }])) });
  return Object.fromEntries(
    Object.entries(spec).map(([name, [, max]]) => {
      const n = Number(values[name]);
      if (!Number.isInteger(n) || n < 1 || n > max) {
        console.error(`--${name} must be an integer from 1 to ${max}, got ${values[name]}`);
        process.exit(2);
      }
      return [name, n];
    }),
  );
}

/** A free TCP port on 127.0.0.1 (for the server, or for a receiver the bench starts). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `npm start` (scripts/start.mjs) in its own process group and waits until it answers. The
 * process exits with 1 when `deadlineMs` passes, and with 130 on SIGINT/SIGTERM; either way, and on a
 * normal exit, the server group is killed and the data directory removed.
 */
export async function startLocalServer({ name, deadlineMs }) {
  const dataDir = mkdtempSync(join(tmpdir(), `edgedesk-bench-${name}-`));
  const platformToken = randomBytes(24).toString("hex");
  let output = "";
  let child = null;

  const signal = (sig) => {
    try {
      if (child) process.kill(-child.pid, sig);
    } catch {
      // already gone
    }
  };
  process.on("exit", () => {
    if (child && child.exitCode === null) signal("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => process.exit(130));
  const deadline = setTimeout(() => {
    console.error(`bench:${name} gave up after ${deadlineMs / 1000} s`);
    process.exit(1);
  }, deadlineMs);

  const port = await freePort();
  child = spawn(process.execPath, [join(root, "scripts", "start.mjs"), "--port", String(port), "--persist-to", dataDir], {
    cwd: root,
    env: { ...process.env, DESK_PLATFORM_TOKEN: platformToken },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited:\n${output}`);
    if (await fetch(`${base}/api`).then((r) => r.ok, () => false)) break;
    if (Date.now() > until) throw new Error(`the server did not answer within 180 s:\n${output}`);
    await sleep(500);
  }

  return {
    base,
    dataDir,
    platformToken,
    /** the last `chars` characters the server printed (for an error report) */
    output: (chars = 4000) => output.slice(-chars),
    /** Stops the server's whole process group: politely, then for sure. */
    async stop() {
      clearTimeout(deadline);
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      signal("SIGTERM");
      await Promise.race([exited, sleep(10_000)]);
      signal("SIGKILL");
    },
  };
}

/** The database cost the Worker reports for a request (see src/app.ts). */
export function parseTiming(header) {
  const value = (name) => Number(new RegExp(`${name};desc="(\\d+)"`).exec(header ?? "")?.[1] ?? 0);
  return { roundTrips: value("db-round-trips"), rowsRead: value("db-rows-read"), rowsWritten: value("db-rows-written") };
}

/** `call(method, path, { key, body })` against `base`, answering status, parsed body and Server-Timing costs; `must` throws unless 200. */
export function httpClient(base) {
  async function call(method, path, { key, body } = {}) {
    const headers = {};
    if (key) headers.api_access_token = key;
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let parsed = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // keep the text for the error message
    }
    return { status: res.status, body: parsed, timing: parseTiming(res.headers.get("server-timing")) };
  }
  async function must(method, path, options) {
    const res = await call(method, path, options);
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }
  return { call, must };
}

/** Nearest-rank percentile. */
export const percentile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil((p / 100) * xs.length) - 1)];
