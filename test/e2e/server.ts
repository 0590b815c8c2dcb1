/** Starts and stops `npm start` the way the README says, for the end-to-end tests. */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";

export const root = join(import.meta.dirname, "../..");

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export type Server = { process: ChildProcess; output: () => string; base: string };

/**
 * Starts `npm start` on `port`. The end-to-end files run side by side, and each server opens sockets of its
 * own on ports the system picks: one of them can take a port `freePort` just handed out. A server that
 * exits because its port is in use is started again on another free port; `base` names the one it got.
 */
export async function start(port: number, dataDir: string, platformToken: string): Promise<Server> {
  for (let attempt = 1; ; attempt++) {
    const started = await launch(port, dataDir, platformToken);
    if ("base" in started) return started;
    if (!started.portTaken || attempt === 6) throw new Error(`npm start exited:\n${started.output}`);
    port = await freePort();
  }
}

async function launch(port: number, dataDir: string, platformToken: string): Promise<Server | { portTaken: boolean; output: string }> {
  let output = "";
  const child = spawn("npm", ["start", "--", "--port", String(port), "--persist-to", dataDir], {
    cwd: root,
    env: { ...process.env, DESK_PLATFORM_TOKEN: platformToken },
    detached: true, // its own process group, so stop() ends wrangler and workerd too
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const base = `http://localhost:${port}`;
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return { portTaken: output.includes("Address already in use"), output };
    const ok = await fetch(`${base}/api`).then((r) => r.ok, () => false);
    if (ok) return { process: child, output: () => output, base };
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`server did not answer within 180 s:\n${output}`);
}

export async function stop(server: Server) {
  const exited = new Promise((r) => server.process.once("exit", r));
  process.kill(-server.process.pid!, "SIGTERM");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  try {
    process.kill(-server.process.pid!, "SIGKILL");
  } catch {
    // already gone
  }
}

export async function call(base: string, method: string, path: string, key?: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = {};
  if (key) headers.api_access_token = key;
  if (body) headers["content-type"] = "application/json";
  const res = await fetch(base + path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: await res.json().catch(() => null), headers: res.headers };
}
