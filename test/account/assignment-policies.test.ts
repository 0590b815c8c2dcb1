/**
 * Assignment policies and their inboxes through HTTP: Chatwoot's shapes, validation, one policy per
 * inbox (linking another replaces it), what deleting does, and that the routes are administrators'.
 */
import { describe, expect, it } from "vitest";
import { del, get, patch, post, put } from "../support/http";
import { createInbox } from "../support/fixtures";
import { createWorld } from "../support/world";

const w = await createWorld("Policies Co");
const inbox = await createInbox(w.accountId, { name: "Support" });
const other = await createInbox(w.accountId, { name: "Sales" });
const policies = `${w.base}/assignment_policies`;

describe("assignment policies", () => {
  it("creates a policy with Chatwoot's defaults and shows it", async () => {
    const created = await post(policies, w.admin.key, { assignment_policy: { name: "Default", description: "Everyone in turn" } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      name: "Default",
      description: "Everyone in turn",
      assignment_order: "round_robin",
      conversation_priority: "earliest_created",
      fair_distribution_limit: 100,
      fair_distribution_window: 3600,
      enabled: true,
      assigned_inbox_count: 0,
      inboxes: [],
    });
    expect((await get(`${policies}/${created.body.id}`, w.admin.key)).body).toEqual(created.body);
    const list = await get(policies, w.admin.key);
    expect(list.body.map((p: { name: string }) => p.name)).toContain("Default");
  });

  it("refuses bad values and a name already taken, changing nothing", async () => {
    await post(policies, w.admin.key, { name: "Taken" });
    const before = (await get(policies, w.admin.key)).body;
    for (const body of [
      {},
      { name: "" },
      { name: "Taken" },
      { name: "X", assignment_order: "random" },
      { name: "X", conversation_priority: "newest" },
      { name: "X", fair_distribution_limit: 0 },
      { name: "X", fair_distribution_limit: 101 },
      { name: "X", fair_distribution_window: 60 },
      { name: "X", fair_distribution_window: 86_401 },
      { name: "X", enabled: "yes" },
    ]) {
      const res = await post(policies, w.admin.key, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors[0].field).toBeTypeOf("string");
    }
    expect((await get(policies, w.admin.key)).body).toEqual(before);
  });

  it("updates the fields given, keeps an inbox on one policy, and unlinks from either side", async () => {
    const a = (await post(policies, w.admin.key, { name: "A" })).body;
    const b = (await post(policies, w.admin.key, { name: "B" })).body;
    const updated = await put(`${policies}/${a.id}`, w.admin.key, { assignment_order: "balanced", conversation_priority: "longest_waiting", fair_distribution_limit: 10 });
    expect(updated.body).toMatchObject({ name: "A", assignment_order: "balanced", conversation_priority: "longest_waiting", fair_distribution_limit: 10, enabled: true });
    expect((await patch(`${policies}/${a.id}`, w.admin.key, { name: "B" })).status).toBe(422);

    const link = await post(`${policies}/${a.id}/inboxes`, w.admin.key, { inbox_id: inbox });
    expect(link.body).toMatchObject({ inbox_id: inbox, assignment_policy_id: a.id });
    expect((await get(`${policies}/${a.id}/inboxes`, w.admin.key)).body.inboxes.map((i: { id: number }) => i.id)).toEqual([inbox]);
    expect((await get(`${policies}/${a.id}`, w.admin.key)).body).toMatchObject({ assigned_inbox_count: 1, inboxes: [{ id: inbox, name: "Support" }] });

    // the inbox's side: linking B replaces A
    const fromInbox = await post(`${w.base}/inboxes/${inbox}/assignment_policy`, w.admin.key, { assignment_policy_id: b.id });
    expect(fromInbox.body).toMatchObject({ id: b.id, assigned_inbox_count: 1 });
    expect((await get(`${w.base}/inboxes/${inbox}/assignment_policy`, w.admin.key)).body.id).toBe(b.id);
    expect((await get(`${policies}/${a.id}/inboxes`, w.admin.key)).body.inboxes).toEqual([]);

    expect((await del(`${w.base}/inboxes/${inbox}/assignment_policy`, w.admin.key)).status).toBe(200);
    const none = await get(`${w.base}/inboxes/${inbox}/assignment_policy`, w.admin.key);
    expect(none.status).toBe(404);
    expect(none.body.errors[0].field).toBe("assignment_policy");

    await post(`${policies}/${b.id}/inboxes`, w.admin.key, { inbox_id: other });
    expect((await del(`${policies}/${b.id}/inboxes/${other}`, w.admin.key)).status).toBe(200);
    expect((await get(`${policies}/${b.id}/inboxes`, w.admin.key)).body.inboxes).toEqual([]);
  });

  it("deleting a policy frees its inboxes", async () => {
    const p = (await post(policies, w.admin.key, { name: "Short-lived" })).body;
    await post(`${policies}/${p.id}/inboxes`, w.admin.key, { inbox_id: other });
    expect((await del(`${policies}/${p.id}`, w.admin.key)).status).toBe(200);
    expect((await get(`${policies}/${p.id}`, w.admin.key)).status).toBe(404);
    expect((await get(`${w.base}/inboxes/${other}/assignment_policy`, w.admin.key)).status).toBe(404);
  });

  it("answers 404 for another account's policy or inbox, and 403 to agents", async () => {
    const elsewhere = await createWorld("Policies Elsewhere");
    const theirs = (await post(`${elsewhere.base}/assignment_policies`, elsewhere.admin.key, { name: "Theirs" })).body;
    const theirInbox = await createInbox(elsewhere.accountId);
    const mine = (await post(policies, w.admin.key, { name: "Mine" })).body;
    expect((await get(`${policies}/${theirs.id}`, w.admin.key)).status).toBe(404);
    expect((await post(`${policies}/${mine.id}/inboxes`, w.admin.key, { inbox_id: theirInbox })).status).toBe(404);
    expect((await post(`${w.base}/inboxes/${inbox}/assignment_policy`, w.admin.key, { assignment_policy_id: theirs.id })).status).toBe(404);
    expect((await get(`${elsewhere.base}/assignment_policies`, w.admin.key)).status).toBe(403);

    const agent = await get(policies, w.agent.key);
    expect(agent.status).toBe(403);
    expect(agent.body.errors[0].code).toBe("administrator_required");
    expect((await post(policies, w.agent.key, { name: "Agent's" })).status).toBe(403);
    expect((await get(policies, null)).status).toBe(401);
  });
});
