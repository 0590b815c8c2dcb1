/**
 * Oracles (issue 31, finding 6): nothing an anonymous caller sees tells whether an e-mail, a phone
 * number or a user exists, nor which shard holds an account it may not reach. Server-Timing carries the
 * database's figures only for a caller its credential proved (docs/api.md "Errors": which figures are shown
 * to whom).
 */
import { describe, expect, it } from "vitest";
import { call, get, post } from "../support/http";
import { createWorld, uniqueEmail } from "../support/world";
import { allShards, directory, shardOf } from "../support/databases";
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

describe("the public contact routes do not tell whether an e-mail or phone is a customer's", () => {
  /** An answer without what differs between any two visitors (ids, tokens, the random name). */
  const shape = (body: Record<string, unknown>) => {
    const { id: _id, source_id: _source, pubsub_token: _token, ...rest } = body;
    return rest;
  };
  const stored = (accountId: number, id: number) => shardRow(accountId, "SELECT email, phone_number FROM contacts WHERE id = ?", id);

  it("create: a customer's e-mail and phone answer as free ones do, and write the same rows", async () => {
    const inbox = await publicInbox(world.accountId);
    const customer = await post(`${world.base}/contacts`, world.admin.key, { name: "Stored Customer", email: "customer@oracle.example", phone_number: "+4915100000077" });
    expect(customer.status).toBe(200);
    const customerId = customer.body.payload.contact.id;
    const customerBefore = await stored(world.accountId, customerId);
    const contactsBefore = await countRows("contacts");
    const taken = await post(`${inbox.base}/contacts`, null, { name: "Visitor", email: "customer@oracle.example", phone_number: "+4915100000077" });
    const free = await post(`${inbox.base}/contacts`, null, { name: "Visitor", email: "nobody@oracle.example", phone_number: "+4915100000078" });
    expect(taken.status).toBe(200);
    expect(free.status).toBe(200);
    expect(shape(taken.body)).toEqual({ ...shape(free.body), email: "customer@oracle.example", phone_number: "+4915100000077" });
    expect(await countRows("contacts")).toBe(contactsBefore + 2);
    // the visitor sees what it sent, now and later, and the customer is untouched
    expect(shape((await get(`${inbox.base}/contacts/${taken.body.source_id}`)).body)).toEqual(shape(taken.body));
    expect(await stored(world.accountId, customerId)).toEqual(customerBefore);
  });

  it("update: a customer's e-mail or phone is no 422 `taken`: it answers as a free one does", async () => {
    const inbox = await publicInbox(world.accountId);
    const customer = await post(`${world.base}/contacts`, world.admin.key, { name: "Other Customer", email: "other@oracle.example", phone_number: "+4915100000079" });
    const customerBefore = await stored(world.accountId, customer.body.payload.contact.id);
    const a = await post(`${inbox.base}/contacts`, null, { name: "Visitor" });
    const b = await post(`${inbox.base}/contacts`, null, { name: "Visitor" });
    const taken = await call("PATCH", `${inbox.base}/contacts/${a.body.source_id}`, { body: { email: "other@oracle.example", phone_number: "+4915100000079" } });
    const free = await call("PATCH", `${inbox.base}/contacts/${b.body.source_id}`, { body: { email: "free@oracle.example", phone_number: "+4915100000080" } });
    expect(taken.status).toBe(200);
    expect(free.status).toBe(200);
    const comparable = (body: Record<string, unknown>) => {
      const { email: _e, phone_number: _p, updated_at: _u, ...rest } = shape(body);
      return rest;
    };
    expect(comparable(taken.body)).toEqual(comparable(free.body));
    expect(taken.body).toMatchObject({ email: "other@oracle.example", phone_number: "+4915100000079" });
    expect(shape((await get(`${inbox.base}/contacts/${a.body.source_id}`)).body)).toMatchObject({ email: "other@oracle.example", phone_number: "+4915100000079" });
    expect(await stored(world.accountId, customer.body.payload.contact.id)).toEqual(customerBefore);
  });
});

async function shardRow(accountId: number, sql: string, id: number) {
  return (await shardOf(accountId)).prepare(sql).bind(id).first();
}
