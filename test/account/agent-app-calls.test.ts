/**
 * The smaller calls Chatwoot's mobile agent app makes: switching the active account, the account-wide
 * assignee picker, unassigning with `assignee_id: 0`, and Captain answering that it is not offered.
 */
import { describe, expect, it } from "vitest";
import { call, get, post, put } from "../support/http";
import { addToAccount, createUser, createWorld } from "../support/world";
import { addInboxMember, createContact, createContactInbox, createInbox } from "../support/fixtures";

const world = await createWorld("Apps Co");
const other = await createWorld("Elsewhere Co");

/** A second account of the same platform app, which the world's agent joins as an administrator. */
const second = (await post("/platform/api/v1/accounts", world.platformKey, { name: "Apps Co Second" })).body.id as number;
await addToAccount(world.platformKey, second, world.agent.id, "administrator");

const profile = async (key: string) => (await get("/api/v1/profile", key)).body;

describe("PUT /api/v1/profile/set_active_account", () => {
  it("makes the account the one the profile shows, with its role, and switches back", async () => {
    // joining the second account made it the most recently active one
    expect(await profile(world.agent.key)).toMatchObject({ account_id: second, role: "administrator" });

    const res = await put("/api/v1/profile/set_active_account", world.agent.key, { profile: { account_id: world.accountId } });
    expect(res.status).toBe(200);
    expect(await profile(world.agent.key)).toMatchObject({ account_id: world.accountId, role: "agent" });

    // twice in a row, then back: the latest switch always wins
    expect((await put("/api/v1/profile/set_active_account", world.agent.key, { profile: { account_id: second } })).status).toBe(200);
    expect((await put("/api/v1/profile/set_active_account", world.agent.key, { profile: { account_id: world.accountId } })).status).toBe(200);
    expect((await put("/api/v1/profile/set_active_account", world.agent.key, { account_id: world.accountId })).status).toBe(200);
    expect(await profile(world.agent.key)).toMatchObject({ account_id: world.accountId });
    expect((await put("/api/v1/profile/set_active_account", world.agent.key, { profile: { account_id: second } })).status).toBe(200);
    expect(await profile(world.agent.key)).toMatchObject({ account_id: second, role: "administrator" });
  });

  it("refuses an account the user is not a member of (404) and an unknown one, changing nothing", async () => {
    const before = await profile(world.admin.key);
    for (const accountId of [other.accountId, 99_999_999]) {
      const res = await put("/api/v1/profile/set_active_account", world.admin.key, { profile: { account_id: accountId } });
      expect(res.status).toBe(404);
      expect(res.body.errors[0]).toMatchObject({ field: "account_id", code: "not_found" });
    }
    expect(await profile(world.admin.key)).toEqual(before);
  });

  it("refuses bad input with a 422 and a missing key with a 401", async () => {
    for (const body of [{}, { profile: {} }, { profile: { account_id: "abc" } }, { profile: { account_id: -1 } }]) {
      const res = await put("/api/v1/profile/set_active_account", world.admin.key, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors[0].field).toBe("account_id");
    }
    const anonymous = await put("/api/v1/profile/set_active_account", null, { profile: { account_id: world.accountId } });
    expect(anonymous.status).toBe(401);
  });
});

describe("GET /accounts/{id}/assignable_agents", async () => {
  const sales = await createInbox(world.accountId, { name: "Sales" });
  const billing = await createInbox(world.accountId, { name: "Billing" });
  const foreign = await createInbox(other.accountId, { name: "Theirs" });
  const both = await createUser(world.platformKey, "Both Inboxes");
  const salesOnly = await createUser(world.platformKey, "Sales Only");
  await addToAccount(world.platformKey, world.accountId, both.id, "agent");
  await addToAccount(world.platformKey, world.accountId, salesOnly.id, "agent");
  await addInboxMember(world.accountId, sales, both.id);
  await addInboxMember(world.accountId, billing, both.id);
  await addInboxMember(world.accountId, sales, salesOnly.id);
  await addInboxMember(world.accountId, sales, world.agent.id);
  await addInboxMember(world.accountId, billing, world.agent.id);

  const ids = (res: { body: { payload: Array<{ id: number }> } }) => res.body.payload.map((a) => a.id).sort((x, y) => x - y);
  const sorted = (...values: number[]) => values.sort((x, y) => x - y);

  it("answers the members of every given inbox and the administrators, as Agents", async () => {
    const one = await get(`${world.base}/assignable_agents?inbox_ids[]=${sales}`, world.admin.key);
    expect(one.status).toBe(200);
    expect(ids(one)).toEqual(sorted(world.admin.id, both.id, salesOnly.id, world.agent.id));
    expect(one.body.payload.find((a: any) => a.id === both.id)).toMatchObject({ name: "Both Inboxes", role: "agent", account_id: world.accountId });

    const two = await get(`${world.base}/assignable_agents?inbox_ids[]=${sales}&inbox_ids[]=${billing}`, world.admin.key);
    expect(ids(two)).toEqual(sorted(world.admin.id, both.id, world.agent.id));
    // the comma form answers the same
    expect(ids(await get(`${world.base}/assignable_agents?inbox_ids=${sales},${billing}`, world.admin.key))).toEqual(ids(two));
    // as the inbox-level route does for one inbox
    expect(ids(await get(`${world.base}/inboxes/${sales}/assignable_agents`, world.admin.key))).toEqual(ids(one));
  });

  it("lets an agent ask about inboxes they are a member of, and refuses (403) one they are not", async () => {
    const ok = await get(`${world.base}/assignable_agents?inbox_ids[]=${sales}&inbox_ids[]=${billing}`, world.agent.key);
    expect(ok.status).toBe(200);
    expect(ids(ok)).toEqual(sorted(world.admin.id, both.id, world.agent.id));
    const refused = await get(`${world.base}/assignable_agents?inbox_ids[]=${billing}`, salesOnly.key);
    expect(refused.status).toBe(403);
  });

  it("is a 404 naming inbox_ids for another account's inbox, even beside one of the account's", async () => {
    const res = await get(`${world.base}/assignable_agents?inbox_ids[]=${sales}&inbox_ids[]=${foreign}`, world.admin.key);
    expect(res.status).toBe(404);
    expect(res.body.errors[0]).toMatchObject({ field: "inbox_ids", code: "not_found" });
    expect(JSON.stringify(res.body)).not.toContain("Theirs");
  });

  it("refuses missing or bad inbox ids (422), another account's key (403) and no key (401)", async () => {
    for (const query of ["", "?inbox_ids[]=", "?inbox_ids[]=abc", "?inbox_ids[]=-1", `?inbox_ids=${Array.from({ length: 26 }, (_, i) => i + 1).join(",")}`]) {
      const res = await get(`${world.base}/assignable_agents${query}`, world.admin.key);
      expect(res.status, query).toBe(422);
      expect(res.body.errors[0].field, query).toMatch(/^inbox_ids/);
    }
    expect((await get(`${world.base}/assignable_agents?inbox_ids[]=${sales}`, other.admin.key)).status).toBe(403);
    expect((await get(`${world.base}/assignable_agents?inbox_ids[]=${sales}`, null)).status).toBe(401);
  });
});

describe("POST .../assignments with assignee_id 0", async () => {
  const inbox = await createInbox(world.accountId, { name: "Assign desk" });
  await addInboxMember(world.accountId, inbox, world.agent.id);
  const contact = await createContact(world.accountId, { name: "Pat" });
  const { sourceId } = await createContactInbox(world.accountId, contact, inbox);
  const conversation = (await post(`${world.base}/conversations`, world.admin.key, { source_id: sourceId })).body.id as number;
  const assignments = `${world.base}/conversations/${conversation}/assignments`;
  const assignee = async () => (await get(`${world.base}/conversations/${conversation}`, world.admin.key)).body.meta.assignee ?? null;

  it("unassigns, as null does (also from a form string)", async () => {
    for (const zero of [0, "0"]) {
      expect((await post(assignments, world.admin.key, { assignee_id: world.agent.id })).status).toBe(200);
      expect((await assignee())?.id).toBe(world.agent.id);
      const res = await post(assignments, world.admin.key, { assignee_id: zero });
      expect(res.status).toBe(200);
      expect(res.body).toBeNull();
      expect(await assignee()).toBeNull();
    }
  });

  it("still refuses a negative or non-numeric id (422), changing nothing", async () => {
    await post(assignments, world.admin.key, { assignee_id: world.agent.id });
    for (const bad of [-1, "abc", 1.5]) {
      const res = await post(assignments, world.admin.key, { assignee_id: bad });
      expect(res.status, String(bad)).toBe(422);
      expect(res.body.errors[0].field).toBe("assignee_id");
    }
    expect((await assignee())?.id).toBe(world.agent.id);
  });
});

describe("/accounts/{id}/captain/*", () => {
  it("answers every method with a 404 saying Captain is not offered", async () => {
    for (const [method, path] of [
      ["POST", "/captain/tasks/rewrite"],
      ["POST", "/captain/tasks/summarize"],
      ["GET", "/captain/assistants"],
      ["PATCH", "/captain/assistants/1"],
      ["DELETE", "/captain/documents/2"],
    ]) {
      const res = await call(method, `${world.base}${path}`, { key: world.agent.key, body: method === "GET" || method === "DELETE" ? undefined : { content: "hi" } });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.errors[0].code).toBe("not_offered");
      expect(res.body.description).toMatch(/Captain.*not offered/);
    }
  });

  it("authenticates first: no key is a 401, another account's key a 403", async () => {
    expect((await post(`${world.base}/captain/tasks/rewrite`, null, { content: "hi" })).status).toBe(401);
    expect((await post(`${world.base}/captain/tasks/rewrite`, other.admin.key, { content: "hi" })).status).toBe(403);
  });
});
