/**
 * Idempotency-Key survives a restart of the Worker: the key lives in D1, so a retry sent after the
 * server went down and came back still gets the first answer, and nothing is created twice.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { type Server, call, freePort, start, stop } from "./server";

const dataDir = mkdtempSync(join(tmpdir(), "edgedesk-idem-"));
const token = randomBytes(24).toString("hex");
let server: Server | undefined;

afterAll(async () => {
  if (server) await stop(server);
  rmSync(dataDir, { recursive: true, force: true });
});

async function createAccount(base: string, key: string) {
  const res = await fetch(`${base}/platform/api/v1/accounts`, {
    method: "POST",
    headers: { api_access_token: token, "content-type": "application/json", "Idempotency-Key": key },
    body: JSON.stringify({ name: "Restart-proof Ltd" }),
  });
  return { status: res.status, replayed: res.headers.get("idempotent-replayed"), body: await res.json() };
}

it("replays the first answer after the server restarts, and creates the account once", async () => {
  const port = await freePort();
  const key = randomUUID();
  server = await start(port, dataDir, token);
  const first = await createAccount(server.base, key);
  expect(first.status).toBe(200);
  await stop(server);

  server = await start(port, dataDir, token);
  const retry = await createAccount(server.base, key);
  expect(retry).toEqual({ status: 200, replayed: "true", body: first.body });
  const accounts = await call(server.base, "GET", "/platform/api/v1/accounts", token);
  expect(accounts.body.filter((a: { name: string }) => a.name === "Restart-proof Ltd")).toHaveLength(1);
});
