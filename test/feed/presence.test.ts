import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type AccountFeed, DEFAULT_PRESENCE_TTL_SECONDS, accountFeed } from "../../src/realtime/account-feed";
import { call, get, post } from "../support/http";
import { visitorConversation, widgetWorld } from "../public/widget-support";
import { agentTicket, openSocket } from "../realtime/room-support";
import { subscribe } from "./cable-support";

afterEach(() => vi.useRealTimers());

const statusIn = (agents: Array<{ id: number; availability_status: string }>, id: number) => agents.find((a) => a.id === id)?.availability_status;

describe("presence", () => {
  it("shows agents offline until they are live on the feed, then with their chosen availability", async () => {
    const w = await widgetWorld("Presence");
    const before = await get(`${w.base}/agents`, w.admin.key);
    expect(before.body.map((a: any) => a.availability_status)).toEqual(["offline", "offline"]);

    const listener = await subscribe(w.agent, w.accountId);
    const agents = await get(`${w.base}/agents`, w.admin.key);
    expect(statusIn(agents.body, w.agent.id)).toBe("online");
    expect(statusIn(agents.body, w.admin.id)).toBe("offline");
    const members = await get(`${w.base}/inbox_members/${w.inbox.id}`, w.admin.key);
    expect(statusIn(members.body.payload, w.agent.id)).toBe("online");
    const profile = await get("/api/v1/profile", w.agent.key);
    expect(profile.body.accounts[0]).toMatchObject({ id: w.accountId, availability: "online", availability_status: "online" });
    expect((await get("/api/v1/profile", w.admin.key)).body.accounts[0].availability_status).toBe("offline");

    const c = await visitorConversation(w.inbox);
    await post(`${w.base}/conversations/${c.displayId}/assignments`, w.admin.key, { assignee_id: w.agent.id });
    const shown = await get(`${w.base}/conversations/${c.displayId}`, w.admin.key);
    expect(shown.body.meta.assignee).toMatchObject({ id: w.agent.id, availability_status: "online" });
    const list = await get(`${w.base}/conversations`, w.admin.key);
    expect(list.body.data.payload[0].meta.assignee.availability_status).toBe("online");
    listener.close();
  });

  it("expires a presence after its time-to-live, and update_presence renews it", async () => {
    const w = await widgetWorld("Expiry");
    const listener = await subscribe(w.agent, w.accountId);
    const feed = accountFeed(env, w.accountId);
    expect(await feed.onlineUsers()).toEqual({ [w.agent.id]: "online" });
    await runInDurableObject(feed, async (instance: AccountFeed) => {
      expect(instance.onlineUsers(Date.now() + DEFAULT_PRESENCE_TTL_SECONDS * 1000 - 1000)).toEqual({ [w.agent.id]: "online" });
      // past the time-to-live with no heartbeat: gone
      expect(instance.onlineUsers(Date.now() + DEFAULT_PRESENCE_TTL_SECONDS * 1000 + 1)).toEqual({});
    });
    expect(statusIn((await get(`${w.base}/agents`, w.admin.key)).body, w.agent.id)).toBe("offline");
    listener.messages.length = 0;
    listener.perform("update_presence");
    const presence = await listener.next((m) => m.event === "presence.update");
    expect(presence.data).toEqual({ account_id: w.accountId, users: { [w.agent.id]: "online" }, contacts: {} });
    expect(statusIn((await get(`${w.base}/agents`, w.admin.key)).body, w.agent.id)).toBe("online");
    listener.close();
  });

  it("tells everyone on the feed at once when someone comes online, and when a presence runs out", async () => {
    const w = await widgetWorld("Arrivals");
    const admin = await subscribe(w.admin, w.accountId);
    await admin.next((m) => m.event === "presence.update");
    const agent = await subscribe(w.agent, w.accountId);
    const arrival = await admin.next((m) => m.event === "presence.update" && m.data.users[w.agent.id] === "online");
    expect(arrival.data).toEqual({ account_id: w.accountId, users: { [w.admin.id]: "online", [w.agent.id]: "online" }, contacts: {} });
    // a heartbeat of someone already online is answered to them alone
    admin.messages.length = 0;
    agent.perform("update_presence");
    await agent.next((m) => m.event === "presence.update");
    // the agent's presence runs out (no heartbeat): the next ping round tells the administrator
    await runInDurableObject(accountFeed(env, w.accountId), async (instance: AccountFeed) => {
      (instance as unknown as { presence: Map<number, { until: number }> }).presence.get(w.agent.id)!.until = Date.now() - 1;
      await instance.alarm();
    });
    const departure = await admin.next((m) => m.event === "presence.update" && !(w.agent.id in m.data.users));
    expect(departure.data.users).toEqual({ [w.admin.id]: "online" });
    expect(admin.messages.filter((m) => m.event === "presence.update")).toHaveLength(1);
    admin.close();
    agent.close();
  });

  it("shows a contact online while their widget socket is open in one of the account's conversations", async () => {
    const w = await widgetWorld("Visitors");
    const admin = await subscribe(w.admin, w.accountId);
    await admin.next((m) => m.event === "presence.update");
    const c = await visitorConversation(w.inbox, { name: "Vera" });
    const widget = await openSocket(`${c.path}/live?pubsub_token=${c.pubsubToken}`);
    const arrival = await admin.next((m) => m.event === "presence.update" && m.data.contacts[c.contactId] === "online");
    expect(arrival.data).toEqual({ account_id: w.accountId, users: { [w.admin.id]: "online" }, contacts: { [c.contactId]: "online" } });
    // an agent's socket in the same room is no contact
    const agentRoom = await openSocket((await agentTicket(w.base, w.agent.key, c.displayId)).url);
    expect(await accountFeed(env, w.accountId).onlineContacts()).toEqual({ [c.contactId]: "online" });
    // Chatwoot's /contacts/active lists them; another account's lists nobody
    const active = await get(`${w.base}/contacts/active`, w.agent.key);
    expect(active.status).toBe(200);
    expect(active.body.meta).toMatchObject({ count: 1, has_more: false });
    expect(active.body.payload.map((p: any) => [p.id, p.name])).toEqual([[c.contactId, "Vera"]]);
    const other = await widgetWorld("Elsewhere");
    expect((await get(`${other.base}/contacts/active`, other.admin.key)).body.payload).toEqual([]);
    widget.close();
    const departure = await admin.next((m) => m.event === "presence.update" && !(c.contactId in m.data.contacts));
    expect(departure.data.contacts).toEqual({});
    expect((await get(`${w.base}/contacts/active`, w.agent.key)).body.payload).toEqual([]);
    agentRoom.close();
    admin.close();
  });

  it("POST /profile/availability sets the user's availability in one account and tells the feed", async () => {
    const w = await widgetWorld("Availability");
    const admin = await subscribe(w.admin, w.accountId);
    const agent = await subscribe(w.agent, w.accountId);
    const res = await post("/api/v1/profile/availability", w.agent.key, { profile: { availability: "busy", account_id: w.accountId } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: w.agent.id, accounts: [{ id: w.accountId, availability: "busy", availability_status: "busy" }] });
    const update = await admin.next((m) => m.event === "presence.update" && m.data.users[w.agent.id] === "busy");
    expect(update.data.users).toEqual({ [w.admin.id]: "online", [w.agent.id]: "busy" });
    expect(statusIn((await get(`${w.base}/agents`, w.admin.key)).body, w.agent.id)).toBe("busy");
    // flat works too, as Chatwoot's wrapped params do
    expect((await post("/api/v1/profile/availability", w.agent.key, { availability: "offline", account_id: w.accountId })).status).toBe(200);
    expect(statusIn((await get(`${w.base}/agents`, w.admin.key)).body, w.agent.id)).toBe("offline");
    admin.close();
    agent.close();
  });

  it("refuses another account, a bad value and a missing key, changing nothing", async () => {
    const w = await widgetWorld("Refusals");
    const other = await widgetWorld("Other");
    const stored = async () => (await get("/api/v1/profile", w.agent.key)).body.accounts[0].availability;
    const wrongAccount = await post("/api/v1/profile/availability", w.agent.key, { profile: { availability: "busy", account_id: other.accountId } });
    expect(wrongAccount.status).toBe(404);
    expect(wrongAccount.body.errors[0]).toMatchObject({ field: "account_id", code: "not_found" });
    for (const body of [{ availability: "away", account_id: w.accountId }, { availability: "busy" }, { availability: "busy", account_id: "x" }, { account_id: w.accountId }]) {
      const res = await post("/api/v1/profile/availability", w.agent.key, { profile: body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
    const noKey = await post("/api/v1/profile/availability", null, { profile: { availability: "busy", account_id: w.accountId } });
    expect(noKey.status).toBe(401);
    const botlike = await call("POST", "/api/v1/profile/availability", { key: "not-a-key", body: { profile: { availability: "busy", account_id: w.accountId } } });
    expect(botlike.status).toBe(401);
    expect(await stored()).toBe("online");
    expect((await get("/api/v1/profile", other.agent.key)).body.accounts[0].availability).toBe("online");
  });
});
