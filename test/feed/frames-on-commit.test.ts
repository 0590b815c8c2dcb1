/**
 * The live account feed's frames leave with the commit of the change that made them (docs/realtime.md "Live
 * account feed"): built from the committed batch's own outbox rows in the request (or job) that ran it,
 * sent before that request answers, never for a batch that failed, and never again when the outbox is
 * dispatched later.
 */
import { eq, sql } from "drizzle-orm";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb, schema } from "../../src/db/client";
import { connectShard } from "../../src/db/connect";
import { QueryMeter } from "../../src/db/metering";
import { batch } from "../../src/domain/kernel/batch";
import { eventStatement } from "../../src/domain/kernel/outbox";
import { CommitFrames } from "../../src/feed/commit";
import { dispatchPendingEvents } from "../../src/events/dispatch";
import { post } from "../support/http";
import { shardNumberOf, shardOf } from "../support/databases";
import { visitorConversation } from "../public/widget-support";
import { feedWorld, settle } from "./cable-support";
import { agentTicket, openSocket } from "../realtime/room-support";
import { FEED_MEMBER_HEADER, type FeedMember, RELAY_CHECK, accountFeed } from "../../src/realtime/account-feed";

describe("frames that leave with the commit", () => {
  it("are on the subscribed sockets before the write answers, and a private note never reaches an agent outside the inbox", async () => {
    const { w, admin, agent, outside, closeAll } = await feedWorld("Ordered");
    const c = await visitorConversation(w.inbox);
    const path = `${w.base}/conversations/${c.displayId}/messages`;
    for (const [i, isPrivate] of [false, true, false, true].entries()) {
      const content = `ordered ${i}`;
      const res = await post(path, w.agent.key, { content, private: isPrivate });
      expect(res.status).toBe(200);
      // read the moment the answer is in: the frames came first
      const heard = [admin, agent].map((l) => l.messages.filter((m) => m.event === "message.created" && m.data.content === content).length);
      expect(heard, `message ${i}`).toEqual([1, 1]);
    }
    await settle();
    expect(outside.messages.filter((m) => m.event === "message.created" && String(m.data.content).startsWith("ordered"))).toEqual([]);
    closeAll();
  });

  it("are not shown again when the outbox's rows are dispatched by the cron", async () => {
    const { w, admin, closeAll } = await feedWorld("Dispatched later");
    const c = await visitorConversation(w.inbox);
    await post(`${c.path}/messages`, null, { content: "shown at the commit" });
    await admin.next((m) => m.data.content === "shown at the commit");
    const db = createDb(await shardOf(w.accountId));
    // as if the request's own dispatch had been lost: the cron finds the rows never dispatched (only this
    // account's, the database is shared with other files)
    await db.update(schema.eventOutbox).set({ dispatchedAt: null, consumedAt: null }).where(eq(schema.eventOutbox.accountId, w.accountId));
    expect(await dispatchPendingEvents(db, env.EVENTS, { includeStale: true })).toBeGreaterThan(0);
    await settle(500);
    expect(admin.messages.filter((m) => m.data.content === "shown at the commit")).toHaveLength(1);
    expect(admin.messages.filter((m) => m.event === "conversation.created" && m.data.id === c.displayId)).toHaveLength(1);
    closeAll();
  });

  it("are built from the committed batch, with no dispatch, and never for a batch that failed", async () => {
    const { w, admin, outside, closeAll } = await feedWorld("Failed batch");
    const contact = (await post(`${w.base}/contacts`, w.admin.key, { name: "Committed Carla" })).body.payload.contact.id;
    await admin.next((m) => m.event === "contact.created" && m.data.id === contact);
    const frames = new CommitFrames(env);
    const { db } = connectShard(env, await shardNumberOf(w.accountId), { writes: true, onCommit: frames.committed });
    const updated = () => eventStatement(db, { accountId: w.accountId, eventName: "contact_updated", subjectType: "Contact", subjectId: contact });
    // the batch's last statement breaks a NOT NULL constraint: nothing of it commits
    await expect(batch(db, [updated(), db.run(sql`INSERT INTO event_outbox (account_id) VALUES (NULL)`)])).rejects.toThrow();
    await frames.settled();
    await settle();
    expect(admin.messages.filter((m) => m.event === "contact.updated")).toEqual([]);
    await batch(db, [updated()]);
    await frames.settled();
    // no dispatch of the outbox took part: the committer sent them
    for (const l of [admin, outside]) await l.next((m) => m.event === "contact.updated" && m.data.id === contact);
    await settle();
    for (const l of [admin, outside]) expect(l.messages.filter((m) => m.event === "contact.updated")).toHaveLength(1);
    closeAll();
  });

  it("reach the visitor's conversation room before the agent's reply answers", async () => {
    const { w, closeAll } = await feedWorld("Room");
    const c = await visitorConversation(w.inbox);
    const visitor = await openSocket(`${c.path}/live?pubsub_token=${c.pubsubToken}`);
    const agent = await openSocket((await agentTicket(w.base, w.admin.key, c.displayId)).url);
    for (const [i, isPrivate] of [false, true, false].entries()) {
      const content = `reply ${i}`;
      expect((await post(`${w.base}/conversations/${c.displayId}/messages`, w.agent.key, { content, private: isPrivate })).status).toBe(200);
      expect(agent.frames.filter((f) => f.event === "message.created" && f.data.content === content), `reply ${i}`).toHaveLength(1);
      expect(visitor.frames.filter((f) => f.event === "message.created" && f.data.content === content), `reply ${i}`).toHaveLength(isPrivate ? 0 : 1);
    }
    for (const s of [visitor, agent]) s.close();
    closeAll();
  });

  it("are delivered only once the Worker holding each socket has relayed them", async () => {
    const { w, agent, closeAll } = await feedWorld("Relayed");
    const feed = accountFeed(env, w.accountId);
    // a feed socket held as src/realtime/cable.ts holds one, by a Worker that is slow to relay
    const member: FeedMember = { accountId: w.accountId, userId: w.agent.id, role: "agent", availability: "online", identifier: "slow", checkedAt: Date.now() };
    const slow = (await feed.fetch("https://feed/subscribe", { headers: { upgrade: "websocket", [FEED_MEMBER_HEADER]: JSON.stringify(member) } })).webSocket!;
    slow.accept();
    const checks: string[] = [];
    slow.addEventListener("message", (e) => {
      if (typeof e.data === "string" && e.data.startsWith(RELAY_CHECK)) checks.push(e.data);
    });
    let answered = false;
    const delivered = feed.deliver([{ event: "notification.created", data: { account_id: w.accountId }, userIds: [w.agent.id] }]).then((answer) => {
      answered = true;
      return answer;
    });
    await settle(300);
    // the agent's own connection is relayed (its Worker echoes the check); the slow one holds the answer
    expect(answered).toBe(false);
    await agent.next((m) => m.event === "notification.created");
    expect(checks).toHaveLength(1);
    slow.send(checks[0]);
    expect(await delivered).toEqual({ sent: 2, listening: 4 });
    // the client heard the frame, never the check
    expect(agent.messages.map((m) => m.event)).not.toContain(undefined);
    slow.close(1000, "done");
    closeAll();
  });

  it("cost no read while nobody listens to the account", async () => {
    const { w, admin, closeAll } = await feedWorld("Nobody listens");
    const contact = (await post(`${w.base}/contacts`, w.admin.key, { name: "Heard Hanna" })).body.payload.contact.id;
    await admin.next((m) => m.event === "contact.created" && m.data.id === contact);
    const shard = await shardNumberOf(w.accountId);
    // the round trips of one committed change and of its frames, with nothing else on the connection
    const change = async () => {
      const meter = new QueryMeter();
      const frames = new CommitFrames(env);
      const { db } = connectShard(env, shard, { meter, writes: true, onCommit: frames.committed });
      await batch(db, [eventStatement(db, { accountId: w.accountId, eventName: "contact_updated", subjectType: "Contact", subjectId: contact })]);
      await frames.settled();
      return meter.roundTrips;
    };
    expect(await change()).toBe(2);
    closeAll();
    const feed = accountFeed(env, w.accountId);
    for (let i = 0; i < 50 && (await feed.socketCount()) > 0; i++) await settle(100);
    // the first change after the last listener left may read once; from then on, none
    await change();
    expect(await change()).toBe(1);
    expect(await change()).toBe(1);
  });
});
