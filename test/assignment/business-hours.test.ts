/**
 * Auto-assignment under business hours (Chatwoot's assignment service returns while the inbox is out of
 * office): an inbox with working_hours_enabled assigns nothing while closed, neither on arrival nor when an
 * agent comes online; an inbox open all day assigns as usual; when an inbox opens, the message the cron
 * sends hands out what waited, and the cron notices exactly the inboxes that opened within its minute.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { patch } from "../support/http";
import { settle, subscribe } from "../feed/cable-support";
import { visitorConversation, widgetWorld } from "../public/widget-support";
import { assignedTo, assigneeOf } from "./assignment-support";
import { connectShard } from "../../src/db/connect";
import { shardNumberOf } from "../support/databases";
import { jobScope } from "../../src/jobs/scope";
import { inboxesOpenedBetween } from "../../src/domain/assignment/auto-assignment";
import { announceInboxOpened } from "../../src/events/inbox-opened";

type World = Awaited<ReturnType<typeof widgetWorld>>;

const week = [0, 1, 2, 3, 4, 5, 6];
const closedAllWeek = week.map((day) => ({ day_of_week: day, closed_all_day: true }));
const openAllWeek = week.map((day) => ({ day_of_week: day, closed_all_day: false, open_all_day: true }));
/** Mondays 09:00 to 17:00, every other day closed. */
const mondaysNineToFive = week.map((day) =>
  day === 1 ? { day_of_week: 1, closed_all_day: false, open_all_day: false, open_hour: 9, open_minutes: 0, close_hour: 17, close_minutes: 0 } : { day_of_week: day, closed_all_day: true },
);

async function withHours(w: World, workingHours: object[], timezone = "UTC") {
  const res = await patch(`${w.base}/inboxes/${w.inbox.id}`, w.admin.key, { working_hours_enabled: true, working_hours: workingHours, timezone });
  expect(res.status).toBe(200);
}


describe("auto-assignment and business hours", () => {
  it("assigns nothing while the inbox is closed, then hands out what waited when it opens", async () => {
    const w = await widgetWorld("Closed Hours Co");
    await withHours(w, closedAllWeek);
    const listener = await subscribe(w.agent, w.accountId);
    const first = await visitorConversation(w.inbox);
    const second = await visitorConversation(w.inbox);
    await settle(600);
    expect([await assigneeOf(w, first.displayId), await assigneeOf(w, second.displayId)]).toEqual([null, null]);

    // the agent coming online again hands out nothing either while the inbox is closed
    listener.close();
    const again = await subscribe(w.agent, w.accountId);
    await settle(600);
    expect(await assigneeOf(w, first.displayId)).toBeNull();

    // the inbox opens: the cron's message hands out both waiting conversations
    await withHours(w, openAllWeek);
    await announceInboxOpened(env.EVENTS, w.accountId, w.inbox.id);
    expect(await assignedTo(w, first.displayId)).toBe(w.agent.id);
    expect(await assignedTo(w, second.displayId)).toBe(w.agent.id);
    again.close();
  });

  it("assigns on arrival in an inbox open all day", async () => {
    const w = await widgetWorld("Open Hours Co");
    await withHours(w, openAllWeek, "Pacific/Kiritimati");
    const listener = await subscribe(w.agent, w.accountId);
    const c = await visitorConversation(w.inbox);
    expect(await assignedTo(w, c.displayId)).toBe(w.agent.id);
    listener.close();
  });

  it("the cron notices the inboxes that opened within its minute, on the inbox's clock", async () => {
    const w = await widgetWorld("Mondays Co");
    await withHours(w, mondaysNineToFive, "Asia/Kolkata");
    // the cron's scope on the shard of this account
    const scope = jobScope(connectShard(env, await shardNumberOf(w.accountId), { writes: true }).db, env);
    const opened = async (from: string, to: string) =>
      (await inboxesOpenedBetween(scope, Date.parse(from), Date.parse(to))).some((i) => i.inboxId === w.inbox.id && i.accountId === w.accountId);
    // 09:00 on Monday 2026-11-30 in Kolkata is 03:30 UTC
    expect(await opened("2026-11-30T03:29:30Z", "2026-11-30T03:30:30Z")).toBe(true);
    expect(await opened("2026-11-30T03:30:30Z", "2026-11-30T03:31:30Z")).toBe(false);
    // 09:00 UTC is 14:30 in Kolkata: open already, nothing new
    expect(await opened("2026-11-30T08:59:30Z", "2026-11-30T09:00:30Z")).toBe(false);
    // Tuesday stays closed
    expect(await opened("2026-12-01T03:29:30Z", "2026-12-01T03:30:30Z")).toBe(false);
    // an inbox that does not auto-assign is not announced
    await patch(`${w.base}/inboxes/${w.inbox.id}`, w.admin.key, { enable_auto_assignment: false });
    expect(await opened("2026-11-30T03:29:30Z", "2026-11-30T03:30:30Z")).toBe(false);
  });
});
