/** Deleting a contact takes its conversations with it, and the conversation counts follow. */
import { describe, expect, it } from "vitest";
import { createContactInbox, createInbox } from "../support/fixtures";
import { del, get, post } from "../support/http";
import { createWorld } from "../support/world";

const world = await createWorld("Deleting Co");
const inboxId = await createInbox(world.accountId);

describe("DELETE /contacts/:id", () => {
  it("removes the contact's conversations from lists and counts", async () => {
    const contact = await post(`${world.base}/contacts`, world.admin.key, { name: "Leaving", email: "leaving@example.com" });
    const stays = await post(`${world.base}/contacts`, world.admin.key, { name: "Staying", email: "staying@example.com" });
    for (const c of [contact.body.payload.contact, contact.body.payload.contact, stays.body.payload.contact]) {
      const { sourceId } = await createContactInbox(world.accountId, c.id, inboxId, `src-${Math.random()}`);
      expect((await post(`${world.base}/conversations`, world.admin.key, { source_id: sourceId })).status).toBe(200);
    }
    const before = await get(`${world.base}/conversations/meta`, world.admin.key);
    expect(before.body.meta).toMatchObject({ all_count: 3, unassigned_count: 3 });

    expect((await del(`${world.base}/contacts/${contact.body.payload.contact.id}`, world.admin.key)).status).toBe(200);

    const after = await get(`${world.base}/conversations/meta`, world.admin.key);
    expect(after.body.meta).toMatchObject({ all_count: 1, unassigned_count: 1 });
    const list = await get(`${world.base}/conversations?status=all`, world.admin.key);
    expect(list.body.data.payload.map((c: any) => c.meta.sender.id)).toEqual([stays.body.payload.contact.id]);
  });
});
