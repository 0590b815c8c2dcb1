import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createDb, schema } from "../../src/db/client";
import { del, get, patch, post } from "../support/http";
import { createWorld, uniqueEmail } from "../support/world";

const world = await createWorld("Mail desk");
const other = await createWorld("Other mail desk");
const inboxes = `${world.base}/inboxes`;
const directory = createDb(env.DIRECTORY);

const routeOf = async (address: string) =>
  (await directory.select().from(schema.publicRoutes).where(and(eq(schema.publicRoutes.kind, "inbox_email"), eq(schema.publicRoutes.key, address))))[0];

async function emailInbox(email = uniqueEmail("support"), channel: object = {}, base = world.base, key = world.admin.key) {
  const res = await post(`${base}/inboxes`, key, { name: "Support mail", channel: { type: "email", email, ...channel } });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body;
}

describe("e-mail inboxes", () => {
  it("creates Chatwoot's Channel::Email with a forwarding address on the inbound domain, settings shown to administrators", async () => {
    const email = uniqueEmail("Help");
    const res = await post(inboxes, world.admin.key, {
      name: "Help mail",
      channel: { type: "email", email, imap_enabled: true, imap_address: "imap.example.com", imap_port: 993, imap_login: "help", imap_password: "s3cret", smtp_port: 587, smtp_authentication: "plain" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Help mail",
      channel_type: "Channel::Email",
      email: email.toLowerCase(),
      forwarding_enabled: true,
      forward_to_email: expect.stringMatching(new RegExp(`^[0-9a-f]{32}@${env.INBOUND_EMAIL_DOMAIN.replace(/\./g, "\\.")}$`)),
      provider: null,
      imap_enabled: true,
      imap_address: "imap.example.com",
      imap_port: 993,
      imap_login: "help",
      imap_password: "s3cret",
      imap_enable_ssl: true,
      reauthorization_required: false,
      smtp_enabled: false,
      smtp_port: 587,
      smtp_authentication: "plain",
      smtp_openssl_verify_mode: "none",
      smtp_enable_starttls_auto: true,
      smtp_enable_ssl_tls: false,
      website_token: null,
    });
    expect(res.body).not.toHaveProperty("inbox_identifier");
    // both addresses lead the account's mail to it through the directory
    expect(await routeOf(res.body.email)).toMatchObject({ accountId: world.accountId });
    expect(await routeOf(res.body.forward_to_email)).toMatchObject({ accountId: world.accountId });
  });

  it("shows agents the addresses but never the IMAP or SMTP settings", async () => {
    const inbox = await emailInbox(uniqueEmail("agents"), { smtp_password: "hidden" });
    await post(`${world.base}/inbox_members`, world.admin.key, { inbox_id: inbox.id, user_ids: [world.agent.id] });
    const res = await get(`${inboxes}/${inbox.id}`, world.agent.key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: inbox.email, forward_to_email: inbox.forward_to_email, forwarding_enabled: true });
    for (const secret of ["imap_password", "smtp_password", "imap_login", "smtp_login", "smtp_address", "hmac_token"]) expect(res.body).not.toHaveProperty(secret);
  });

  it("refuses an address another inbox holds, in this account or another, with 422 and changes nothing", async () => {
    const email = uniqueEmail("taken");
    await emailInbox(email);
    const before = await directory.select().from(schema.publicRoutes).where(eq(schema.publicRoutes.kind, "inbox_email"));
    for (const [base, key] of [[world.base, world.admin.key], [other.base, other.admin.key]]) {
      const res = await post(`${base}/inboxes`, key, { name: "Again", channel: { type: "email", email: email.toUpperCase() } });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([expect.objectContaining({ field: "channel.email", code: "taken" })]);
    }
    // a forwarding address is taken too
    const forwarded = await emailInbox();
    const res = await post(`${other.base}/inboxes`, other.admin.key, { name: "Again", channel: { type: "email", email: forwarded.forward_to_email } });
    expect(res.status).toBe(422);
    expect(await directory.select().from(schema.publicRoutes).where(eq(schema.publicRoutes.kind, "inbox_email"))).toHaveLength(before.length + 2);
    const names = (await get(`${other.base}/inboxes`, other.admin.key)).body.payload.map((i: { name: string }) => i.name);
    expect(names).not.toContain("Again");
  });

  it("validates the channel's fields", async () => {
    const cases: Array<[object, string]> = [
      [{}, "channel.email"],
      [{ email: "not-an-address" }, "channel.email"],
      [{ email: uniqueEmail(), imap_port: 70_000 }, "channel.imap_port"],
      [{ email: uniqueEmail(), smtp_authentication: "magic" }, "channel.smtp_authentication"],
      [{ email: uniqueEmail(), smtp_openssl_verify_mode: "always" }, "channel.smtp_openssl_verify_mode"],
      [{ email: uniqueEmail(), provider: "yahoo" }, "channel.provider"],
    ];
    for (const [channel, field] of cases) {
      const res = await post(inboxes, world.admin.key, { name: "Bad", channel: { type: "email", ...channel } });
      expect(res.status, field).toBe(422);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
  });

  it("lets only administrators create an e-mail inbox", async () => {
    const res = await post(inboxes, world.agent.key, { name: "Mine", channel: { type: "email", email: uniqueEmail() } });
    expect(res.status).toBe(403);
  });

  it("moves the directory's route when the address changes, and gives both back when the inbox is deleted", async () => {
    const inbox = await emailInbox();
    const next = uniqueEmail("renamed");
    const res = await patch(`${inboxes}/${inbox.id}`, world.admin.key, { channel: { email: next, smtp_enabled: true } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: next, smtp_enabled: true, forward_to_email: inbox.forward_to_email });
    expect(await routeOf(inbox.email)).toBeUndefined();
    expect(await routeOf(next)).toMatchObject({ accountId: world.accountId });
    expect((await del(`${inboxes}/${inbox.id}`, world.admin.key)).status).toBe(200);
    expect(await routeOf(next)).toBeUndefined();
    expect(await routeOf(inbox.forward_to_email)).toBeUndefined();
    // the address is free again
    await emailInbox(next, {}, other.base, other.admin.key);
  });
});
