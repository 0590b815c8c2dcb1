/**
 * `npm start` as a newcomer meets it: migrations applied, the platform key printed and working,
 * the API served on the chosen port, and local data kept across a restart.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");
const dataDir = mkdtempSync(join(tmpdir(), "edgedesk-e2e-"));
const token = randomBytes(24).toString("hex");

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

type Server = { process: ChildProcess; output: () => string; base: string };

async function start(port: number): Promise<Server> {
  let output = "";
  const child = spawn("npm", ["start", "--", "--port", String(port), "--persist-to", dataDir], {
    cwd: root,
    env: { ...process.env, DESK_PLATFORM_TOKEN: token },
    detached: true, // its own process group, so stop() ends wrangler and workerd too
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const base = `http://localhost:${port}`;
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited:\n${output}`);
    const ok = await fetch(`${base}/api`).then((r) => r.ok, () => false);
    if (ok) return { process: child, output: () => output, base };
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`server did not answer within 180 s:\n${output}`);
}

async function stop(server: Server) {
  const exited = new Promise((r) => server.process.once("exit", r));
  process.kill(-server.process.pid!, "SIGTERM");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  try {
    process.kill(-server.process.pid!, "SIGKILL");
  } catch {
    // already gone
  }
}

async function call(base: string, method: string, path: string, key?: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = {};
  if (key) headers.api_access_token = key;
  if (body) headers["content-type"] = "application/json";
  const res = await fetch(base + path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: await res.json().catch(() => null), headers: res.headers };
}

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("npm start", () => {
  it("serves the API with the given platform key, and keeps data across a restart", async () => {
    const port = await freePort();
    let server = await start(port);
    let accountId: number;
    try {
      expect(server.output()).toContain(token);

      const account = await call(server.base, "POST", "/platform/api/v1/accounts", token, { name: "E2E Inc" });
      expect(account.status).toBe(200);
      accountId = account.body.id;
      const user = await call(server.base, "POST", "/platform/api/v1/users", token, {
        name: "Eve",
        email: `eve.${Date.now()}@example.com`,
        password: "Passw0rd!long",
      });
      expect(user.status).toBe(200);
      const member = await call(server.base, "POST", `/platform/api/v1/accounts/${accountId}/account_users`, token, {
        user_id: user.body.id,
        role: "administrator",
      });
      expect(member.body).toEqual({ account_id: accountId, user_id: user.body.id, role: "administrator" });

      const profile = await call(server.base, "GET", "/api/v1/profile", user.body.access_token);
      expect(profile.status).toBe(200);
      expect(profile.body.accounts).toMatchObject([{ id: accountId, role: "administrator" }]);
      expect(profile.headers.get("server-timing")).toMatch(/db-round-trips/);

      expect((await call(server.base, "GET", "/api/v1/profile")).status).toBe(401);
    } finally {
      await stop(server);
    }

    server = await start(port);
    try {
      const again = await call(server.base, "GET", `/platform/api/v1/accounts/${accountId!}`, token);
      expect(again.status).toBe(200);
      expect(again.body.name).toBe("E2E Inc");
    } finally {
      await stop(server);
    }
  });
});
