import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { pruneIdempotencyKeys } from "../../src/db/idempotency-keys";
import { runScheduledWork } from "../../src/jobs/cron";
import { allShards, directory, shardOf } from "../support/databases";
import { call, get } from "../support/http";
import { createWorld } from "../support/world";
import { addInboxMember, createContact, createInbox } from "../support/fixtures";
import { publicInbox } from "../public/widget-support";
import { file, messageForm, samples } from "../support/files";

const world = await createWorld("Idempotent Co");
const other = await createWorld("Other Co");
const inboxId = await createInbox(world.accountId);
await addInboxMember(world.accountId, inboxId, world.agent.id);
const contactId = await createContact(world.accountId);

let sequence = 0;
const freshKey = () => `key-${Date.now()}-${++sequence}`;

const send = (path: string, key: string | null, body: unknown, idempotencyKey?: string) =>
  call("POST", path, { key, body, headers: idempotencyKey === undefined ? {} : { "Idempotency-Key": idempotencyKey } });

async function openConversation() {
  const res = await send(`${world.base}/conversations`, world.admin.key, { inbox_id: inboxId, contact_id: contactId });
  return res.body.id as number;
}

const messagesPath = (id: number) => `${world.base}/conversations/${id}/messages`;
const contentsOf = async (id: number) => ((await get(messagesPath(id), world.admin.key)).body.payload as any[]).map((m) => m.content);

/** The rows stored under `key` in any database: the directory (platform requests) or a shard (an account's requests). */
const storedKeys = async (key: string) => {
  const rows: Record<string, unknown>[] = [];
  for (const db of [directory(), ...allShards()]) rows.push(...(await db.prepare("SELECT scope, request_digest, response_status FROM idempotency_keys WHERE key = ?").bind(key).all()).results);
  return rows;
};
/** The database of the world's account, where its requests' keys are kept. */
const worldShard = () => shardOf(world.accountId);

describe("Idempotency-Key", () => {
  it("replays the first answer of a retried create, with Idempotent-Replayed, and creates once", async () => {
    const id = await openConversation();
    const key = freshKey();
    const first = await send(messagesPath(id), world.agent.key, { content: "Only once" }, key);
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();

    const retry = await send(messagesPath(id), world.agent.key, { content: "Only once" }, key);
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.headers.get("content-type")).toMatch(/^application\/json/);
    expect(retry.body).toEqual(first.body);
    expect((await contentsOf(id)).filter((c) => c === "Only once")).toHaveLength(1);
  });

  it("keeps the key in D1 with a digest of the request, scoped to the account and the key holder", async () => {
    const id = await openConversation();
    const key = freshKey();
    await send(messagesPath(id), world.agent.key, { content: "Stored" }, key);
    const rows = await storedKeys(key);
    expect(rows).toEqual([{ scope: `account:${world.accountId}:user:${world.agent.id}`, request_digest: expect.stringMatching(/^[0-9a-f]{64}$/), response_status: 200 }]);
  });

  it("refuses the same key with a different request: 422 on Idempotency-Key, nothing created", async () => {
    const id = await openConversation();
    const key = freshKey();
    await send(messagesPath(id), world.agent.key, { content: "First body" }, key);
    const res = await send(messagesPath(id), world.agent.key, { content: "Second body" }, key);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: "Idempotency-Key", message: "was already used with a different request", code: "reused_with_different_request" }]);
    expect(await contentsOf(id)).not.toContain("Second body");
    // the same body at another path is another request too
    const elsewhere = await send(messagesPath(await openConversation()), world.agent.key, { content: "First body" }, key);
    expect(elsewhere.status).toBe(422);
  });

  it("creates exactly once when the same request races itself, and the others answer 409 or the replay", async () => {
    const id = await openConversation();
    const key = freshKey();
    const answers = await Promise.all(Array.from({ length: 6 }, () => send(messagesPath(id), world.agent.key, { content: "Raced" }, key)));
    expect((await contentsOf(id)).filter((c) => c === "Raced")).toHaveLength(1);
    const fresh = answers.filter((a) => a.status === 200 && a.headers.get("idempotent-replayed") === null);
    expect(fresh).toHaveLength(1);
    for (const a of answers) {
      if (a === fresh[0]) continue;
      if (a.status === 409) expect(a.body.errors[0]).toMatchObject({ field: "Idempotency-Key", code: "in_progress" });
      else expect({ status: a.status, replayed: a.headers.get("idempotent-replayed"), body: a.body }).toEqual({ status: 200, replayed: "true", body: fresh[0].body });
    }
  });

  it("answers 409 while the first request has committed but not yet recorded its answer, and says so when the answer was lost", async () => {
    const id = await openConversation();
    const path = messagesPath(id);
    const key = freshKey();
    await send(path, world.agent.key, { content: "Slow" }, key);
    // the state between the change's batch and the answer's write
    await (await worldShard()).prepare("UPDATE idempotency_keys SET response_status = NULL, response_body = NULL WHERE key = ?").bind(key).run();
    const running = await send(path, world.agent.key, { content: "Slow" }, key);
    expect(running.status).toBe(409);
    expect(running.body.errors[0]).toMatchObject({ field: "Idempotency-Key", code: "in_progress" });

    await (await worldShard()).prepare("UPDATE idempotency_keys SET created_at = created_at - 120000 WHERE key = ?").bind(key).run();
    const lost = await send(path, world.agent.key, { content: "Slow" }, key);
    expect(lost.status).toBe(409);
    expect(lost.body.errors[0].code).toBe("answer_lost");
    expect((await contentsOf(id)).filter((c) => c === "Slow")).toHaveLength(1);
  });

  it("reads the key from D1, not from memory: a key removed from the table is new again", async () => {
    const id = await openConversation();
    const key = freshKey();
    await send(messagesPath(id), world.agent.key, { content: "Durable" }, key);
    await (await worldShard()).prepare("DELETE FROM idempotency_keys WHERE key = ?").bind(key).run();
    const again = await send(messagesPath(id), world.agent.key, { content: "Durable" }, key);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect((await contentsOf(id)).filter((c) => c === "Durable")).toHaveLength(2);
  });

  it("stores nothing for a request refused before any change, so a corrected retry with the key goes through", async () => {
    const key = freshKey();
    const refused = await send(`${world.base}/contacts`, world.admin.key, { email: "not an email" }, key);
    expect(refused.status).toBe(422);
    expect(await storedKeys(key)).toEqual([]);
    const corrected = await send(`${world.base}/contacts`, world.admin.key, { email: `fixed.${key}@example.com` }, key);
    expect(corrected.status).toBe(200);
    const replay = await send(`${world.base}/contacts`, world.admin.key, { email: `fixed.${key}@example.com` }, key);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.payload.contact.id).toBe(corrected.body.payload.contact.id);
  });

  it("never shows one caller's key to another: another user, another account", async () => {
    const key = freshKey();
    const body = { name: "Scoped contact" };
    const mine = await send(`${world.base}/contacts`, world.admin.key, body, key);
    const colleague = await send(`${world.base}/contacts`, world.agent.key, body, key);
    const stranger = await send(`${other.base}/contacts`, other.admin.key, body, key);
    for (const res of [colleague, stranger]) {
      expect(res.status).toBe(200);
      expect(res.headers.get("idempotent-replayed")).toBeNull();
      expect(res.body.payload.contact.id).not.toBe(mine.body.payload.contact.id);
    }
    // a stranger sending to my account with my key is refused by authentication, as ever
    expect((await send(`${world.base}/contacts`, other.admin.key, body, key)).status).toBe(403);
  });

  it("works on the platform API and the public API", async () => {
    const key = freshKey();
    const account = await send("/platform/api/v1/accounts", world.platformKey, { name: "Once Ltd" }, key);
    const again = await send("/platform/api/v1/accounts", world.platformKey, { name: "Once Ltd" }, key);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.id).toBe(account.body.id);

    const inbox = await publicInbox(world.accountId);
    const visitorKey = freshKey();
    const contact = await send(`${inbox.base}/contacts`, null, { name: "Visitor" }, visitorKey);
    const contactAgain = await send(`${inbox.base}/contacts`, null, { name: "Visitor" }, visitorKey);
    expect(contactAgain.headers.get("idempotent-replayed")).toBe("true");
    expect(contactAgain.body.source_id).toBe(contact.body.source_id);

    const conversationKey = freshKey();
    const conversationPath = `${inbox.base}/contacts/${contact.body.source_id}/conversations`;
    const conversation = await send(conversationPath, null, {}, conversationKey);
    const conversationAgain = await send(conversationPath, null, {}, conversationKey);
    expect(conversationAgain.headers.get("idempotent-replayed")).toBe("true");
    expect(conversationAgain.body.id).toBe(conversation.body.id);
    expect((await get(conversationPath)).body).toHaveLength(1);
  });

  it("refuses a malformed key with 422 and creates nothing", async () => {
    const id = await openConversation();
    for (const bad of ["", "x".repeat(256), "has space", "tab\tkey"]) {
      const res = await send(messagesPath(id), world.agent.key, { content: `bad key ${bad.length}` }, bad);
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatchObject({ field: "Idempotency-Key", code: "invalid_format" });
    }
    expect((await contentsOf(id)).filter((c) => String(c).startsWith("bad key"))).toEqual([]);
  });

  it("covers a message with files: a retry is replayed with one message and one stored file; other files under the key are a 422", async () => {
    const id = await openConversation();
    const key = freshKey();
    const sendFiles = (content: Uint8Array) =>
      call("POST", messagesPath(id), { key: world.agent.key, rawBody: messageForm([file(content, "scan.pdf")], { content: "With a file" }), headers: { "Idempotency-Key": key } });
    const storedFiles = async () =>
      (await (await worldShard()).prepare("SELECT count(*) AS n FROM attachments WHERE account_id = ?").bind(world.accountId).first<{ n: number }>())!.n;
    const before = await storedFiles();

    const first = await sendFiles(samples.pdf());
    expect(first.status).toBe(200);
    expect(first.body.attachments).toHaveLength(1);
    const retry = await sendFiles(samples.pdf());
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.body).toEqual(first.body);

    const otherFile = await sendFiles(samples.png());
    expect(otherFile.status).toBe(422);
    expect(otherFile.body.errors[0]).toMatchObject({ field: "Idempotency-Key", code: "reused_with_different_request" });
    expect((await contentsOf(id)).filter((c) => c === "With a file")).toHaveLength(1);
    expect(await storedFiles()).toBe(before + 1);
  });

  it("leaves requests without a key alone: two sends, two messages", async () => {
    const id = await openConversation();
    await send(messagesPath(id), world.agent.key, { content: "Twice" });
    await send(messagesPath(id), world.agent.key, { content: "Twice" });
    expect((await contentsOf(id)).filter((c) => c === "Twice")).toHaveLength(2);
  });

  it("is pruned by the scheduled work after 24 hours", async () => {
    const id = await openConversation();
    const key = freshKey();
    await send(messagesPath(id), world.agent.key, { content: "Ephemeral" }, key);
    expect(await pruneIdempotencyKeys(createDb(await worldShard()))).toBe(0);
    await (await worldShard()).prepare("UPDATE idempotency_keys SET expires_at = ? WHERE key = ?").bind(Date.now() - 1, key).run();
    await runScheduledWork(env);
    expect(await storedKeys(key)).toEqual([]);
  });
});

describe("FirstWriteRider", () => {
  // any D1 database does: the rider is the metering wrapper's, not a table's
  it("joins the first batch that writes, not a read, and leaves the batch's own results where they were", async () => {
    const { FirstWriteRider, QueryMeter, meterD1 } = await import("../../src/db/metering");
    const rider = new FirstWriteRider();
    const d1 = meterD1(directory(), new QueryMeter(), rider);
    await directory().prepare("CREATE TABLE IF NOT EXISTS rider_probe (n INTEGER)").run();
    rider.attach(d1.prepare("INSERT INTO rider_probe (n) VALUES (99)"));

    const reads = await d1.batch([d1.prepare("SELECT 1 AS one")]);
    expect(reads.map((r) => r.results)).toEqual([[{ one: 1 }]]);
    expect(rider.committed).toBe(false);

    const writes = await d1.batch([d1.prepare("INSERT INTO rider_probe (n) VALUES (1)"), d1.prepare("SELECT count(*) AS c FROM rider_probe")]);
    expect(writes).toHaveLength(2);
    expect(writes[1].results).toEqual([{ c: 1 }]); // the rider runs after the domain's statements
    expect(rider.committed).toBe(true);
    await d1.batch([d1.prepare("INSERT INTO rider_probe (n) VALUES (2)")]);
    expect((await directory().prepare("SELECT n FROM rider_probe ORDER BY rowid").all()).results).toEqual([{ n: 1 }, { n: 99 }, { n: 2 }]);
  });

  it("rolls back with a failed batch and rides the next one", async () => {
    const { FirstWriteRider, QueryMeter, meterD1 } = await import("../../src/db/metering");
    const rider = new FirstWriteRider();
    const d1 = meterD1(directory(), new QueryMeter(), rider);
    await directory().prepare("CREATE TABLE IF NOT EXISTS rider_unique (n INTEGER UNIQUE)").run();
    await directory().prepare("INSERT INTO rider_unique (n) VALUES (1)").run();
    rider.attach(d1.prepare("INSERT INTO rider_unique (n) VALUES (50)"));
    await expect(d1.batch([d1.prepare("INSERT INTO rider_unique (n) VALUES (1)")])).rejects.toThrow(/UNIQUE/);
    expect(rider.committed).toBe(false);
    expect((await directory().prepare("SELECT n FROM rider_unique ORDER BY n").all()).results).toEqual([{ n: 1 }]);
    await d1.prepare("INSERT INTO rider_unique (n) VALUES (2)").run();
    expect(rider.committed).toBe(true);
    expect((await directory().prepare("SELECT n FROM rider_unique ORDER BY n").all()).results).toEqual([{ n: 1 }, { n: 2 }, { n: 50 }]);
  });
});
