/**
 * Who the widget's visitor is: set_user with and without identifier_hash, and the rule for an
 * identifier without a hash on the widget API and the public API (docs/widget.md "Identity without a hash").
 */
import { describe, expect, it } from "vitest";
import { get, patch, post } from "../support/http";
import { shardOf } from "../support/databases";
import { hmacHex } from "../public/widget-support";
import { pageVisitor, tokenPayload, websiteWorld, widgetCall } from "./website-support";

const site = await websiteWorld("Identity Shop");
const strict = await websiteWorld("Strict Shop", { hmac_mandatory: true });

async function visitor(w = site) {
  const { authToken } = await pageVisitor(w);
  return { authToken, as: (method: string, path: string, body?: unknown) => widgetCall(method, path, w.token, authToken, body) };
}

const contactRows = async (accountId: number, sql: string, ...values: unknown[]) =>
  (await (await shardOf(accountId)).prepare(sql).bind(...values).all<Record<string, any>>()).results;

describe("set_user with identifier_hash", () => {
  it("a valid hash sets the identifier and verifies the visitor; the same call again keeps the token", async () => {
    const v = await visitor();
    const hash = await hmacHex(site.hmacToken, "user-1");
    const res = await v.as("PATCH", "/contact/set_user", { identifier: "user-1", identifier_hash: hash, name: "Una", email: "una@example.com" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ id: expect.any(Number), has_email: true, has_name: true, has_phone_number: false });
    expect((await v.as("GET", "/contact")).body.identifier).toBe("user-1");
    const [row] = await contactRows(site.accountId, "SELECT c.identifier, ci.hmac_verified FROM contacts c JOIN contact_inboxes ci ON ci.contact_id = c.id WHERE ci.source_id = ?", tokenPayload(v.authToken).source_id);
    expect(row).toEqual({ identifier: "user-1", hmac_verified: 1 });
    const again = await v.as("PATCH", "/contact/set_user", { identifier: "user-1", identifier_hash: hash, name: "Una" });
    expect(again.body.widget_auth_token).toBeUndefined();
  });

  it("a wrong hash is a 401 that changes nothing, and a mandatory inbox refuses a call without one", async () => {
    const v = await visitor();
    const wrong = await v.as("PATCH", "/contact/set_user", { identifier: "user-2", identifier_hash: "0".repeat(64), name: "Eve" });
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors[0]).toMatchObject({ field: "identifier_hash", code: "invalid_identifier_hash" });
    expect((await v.as("GET", "/contact")).body.identifier).toBeNull();

    const s = await visitor(strict);
    const missing = await s.as("PATCH", "/contact/set_user", { identifier: "user-3", name: "Sam" });
    expect(missing.status).toBe(401);
    expect(missing.body.errors[0].code).toBe("identifier_hash_required");
    // the page made an anonymous visitor, whose pre-chat form needs no hash (it names nobody)
    const form = await s.as("POST", "/conversations", { contact: { email: "sam@example.com", name: "Sam" }, message: { content: "Hi" } });
    expect(form.status, JSON.stringify(form.body)).toBe(200);
    expect((await s.as("PATCH", "/contact", { name: "Sam" })).status).toBe(401);
    const ok = await s.as("PATCH", "/contact/set_user", { identifier: "user-3", identifier_hash: await hmacHex(strict.hmacToken, "user-3"), name: "Sam" });
    expect(ok.status).toBe(200);
  });

  it("a proven identifier of another contact selects it: a new token, and its conversations follow", async () => {
    const hash = await hmacHex(site.hmacToken, "user-4");
    const laptop = await visitor();
    await laptop.as("PATCH", "/contact/set_user", { identifier: "user-4", identifier_hash: hash, name: "Lou" });
    const sent = await laptop.as("POST", "/messages", { message: { content: "from the laptop" } });

    const phone = await visitor();
    const res = await phone.as("PATCH", "/contact/set_user", { identifier: "user-4", identifier_hash: hash, name: "Lou" });
    expect(res.status).toBe(200);
    const token = res.body.widget_auth_token as string;
    expect(token).toEqual(expect.any(String));
    expect(tokenPayload(token).source_id).not.toBe(tokenPayload(phone.authToken).source_id);
    const onPhone = await widgetCall("GET", "/messages", site.token, token);
    expect(onPhone.body.payload.map((m: any) => m.id)).toEqual([sent.body.id]);
    expect((await widgetCall("GET", "/contact", site.token, token)).body.id).toBe((await laptop.as("GET", "/contact")).body.id);
  });

  it("a visitor who already is someone becomes a new contact when another identifier comes", async () => {
    const v = await visitor();
    await v.as("PATCH", "/contact/set_user", { identifier: "user-5", identifier_hash: await hmacHex(site.hmacToken, "user-5"), name: "Five" });
    await v.as("POST", "/messages", { message: { content: "Five's message" } });
    const next = await v.as("PATCH", "/contact/set_user", { identifier: "user-6", identifier_hash: await hmacHex(site.hmacToken, "user-6"), name: "Six" });
    expect(next.status).toBe(200);
    const token = next.body.widget_auth_token as string;
    expect(token).toEqual(expect.any(String));
    expect((await widgetCall("GET", "/messages", site.token, token)).body.payload).toEqual([]);
    expect((await widgetCall("GET", "/contact", site.token, token)).body.identifier).toBe("user-6");
  });
});

describe("identity without a hash", () => {
  it("set_user without a hash gives the visitor its own identifier, never another contact's", async () => {
    // a customer whose identifier the site proved
    const owner = await visitor();
    await owner.as("PATCH", "/contact/set_user", { identifier: "owner-1", identifier_hash: await hmacHex(site.hmacToken, "owner-1"), name: "Owner", email: "owner@example.com" });
    const ownerMessage = await owner.as("POST", "/messages", { message: { content: "owner's secret" } });

    const squatter = await visitor();
    const res = await squatter.as("PATCH", "/contact/set_user", { identifier: "owner-1", name: "Squatter" });
    expect(res.status).toBe(200);
    expect(res.body.widget_auth_token).toBeUndefined();
    expect(res.body.id).not.toBe((await owner.as("GET", "/contact")).body.id);
    expect((await squatter.as("GET", "/contact")).body.identifier).toBe("owner-1");
    const messages = await squatter.as("GET", "/messages");
    expect(messages.body.payload.map((m: any) => m.id)).not.toContain(ownerMessage.body.id);
    // stored only as the visitor's claim: the owner's contact is the only one with the identifier
    expect(await contactRows(site.accountId, "SELECT name FROM contacts WHERE account_id = ? AND identifier = 'owner-1'", site.accountId)).toEqual([{ name: "Owner" }]);
    const [claim] = await contactRows(site.accountId, "SELECT json_extract(additional_attributes, '$.claimed_identifier') AS claimed FROM contacts WHERE id = ?", res.body.id);
    expect(claim.claimed).toBe("owner-1");
  });

  it("a later proof of the claimed identifier finds the owner, not the claimant", async () => {
    const claimant = await visitor();
    await claimant.as("PATCH", "/contact/set_user", { identifier: "later-1", name: "Claimant" });
    const claimantId = (await claimant.as("GET", "/contact")).body.id;
    const owner = await visitor();
    const proven = await owner.as("PATCH", "/contact/set_user", { identifier: "later-1", identifier_hash: await hmacHex(site.hmacToken, "later-1"), name: "Owner" });
    expect(proven.status).toBe(200);
    expect(proven.body.id).not.toBe(claimantId);
    expect(proven.body.widget_auth_token).toBeUndefined();
  });

  it("a new identifier without a hash on the same browser is a new contact (a shared computer)", async () => {
    const v = await visitor();
    await v.as("PATCH", "/contact/set_user", { identifier: "desk-a", name: "A" });
    await v.as("POST", "/messages", { message: { content: "A's message" } });
    const b = await v.as("PATCH", "/contact/set_user", { identifier: "desk-b", name: "B" });
    expect(b.body.widget_auth_token).toEqual(expect.any(String));
    expect((await widgetCall("GET", "/messages", site.token, b.body.widget_auth_token)).body.payload).toEqual([]);
  });

  it("the public API takes an identifier without a hash as the visitor's claim too", async () => {
    const base = `/public/api/v1/inboxes/${site.token}`;
    const owner = await post(`${base}/contacts`, null, { identifier: "api-owner", identifier_hash: await hmacHex(site.hmacToken, "api-owner") });
    const created = await post(`${base}/contacts`, null, { identifier: "api-owner", name: "Claimant" });
    expect(created.status).toBe(200);
    expect(created.body.id).not.toBe(owner.body.id);
    const shown = await get(`${base}/contacts/${created.body.source_id}`);
    expect(shown.status).toBe(200);
    const updated = await patch(`${base}/contacts/${created.body.source_id}`, null, { identifier: "api-other" });
    expect(updated.status).toBe(200);
    expect(updated.body.identifier).toBe("api-other");
    expect(updated.body.additional_attributes).toEqual({});
    expect(await contactRows(site.accountId, "SELECT id FROM contacts WHERE account_id = ? AND identifier IN ('api-owner', 'api-other')", site.accountId)).toEqual([{ id: owner.body.id }]);
    // a mandatory inbox still refuses it
    const refused = await post(`/public/api/v1/inboxes/${strict.token}/contacts`, null, { identifier: "api-owner" });
    expect(refused.status).toBe(401);
  });
});
