import { describe, expect, it } from "vitest";
import { call, get, patch, post } from "../support/http";
import { createContact } from "../support/fixtures";
import { shardOf } from "../support/databases";
import { hmacHex, options, publicInbox, visitor, widgetWorld } from "./widget-support";

describe("public inbox and contacts", () => {
  it("shows the inbox to anyone and names an unknown identifier in a 404", async () => {
    const w = await widgetWorld();
    const res = await get(w.inbox.base);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ identifier: w.inbox.identifier, name: "Support", channel_type: "Channel::Api" });
    expect(res.body).not.toHaveProperty("hmac_token");
    const unknown = await get("/public/api/v1/inboxes/nope-123");
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0]).toMatchObject({ field: "inbox_identifier", code: "not_found" });
    expect(unknown.body.description).toContain("nope-123");
  });

  it("creates a contact with a source id and pubsub token, and reuses it by source id", async () => {
    const w = await widgetWorld();
    const created = await post(`${w.inbox.base}/contacts`, null, { name: "Vera", email: "Vera@Example.com", custom_attributes: { plan: "gold" } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: "Vera", email: "vera@example.com", phone_number: null });
    expect(created.body.source_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.body.pubsub_token).toMatch(/^\w{24}$/);
    const again = await post(`${w.inbox.base}/contacts`, null, { source_id: created.body.source_id, name: "Other" });
    expect(again.body).toMatchObject({ id: created.body.id, source_id: created.body.source_id, pubsub_token: created.body.pubsub_token, name: "Vera" });
    const shown = await get(`${w.inbox.base}/contacts/${created.body.source_id}`);
    expect(shown.body).toEqual(created.body);
    // the account sees the contact with its custom attributes
    const inAccount = await get(`${w.base}/contacts/${created.body.id}`, w.admin.key);
    expect(inAccount.body.payload.custom_attributes).toEqual({ plan: "gold" });
  });

  it("reuses the account's contact by a proven identifier only; a known e-mail or phone makes a new contact without it", async () => {
    const w = await widgetWorld();
    const known = await createContact(w.accountId, { name: "Known", email: "known@example.com" });
    const v = await post(`${w.inbox.base}/contacts`, null, { email: "known@example.com", source_id: "visitor-1", name: "Typed" });
    // the visitor sees the e-mail it sent; its contact holds it only as a claim (docs/widget.md "Who reaches a contact")
    expect(v.body).toMatchObject({ source_id: "visitor-1", name: "Typed", email: "known@example.com" });
    expect(v.body.id).not.toBe(known);
    const hash = await hmacHex(w.inbox.hmacToken, "cust-9");
    const first = await visitor(w.inbox, { identifier: "cust-9", identifier_hash: hash, phone_number: "+4915112345678" });
    const byIdentifier = await post(`${w.inbox.base}/contacts`, null, { identifier: "cust-9", identifier_hash: hash, email: "someone@example.com" });
    expect(byIdentifier.body).toMatchObject({ id: first.contactId, email: null, phone_number: "+4915112345678" });
    expect(byIdentifier.body.source_id).not.toBe(first.sourceId);
    const byPhone = await post(`${w.inbox.base}/contacts`, null, { phone_number: "+4915112345678" });
    expect(byPhone.body).toMatchObject({ phone_number: "+4915112345678" });
    expect(byPhone.body.id).not.toBe(first.contactId);
  });

  it("gives an anonymous visitor a two-word name", async () => {
    const w = await widgetWorld();
    const res = await post(`${w.inbox.base}/contacts`, null, {});
    expect(res.body.name).toMatch(/^[a-z]+-[a-z]+$/);
  });

  it("validates bodies with the error body and field paths", async () => {
    const w = await widgetWorld();
    const res = await post(`${w.inbox.base}/contacts`, null, { email: "not-an-email", phone_number: "123", custom_attributes: [1] });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["custom_attributes", "email", "phone_number"]);
    const malformed = await call("POST", `${w.inbox.base}/contacts`, { rawBody: "{", headers: { "content-type": "application/json" } });
    expect(malformed.status).toBe(400);
  });

  it("updates the contact; an identifier may be set once with its hash, never changed", async () => {
    const w = await widgetWorld();
    const v = await visitor(w.inbox, { name: "Anon" });
    const identifier_hash = await hmacHex(w.inbox.hmacToken, "u-1");
    const res = await patch(v.base, null, { name: "Vera", email: "vera@example.com", identifier: "u-1", identifier_hash, custom_attributes: { tier: 2 } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: v.contactId, name: "Vera", email: "vera@example.com", identifier: "u-1", custom_attributes: { tier: 2 } });
    const change = await patch(v.base, null, { identifier: "u-2" });
    expect(change.status).toBe(422);
    expect(change.body.errors[0]).toMatchObject({ field: "identifier", code: "immutable" });
    const other = await visitor(w.inbox, { email: "taken@example.com" });
    // another contact's e-mail is no 422 (that told whose it was): it becomes the visitor's claim
    const taken = await patch(v.base, null, { email: "taken@example.com" });
    expect(taken.status).toBe(200);
    expect(taken.body).toMatchObject({ email: "taken@example.com", additional_attributes: {} });
    const inAccount = await get(`${w.base}/contacts/${v.contactId}`, w.admin.key);
    expect(inAccount.body.payload).toMatchObject({ email: "vera@example.com", additional_attributes: { claimed_email: "taken@example.com" } });
    expect(other.contactId).not.toBe(v.contactId);
  });

  it("answers 404 for a source id of another inbox or account", async () => {
    const w = await widgetWorld();
    const otherInbox = await publicInbox(w.accountId);
    const v = await visitor(otherInbox);
    const res = await get(`${w.inbox.base}/contacts/${v.sourceId}`);
    expect(res.status).toBe(404);
    expect(res.body.errors[0]).toMatchObject({ field: "contact_identifier", code: "not_found" });
    const elsewhere = await widgetWorld("Elsewhere");
    expect((await get(`${elsewhere.inbox.base}/contacts/${v.sourceId}`)).status).toBe(404);
    expect((await patch(`${w.inbox.base}/contacts/${v.sourceId}`, null, { name: "x" })).status).toBe(404);
  });
});

describe("identity validation (identifier_hash)", () => {
  it("marks a contact verified by a good hash and refuses a bad one with 401", async () => {
    const w = await widgetWorld();
    const hash = await hmacHex(w.inbox.hmacToken, "user-42");
    const good = await post(`${w.inbox.base}/contacts`, null, { identifier: "user-42", identifier_hash: hash, name: "Ada" });
    expect(good.status).toBe(200);
    const row = await (await shardOf(w.accountId)).prepare("SELECT hmac_verified FROM contact_inboxes WHERE source_id = ?").bind(good.body.source_id).first<{ hmac_verified: number }>();
    expect(row!.hmac_verified).toBe(1);
    const conversation = await post(`${w.inbox.base}/contacts/${good.body.source_id}/conversations`, null, {});
    const inAccount = await get(`${w.base}/conversations/${conversation.body.id}`, w.admin.key);
    expect(inAccount.body.meta.hmac_verified).toBe(true);

    const bad = await post(`${w.inbox.base}/contacts`, null, { identifier: "user-43", identifier_hash: hash });
    expect(bad.status).toBe(401);
    expect(bad.body.errors[0]).toMatchObject({ field: "identifier_hash", code: "invalid_identifier_hash" });
    const badUpdate = await patch(`${w.inbox.base}/contacts/${good.body.source_id}`, null, { name: "x", identifier_hash: "0".repeat(64) });
    expect(badUpdate.status).toBe(401);
    // a proven identifier that is not the selected contact's is refused (replay)
    const otherHash = await hmacHex(w.inbox.hmacToken, "user-99");
    const replay = await post(`${w.inbox.base}/contacts`, null, { source_id: good.body.source_id, identifier: "user-99", identifier_hash: otherHash });
    expect(replay.status).toBe(401);
    expect(replay.body.errors[0].code).toBe("identifier_mismatch");
  });

  it("requires the hash on every contact action when the inbox makes it mandatory", async () => {
    const w = await widgetWorld();
    const v = await visitor(w.inbox, { identifier: "m-1", identifier_hash: await hmacHex(w.inbox.hmacToken, "m-1") });
    await (await shardOf(w.accountId)).prepare("UPDATE inboxes SET hmac_mandatory = 1 WHERE id = ?").bind(w.inbox.id).run();
    const missing = await post(`${w.inbox.base}/contacts`, null, { identifier: "m-2" });
    expect(missing.status).toBe(401);
    expect(missing.body.errors[0]).toMatchObject({ field: "identifier_hash", code: "identifier_hash_required" });
    expect((await get(v.base)).status).toBe(401);
    expect((await patch(v.base, null, { name: "x" })).status).toBe(401);
    const hash = await hmacHex(w.inbox.hmacToken, "m-1");
    expect((await get(`${v.base}?identifier_hash=${hash}`)).status).toBe(200);
    const ok = await patch(v.base, null, { name: "Mia", identifier_hash: hash });
    expect(ok.status).toBe(200);
    expect(ok.body.hmac_verified).toBe(true);
  });
});

describe("CORS", () => {
  it("answers preflights from any origin for an API inbox", async () => {
    const w = await widgetWorld();
    const pre = await options(`${w.inbox.base}/contacts`, "https://shop.example");
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("https://shop.example");
    expect(pre.headers.get("access-control-allow-methods")).toContain("POST");
    const res = await call("POST", `${w.inbox.base}/contacts`, { body: {}, headers: { origin: "https://shop.example" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://shop.example");
    const notFound = await call("GET", `${w.inbox.base}/contacts/nobody`, { headers: { origin: "https://shop.example" } });
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get("access-control-allow-origin")).toBe("https://shop.example");
  });

  it("restricts origins to a website inbox's allowed_domains", async () => {
    const w = await widgetWorld();
    const site = await publicInbox(w.accountId, "Channel::WebWidget");
    await (await shardOf(w.accountId)).prepare("UPDATE web_widget_channels SET allowed_domains = ? WHERE id = (SELECT channel_id FROM inboxes WHERE id = ?)")
      .bind("shop.example, *.brand.example", site.id)
      .run();
    expect((await options(`${site.base}/contacts`, "https://shop.example")).status).toBe(204);
    expect((await options(`${site.base}/contacts`, "https://eu.brand.example")).status).toBe(204);
    const refused = await options(`${site.base}/contacts`, "https://evil.example");
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].code).toBe("origin_not_allowed");
    const post = await call("POST", `${site.base}/contacts`, { body: {}, headers: { origin: "https://brand.example.evil.example" } });
    expect(post.status).toBe(403);
    // no Origin: not a browser, nothing to restrict
    expect((await call("POST", `${site.base}/contacts`, { body: {} })).status).toBe(200);
  });
});
