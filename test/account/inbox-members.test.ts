import { describe, expect, it } from "vitest";
import { call, del, get, patch, post } from "../support/http";
import { addToAccount, createUser, createWorld } from "../support/world";

const world = await createWorld("Seats");
const other = await createWorld("Strangers");
const members = `${world.base}/inbox_members`;

const extra = await createUser(world.platformKey, "Seats Extra");
await post(`${world.base}/agents`, world.admin.key, { email: extra.email });

let sequence = 0;
async function newInbox() {
  const res = await post(`${world.base}/inboxes`, world.admin.key, { name: `Inbox ${++sequence}`, channel: { type: "api" } });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.id as number;
}

const ids = (res: { body: { payload: Array<{ id: number }> } }) => res.body.payload.map((a) => a.id);
const listed = async (inboxId: number) => ids(await get(`${members}/${inboxId}`, world.admin.key));

describe("inbox members", () => {
  it("adds agents and answers every member with the inbox-agent fields", async () => {
    const inboxId = await newInbox();
    const first = await post(members, world.admin.key, { inbox_id: inboxId, user_ids: [world.agent.id] });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      payload: [
        {
          id: world.agent.id,
          account_id: world.accountId,
          availability_status: "offline", // not live on the feed

          auto_offline: true,
          confirmed: true,
          email: world.agent.email,
          provider: "email",
          available_name: "Seats Agent",
          name: "Seats Agent",
          role: "agent",
          thumbnail: "",
          custom_role_id: null,
        },
      ],
    });
    const second = await post(members, world.admin.key, { inbox_id: String(inboxId), user_ids: [String(extra.id), world.agent.id] });
    expect(ids(second)).toEqual([world.agent.id, extra.id]);
    expect(await listed(inboxId)).toEqual([world.agent.id, extra.id]);
  });

  it("PATCH makes the member list exactly user_ids", async () => {
    const inboxId = await newInbox();
    await post(members, world.admin.key, { inbox_id: inboxId, user_ids: [world.agent.id, world.admin.id] });
    const res = await patch(members, world.admin.key, { inbox_id: inboxId, user_ids: [extra.id, world.agent.id] });
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([world.agent.id, extra.id]);
    expect(await listed(inboxId)).toEqual([world.agent.id, extra.id]);
    // The removed administrator is no longer a member; the agent still sees the inbox.
    expect((await get(`${world.base}/inboxes/${inboxId}`, world.agent.key)).status).toBe(200);

    const emptied = await patch(members, world.admin.key, { inbox_id: inboxId, user_ids: [] });
    expect(emptied.body).toEqual({ payload: [] });
    expect(await listed(inboxId)).toEqual([]);
    expect((await get(`${world.base}/inboxes/${inboxId}`, world.agent.key)).status).toBe(403);
  });

  it("DELETE removes the given ids and ignores non-members", async () => {
    const inboxId = await newInbox();
    await post(members, world.admin.key, { inbox_id: inboxId, user_ids: [world.agent.id, extra.id] });
    const res = await del(members, world.admin.key, { inbox_id: inboxId, user_ids: [extra.id, world.admin.id] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect(await listed(inboxId)).toEqual([world.agent.id]);
  });

  it("refuses user_ids that are not agents of the account, naming them, and changes nothing", async () => {
    const inboxId = await newInbox();
    await post(members, world.admin.key, { inbox_id: inboxId, user_ids: [world.agent.id] });
    for (const call of [post, patch, del]) {
      const res = await call(members, world.admin.key, { inbox_id: inboxId, user_ids: [extra.id, other.agent.id, 999999] });
      expect(res.status).toBe(422);
      expect(res.body.errors).toHaveLength(1);
      expect(res.body.errors[0]).toMatchObject({ field: "user_ids", code: "not_account_members" });
      expect(res.body.errors[0].message).toContain(`${other.agent.id}, 999999`);
      expect(res.body.errors[0].message).not.toContain(String(extra.id));
      expect(await listed(inboxId)).toEqual([world.agent.id]);
    }
  });

  it("answers 404 for an unknown inbox or another account's inbox", async () => {
    const foreign = (await post(`${other.base}/inboxes`, other.admin.key, { name: "Theirs", channel: { type: "api" } })).body.id;
    for (const inboxId of [999999, foreign]) {
      for (const call of [post, patch, del]) {
        const res = await call(members, world.admin.key, { inbox_id: inboxId, user_ids: [world.agent.id] });
        expect(res.status).toBe(404);
        expect(res.body.errors[0]).toMatchObject({ field: "inbox_id", code: "not_found" });
      }
      expect((await get(`${members}/${inboxId}`, world.admin.key)).status).toBe(404);
    }
    const theirs = await get(`${other.base}/inbox_members/${foreign}`, other.admin.key);
    expect(theirs.body).toEqual({ payload: [] });
  });

  it("validates the body", async () => {
    const inboxId = await newInbox();
    const noInbox = await post(members, world.admin.key, { user_ids: [world.agent.id] });
    expect(noInbox.status).toBe(422);
    expect(noInbox.body.errors[0]).toMatchObject({ field: "inbox_id", code: "required" });
    const noIds = await patch(members, world.admin.key, { inbox_id: inboxId });
    expect(noIds.body.errors[0]).toMatchObject({ field: "user_ids", code: "required" });
    const notList = await post(members, world.admin.key, { inbox_id: inboxId, user_ids: world.agent.id });
    expect(notList.body.errors[0].field).toBe("user_ids");
    const badId = await post(members, world.admin.key, { inbox_id: inboxId, user_ids: [world.agent.id, -3] });
    expect(badId.body.errors[0].field).toBe("user_ids[1]");
  });

  it("lets members of the inbox read the list; changes are for administrators", async () => {
    const inboxId = await newInbox();
    const denied = await get(`${members}/${inboxId}`, world.agent.key);
    expect(denied.status).toBe(403);
    expect(denied.body.errors[0].code).toBe("not_an_inbox_member");
    await post(members, world.admin.key, { inbox_id: inboxId, user_ids: [world.agent.id] });
    expect(ids(await get(`${members}/${inboxId}`, world.agent.key))).toEqual([world.agent.id]);

    for (const call of [post, patch, del]) {
      const res = await call(members, world.agent.key, { inbox_id: inboxId, user_ids: [world.agent.id, extra.id] });
      expect(res.status).toBe(403);
      expect((await call(members, other.admin.key, { inbox_id: inboxId, user_ids: [other.admin.id] })).status).toBe(403);
      expect((await call(members, null, { inbox_id: inboxId, user_ids: [world.agent.id] })).status).toBe(401);
    }
    expect(await listed(inboxId)).toEqual([world.agent.id]);
  });

  it("handles more ids than one statement can bind", async () => {
    const inboxId = await newInbox();
    const crowd = Array.from({ length: 120 }, (_, i) => 500_000 + i);
    const res = await post(members, world.admin.key, { inbox_id: inboxId, user_ids: [world.agent.id, ...crowd] });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].message).toContain("500119");
  });

  it("adds more agents than one insert statement can carry", async () => {
    const inboxId = await newInbox();
    const crowd: number[] = [];
    for (let i = 0; i < 25; i++) {
      const person = await createUser(world.platformKey, `Crowd ${String(i).padStart(2, "0")}`);
      await addToAccount(world.platformKey, world.accountId, person.id, "agent");
      crowd.push(person.id);
    }
    const res = await patch(members, world.admin.key, { inbox_id: inboxId, user_ids: crowd });
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual(crowd);
    const trimmed = await patch(members, world.admin.key, { inbox_id: inboxId, user_ids: crowd.slice(0, 3) });
    expect(ids(trimmed)).toEqual(crowd.slice(0, 3));
  });

  it("accepts form bodies as Chatwoot clients send them", async () => {
    const inboxId = await newInbox();
    const form = new URLSearchParams();
    form.append("inbox_id", String(inboxId));
    form.append("user_ids[]", String(world.agent.id));
    form.append("user_ids[]", String(extra.id));
    const res = await call("POST", members, {
      key: world.admin.key,
      rawBody: form.toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([world.agent.id, extra.id]);
  });
});
