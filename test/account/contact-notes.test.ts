import { beforeAll, describe, expect, it } from "vitest";
import { createContact } from "../support/fixtures";
import { shardOf } from "../support/databases";
import { del, get, patch, post, put } from "../support/http";
import { createWorld } from "../support/world";

type World = Awaited<ReturnType<typeof createWorld>>;
let world: World;
let other: World;

beforeAll(async () => {
  world = await createWorld("Notes");
  other = await createWorld("Elsewhere");
});

/** The account's stored notes of a contact: what a refusal must leave alone. */
async function storedNotes(accountId: number, contactId: number) {
  const { results } = await (await shardOf(accountId)).prepare("SELECT id, content, user_id, updated_at FROM contact_notes WHERE account_id = ? AND contact_id = ? ORDER BY id")
    .bind(accountId, contactId)
    .all<{ id: number; content: string; user_id: number; updated_at: number }>();
  return results;
}

describe("contact notes", () => {
  it("lets an agent write, list, show, change and delete a note, with the author as Chatwoot renders it", async () => {
    const { base, agent, accountId } = world;
    const contactId = await createContact(accountId);
    const created = await post(`${base}/contacts/${contactId}/notes`, agent.key, { content: "Called about the invoice.\nWill call back." });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(Number),
      content: "Called about the invoice.\nWill call back.",
      account_id: accountId,
      contact_id: contactId,
      user: expect.objectContaining({ id: agent.id, email: agent.email, role: "agent", account_id: accountId }),
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
    });
    expect(created.body.created_at).toBeGreaterThan(1_600_000_000);
    expect(created.body.created_at).toBeLessThan(10_000_000_000);
    const id = created.body.id;

    const second = await post(`${base}/contacts/${contactId}/notes`, agent.key, { note: { content: "Wrapped body" } });
    expect(second.status).toBe(200);

    const list = await get(`${base}/contacts/${contactId}/notes`, agent.key);
    expect(list.status).toBe(200);
    expect(list.body.map((n: { id: number }) => n.id)).toEqual([second.body.id, id]);

    expect((await get(`${base}/contacts/${contactId}/notes/${id}`, agent.key)).body).toMatchObject({ id, content: "Called about the invoice.\nWill call back." });

    const changed = await patch(`${base}/contacts/${contactId}/notes/${id}`, agent.key, { content: "Paid." });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id, content: "Paid.", user: { id: agent.id } });
    expect((await put(`${base}/contacts/${contactId}/notes/${id}`, agent.key, { note: { content: "Paid twice." } })).body).toMatchObject({ content: "Paid twice." });

    expect(await del(`${base}/contacts/${contactId}/notes/${id}`, agent.key)).toMatchObject({ status: 200, body: {} });
    expect((await get(`${base}/contacts/${contactId}/notes/${id}`, agent.key)).status).toBe(404);
    expect((await del(`${base}/contacts/${contactId}/notes/${id}`, agent.key)).status).toBe(404);
    expect((await storedNotes(accountId, contactId)).map((n) => n.id)).toEqual([second.body.id]);
  });

  it("lets any member manage any note of the account (Chatwoot checks only the contact)", async () => {
    const { base, admin, agent, accountId } = world;
    const contactId = await createContact(accountId);
    const byAdmin = await post(`${base}/contacts/${contactId}/notes`, admin.key, { content: "Admin's note" });
    expect(byAdmin.body.user).toMatchObject({ id: admin.id, role: "administrator" });
    const edited = await patch(`${base}/contacts/${contactId}/notes/${byAdmin.body.id}`, agent.key, { content: "Edited by an agent" });
    // the author stays who wrote it
    expect(edited.body).toMatchObject({ content: "Edited by an agent", user: { id: admin.id } });
    expect((await del(`${base}/contacts/${contactId}/notes/${byAdmin.body.id}`, agent.key)).status).toBe(200);
    expect(await storedNotes(accountId, contactId)).toEqual([]);
  });

  it("answers 404 for another account's contact or note, and 401 without a key, changing nothing", async () => {
    const { base, agent, accountId } = world;
    const mine = await createContact(accountId);
    const note = await post(`${base}/contacts/${mine}/notes`, agent.key, { content: "Mine" });
    const theirs = await createContact(other.accountId);
    const before = await storedNotes(accountId, mine);

    expect((await get(`${base}/contacts/${theirs}/notes`, agent.key)).status).toBe(404);
    expect((await post(`${base}/contacts/${theirs}/notes`, agent.key, { content: "Sneaky" })).status).toBe(404);
    expect(await storedNotes(other.accountId, theirs)).toEqual([]);
    // the note through another contact of the same account: not found
    const otherContact = await createContact(accountId);
    expect((await get(`${base}/contacts/${otherContact}/notes/${note.body.id}`, agent.key)).status).toBe(404);
    expect((await patch(`${base}/contacts/${otherContact}/notes/${note.body.id}`, agent.key, { content: "x" })).status).toBe(404);
    expect((await del(`${base}/contacts/${otherContact}/notes/${note.body.id}`, agent.key)).status).toBe(404);
    // another account's member reaching this account's note
    expect((await get(`${other.base}/contacts/${mine}/notes/${note.body.id}`, other.admin.key)).status).toBe(404);
    expect((await get(`${base}/contacts/${mine}/notes`, agent.key.replace(/.$/, "x"))).status).toBe(401);
    expect((await post(`${base}/contacts/${mine}/notes`, null, { content: "Anonymous" })).status).toBe(401);
    expect((await patch(`${base}/contacts/${mine}/notes/${note.body.id}`, null, { content: "Anonymous" })).status).toBe(401);
    expect((await del(`${base}/contacts/${mine}/notes/${note.body.id}`, null)).status).toBe(401);
    expect(await storedNotes(accountId, mine)).toEqual(before);
  });

  it("refuses a missing, blank, non-text or too long content with a 422 naming the field, changing nothing", async () => {
    const { base, agent, accountId } = world;
    const contactId = await createContact(accountId);
    const note = await post(`${base}/contacts/${contactId}/notes`, agent.key, { content: "Kept" });
    const before = await storedNotes(accountId, contactId);
    for (const body of [{}, { content: "" }, { content: "   \n" }, { content: 42 }, { content: null }, { content: "x".repeat(10_001) }, { note: { content: "" } }]) {
      const created = await post(`${base}/contacts/${contactId}/notes`, agent.key, body);
      expect(created.status, JSON.stringify(body)).toBe(422);
      expect(created.body.errors[0].field).toBe("content");
      expect((await patch(`${base}/contacts/${contactId}/notes/${note.body.id}`, agent.key, body)).status).toBe(422);
    }
    expect((await post(`${base}/contacts/${contactId}/notes`, agent.key, { content: "x".repeat(10_000) })).status).toBe(200);
    expect((await get(`${base}/contacts/abc/notes`, agent.key)).status).toBeGreaterThanOrEqual(400);
    expect((await storedNotes(accountId, contactId)).slice(0, 1)).toEqual(before);
  });

  it("deletes a contact's notes with the contact, and moves a mergee's notes to the base contact", async () => {
    const { base, admin, agent, accountId } = world;
    const doomed = await createContact(accountId);
    await post(`${base}/contacts/${doomed}/notes`, agent.key, { content: "Goes with the contact" });
    expect((await del(`${base}/contacts/${doomed}`, admin.key)).status).toBe(200);
    expect(await storedNotes(accountId, doomed)).toEqual([]);

    const baseContact = await createContact(accountId);
    const mergee = await createContact(accountId);
    const moved = await post(`${base}/contacts/${mergee}/notes`, agent.key, { content: "Moves on merge" });
    expect((await post(`${base}/actions/contact_merge`, admin.key, { base_contact_id: baseContact, mergee_contact_id: mergee })).status).toBe(200);
    expect((await get(`${base}/contacts/${baseContact}/notes`, agent.key)).body.map((n: { id: number }) => n.id)).toEqual([moved.body.id]);
  });
});
