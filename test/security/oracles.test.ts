/**
 * Oracles (issue 31, finding 6): nothing an anonymous caller sees tells whether an e-mail, a phone
 * number or a user exists, nor which shard holds an account it may not reach. Server-Timing carries the
 * database's figures only for a caller its credential proved (README "Errors": which figures are shown
 * to whom).
 */
import { describe, expect, it } from "vitest";
import { call, get, post } from "../support/http";
import { createWorld, uniqueEmail } from "../support/world";
import { allShards, directory } from "../support/databases";
import { publicInbox } from "../public/widget-support";

const world = await createWorld("Oracle Co");
const other = await createWorld("Oracle Elsewhere");

const DB_FIGURES = /db-|db;/;

/** What an answer shows, apart from what differs on every request anyway. */
const shown = (reply: { status: number; body: unknown; headers: Headers }) => ({
  status: reply.status,
  body: reply.body,
  headers: [...reply.headers.keys()].filter((name) => !["x-request-id", "date"].includes(name)).sort(),
});

async function countRows(table: string) {
  let total = 0;
  for (const db of [directory(), ...allShards()]) total += (await db.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())!.n;
  return total;
}

describe("Server-Timing tells an anonymous caller nothing of the database", () => {
  it("POST /auth/sign_in: an unknown e-mail and a wrong password answer alike, with no database figures", async () => {
    const unknown = await post("/auth/sign_in", null, { email: uniqueEmail("nobody"), password: "Wrong-passw0rd!" });
    const wrong = await post("/auth/sign_in", null, { email: world.agent.email, password: "Wrong-passw0rd!" });
    expect(unknown.status).toBe(401);
    expect(shown(unknown)).toEqual(shown(wrong));
    for (const reply of [unknown, wrong]) expect(reply.headers.get("server-timing") ?? "").not.toMatch(DB_FIGURES);
  });

  it("POST /auth/password: an unknown and a known e-mail answer alike, with no database figures", async () => {
    const mails = await countRows("outgoing_emails");
    const unknown = await post("/auth/password", null, { email: uniqueEmail("nobody") });
    expect(await countRows("outgoing_emails")).toBe(mails);
    const known = await post("/auth/password", null, { email: world.agent.email });
    expect(await countRows("outgoing_emails")).toBe(mails + 1);
    expect(unknown.status).toBe(200);
    expect(shown(unknown)).toEqual(shown(known));
    for (const reply of [unknown, known]) expect(reply.headers.get("server-timing") ?? "").not.toMatch(DB_FIGURES);
  });

  it("the public API shows no database figures and no shard", async () => {
    const inbox = await publicInbox(world.accountId);
    const reply = await get(inbox.base);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("server-timing") ?? "").not.toMatch(DB_FIGURES);
  });

  it("a caller its key proved keeps the figures: account and platform keys, and a platform key on a keyless route", async () => {
    for (const reply of [await get(`${world.base}/agents`, world.agent.key), await get("/platform/api/v1/accounts", world.platformKey)]) {
      expect(reply.status).toBe(200);
      expect(reply.headers.get("server-timing")).toMatch(/db-round-trips;desc="\d+"/);
    }
    const inbox = await publicInbox(world.accountId);
    const measured = await get(inbox.base, world.platformKey);
    expect(measured.headers.get("server-timing")).toMatch(/db-round-trips;desc="\d+"/);
    // a key that proves nothing shows nothing
    expect((await get(inbox.base, "not-a-key")).headers.get("server-timing") ?? "").not.toMatch(DB_FIGURES);
  });
});

describe("a 403 for another account names nothing the caller may not know", () => {
  it("no shard in Server-Timing, the bookmark header or the body", async () => {
    const refused = await get(`${other.base}/agents`, world.agent.key);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("server-timing") ?? "").not.toMatch(/db-shard/);
    expect(refused.headers.get("x-d1-bookmark")).toBeNull();
    expect(JSON.stringify(refused.body)).not.toMatch(/shard/i);
    const written = await call("POST", `${other.base}/labels`, { key: world.admin.key, body: { title: "probe" } });
    expect(written.status).toBe(403);
    expect(written.headers.get("server-timing") ?? "").not.toMatch(/db-shard/);
    expect(written.headers.get("x-d1-bookmark")).toBeNull();
  });
});
