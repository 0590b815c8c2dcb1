/**
 * Auto-assignment through HTTP and the live feed: a conversation created (or reopened) in an inbox with
 * enable_auto_assignment goes to an online, available member agent in round-robin turns; busy, offline
 * and non-member agents get none; a conversation that found nobody waits until an agent comes online;
 * a policy's fair-distribution cap and balanced order hold; a disabled flag or policy, and a team that
 * does not allow it, leave conversations alone.
 */
import { describe, expect, it } from "vitest";
import { get, patch, post } from "../support/http";
import { addInboxMember } from "../support/fixtures";
import { addToAccount, createUser } from "../support/world";
import { visitorConversation, widgetWorld } from "../public/widget-support";
import { assignedTo, assigneeOf } from "./assignment-support";
import { type Listener, settle, subscribe } from "../feed/cable-support";

type World = Awaited<ReturnType<typeof widgetWorld>>;

/** The world's inbox with a second member agent. */
async function twoAgents(name: string) {
  const w = await widgetWorld(name);
  const second = await createUser(w.platformKey, `${name} Second`);
  await addToAccount(w.platformKey, w.accountId, second.id, "agent");
  await addInboxMember(w.accountId, w.inbox.id, second.id);
  return { ...w, second };
}


/** Creates a conversation and answers who it went to, or null when it stays unassigned for a while. */
async function arrive(w: World, expectAssigned = true): Promise<{ displayId: number; assignee: number | null }> {
  const c = await visitorConversation(w.inbox);
  if (expectAssigned) return { displayId: c.displayId, assignee: await assignedTo(w, c.displayId) };
  await settle(600);
  return { displayId: c.displayId, assignee: await assigneeOf(w, c.displayId) };
}

const online = (...listeners: Listener[]) => () => listeners.forEach((l) => l.close());

describe("auto-assignment", () => {
  it("alternates two online agents exactly, never gives one to an offline or non-member agent", async () => {
    const w = await twoAgents("Round Robin Co");
    // an administrator who is online but not a member of the inbox, and a member who is offline
    const outsider = await createUser(w.platformKey, "Outsider");
    await addToAccount(w.platformKey, w.accountId, outsider.id, "administrator");
    const offline = await createUser(w.platformKey, "Offline");
    await addToAccount(w.platformKey, w.accountId, offline.id, "agent");
    await addInboxMember(w.accountId, w.inbox.id, offline.id);
    const close = online(await subscribe(w.agent, w.accountId), await subscribe(w.second, w.accountId), await subscribe(outsider, w.accountId));

    const assignees: number[] = [];
    for (let i = 0; i < 6; i++) assignees.push((await arrive(w)).assignee!);
    const first = assignees[0];
    const other = first === w.agent.id ? w.second.id : w.agent.id;
    expect([w.agent.id, w.second.id]).toContain(first);
    expect(assignees).toEqual([first, other, first, other, first, other]);
    close();
  });

  it("skips a busy agent, and assigns as auto-assignment with the assignee's notification", async () => {
    const w = await twoAgents("Busy Co");
    const close = online(await subscribe(w.agent, w.accountId), await subscribe(w.second, w.accountId));
    expect((await post("/api/v1/profile/availability", w.second.key, { account_id: w.accountId, availability: "busy" })).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await arrive(w)).assignee).toBe(w.agent.id);

    const notifications = await get(`${w.base}/notifications`, w.agent.key);
    expect(notifications.body.data.payload.filter((n: { notification_type: string }) => n.notification_type === "conversation_assignment")).toHaveLength(3);
    close();
  });

  it("shows the assignment on the assignee's live feed at once, not at the cron's next minute", async () => {
    const w = await widgetWorld("Live Assign Co");
    const agent = await subscribe(w.agent, w.accountId);
    const started = Date.now();
    const { displayId, assignee } = await arrive(w);
    expect(assignee).toBe(w.agent.id);
    const frame = await agent.next((m) => m.event === "assignee.changed" && m.data.id === displayId, 5000);
    expect(frame.data.meta.assignee.id).toBe(w.agent.id);
    expect(Date.now() - started).toBeLessThan(10_000);
    agent.close();
  });

  it("leaves a conversation waiting when nobody is online, and hands out the waiting ones, oldest first, when an agent comes online", async () => {
    const w = await twoAgents("Waiting Co");
    const first = await arrive(w, false);
    const second = await arrive(w, false);
    expect([first.assignee, second.assignee]).toEqual([null, null]);

    const close = online(await subscribe(w.agent, w.accountId));
    expect(await assignedTo(w, first.displayId)).toBe(w.agent.id);
    expect(await assignedTo(w, second.displayId)).toBe(w.agent.id);
    close();
  });

  it("offers a reopened conversation that nobody holds again", async () => {
    const w = await twoAgents("Reopen Co");
    const c = await arrive(w, false);
    await post(`${w.base}/conversations/${c.displayId}/toggle_status`, w.admin.key, { status: "resolved" });
    const close = online(await subscribe(w.agent, w.accountId));
    await settle(300);
    expect(await assigneeOf(w, c.displayId)).toBeNull(); // resolved: not waiting
    await post(`${w.base}/conversations/${c.displayId}/toggle_status`, w.admin.key, { status: "open" });
    expect(await assignedTo(w, c.displayId)).toBe(w.agent.id);
    close();
  });

  it("keeps to a policy's fair-distribution cap, and the balanced order gives the next to whoever has fewer open", async () => {
    const w = await twoAgents("Policy Co");
    const created = await post(`${w.base}/assignment_policies`, w.admin.key, { name: "One each", fair_distribution_limit: 1, fair_distribution_window: 3600 });
    expect(created.status).toBe(200);
    await post(`${w.base}/inboxes/${w.inbox.id}/assignment_policy`, w.admin.key, { assignment_policy_id: created.body.id });
    const close = online(await subscribe(w.agent, w.accountId));
    expect((await arrive(w)).assignee).toBe(w.agent.id);
    const capped = await arrive(w, false);
    expect(capped.assignee).toBeNull(); // the agent's one for the window is spent

    // balanced, no cap to speak of: the waiting conversation goes to the second agent when they come
    // online (nothing open, against the first agent's one); the next, with one open each, to the agent
    // whose turn came longest ago
    await patch(`${w.base}/assignment_policies/${created.body.id}`, w.admin.key, { assignment_order: "balanced", fair_distribution_limit: 100 });
    const second = await subscribe(w.second, w.accountId);
    expect(await assignedTo(w, capped.displayId)).toBe(w.second.id);
    expect((await arrive(w)).assignee).toBe(w.agent.id);
    second.close();
    close();
  });

  it("does nothing when the inbox's flag is off, its policy is disabled, or the conversation's team does not allow it", async () => {
    const w = await twoAgents("Off Co");
    const close = online(await subscribe(w.agent, w.accountId));
    await patch(`${w.base}/inboxes/${w.inbox.id}`, w.admin.key, { enable_auto_assignment: false });
    expect((await arrive(w, false)).assignee).toBeNull();

    await patch(`${w.base}/inboxes/${w.inbox.id}`, w.admin.key, { enable_auto_assignment: true });
    const policy = await post(`${w.base}/assignment_policies`, w.admin.key, { name: "Paused", enabled: false });
    await post(`${w.base}/assignment_policies/${policy.body.id}/inboxes`, w.admin.key, { inbox_id: w.inbox.id });
    expect((await arrive(w, false)).assignee).toBeNull();
    expect((await post(`${w.base}/assignment_policies/${policy.body.id}/inboxes`, w.admin.key, {})).status).toBe(422);

    // (made while the policy is paused, then offered again once it is on)
    const team = await post(`${w.base}/teams`, w.admin.key, { name: "manual only", allow_auto_assign: false });
    await post(`${w.base}/teams/${team.body.id}/team_members`, w.admin.key, { user_ids: [w.agent.id] });
    const c = await visitorConversation(w.inbox);
    await post(`${w.base}/conversations/${c.displayId}/assignments`, w.admin.key, { team_id: team.body.id });
    await patch(`${w.base}/assignment_policies/${policy.body.id}`, w.admin.key, { enabled: true });
    await post(`${w.base}/conversations/${c.displayId}/toggle_status`, w.admin.key, { status: "resolved" });
    await post(`${w.base}/conversations/${c.displayId}/toggle_status`, w.admin.key, { status: "open" });
    await settle(600);
    expect(await assigneeOf(w, c.displayId)).toBeNull();
    close();
  });
});
