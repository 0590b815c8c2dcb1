import { beforeAll, describe, expect, it } from "vitest";
import { call, del, get, patch, post, put } from "../support/http";
import { addInboxMember, createInbox, outboxFor } from "../support/fixtures";
import { insertContactAttributeDefinition } from "../support/contact-fixtures";
import { createWorld } from "../support/world";

type World = Awaited<ReturnType<typeof createWorld>>;
let world: World;
let other: World;

const roundTrips = (headers: Headers) => Number(/db-round-trips;desc="(\d+)"/.exec(headers.get("server-timing") ?? "")?.[1]);
const listCount = async () => (await get(`${world.base}/contacts`, world.agent.key)).body.meta.count as number;

beforeAll(async () => {
  world = await createWorld("Crud");
  other = await createWorld("Other");
});

describe("create and show", () => {
  it("creates a contact with every field of the Contact record and shows it", async () => {
    const res = await post(`${world.base}/contacts`, world.agent.key, {
      name: "Ada Lovelace",
      email: "Ada@Example.COM",
      phone_number: "+14155550100",
      identifier: "ada-1",
      additional_attributes: { city: "London", company_name: "Analytical" },
      custom_attributes: { tier: "gold" },
    });
    expect(res.status).toBe(200);
    const contact = res.body.payload.contact;
    expect(contact).toMatchObject({
      name: "Ada Lovelace",
      email: "ada@example.com",
      phone_number: "+14155550100",
      identifier: "ada-1",
      blocked: false,
      thumbnail: "",
      availability_status: "offline",
      additional_attributes: { city: "London", company_name: "Analytical" },
      custom_attributes: { tier: "gold" },
      // never active: null, not 0 (which would read as 1970)
      last_activity_at: null,
      contact_inboxes: [],
    });
    expect(contact.created_at).toBeGreaterThan(1_700_000_000);
    expect(contact.created_at).toBeLessThan(Date.now() / 1000 + 5);
    expect(res.body.payload.contact_inbox).toEqual({ inbox: null, source_id: null });
    expect(roundTrips(res.headers)).toBeLessThanOrEqual(3);

    const shown = await get(`${world.base}/contacts/${contact.id}`, world.admin.key);
    expect(shown.status).toBe(200);
    expect(shown.body.payload).toEqual(contact);
    expect(roundTrips(shown.headers)).toBeLessThanOrEqual(3);
  });

  it("creates the contact inbox when given an inbox of the account, with the source id given or a fresh one", async () => {
    const inboxId = await createInbox(world.accountId, { name: "Support API" });
    const res = await post(`${world.base}/contacts`, world.agent.key, { name: "With inbox", email: "inbox@example.com", inbox_id: inboxId, source_id: "my-source" });
    expect(res.status).toBe(200);
    expect(res.body.payload.contact_inbox).toMatchObject({ source_id: "my-source", inbox: { id: inboxId, name: "Support API", channel_type: "Channel::Api" } });
    expect(res.body.payload.contact.contact_inboxes).toEqual([
      { source_id: "my-source", inbox: { id: inboxId, avatar_url: "", channel_id: expect.any(Number), name: "Support API", channel_type: "Channel::Api", provider: null } },
    ]);
    const generated = await post(`${world.base}/contacts`, world.agent.key, { name: "Generated", inbox_id: inboxId });
    expect(generated.body.payload.contact_inbox.source_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("refuses another account's inbox with a 404 naming inbox_id, and creates nothing", async () => {
    const foreignInbox = await createInbox(other.accountId);
    const before = await listCount();
    const res = await post(`${world.base}/contacts`, world.agent.key, { email: "foreign@example.com", inbox_id: foreignInbox });
    expect(res.status).toBe(404);
    expect(res.body.errors[0].field).toBe("inbox_id");
    expect(await listCount()).toBe(before);
  });

  it("accepts the wrapped form and form bodies", async () => {
    const wrapped = await post(`${world.base}/contacts`, world.agent.key, { contact: { name: "Wrapped", email: "wrapped@example.com" } });
    expect(wrapped.status).toBe(200);
    expect(wrapped.body.payload.contact.email).toBe("wrapped@example.com");
    const form = new URLSearchParams({
      name: "Form",
      email: "form@example.com",
      blocked: "true",
      "additional_attributes[city]": "Lisbon",
      custom_attributes: JSON.stringify({ plan_code: 7 }),
    });
    const res = await call("POST", `${world.base}/contacts`, {
      key: world.agent.key,
      rawBody: form.toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(200);
    expect(res.body.payload.contact).toMatchObject({
      name: "Form",
      blocked: true,
      additional_attributes: { city: "Lisbon" },
      custom_attributes: { plan_code: 7 },
    });
  });

  it("answers 404 naming the contact for an unknown id or another account's contact", async () => {
    const foreign = await post(`${other.base}/contacts`, other.admin.key, { email: "theirs@example.com" });
    const res = await get(`${world.base}/contacts/${foreign.body.payload.contact.id}`, world.admin.key);
    expect(res.status).toBe(404);
    expect(res.body.description).toContain(`Contact ${foreign.body.payload.contact.id}`);
  });

  it("leaves contact_inboxes out when include_contact_inboxes=false", async () => {
    const created = await post(`${world.base}/contacts`, world.agent.key, { email: "noinboxes@example.com" });
    const res = await get(`${world.base}/contacts/${created.body.payload.contact.id}?include_contact_inboxes=false`, world.agent.key);
    expect(res.body.payload).not.toHaveProperty("contact_inboxes");
    expect(res.body.payload.email).toBe("noinboxes@example.com");
  });
});

describe("validation", () => {
  it("refuses a malformed email and a phone number outside E.164, naming the fields", async () => {
    const res = await post(`${world.base}/contacts`, world.agent.key, { email: "not an email", phone_number: "0044 20 7946" });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["email", "phone_number"]);
  });

  it("keeps email (case-insensitively), phone number and identifier unique in the account", async () => {
    await post(`${world.base}/contacts`, world.agent.key, { email: "taken@example.com", phone_number: "+442079460000", identifier: "ID-1" });
    const res = await post(`${world.base}/contacts`, world.agent.key, { email: "TAKEN@example.com", phone_number: "+442079460000", identifier: "ID-1" });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { field: "email", message: "has already been taken", code: "taken" },
        { field: "phone_number", message: "has already been taken", code: "taken" },
        { field: "identifier", message: "has already been taken", code: "taken" },
      ]),
    );
    // identifiers are case-sensitive; other accounts are separate
    expect((await post(`${world.base}/contacts`, world.agent.key, { identifier: "id-1" })).status).toBe(200);
    expect((await post(`${other.base}/contacts`, other.agent.key, { email: "taken@example.com" })).status).toBe(200);
  });

  it("checks custom attribute values against the account's definitions", async () => {
    const acc = world.accountId;
    await insertContactAttributeDefinition(acc, { key: "plan", displayType: 6, values: ["free", "pro"] });
    await insertContactAttributeDefinition(acc, { key: "seats", displayType: 1 });
    await insertContactAttributeDefinition(acc, { key: "vat", displayType: 0, regexPattern: "/^[A-Z]{2}\\d+$/", regexCue: "Use a country prefix and digits" });
    await insertContactAttributeDefinition(acc, { key: "vip", displayType: 7 });
    await insertContactAttributeDefinition(acc, { key: "site", displayType: 4 });
    await insertContactAttributeDefinition(acc, { key: "since", displayType: 5 });
    const bad = await post(`${world.base}/contacts`, world.agent.key, {
      email: "attrs@example.com",
      custom_attributes: { plan: "enterprise", seats: "many", vat: "123", vip: "yes", site: "javascript:alert(1)", since: "yesterday", free_form: { any: 1 } },
    });
    expect(bad.status).toBe(422);
    const byField = Object.fromEntries(bad.body.errors.map((e: { field: string; message: string; code: string }) => [e.field, e]));
    expect(Object.keys(byField).sort()).toEqual(
      ["plan", "seats", "since", "site", "vat", "vip"].map((k) => `custom_attributes.${k}`),
    );
    expect(byField["custom_attributes.vat"]).toEqual({ field: "custom_attributes.vat", message: "Use a country prefix and digits", code: "pattern_mismatch" });
    expect(byField["custom_attributes.plan"].code).toBe("invalid_value");

    const good = await post(`${world.base}/contacts`, world.agent.key, {
      email: "attrs@example.com",
      custom_attributes: { plan: "pro", seats: 3, vat: "GB123", vip: true, site: "https://example.com", since: "2024-05-01" },
    });
    expect(good.status).toBe(200);
    const update = await patch(`${world.base}/contacts/${good.body.payload.contact.id}`, world.agent.key, { custom_attributes: { seats: "x" } });
    expect(update.status).toBe(422);
    expect(update.body.errors[0].field).toBe("custom_attributes.seats");
  });
});

describe("update", () => {
  it("merges custom and additional attributes, replaces the given fields, and records contact_updated", async () => {
    const created = await post(`${world.base}/contacts`, world.agent.key, {
      name: "Grace",
      email: "grace@example.com",
      additional_attributes: { city: "Arlington", company_name: "Navy" },
      custom_attributes: { a: 1, b: 2 },
    });
    const id = created.body.payload.contact.id;
    const res = await put(`${world.base}/contacts/${id}`, world.agent.key, {
      name: "Grace Hopper",
      additional_attributes: { city: "New York" },
      custom_attributes: { b: 3, c: 4 },
    });
    expect(res.status).toBe(200);
    expect(res.body.payload).toMatchObject({
      name: "Grace Hopper",
      email: "grace@example.com",
      additional_attributes: { city: "New York", company_name: "Navy" },
      custom_attributes: { a: 1, b: 3, c: 4 },
    });
    expect(roundTrips(res.headers)).toBeLessThanOrEqual(3);

    // The outbox row is the event's contract; delivery (webhooks) reads it.
    const events = await outboxFor(world.accountId, "Contact", id);
    expect(events.map((e) => e.event)).toEqual(["contact_created", "contact_updated"]);
    const changed = events[1].data.changed_attributes;
    expect(changed).toEqual(
      expect.arrayContaining([
        { name: { previous_value: "Grace", current_value: "Grace Hopper" } },
        { custom_attributes: { previous_value: { a: 1, b: 2 }, current_value: { a: 1, b: 3, c: 4 } } },
      ]),
    );
    expect(changed).toHaveLength(3);

    // an update that changes nothing records no event
    await patch(`${world.base}/contacts/${id}`, world.agent.key, { name: "Grace Hopper" });
    expect(await outboxFor(world.accountId, "Contact", id)).toHaveLength(2);
  });

  it("clears email with an empty string and refuses to take another contact's email", async () => {
    const a = (await post(`${world.base}/contacts`, world.agent.key, { email: "first@example.com", identifier: "first" })).body.payload.contact;
    await post(`${world.base}/contacts`, world.agent.key, { email: "second@example.com" });
    const clash = await patch(`${world.base}/contacts/${a.id}`, world.agent.key, { email: "Second@example.com" });
    expect(clash.status).toBe(422);
    expect(clash.body.errors).toEqual([{ field: "email", message: "has already been taken", code: "taken" }]);
    const cleared = await patch(`${world.base}/contacts/${a.id}`, world.agent.key, { email: "" });
    expect(cleared.body.payload.email).toBeNull();
  });

  it("removes custom attributes by key", async () => {
    const c = (await post(`${world.base}/contacts`, world.agent.key, { email: "strip@example.com", custom_attributes: { x: 1, y: 2, z: 3 } })).body.payload.contact;
    const res = await post(`${world.base}/contacts/${c.id}/destroy_custom_attributes`, world.agent.key, { custom_attributes: ["x", "z"] });
    expect(res.status).toBe(200);
    expect(res.body.payload.custom_attributes).toEqual({ y: 2 });
  });
});

describe("counts follow every change", () => {
  it("counts created, resolved, unresolved and deleted contacts", async () => {
    const start = await listCount();
    const unresolved = (await post(`${world.base}/contacts`, world.agent.key, { name: "Visitor" })).body.payload.contact;
    expect(await listCount()).toBe(start);
    await patch(`${world.base}/contacts/${unresolved.id}`, world.agent.key, { phone_number: "+15550001111" });
    expect(await listCount()).toBe(start + 1);
    await patch(`${world.base}/contacts/${unresolved.id}`, world.agent.key, { email: "visitor@example.com" });
    expect(await listCount()).toBe(start + 1);
    await patch(`${world.base}/contacts/${unresolved.id}`, world.agent.key, { phone_number: null, email: "" });
    expect(await listCount()).toBe(start);
    await patch(`${world.base}/contacts/${unresolved.id}`, world.agent.key, { identifier: "visitor" });
    expect(await listCount()).toBe(start + 1);
    const del1 = await del(`${world.base}/contacts/${unresolved.id}`, world.admin.key);
    expect(del1.status).toBe(200);
    expect(await listCount()).toBe(start);
    expect((await get(`${world.base}/contacts/${unresolved.id}`, world.admin.key)).status).toBe(404);
  });
});

describe("permissions", () => {
  it("answers 401 without a key and 403 with another account's key", async () => {
    expect((await get(`${world.base}/contacts`)).status).toBe(401);
    expect((await get(`${world.base}/contacts`, other.admin.key)).status).toBe(403);
    expect((await post(`${world.base}/contacts`, other.admin.key, { email: "x@example.com" })).status).toBe(403);
  });

  it("lets only administrators delete", async () => {
    const c = (await post(`${world.base}/contacts`, world.agent.key, { email: "keep@example.com" })).body.payload.contact;
    const res = await del(`${world.base}/contacts/${c.id}`, world.agent.key);
    expect(res.status).toBe(403);
    expect((await get(`${world.base}/contacts/${c.id}`, world.agent.key)).status).toBe(200);
  });
});

describe("contact inboxes", () => {
  it("creates a contact inbox in an inbox the agent belongs to, refuses others, and lists contactable inboxes", async () => {
    const member = await createInbox(world.accountId, { name: "Member inbox" });
    const notMember = await createInbox(world.accountId, { name: "Other inbox" });
    await addInboxMember(world.accountId, member, world.agent.id);
    const c = (await post(`${world.base}/contacts`, world.agent.key, { email: "ci@example.com" })).body.payload.contact;

    const refused = await post(`${world.base}/contacts/${c.id}/contact_inboxes`, world.agent.key, { inbox_id: notMember });
    expect(refused.status).toBe(403);
    const made = await post(`${world.base}/contacts/${c.id}/contact_inboxes`, world.agent.key, { inbox_id: member, source_id: "s-1" });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ source_id: "s-1", inbox: { id: member, name: "Member inbox" } });
    const again = await post(`${world.base}/contacts/${c.id}/contact_inboxes`, world.agent.key, { inbox_id: member, source_id: "s-1" });
    expect(again.status).toBe(422);
    expect(again.body.errors[0].field).toBe("source_id");

    const agentView = await get(`${world.base}/contacts/${c.id}/contactable_inboxes`, world.agent.key);
    expect(agentView.body.payload).toEqual([expect.objectContaining({ source_id: "s-1", inbox: expect.objectContaining({ id: member }) })]);
    const adminView = await get(`${world.base}/contacts/${c.id}/contactable_inboxes`, world.admin.key);
    expect(adminView.body.payload.map((p: { inbox: { id: number } }) => p.inbox.id)).toEqual(expect.arrayContaining([member, notMember]));
  });
});

describe("labels", () => {
  it("replaces the labels and lists them", async () => {
    const c = (await post(`${world.base}/contacts`, world.agent.key, { email: "labels@example.com" })).body.payload.contact;
    expect((await post(`${world.base}/contacts/${c.id}/labels`, world.agent.key, { labels: ["vip", "lead", "vip"] })).body.payload).toEqual(["lead", "vip"]);
    expect((await post(`${world.base}/contacts/${c.id}/labels`, world.agent.key, { labels: ["churned"] })).body.payload).toEqual(["churned"]);
    expect((await get(`${world.base}/contacts/${c.id}/labels`, world.agent.key)).body.payload).toEqual(["churned"]);
    expect((await get(`${world.base}/contacts/999999/labels`, world.agent.key)).status).toBe(404);
  });
});
