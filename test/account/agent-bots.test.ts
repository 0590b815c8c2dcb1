import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { systemScope } from "../../src/domain/kernel/scope";
import { jobScope } from "../../src/jobs/scope";
import { createAccountAgentBot, updateAccountAgentBot } from "../../src/domain/people/agent-bots";
import { FORBIDDEN_TARGET_MESSAGE } from "../../src/domain/kernel/target-url";
import { del, get, patch, post, put } from "../support/http";
import { shardOf } from "../support/databases";
import { createWorld } from "../support/world";

const world = await createWorld("Bots");
const other = await createWorld("Botless");
const bots = `${world.base}/agent_bots`;

const systemBot = (await post("/platform/api/v1/agent_bots", world.platformKey, { name: "System helper", outgoing_url: "https://system.example/hook" })).body;
const foreignBot = (await post(`${other.base}/agent_bots`, other.admin.key, { name: "Foreign" })).body;

async function newBot(name = "Helper") {
  const res = await post(bots, world.admin.key, { name, description: "Answers", outgoing_url: "https://bot.example/hook", bot_config: { a: 1 } });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body;
}

describe("account agent bots", () => {
  it("creates a bot owned by the account, with its key shown to the administrator", async () => {
    const res = await post(bots, world.admin.key, { agent_bot: { name: "Helper", description: "Answers", outgoing_url: "https://bot.example/hook" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: "Helper",
      description: "Answers",
      thumbnail: "",
      outgoing_url: "https://bot.example/hook",
      bot_type: "webhook",
      bot_config: {},
      account_id: world.accountId,
      system_bot: false,
      access_token: expect.stringMatching(/^\S{20,}$/),
    });
  });

  it("lists the account's bots and the system bots; agents do not see keys", async () => {
    const own = await newBot("Listed");
    const asAdmin = await get(bots, world.admin.key);
    expect(asAdmin.status).toBe(200);
    const byId = new Map(asAdmin.body.map((b: { id: number }) => [b.id, b]));
    expect(byId.get(own.id)).toMatchObject({ name: "Listed", access_token: own.access_token });
    // A system bot: no key, no outgoing URL.
    expect(byId.get(systemBot.id)).toEqual({
      id: systemBot.id,
      name: "System helper",
      description: null,
      thumbnail: "",
      bot_type: "webhook",
      bot_config: {},
      account_id: null,
      system_bot: true,
    });
    expect(byId.has(foreignBot.id)).toBe(false);

    const asAgent = await get(bots, world.agent.key);
    expect(asAgent.status).toBe(200);
    expect(asAgent.body.length).toBe(asAdmin.body.length);
    expect(asAgent.body.some((b: object) => "access_token" in b)).toBe(false);
  });

  it("shows one bot: own or system; another account's is 404", async () => {
    const own = await newBot();
    expect((await get(`${bots}/${own.id}`, world.agent.key)).body).toMatchObject({ id: own.id, name: "Helper" });
    expect((await get(`${bots}/${own.id}`, world.agent.key)).body.access_token).toBeUndefined();
    expect((await get(`${bots}/${own.id}`, world.admin.key)).body.access_token).toBe(own.access_token);
    expect((await get(`${bots}/${systemBot.id}`, world.agent.key)).body).toMatchObject({ id: systemBot.id, system_bot: true });
    const foreign = await get(`${bots}/${foreignBot.id}`, world.admin.key);
    expect(foreign.status).toBe(404);
    expect(foreign.body.errors[0]).toMatchObject({ field: "id", code: "not_found" });
  });

  it("updates its own bots (PATCH and PUT); a system bot is 404 there", async () => {
    const own = await newBot();
    const res = await patch(`${bots}/${own.id}`, world.admin.key, { name: "Renamed", outgoing_url: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: own.id, name: "Renamed", outgoing_url: null, description: "Answers", bot_config: { a: 1 } });
    const viaPut = await put(`${bots}/${own.id}`, world.admin.key, { agent_bot: { description: "New" } });
    expect(viaPut.body).toMatchObject({ name: "Renamed", description: "New" });
    expect((await patch(`${bots}/${systemBot.id}`, world.admin.key, { name: "Mine now" })).status).toBe(404);
    expect((await patch(`${bots}/${foreignBot.id}`, world.admin.key, { name: "Mine now" })).status).toBe(404);
  });

  it("validates the body", async () => {
    const noName = await post(bots, world.admin.key, { description: "nameless" });
    expect(noName.status).toBe(422);
    expect(noName.body.errors[0]).toMatchObject({ field: "name", code: "required" });
    const badUrl = await post(bots, world.admin.key, { name: "X", outgoing_url: "javascript:alert(1)" });
    expect(badUrl.status).toBe(422);
    expect(badUrl.body.errors[0].field).toBe("outgoing_url");
    const longUrl = await post(bots, world.admin.key, { name: "X", outgoing_url: `https://a.example/${"x".repeat(2100)}` });
    expect(longUrl.body.errors[0]).toMatchObject({ field: "outgoing_url", code: "too_long" });
  });

  it("resets the key: the old one stops working", async () => {
    const own = await newBot();
    const res = await post(`${bots}/${own.id}/reset_access_token`, world.admin.key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: own.id, access_token: expect.any(String) });
    expect(res.body.access_token).not.toBe(own.access_token);
    // An unknown key is a 401; a valid bot key on a route closed to bots is a 403.
    expect((await get(`${world.base}/agents`, own.access_token)).status).toBe(401);
    expect((await get(`${world.base}/agents`, res.body.access_token)).status).toBe(403);
    expect((await post(`${bots}/${systemBot.id}/reset_access_token`, world.admin.key)).status).toBe(404);
  });

  it("deletes its own bots only", async () => {
    const own = await newBot();
    expect((await del(`${bots}/${systemBot.id}`, world.admin.key)).status).toBe(404);
    expect((await del(`${bots}/${foreignBot.id}`, world.admin.key)).status).toBe(404);
    const res = await del(`${bots}/${own.id}`, world.admin.key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await get(`${bots}/${own.id}`, world.admin.key)).status).toBe(404);
    expect((await get(`${world.base}/agents`, own.access_token)).status).toBe(401);
    expect((await get(`${bots}/${systemBot.id}`, world.admin.key)).status).toBe(200);
  });

  it("keeps changes to administrators and the account to its members", async () => {
    const own = await newBot();
    expect((await post(bots, world.agent.key, { name: "X" })).status).toBe(403);
    expect((await patch(`${bots}/${own.id}`, world.agent.key, { name: "X" })).status).toBe(403);
    expect((await del(`${bots}/${own.id}`, world.agent.key)).status).toBe(403);
    expect((await post(`${bots}/${own.id}/reset_access_token`, world.agent.key)).status).toBe(403);
    expect((await get(bots, other.admin.key)).status).toBe(403);
    expect((await get(`${bots}/${own.id}`, other.admin.key)).status).toBe(403);
    expect((await get(bots)).status).toBe(401);
  });
});

describe("an agent bot's outgoing_url and the target policy", () => {
  const PRIVATE = ["http://localhost:3000/x", "http://127.0.0.1:4000/x", "http://[::1]/x", "http://169.254.169.254/latest", "http://10.0.0.8/"];
  const refusal = { field: "outgoing_url", message: FORBIDDEN_TARGET_MESSAGE, code: "forbidden_host" };

  it("refuses a private or loopback URL on create and on change, with the webhooks API's message and code", async () => {
    const own = await newBot("Kept URL");
    for (const url of PRIVATE) {
      const created = await post(bots, world.admin.key, { name: "Sneaky bot", outgoing_url: url });
      expect(created.status, url).toBe(422);
      expect(created.body.errors).toEqual([refusal]);
      expect((await post(`${world.base}/webhooks`, world.admin.key, { url })).body.errors).toEqual([{ ...refusal, field: "url" }]);
      for (const send of [patch, put]) {
        const changed = await send(`${bots}/${own.id}`, world.admin.key, { agent_bot: { name: "Changed", outgoing_url: url } });
        expect(changed.status, url).toBe(422);
        expect(changed.body.errors).toEqual([refusal]);
      }
    }
    expect((await get(`${bots}/${own.id}`, world.admin.key)).body).toEqual(own);
    expect((await get(bots, world.admin.key)).body.map((b: { name: string }) => b.name)).not.toContain("Sneaky bot");
  });

  it("refuses the same on the Platform API", async () => {
    const created = await post("/platform/api/v1/agent_bots", world.platformKey, { name: "Platform sneaky", outgoing_url: PRIVATE[1] });
    expect(created.status).toBe(422);
    expect(created.body.errors).toEqual([refusal]);
    const changed = await patch(`/platform/api/v1/agent_bots/${systemBot.id}`, world.platformKey, { outgoing_url: PRIVATE[0] });
    expect(changed.status).toBe(422);
    expect(changed.body.errors).toEqual([refusal]);
    expect((await get(`/platform/api/v1/agent_bots/${systemBot.id}`, world.platformKey)).body.outgoing_url).toBe("https://system.example/hook");
  });

  it("accepts loopback and private URLs where the policy allows them (npm start), and nowhere else", async () => {
    const db = createDb(await shardOf(world.accountId));
    const local = systemScope(jobScope(db, { ...env, WEBHOOK_TARGET_POLICY: "allow-private" }), world.accountId);
    const strict = systemScope(jobScope(db, env), world.accountId);
    const created = await createAccountAgentBot(local, { name: "Local bot", outgoingUrl: "http://localhost:4000/bot" });
    expect(created.bot.outgoingUrl).toBe("http://localhost:4000/bot");
    expect((await updateAccountAgentBot(local, created.bot.id, { outgoingUrl: "http://10.1.2.3/bot" })).bot.outgoingUrl).toBe("http://10.1.2.3/bot");
    await expect(updateAccountAgentBot(strict, created.bot.id, { outgoingUrl: "http://127.0.0.1/bot" })).rejects.toMatchObject({ code: "invalid", errors: [refusal] });
    await expect(createAccountAgentBot(strict, { name: "Strict bot", outgoingUrl: "http://127.0.0.1/bot" })).rejects.toMatchObject({ code: "invalid" });
  });
});
