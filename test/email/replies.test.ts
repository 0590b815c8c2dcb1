/**
 * Messages of e-mail conversations mailed to the contact: an agent's reply with Chatwoot's headers, its
 * files, a CSAT survey, a failure marked on the message and a retry, and the customer's answer threading
 * back. Mail is kept by the sink transport (vitest.config.ts) and read back from R2.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { MAX_ATTACHED_BYTES } from "../../src/email/replies";
import { shardOf } from "../support/databases";
import { call, patch, post } from "../support/http";
import { file, messageForm, postForm, samples } from "../support/files";
import { deliverMail, emailInbox, fillMail, headerOf, sentMail } from "../support/mail";
import { createWorld } from "../support/world";
import plain from "../fixtures/email/plain.eml?raw";
import inReplyTo from "../fixtures/email/in-reply-to.eml?raw";

const world = await createWorld("Mail replies");
const inbox = await emailInbox(world);
const db = await shardOf(world.accountId);

type Arrived = { id: number; conversation_id: number; display_id: number; uuid: string; contact_id: number };

/** Delivers a customer's mail and waits until it is a message of the account. */
async function arrived(raw: string, to = inbox.email): Promise<Arrived & { sourceId: string }> {
  const sourceId = /^Message-ID:\s*<([^>]+)>/im.exec(raw)![1];
  expect(await deliverMail(raw, to)).toBeNull();
  let row: Arrived | null = null;
  await vi.waitFor(
    async () => {
      row = await db
        .prepare("SELECT m.id, m.conversation_id, c.display_id, c.uuid, c.contact_id FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE m.account_id = ? AND m.source_id = ?")
        .bind(world.accountId, sourceId)
        .first<Arrived>();
      expect(row).not.toBeNull();
    },
    { timeout: 15_000, interval: 50 },
  );
  return { ...row!, sourceId };
}

type MessageState = { status: number; source_id: string | null; content_attributes: string };
const messageState = (id: number) => db.prepare("SELECT status, source_id, content_attributes FROM messages WHERE id = ?").bind(id).first<MessageState>();
const mailRowOf = (messageId: number) =>
  db.prepare("SELECT * FROM outgoing_emails WHERE account_id = ? AND message_id = ?").bind(world.accountId, messageId).first<{ kind: string; status: string; recipients: string; last_error: string | null; attempts: number }>();

/** Waits until the message's mail went out, and answers the Message-ID it went out with (its source_id). */
async function mailedAs(messageId: number): Promise<string> {
  await vi.waitFor(async () => expect((await messageState(messageId))?.source_id).toBeTruthy(), { timeout: 15_000, interval: 50 });
  return (await messageState(messageId))!.source_id!;
}

const reply = (displayId: number, body: Record<string, unknown>) => post(`${world.base}/conversations/${displayId}/messages`, world.admin.key, body);

describe("an agent's reply on an e-mail conversation", () => {
  it("is mailed with Chatwoot's headers, its Message-ID becomes the source_id, and the customer's answer threads", async () => {
    const first = await arrived(fillMail(plain, { INBOX: inbox.email }));
    const note = await reply(first.display_id, { content: "internal only", private: true });
    const sent = await reply(first.display_id, {
      content: "**Thanks**, we are on it. <script>alert(1)</script> [Track it](https://example.org/track)",
      content_attributes: { cc_emails: "boss@example.org, not an address", bcc_emails: ["audit@example.org"] },
    });
    expect(sent.status).toBe(200);

    const messageId = await mailedAs(sent.body.id);
    expect(messageId).toBe(`conversation/${first.uuid}/messages/${sent.body.id}@${env.INBOUND_EMAIL_DOMAIN}`);
    const mail = (await sentMail(messageId))!;
    expect(mail.from).toMatchObject({ address: env.MAILER_SENDER_EMAIL, name: "Mail replies Admin from Mail" });
    expect(mail.replyTo?.map((a) => a.address)).toEqual([`reply+${first.uuid}@${env.INBOUND_EMAIL_DOMAIN}`]);
    expect(mail.to?.map((a) => a.address)).toEqual(["ada.customer@example.org"]);
    expect(mail.cc?.map((a) => a.address)).toEqual(["boss@example.org"]);
    // Bcc only on the envelope, never a header the others read
    expect(mail.bcc).toBeUndefined();
    expect(mail.envelope.sort()).toEqual(["ada.customer@example.org", "audit@example.org", "boss@example.org"]);
    expect(mail.subject).toBe("Re: My order has not arrived");
    expect(mail.inReplyTo).toBe(`<${first.sourceId}>`);
    expect(headerOf(mail, "references")).toContain(`<${first.sourceId}>`);
    // an agent's own reply is no automatic mail
    expect(headerOf(mail, "auto-submitted")).toBeUndefined();
    expect(mail.html).toContain("<strong>Thanks</strong>");
    expect(mail.html).toContain('<a href="https://example.org/track">Track it</a>');
    expect(mail.html).not.toContain("<script");
    expect(mail.text).toContain("**Thanks**, we are on it.");
    expect(await mailRowOf(sent.body.id)).toMatchObject({ kind: "conversation_reply", status: "sent", attempts: 1 });
    expect(await mailRowOf(note.body.id)).toBeNull();

    const answer = await arrived(fillMail(inReplyTo, { INBOX: inbox.email, PARENT: messageId }));
    expect(answer.conversation_id).toBe(first.conversation_id);
  });

  it("takes Chatwoot's top-level to_emails, cc_emails and bcc_emails, and refuses one that is no address", async () => {
    const first = await arrived(fillMail(plain, { INBOX: inbox.email }));
    const refused = await reply(first.display_id, { content: "Copying the team", cc_emails: "boss@example.org, not an address" });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].field).toMatch(/^cc_emails/);

    const sent = await reply(first.display_id, {
      content: "Copying the team",
      to_emails: "ada.customer@example.org",
      cc_emails: " Boss@example.org ,lead@example.org",
      bcc_emails: "audit@example.org",
    });
    expect(sent.status).toBe(200);
    expect(sent.body.content_attributes).toMatchObject({ to_emails: ["ada.customer@example.org"], cc_emails: ["boss@example.org", "lead@example.org"], bcc_emails: ["audit@example.org"] });
    const mail = (await sentMail(await mailedAs(sent.body.id)))!;
    expect(mail.cc?.map((a) => a.address)).toEqual(["boss@example.org", "lead@example.org"]);
    expect(mail.envelope.sort()).toEqual(["ada.customer@example.org", "audit@example.org", "boss@example.org", "lead@example.org"]);
  });

  it("attaches its files up to the size limit and links the rest", async () => {
    const first = await arrived(fillMail(plain, { INBOX: inbox.email }));
    const large = new Uint8Array(MAX_ATTACHED_BYTES + 1024).fill(7);
    large.set(new TextEncoder().encode("%PDF-1.7\n"));
    const form = messageForm([file(samples.png(), "photo.png", "image/png"), file(large, "manual.pdf", "application/pdf")], { content: "Two files" });
    const sent = await postForm(`${world.base}/conversations/${first.display_id}/messages`, world.admin.key, form);
    expect(sent.status).toBe(200);

    const mail = (await sentMail(await mailedAs(sent.body.id)))!;
    expect(mail.attachments.map((a) => [a.filename, a.mimeType])).toEqual([["photo.png", "image/png"]]);
    expect(new Uint8Array(mail.attachments[0].content as ArrayBuffer)).toEqual(samples.png());
    const link = /\/files\/attachments\/[^\s"<>]+manual\.pdf\?expires=\d+&amp;signature=[\w-]+/.exec(mail.html!)?.[0].replace(/&amp;/g, "&");
    expect(link).toBeDefined();
    // the link outlives the mail's reading (days, not the hour of an API answer) and opens the file
    expect(Number(/expires=(\d+)/.exec(link!)![1])).toBeGreaterThan(Date.now() / 1000 + 7 * 24 * 3600);
    const opened = await call("GET", link!);
    expect(opened.status).toBe(200);
    expect(mail.text).toMatch(/manual\.pdf: https?:\/\/\S+\/files\/attachments\//);
  });

  it("marks the message failed with the reason when the mail cannot go, and sends it again on retry", async () => {
    const first = await arrived(fillMail(plain, { INBOX: inbox.email }));
    expect((await patch(`${world.base}/contacts/${first.contact_id}`, world.admin.key, { email: null })).status).toBe(200);
    const sent = await reply(first.display_id, { content: "Are you there?" });
    await vi.waitFor(async () => expect((await messageState(sent.body.id))?.status).toBe(3), { timeout: 15_000, interval: 50 });
    const failed = await messageState(sent.body.id);
    expect(JSON.parse(failed!.content_attributes).external_error).toMatch(/no recipient/);
    expect(await mailRowOf(sent.body.id)).toMatchObject({ status: "failed", last_error: expect.stringMatching(/no recipient/) });

    expect((await patch(`${world.base}/contacts/${first.contact_id}`, world.admin.key, { email: "ada.again@example.org" })).status).toBe(200);
    const retried = await post(`${world.base}/conversations/${first.display_id}/messages/${sent.body.id}/retry`, world.admin.key);
    expect(retried.status).toBe(200);
    expect(retried.body.content_attributes.external_error).toBeUndefined();
    const mail = (await sentMail(await mailedAs(sent.body.id)))!;
    expect(mail.to?.map((a) => a.address)).toEqual(["ada.again@example.org"]);
    expect((await messageState(sent.body.id))!.status).toBe(0);
    expect(await mailRowOf(sent.body.id)).toMatchObject({ status: "sent", attempts: 1 });
  });
});

describe("automatic mail of an e-mail conversation", () => {
  it("mails the CSAT survey with its rating links when the conversation is resolved", async () => {
    const surveyed = await emailInbox(world);
    expect((await patch(`${world.base}/inboxes/${surveyed.id}`, world.admin.key, { csat_survey_enabled: true })).status).toBe(200);
    const first = await arrived(fillMail(plain, { INBOX: surveyed.email }), surveyed.email);
    expect((await post(`${world.base}/conversations/${first.display_id}/toggle_status`, world.admin.key, { status: "resolved" })).status).toBe(200);
    const survey = await db
      .prepare("SELECT id FROM messages WHERE conversation_id = ? AND message_type = 3 AND content_type = ?")
      .bind(first.conversation_id, 9)
      .first<{ id: number }>();
    expect(survey).not.toBeNull();

    const mail = (await sentMail(await mailedAs(survey!.id)))!;
    const link = new URL(`/survey/responses/${first.uuid}`, env.FRONTEND_URL).toString();
    for (const rating of [1, 2, 3, 4, 5]) expect(mail.html).toContain(`href="${link}#rating-${rating}"`);
    expect(mail.text).toContain(link);
    expect(mail.to?.map((a) => a.address)).toEqual(["ada.customer@example.org"]);
    expect(headerOf(mail, "auto-submitted")).toBe("auto-generated");
    expect(await mailRowOf(survey!.id)).toMatchObject({ kind: "csat_survey", status: "sent" });
  });
});
