import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { accountFeed } from "../../src/realtime/account-feed";
import { MAX_REFUSED_SUBSCRIPTIONS } from "../../src/realtime/cable";
import { describe, expect, it } from "vitest";
import { createUser, addToAccount, createWorld } from "../support/world";
import { post } from "../support/http";
import { listen, pubsubToken, settle, subscribe } from "./cable-support";

describe("GET /cable speaks ActionCable", () => {
  it("welcomes, confirms a RoomChannel subscription and sends presence to it", async () => {
    const world = await createWorld("Cable");
    const listener = await subscribe(world.agent, world.accountId);
    const presence = await listener.next((m) => m.event === "presence.update");
    expect(presence.data).toMatchObject({ account_id: world.accountId, users: { [world.agent.id]: "online" }, contacts: {} });
    listener.close();
  });

  it("answers the actioncable-v1-json subprotocol, a welcome frame and pings", async () => {
    const res = await exports.default.fetch(
      new Request("http://desk.test/cable", { headers: { upgrade: "websocket", "sec-websocket-protocol": "actioncable-v1-json, actioncable-unsupported" } }),
    );
    expect(res.status).toBe(101);
    expect(res.headers.get("sec-websocket-protocol")).toBe("actioncable-v1-json");
    const ws = res.webSocket!;
    const frames: any[] = [];
    ws.addEventListener("message", (e) => frames.push(JSON.parse(e.data as string)));
    ws.accept();
    const world = await createWorld("Pings");
    const identifier = JSON.stringify({ channel: "RoomChannel", pubsub_token: await pubsubToken(world.agent.key), account_id: world.accountId, user_id: world.agent.id });
    ws.send(JSON.stringify({ command: "subscribe", identifier }));
    await settle(3500);
    expect(frames[0]).toEqual({ type: "welcome" });
    expect(frames).toContainEqual({ identifier, type: "confirm_subscription" });
    const pings = frames.filter((f) => f.type === "ping");
    expect(pings.length).toBeGreaterThanOrEqual(1);
    expect(Math.abs(pings[0].message - Date.now() / 1000)).toBeLessThan(10);
    ws.close(1000, "done");
  });

  it("holds at most ten subscriptions on one connection, ignores a repeated subscribe, and unsubscribes", async () => {
    const world = await createWorld("Many");
    const res = await exports.default.fetch(new Request("http://desk.test/cable", { headers: { upgrade: "websocket", "sec-websocket-protocol": "actioncable-v1-json" } }));
    const ws = res.webSocket!;
    const frames: any[] = [];
    ws.addEventListener("message", (e) => frames.push(JSON.parse(e.data as string)));
    ws.accept();
    const token = await pubsubToken(world.agent.key);
    const identifiers = Array.from({ length: 11 }, (_, i) =>
      JSON.stringify({ channel: "RoomChannel", pubsub_token: token, account_id: world.accountId, user_id: world.agent.id, n: i }),
    );
    for (const identifier of identifiers) ws.send(JSON.stringify({ command: "subscribe", identifier }));
    ws.send(JSON.stringify({ command: "subscribe", identifier: identifiers[0] }));
    ws.send("not json");
    await settle(1500);
    const answers = (type: string) => frames.filter((f) => f.type === type).map((f) => f.identifier);
    expect(answers("confirm_subscription")).toHaveLength(10);
    expect(answers("reject_subscription")).toHaveLength(1);
    expect(await accountFeed(env, world.accountId).socketCount()).toBe(10);
    ws.send(JSON.stringify({ command: "unsubscribe", identifier: answers("confirm_subscription")[0] }));
    await settle(500);
    expect(await accountFeed(env, world.accountId).socketCount()).toBe(9);
    ws.close(1000, "done");
    await settle(500);
    expect(await accountFeed(env, world.accountId).socketCount()).toBe(0);
  });

  it("closes a connection that keeps offering identifiers it cannot prove, telling the client not to reconnect", async () => {
    const world = await createWorld("Guessing");
    const res = await exports.default.fetch(new Request("http://desk.test/cable", { headers: { upgrade: "websocket", "sec-websocket-protocol": "actioncable-v1-json" } }));
    const ws = res.webSocket!;
    const frames: any[] = [];
    let closedWith: number | null = null;
    ws.addEventListener("message", (e) => frames.push(JSON.parse(e.data as string)));
    ws.addEventListener("close", (e) => (closedWith = e.code));
    ws.accept();
    // one at a time, as a guesser would after each rejection
    for (let n = 0; n < MAX_REFUSED_SUBSCRIPTIONS; n++) {
      const identifier = JSON.stringify({ channel: "RoomChannel", pubsub_token: `guess-${n}`, account_id: world.accountId, user_id: world.agent.id });
      ws.send(JSON.stringify({ command: "subscribe", identifier }));
      await settle(30);
    }
    await settle(500);
    expect(frames.filter((f) => f.type === "reject_subscription")).toHaveLength(MAX_REFUSED_SUBSCRIPTIONS);
    expect(frames.at(-1)).toEqual({ type: "disconnect", reason: "unauthorized", reconnect: false });
    expect(closedWith).toBe(1008);
  });

  it("tells the client to reconnect when the account's feed goes away", async () => {
    const world = await createWorld("Restart");
    const res = await exports.default.fetch(new Request("http://desk.test/cable", { headers: { upgrade: "websocket" } }));
    const ws = res.webSocket!;
    const frames: any[] = [];
    ws.addEventListener("message", (e) => frames.push(JSON.parse(e.data as string)));
    ws.accept();
    const identifier = JSON.stringify({ channel: "RoomChannel", pubsub_token: await pubsubToken(world.agent.key), account_id: world.accountId, user_id: world.agent.id });
    ws.send(JSON.stringify({ command: "subscribe", identifier }));
    await settle(500);
    expect(frames).toContainEqual({ identifier, type: "confirm_subscription" });
    await runInDurableObject(accountFeed(env, world.accountId), async (_instance, state) => {
      for (const socket of state.getWebSockets()) socket.close(1001, "going away");
    });
    await settle(500);
    expect(frames).toContainEqual({ type: "disconnect", reason: "server_restart", reconnect: true });
  });

  it("refuses a plain request with the error body", async () => {
    const res = await exports.default.fetch(new Request("http://desk.test/cable"));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const body = (await res.json()) as any;
    expect(body.errors[0]).toMatchObject({ code: "upgrade_required" });
  });

  it("rejects a wrong token, another account, a user outside the account and another channel", async () => {
    const world = await createWorld("Rejects");
    const other = (await post("/platform/api/v1/accounts", world.platformKey, { name: "Elsewhere" })).body as { id: number };
    const token = await pubsubToken(world.agent.key);
    const outsider = await createUser(world.platformKey, "Outsider");
    const cases = [
      { pubsub_token: "not-the-token", account_id: world.accountId, user_id: world.agent.id },
      { pubsub_token: await pubsubToken(world.admin.key), account_id: world.accountId, user_id: world.agent.id }, // someone else's token
      { pubsub_token: token, account_id: other.id, user_id: world.agent.id }, // an account the user is not in
      { pubsub_token: await pubsubToken(outsider.key), account_id: world.accountId, user_id: outsider.id }, // a user in no account
      { pubsub_token: token, account_id: String(world.accountId), user_id: world.agent.id, channel: "NotificationChannel" },
      { account_id: world.accountId, user_id: world.agent.id },
    ];
    for (const identifier of cases) {
      const listener = listen(identifier);
      expect(await listener.outcome, JSON.stringify(identifier)).toBe("rejected");
      listener.close();
    }
    // the same user with the right token is confirmed, and once added to the other account, there too
    await addToAccount(world.platformKey, other.id, world.agent.id, "agent");
    (await subscribe(world.agent, other.id)).close();
    const ok = await subscribe(world.agent, world.accountId);
    ok.close();
  });

  it("answers update_presence with a presence.update", async () => {
    const world = await createWorld("Heartbeat");
    const listener = await subscribe(world.admin, world.accountId);
    await listener.next((m) => m.event === "presence.update");
    listener.messages.length = 0;
    listener.perform("update_presence");
    const presence = await listener.next((m) => m.event === "presence.update");
    expect(presence.data.users).toMatchObject({ [world.admin.id]: "online" });
    listener.close();
  });
});

