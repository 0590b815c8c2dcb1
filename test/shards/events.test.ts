/**
 * The work after a change on a shard other than the first (docs/shards.md): the queue consumer runs
 * each message on its account's shard, so webhooks and automation rules work for an account wherever
 * the directory placed it.
 */
import { describe, expect, it } from "vitest";
import { shardNumberOf } from "../support/databases";
import { get, post } from "../support/http";
import { receiver } from "../support/receivers";
import { createWorld } from "../support/world";

/** An account on a shard other than 0 (placement rotates over the shards, so a few tries find one). */
async function worldOffTheFirstShard() {
  for (let attempt = 0; attempt < 6; attempt++) {
    const world = await createWorld(`Far Shard ${attempt}`);
    const shard = await shardNumberOf(world.accountId);
    if (shard !== 0) return { ...world, shard };
  }
  throw new Error("no account left shard 0");
}

async function until(check: () => Promise<boolean>, timeoutMs = 10_000) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("events on a shard other than the first", () => {
  it("reach the account's webhook and run its automation rules", async () => {
    const world = await worldOffTheFirstShard();
    expect(world.shard).toBeGreaterThan(0);
    const target = receiver();
    expect((await post(`${world.base}/webhooks`, world.admin.key, { url: target.url, subscriptions: ["conversation_created", "message_created"] })).status).toBe(200);
    expect((await post(`${world.base}/labels`, world.admin.key, { title: "far-away" })).status).toBe(200);
    const rule = await post(`${world.base}/automation_rules`, world.admin.key, {
      name: "Label everything",
      event_name: "conversation_created",
      conditions: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: null }],
      actions: [{ action_name: "add_label", action_params: ["far-away"] }],
    });
    expect(rule.status).toBe(200);

    const inbox = await post(`${world.base}/inboxes`, world.admin.key, { name: "API desk", channel: { type: "api" } });
    const contact = await post(`${world.base}/contacts`, world.admin.key, { name: "Remote Customer", email: `remote.${world.accountId}@example.com` });
    const conversation = await post(`${world.base}/conversations`, world.admin.key, { inbox_id: inbox.body.id, contact_id: contact.body.payload.contact.id });
    expect(conversation.status).toBe(200);
    await post(`${world.base}/conversations/${conversation.body.id}/messages`, world.admin.key, { content: "Hello from afar" });

    const delivered = (await target.waitFor(2)).map((request) => JSON.parse(request.body));
    expect(delivered.map((payload) => payload.event).sort()).toEqual(["conversation_created", "message_created"]);
    expect(delivered.find((payload) => payload.event === "conversation_created")).toMatchObject({ id: conversation.body.id, account_id: world.accountId });
    await until(async () => (await get(`${world.base}/conversations/${conversation.body.id}`, world.admin.key)).body.labels?.includes("far-away"));
  });
});
