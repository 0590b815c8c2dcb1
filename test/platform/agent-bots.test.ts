import { describe, expect, it } from "vitest";
import { createPlatformApp, del, get, patch, post } from "../support/http";

const appKey = await createPlatformApp("Bots app");
const otherAppKey = await createPlatformApp("Other bots app");
const { body: account } = await post("/platform/api/v1/accounts", appKey, { name: "Bot Co" });
const { body: foreignAccount } = await post("/platform/api/v1/accounts", otherAppKey, { name: "Foreign Co" });

describe("platform agent bots", () => {
  it("creates, shows, lists, updates and deletes a bot with its key", async () => {
    const created = await post("/platform/api/v1/agent_bots", appKey, {
      name: "Triage",
      description: "Sorts new conversations",
      outgoing_url: "https://bots.example/triage",
      account_id: account.id,
      bot_config: { threshold: 3 },
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: "Triage",
      description: "Sorts new conversations",
      thumbnail: "",
      outgoing_url: "https://bots.example/triage",
      bot_type: "webhook",
      bot_config: { threshold: 3 },
      account_id: account.id,
      system_bot: false,
      access_token: expect.stringMatching(/^[\w-]{32,}$/),
    });
    const id = created.body.id;
    expect((await get(`/platform/api/v1/agent_bots/${id}`, appKey)).body).toEqual(created.body);
    expect((await get("/platform/api/v1/agent_bots", appKey)).body).toEqual([created.body]);
    expect((await get("/platform/api/v1/agent_bots", otherAppKey)).body).toEqual([]);

    const updated = await patch(`/platform/api/v1/agent_bots/${id}`, appKey, { name: "Triage v2", outgoing_url: null });
    expect(updated.body).toMatchObject({ name: "Triage v2", outgoing_url: null, access_token: created.body.access_token });

    expect((await del(`/platform/api/v1/agent_bots/${id}`, appKey)).body).toEqual({});
    expect((await get(`/platform/api/v1/agent_bots/${id}`, appKey)).status).toBe(404);
    // its key is gone with it
    const res = await post(`/api/v1/accounts/${account.id}/conversations/1/messages`, created.body.access_token, { content: "x" });
    expect(res.status).toBe(401);
  });

  it("creates a system bot when no account is given, and removes an avatar", async () => {
    const created = await post("/platform/api/v1/agent_bots", appKey, { name: "Global", avatar_url: "https://img.example/a.png" });
    expect(created.body).toMatchObject({ account_id: null, system_bot: true, thumbnail: "https://img.example/a.png" });
    const cleared = await del(`/platform/api/v1/agent_bots/${created.body.id}/avatar`, appKey);
    expect(cleared.body.thumbnail).toBe("");
  });

  it("refuses an account another app created, and another app's bot", async () => {
    const res = await post("/platform/api/v1/agent_bots", appKey, { name: "Sneaky", account_id: foreignAccount.id });
    expect(res.status).toBe(403);
    const { body: bot } = await post("/platform/api/v1/agent_bots", appKey, { name: "Mine" });
    expect((await patch(`/platform/api/v1/agent_bots/${bot.id}`, otherAppKey, { name: "Theirs" })).status).toBe(403);
    expect((await del(`/platform/api/v1/agent_bots/${bot.id}`, otherAppKey)).status).toBe(403);
  });

  it("validates name and urls", async () => {
    const res = await post("/platform/api/v1/agent_bots", appKey, { outgoing_url: "ftp://nope", avatar_url: "javascript:alert(1)" });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.field).sort()).toEqual(["avatar_url", "name", "outgoing_url"]);
  });

  it("answers every one of many concurrent updates moving a bot between accounts without a 5xx", async () => {
    const { body: second } = await post("/platform/api/v1/accounts", appKey, { name: "Bot Co Two" });
    const bot = await post("/platform/api/v1/agent_bots", appKey, { name: "Mover", account_id: account.id });
    expect(bot.status).toBe(200);
    const replies = await Promise.all(
      Array.from({ length: 24 }, (_, i) => patch(`/platform/api/v1/agent_bots/${bot.body.id}`, appKey, { name: `Mover ${i}`, account_id: i % 2 ? second.id : account.id })),
    );
    for (const reply of replies) {
      expect([200, 409], JSON.stringify(reply.body)).toContain(reply.status);
      if (reply.status === 409) expect(reply.body.errors[0].code).toBe("changed_meanwhile");
    }
    expect(replies.some((r) => r.status === 200)).toBe(true);
  });
});
