import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { and, desc, eq } from "drizzle-orm";
import worker from "../../src/index";
import { createDb, schema } from "../../src/db/client";
import { call, get, patch, post } from "../support/http";
import { createWorld, uniqueEmail } from "../support/world";
import { shardOf } from "../support/databases";
import plain from "../fixtures/email/plain.eml?raw";
import alternative from "../fixtures/email/alternative.eml?raw";
import htmlOnly from "../fixtures/email/html-only.eml?raw";
import inlineImage from "../fixtures/email/inline-image.eml?raw";
import attachments from "../fixtures/email/attachments.eml?raw";
import forwarded from "../fixtures/email/forwarded.eml?raw";
import replyAddress from "../fixtures/email/reply-address.eml?raw";
import inReplyTo from "../fixtures/email/in-reply-to.eml?raw";
import references from "../fixtures/email/references.eml?raw";
import charsets from "../fixtures/email/charsets.eml?raw";
import malformed from "../fixtures/email/malformed.eml?raw";
import noMessageId from "../fixtures/email/no-message-id.eml?raw";
import autoReply from "../fixtures/email/auto-reply.eml?raw";
import bounce from "../fixtures/email/bounce.eml?raw";
import loop from "../fixtures/email/loop.eml?raw";

const world = await createWorld("Mail intake");
const other = await createWorld("Other intake");

async function emailInbox(w = world) {
  const res = await post(`${w.base}/inboxes`, w.admin.key, { name: "Mail", channel: { type: "email", email: uniqueEmail("intake") } });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body as { id: number; email: string; forward_to_email: string };
}

const inbox = await emailInbox();
const otherInbox = await emailInbox(other);
let runs = 0;

/** The fixture with its placeholders filled; RUN makes each use's Message-ID its own. */
function fill(template: string, values: Record<string, string> = {}) {
  const all: Record<string, string> = { INBOX: inbox.email, DOMAIN: env.INBOUND_EMAIL_DOMAIN, SENDER: env.MAILER_SENDER_EMAIL, RUN: String(++runs), ...values };
  return template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => all[key] ?? "").replace(/\r?\n/g, "\r\n");
}

type Rejection = { reason: string | null };

/** Hands a raw mail to the Worker's email() handler as Email Routing would, for one envelope recipient. */
async function deliver(raw: string, to: string, from = "sender@example.org", rawSize?: number): Promise<Rejection> {
  const bytes = new TextEncoder().encode(raw);
  const rejection: Rejection = { reason: null };
  const message = {
    from,
    to,
    headers: new Headers(),
    raw: new Response(bytes).body!,
    rawSize: rawSize ?? bytes.byteLength,
    canBeForwarded: true,
    setReject: (reason: string) => void (rejection.reason = reason),
    forward: () => Promise.reject(new Error("not in tests")),
    reply: () => Promise.reject(new Error("not in tests")),
  } as unknown as ForwardableEmailMessage;
  const ctx = createExecutionContext();
  await worker.email!(message, env, ctx);
  await waitOnExecutionContext(ctx);
  return rejection;
}

async function shardDb(accountId = world.accountId) {
  return createDb(await shardOf(accountId));
}

async function intakeRows(accountId = world.accountId) {
  const db = await shardDb(accountId);
  return db.select().from(schema.inboundEmails).where(eq(schema.inboundEmails.accountId, accountId)).orderBy(desc(schema.inboundEmails.id));
}

/** Delivers and waits for the queue consumer to record what became of the mail. */
async function received(raw: string, to = inbox.email, accountId = world.accountId) {
  const before = (await intakeRows(accountId)).length;
  const rejection = await deliver(raw, to);
  expect(rejection.reason).toBeNull();
  await vi.waitFor(async () => expect((await intakeRows(accountId)).length).toBe(before + 1), { timeout: 15_000, interval: 50 });
  return (await intakeRows(accountId))[0];
}

async function messageRow(id: number) {
  const db = await shardDb();
  return (await db.select().from(schema.messages).where(eq(schema.messages.id, id)))[0];
}

async function conversationOf(messageId: number) {
  const db = await shardDb();
  const message = await messageRow(messageId);
  return (await db.select().from(schema.conversations).where(eq(schema.conversations.id, message.conversationId)))[0];
}

describe("the email() handler", () => {
  it("refuses an unknown recipient and an oversized mail at SMTP time, storing nothing", async () => {
    const keysBefore = (await env.FILES.list({ prefix: `${world.accountId}/inbound-email/` })).objects.length;
    expect((await deliver(fill(plain), "nobody@inbound.nowhere.example")).reason).toMatch(/^Unknown recipient/);
    expect((await deliver(fill(plain), `reply+00000000-0000-4000-8000-000000000000@${env.INBOUND_EMAIL_DOMAIN}`)).reason).toMatch(/^Unknown recipient/);
    expect((await deliver(fill(plain), inbox.email, "a@example.org", Number(env.INBOUND_EMAIL_MAX_BYTES) + 1)).reason).toMatch(/^Message too large: \d+ bytes/);
    expect((await env.FILES.list({ prefix: `${world.accountId}/inbound-email/` })).objects.length).toBe(keysBefore);
  });

  it("keeps the raw message in R2 and threads a plain mail into a new conversation with Chatwoot's shapes", async () => {
    const row = await received(fill(plain));
    expect(row).toMatchObject({ outcome: "stored", envelopeTo: inbox.email, reason: null });
    const object = await env.FILES.get(row.storageKey);
    expect(await object!.text()).toContain("my order 1234 has not arrived");
    const message = await messageRow(row.messageId!);
    expect(message).toMatchObject({ messageType: 0, contentType: 8, inboxId: inbox.id, sourceId: `plain-${runs}@mail.example.org`, senderType: "Contact" });
    expect(message.content).toContain("my order 1234 has not arrived yet.");
    expect(message.contentAttributes).toMatchObject({
      cc_email: [],
      bcc_email: [],
      email: {
        from: ["ada.customer@example.org"],
        to: [inbox.email],
        subject: "My order has not arrived",
        message_id: `plain-${runs}@mail.example.org`,
        in_reply_to: null,
        references: [],
        multipart: false,
        auto_reply: false,
        number_of_attachments: 0,
        html_content: {},
        text_content: { full: expect.stringContaining("Hello,"), reply: expect.stringContaining("Hello,"), quoted: expect.stringContaining("Ada") },
      },
    });
    const conversation = await conversationOf(message.id);
    expect(conversation.additionalAttributes).toMatchObject({ source: "email", mail_subject: "My order has not arrived", auto_reply: false, in_reply_to: null });
    // the contact, found by e-mail next time, named from the From header
    const contact = (await get(`${world.base}/contacts/${conversation.contactId}`, world.admin.key)).body.payload;
    expect(contact).toMatchObject({ name: "Ada Customer", email: "ada.customer@example.org" });
    // and the conversation is seen through the API
    const shown = await get(`${world.base}/conversations/${conversation.displayId}/messages`, world.admin.key);
    expect(shown.body.payload.map((m: { content_type: string }) => m.content_type)).toContain("incoming_email");
  });

  it("stores the same mail once, however often it arrives or however often its queue message runs", async () => {
    const raw = fill(plain);
    const first = await received(raw);
    const second = await received(raw);
    expect(second).toMatchObject({ outcome: "duplicate", messageId: first.messageId });
    const db = await shardDb();
    const copies = await db.select().from(schema.messages).where(and(eq(schema.messages.inboxId, inbox.id), eq(schema.messages.sourceId, (await messageRow(first.messageId!)).sourceId!)));
    expect(copies).toHaveLength(1);
    // the same queue message once more: recorded already, nothing new
    await env.EVENTS.send({ kind: "inbound_email", accountId: world.accountId, storageKey: first.storageKey, envelopeFrom: first.envelopeFrom, envelopeTo: first.envelopeTo, receivedAt: 0 });
    await new Promise((r) => setTimeout(r, 1500));
    expect(await db.select().from(schema.messages).where(and(eq(schema.messages.inboxId, inbox.id), eq(schema.messages.sourceId, copies[0].sourceId!)))).toHaveLength(1);
  });

  it("reads multipart alternative, HTML only, charsets and encoded words", async () => {
    const alt = await messageRow((await received(fill(alternative))).messageId!);
    expect(alt.contentAttributes).toMatchObject({
      cc_email: ["carol@example.org", "dan@example.org"],
      email: {
        multipart: true,
        text_content: { quoted: "Where is my invoice?" },
        html_content: { full: expect.stringContaining("<b>invoice</b>"), reply: expect.stringContaining("> We sent it yesterday.") },
      },
    });
    const html = await messageRow((await received(fill(htmlOnly))).messageId!);
    expect(html.content).toBe("Only HTML & nothing else");
    expect((html.contentAttributes as any).email.html_content.full).toContain("<script>");
    const latin = await messageRow((await received(fill(charsets))).messageId!);
    expect(latin.content).toContain("Grüße, die Bestellung ist beschädigt.");
    expect((latin.contentAttributes as any).email.subject).toBe("Grüße aus München 🍺");
    const contact = (await get(`${world.base}/contacts/${latin.senderId}`, world.admin.key)).body.payload;
    expect(contact.name).toBe("Jürgen Müller");
  });

  it("stores attachments and inline images as the message's files in R2", async () => {
    const files = await messageRow((await received(fill(attachments))).messageId!);
    expect(files.attachments.map((a) => a.file_name).sort()).toEqual(["invoice.pdf", "notes.txt"]);
    expect((files.contentAttributes as any).email.number_of_attachments).toBe(2);
    const inline = await messageRow((await received(fill(inlineImage))).messageId!);
    expect(inline.attachments).toEqual([expect.objectContaining({ file_name: "shot.png", file_type: "image", content_type: "image/png" })]);

    // the HTML shows the inline image by the stored file's URL, not by its cid: (which no reader can open)
    const conversation = await conversationOf(inline.id);
    const listed = await get(`${world.base}/conversations/${conversation.displayId}/messages`, world.admin.key);
    const shown = listed.body.payload.find((m: { id: number }) => m.id === inline.id);
    const html: string = shown.content_attributes.email.html_content.full;
    expect(html).not.toContain("cid:");
    const src = /<img src="([^"]+)"/.exec(html)![1].replace(/&amp;/g, "&");
    expect(src).toBe(shown.attachments[0].data_url);
    const { pathname, search } = new URL(src);
    const image = await call("GET", pathname + search);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
  });

  it("takes mail sent to the forwarding address (X-Original-To, plus-addressing stripped)", async () => {
    const [local, domain] = inbox.forward_to_email.split("@");
    const row = await received(fill(forwarded, { FORWARD_PLUS: `${local}+tag@${domain}` }), inbox.forward_to_email);
    expect(row.outcome).toBe("stored");
    const message = await messageRow(row.messageId!);
    expect((message.contentAttributes as any).email.headers).toEqual({ "x-forwarded-for": "heidi-own-alias@example.net" });
  });

  it("threads replies by reply address, In-Reply-To and References, within the inbox only", async () => {
    const first = await messageRow((await received(fill(plain))).messageId!);
    const conversation = await conversationOf(first.id);
    const byAddress = await received(fill(replyAddress, { UUID: conversation.uuid }), `reply+${conversation.uuid}@${env.INBOUND_EMAIL_DOMAIN}`);
    expect((await messageRow(byAddress.messageId!)).conversationId).toBe(conversation.id);
    const byInReplyTo = await received(fill(inReplyTo, { PARENT: first.sourceId! }));
    expect((await messageRow(byInReplyTo.messageId!)).conversationId).toBe(conversation.id);
    const byReferences = await received(fill(references, { PARENT: first.sourceId! }));
    expect((await messageRow(byReferences.messageId!)).conversationId).toBe(conversation.id);
    // another account's inbox names the same parent: it starts its own conversation, never joins this one
    const foreign = await received(fill(inReplyTo, { INBOX: otherInbox.email, PARENT: first.sourceId! }), otherInbox.email, other.accountId);
    expect(foreign.outcome).toBe("stored");
    const otherDb = await shardDb(other.accountId);
    const foreignMessage = (await otherDb.select().from(schema.messages).where(eq(schema.messages.id, foreign.messageId!)))[0];
    expect(foreignMessage.conversationId).not.toBe(conversation.id);
    expect(foreignMessage.accountId).toBe(other.accountId);
  });

  it("keeps what cannot be read whole: malformed headers, a missing Message-ID", async () => {
    const broken = await received(fill(malformed));
    expect(broken.outcome).toBe("stored");
    expect((await messageRow(broken.messageId!)).content).toContain("multipart never ends");
    const raw = fill(noMessageId);
    const idless = await received(raw);
    expect((await messageRow(idless.messageId!)).sourceId).toMatch(/^[0-9a-f]{32}@missing-message-id\.edgedesk$/);
    // the same bytes again are the same mail
    expect((await received(raw)).outcome).toBe("duplicate");
  });

  it("flags auto-replies, marks bounces on the message they answer, and drops its own mail", async () => {
    const ooo = await messageRow((await received(fill(autoReply))).messageId!);
    expect((ooo.contentAttributes as any).email.auto_reply).toBe(true);

    // an outgoing message of the inbox whose mail bounced
    const first = await messageRow((await received(fill(plain))).messageId!);
    const conversation = await conversationOf(first.id);
    const sent = await post(`${world.base}/conversations/${conversation.displayId}/messages`, world.admin.key, { content: "Here is your answer" });
    // the Message-ID the reply was mailed with (src/domain/email/replies.ts) is what the report names
    await vi.waitFor(async () => expect((await messageRow(sent.body.id)).sourceId).toBeTruthy(), { timeout: 15_000, interval: 50 });
    const report = await received(fill(bounce, { PARENT: (await messageRow(sent.body.id)).sourceId! }));
    expect(report).toMatchObject({ outcome: "bounce", messageId: sent.body.id });
    const failed = await messageRow(sent.body.id);
    expect(failed.status).toBe(3);
    expect((failed.contentAttributes as any).external_error).toContain("550 5.1.1 user unknown");

    const own = await received(fill(loop));
    expect(own).toMatchObject({ outcome: "loop", messageId: null });
    // its raw message is kept all the same
    expect(await env.FILES.head(own.storageKey)).not.toBeNull();
  });

  it("answers a customer's mail out of office, never an auto-reply", async () => {
    const closed = await emailInbox();
    const week = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day_of_week: day, closed_all_day: true }));
    const changed = await patch(`${world.base}/inboxes/${closed.id}`, world.admin.key, { working_hours_enabled: true, out_of_office_message: "We are away", working_hours: week });
    expect(changed.status).toBe(200);
    const templates = async (messageId: number) => {
      const db = await shardDb();
      const message = await messageRow(messageId);
      return db.select().from(schema.messages).where(and(eq(schema.messages.conversationId, message.conversationId), eq(schema.messages.messageType, 3)));
    };
    const customer = await received(fill(plain, { INBOX: closed.email }), closed.email);
    await vi.waitFor(async () => expect(await templates(customer.messageId!)).toHaveLength(1), { timeout: 15_000, interval: 100 });
    const robot = await received(fill(autoReply, { INBOX: closed.email }), closed.email);
    const robotConversation = await conversationOf(robot.messageId!);
    expect(robotConversation.additionalAttributes).toMatchObject({ auto_reply: true });
    await new Promise((r) => setTimeout(r, 2000));
    expect(await templates(robot.messageId!)).toHaveLength(0);
  });
});
