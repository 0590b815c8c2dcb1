/**
 * The public contact routes against an outside attacker (security report, findings 3, 4 and 10): a
 * visitor reaches an existing contact only through its own source id or an identifier it proves with
 * identifier_hash, never through an e-mail or phone number it types; public attributes are bounded and
 * contact updates are rate limited. Every refusal leaves the database as it was.
 */
import { describe, expect, it } from "vitest";
import { get, patch, post } from "../support/http";
import { createContactInbox } from "../support/fixtures";
import { allShards, directory, shardOf } from "../support/databases";
import { hmacHex, publicInbox, widgetWorld } from "../public/widget-support";

const VICTIM = {
  name: "Victoria Stored",
  email: "victim@example.com",
  phone_number: "+4915100000001",
  custom_attributes: { plan: "enterprise" },
};

/** An account with a lax API inbox, a hash-mandatory one, and a customer with a conversation in the lax one. */
async function scene() {
  const w = await widgetWorld();
  const strict = await publicInbox(w.accountId);
  await (await shardOf(w.accountId)).prepare("UPDATE inboxes SET hmac_mandatory = 1 WHERE id = ?").bind(strict.id).run();
  const created = await post(`${w.base}/contacts`, w.admin.key, VICTIM);
  expect(created.status).toBe(200);
  const victimId: number = created.body.payload.contact.id;
  const victimInbox = await createContactInbox(w.accountId, victimId, w.inbox.id);
  const conversation = await post(`${w.inbox.base}/contacts/${victimInbox.sourceId}/conversations`, null, {});
  await post(`${w.inbox.base}/contacts/${victimInbox.sourceId}/conversations/${conversation.body.id}/messages`, null, { content: "my card ends 4242" });
  const before = await snapshot(w.accountId, victimId);
  return { w, strict, victimId, victimConversation: conversation.body.id as number, before };
}

/** What must not move: the victim's row and its contact inboxes. */
async function snapshot(accountId: number, contactId: number) {
  const shard = await shardOf(accountId);
  const contact = await shard.prepare("SELECT name, email, phone_number, identifier, custom_attributes, updated_at FROM contacts WHERE id = ?").bind(contactId).first();
  const inboxes = await shard.prepare("SELECT id, inbox_id, hmac_verified FROM contact_inboxes WHERE contact_id = ? ORDER BY id").bind(contactId).all();
  return { contact, inboxes: inboxes.results };
}

const contactCount = async (accountId: number) =>
  (await (await shardOf(accountId)).prepare("SELECT count(*) AS n FROM contacts WHERE account_id = ?").bind(accountId).first<{ n: number }>())!.n;

/** A count over every database (the directory and each shard), added up. */
const countEverywhere = async (sql: string) =>
  (await Promise.all([directory(), ...allShards()].map((db) => db.prepare(sql).first<number>("n")))).reduce<number>((sum, n) => sum + n!, 0);

/** Nothing of the victim's stored record, apart from what the visitor sent itself (`sent`), which it sees back. */
const leaksNothingOf = (body: unknown, sent: Record<string, unknown> = {}) => {
  const text = JSON.stringify(body);
  const echoed = new Set(Object.values(sent));
  for (const value of [VICTIM.name, VICTIM.phone_number, "enterprise", "4242"]) if (!echoed.has(value)) expect(text).not.toContain(value);
};

describe("finding 3: contact takeover past the identity hash", () => {
  it("a proven identifier with a victim's e-mail and phone finds or creates the prover's contact only", async () => {
    const { w, strict, victimId, victimConversation, before } = await scene();
    const hash = await hmacHex(strict.hmacToken, "attacker-1");
    const res = await post(`${strict.base}/contacts`, null, {
      identifier: "attacker-1",
      identifier_hash: hash,
      email: VICTIM.email,
      phone_number: VICTIM.phone_number,
    });
    expect(res.status).toBe(200);
    expect(res.body.id).not.toBe(victimId);
    leaksNothingOf(res.body, { phone_number: VICTIM.phone_number });
    // the prover's contact is verified for its own identifier, and sees nothing of the victim
    const own = `${strict.base}/contacts/${res.body.source_id}`;
    const update = await patch(own, null, { name: "Mallory", identifier: "attacker-1", identifier_hash: hash });
    expect(update.status).toBe(200);
    expect(update.body.id).not.toBe(victimId);
    expect(update.body.hmac_verified).toBe(true);
    const listed = await get(`${own}/conversations?identifier_hash=${hash}`);
    expect(listed.body.map((c: { id: number }) => c.id)).not.toContain(victimConversation);
    expect((await get(`${own}/conversations/${victimConversation}`)).status).toBe(404);
    expect(await snapshot(w.accountId, victimId)).toEqual(before);
  });

  it("a lax inbox cannot put an identifier on a contact reached by e-mail, so a strict inbox never proves it", async () => {
    const { w, strict, victimId, victimConversation, before } = await scene();
    const lax = await post(`${w.inbox.base}/contacts`, null, { email: VICTIM.email });
    expect(lax.status).toBe(200);
    expect(lax.body.id).not.toBe(victimId);
    leaksNothingOf(lax.body);
    // without its proof an identifier is only the visitor's claim (docs/widget.md "Identity without a hash"):
    // the visitor sees it, and no contact is ever stored, found or merged under it
    const stamp = await patch(`${w.inbox.base}/contacts/${lax.body.source_id}`, null, { identifier: "attacker-2" });
    expect(stamp.status).toBe(200);
    expect(stamp.body.identifier).toBe("attacker-2");
    expect(stamp.body.additional_attributes).not.toHaveProperty("claimed_identifier");
    const squat = await post(`${w.inbox.base}/contacts`, null, { identifier: "attacker-2", email: "fresh@example.com" });
    expect(squat.status).toBe(200);
    expect(squat.body.id).not.toBe(lax.body.id);
    expect(await countEverywhere("SELECT count(*) AS n FROM contacts WHERE identifier = 'attacker-2'")).toBe(0);

    const proven = await post(`${strict.base}/contacts`, null, { identifier: "attacker-2", identifier_hash: await hmacHex(strict.hmacToken, "attacker-2") });
    expect(proven.status).toBe(200);
    expect(proven.body.id).not.toBe(victimId);
    // the owner's proof finds neither of the contacts that only claimed the identifier
    expect([lax.body.id, squat.body.id]).not.toContain(proven.body.id);
    const listed = await get(`${strict.base}/contacts/${proven.body.source_id}/conversations`);
    expect(listed.body.map((c: { id: number }) => c.id)).not.toContain(victimConversation);
    expect(await snapshot(w.accountId, victimId)).toEqual(before);
  });

  it("an update cannot give the visitor's contact another contact's e-mail, phone or identifier", async () => {
    // (an e-mail or phone another contact holds becomes the visitor's claim, and the answer shows it as if
    // it were free: a 422 `taken` told whose it was; test/security/oracles.test.ts)
    const { w, strict, victimId, before } = await scene();
    await patch(`${w.base}/contacts/${victimId}`, w.admin.key, { identifier: "victim-7" });
    const victimBefore = await snapshot(w.accountId, victimId);
    const hash = await hmacHex(strict.hmacToken, "visitor-3");
    const v = await post(`${strict.base}/contacts`, null, { identifier: "visitor-3", identifier_hash: hash, name: "Visitor" });
    const visitorBefore = await snapshot(w.accountId, v.body.id);
    for (const [body, field] of [
      [{ email: VICTIM.email }, "email"],
      [{ phone_number: VICTIM.phone_number }, "phone_number"],
    ] as const) {
      const res = await patch(`${strict.base}/contacts/${v.body.source_id}`, null, { ...body, identifier_hash: hash });
      expect(res.status).toBe(200);
      expect(res.body[field]).toBe(Object.values(body)[0]);
      leaksNothingOf(res.body, body);
    }
    // stored only as the visitor's claim: its contact's e-mail and phone stay as they were
    expect(await snapshot(w.accountId, v.body.id)).toMatchObject({ contact: { email: null, phone_number: null } });
    const visitorAfterClaims = await snapshot(w.accountId, v.body.id);
    // a stored identifier is not replaced or cleared through the public API
    const clear = await patch(`${strict.base}/contacts/${v.body.source_id}`, null, { identifier: null, identifier_hash: hash });
    expect(clear.status).toBe(422);
    expect(clear.body.errors[0]).toMatchObject({ field: "identifier", code: "immutable" });
    // even the site's own proof of an identifier another contact holds does not move it (no merge)
    const anonymous = await post(`${w.inbox.base}/contacts`, null, { name: "Anon" });
    const anonymousBefore = await snapshot(w.accountId, anonymous.body.id);
    const proven = await patch(`${w.inbox.base}/contacts/${anonymous.body.source_id}`, null, {
      identifier: "victim-7",
      identifier_hash: await hmacHex(w.inbox.hmacToken, "victim-7"),
    });
    expect(proven.status).toBe(422);
    expect(proven.body.errors).toEqual([{ field: "identifier", message: "has already been taken", code: "taken" }]);
    leaksNothingOf(proven.body);
    expect(await snapshot(w.accountId, anonymous.body.id)).toEqual(anonymousBefore);
    expect(await snapshot(w.accountId, v.body.id)).toEqual(visitorAfterClaims);
    expect(visitorBefore.contact).toMatchObject({ email: null, phone_number: null });
    expect(await snapshot(w.accountId, victimId)).toEqual(victimBefore);
    expect(before.contact).toMatchObject({ identifier: null });
  });

  it("marks a contact inbox verified only for a proven, stored identifier", async () => {
    const { w, strict } = await scene();
    // the inbox's own site may send the hash of no identifier; that proves nobody
    const anonymous = await post(`${strict.base}/contacts`, null, { identifier_hash: await hmacHex(strict.hmacToken, "") });
    expect(anonymous.status).toBe(200);
    const row = await (await shardOf(w.accountId)).prepare("SELECT hmac_verified FROM contact_inboxes WHERE source_id = ?").bind(anonymous.body.source_id).first("hmac_verified");
    expect(row).toBe(0);
    const updated = await patch(`${strict.base}/contacts/${anonymous.body.source_id}`, null, { name: "Nobody", identifier_hash: await hmacHex(strict.hmacToken, "") });
    expect(updated.status).toBe(200);
    expect(updated.body.hmac_verified).toBe(false);
  });
});

describe("finding 4: customer data by e-mail", () => {
  it("an anonymous create with a customer's e-mail or phone makes a new contact and shows nothing stored", async () => {
    const { w, victimId, before } = await scene();
    for (const body of [{ email: VICTIM.email }, { phone_number: VICTIM.phone_number }, { email: VICTIM.email.toUpperCase(), name: "Eve" }]) {
      const res = await post(`${w.inbox.base}/contacts`, null, body);
      expect(res.status).toBe(200);
      expect(res.body.id).not.toBe(victimId);
      leaksNothingOf(res.body, body);
      // the visitor sees what it sent, as it would for a free address; the contact holds it only as a claim
      // (e-mails are kept in lower case, as a free one is)
      expect(res.body).toMatchObject({ email: (body as { email?: string }).email?.toLowerCase() ?? null, phone_number: (body as { phone_number?: string }).phone_number ?? null });
      const renamed = await patch(`${w.inbox.base}/contacts/${res.body.source_id}`, null, { name: "Owned" });
      expect(renamed.status).toBe(200);
      expect(renamed.body.id).not.toBe(victimId);
    }
    expect(await snapshot(w.accountId, victimId)).toEqual(before);
  });
});

describe("finding 10: unbounded public contact attributes", () => {
  const many = (n: number, prefix = "k") => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, i]));

  it("refuses more than 50 custom attributes or more than 16 KiB, on create and update, changing nothing", async () => {
    const w = await widgetWorld();
    const count = await contactCount(w.accountId);
    const tooMany = await post(`${w.inbox.base}/contacts`, null, { custom_attributes: many(51) });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors).toEqual([{ field: "custom_attributes", message: expect.stringContaining("50"), code: "too_many_keys" }]);
    expect(await contactCount(w.accountId)).toBe(count);

    const v = await post(`${w.inbox.base}/contacts`, null, { custom_attributes: many(30, "a") });
    const path = `${w.inbox.base}/contacts/${v.body.source_id}`;
    const before = await snapshot(w.accountId, v.body.id);
    // the bound is on what the contact would hold after the merge
    const merged = await patch(path, null, { custom_attributes: many(30, "b") });
    expect(merged.status).toBe(422);
    expect(merged.body.errors[0]).toMatchObject({ field: "custom_attributes", code: "too_many_keys" });
    const large = await patch(path, null, { custom_attributes: { essay: "x".repeat(17 * 1024) } });
    expect(large.status).toBe(422);
    expect(large.body.errors).toEqual([{ field: "custom_attributes", message: expect.stringContaining("16384"), code: "too_large" }]);
    const additional = await patch(path, null, { additional_attributes: many(51) });
    expect(additional.status).toBe(422);
    expect(additional.body.errors[0]).toMatchObject({ field: "additional_attributes", code: "too_many_keys" });
    expect(await snapshot(w.accountId, v.body.id)).toEqual(before);
    expect((await patch(path, null, { custom_attributes: many(20, "b") })).status).toBe(200);
    // a new conversation's attributes too
    const conversation = await post(`${path}/conversations`, null, { custom_attributes: many(51) });
    expect(conversation.status).toBe(422);
    expect(conversation.body.errors[0]).toMatchObject({ field: "custom_attributes", code: "too_many_keys" });
    expect((await get(`${path}/conversations`)).body).toEqual([]);
  });

  it("counts public contact updates against the public_update rate limit", async () => {
    const w = await widgetWorld();
    const v = await post(`${w.inbox.base}/contacts`, null, {});
    const res = await patch(`${w.inbox.base}/contacts/${v.body.source_id}`, null, { name: "Counted" });
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-policy")).toContain('"public_update"');
  });
});
