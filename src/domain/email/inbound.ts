/**
 * Inbound mail of an e-mail inbox, threaded as Chatwoot threads it (docs/email.md). The Worker's
 * `email()` handler kept the raw message in R2 and queued its key; the consumer parsed it
 * (src/email/parse.ts) into an `InboundMail` and hands it here, on the account's shard:
 * - the inbox: the envelope recipient, then To, Cc, X-Original-To and Bcc, `+tag` stripped, against the
 *   account's inbox addresses and forwarding addresses;
 * - the conversation: a `reply+<conversation uuid>@` recipient, then In-Reply-To, then References (each id
 *   by edgedesk's own Message-ID patterns or a stored message's source id), all within that inbox, else a
 *   new one. Chatwoot looks up uuids across the installation; here a mail never joins a conversation of
 *   another inbox or account;
 * - the contact: Reply-To, then From, found by e-mail in the account (the channel's own rule for mail; it
 *   never proves who calls the API) or created.
 * A mail is stored once per Message-ID and inbox (a unique index), so a mail that arrives twice, or a
 * queue message that runs again, adds nothing. What became of every mail is kept in `inbound_emails`.
 */
import { and, desc, eq, inArray, or, sql } from "drizzle-orm";
import { type Statement, lastInsertedId, now, schema } from "../../db/client";
import { batch } from "../kernel/batch";
import { CONTENT_TYPE, MESSAGE_STATUS, MESSAGE_TYPE } from "../kernel/enums";
import { type AccountScope, type TransportScope, systemScope } from "../kernel/scope";
import { type CheckedFile, MAX_FILES_PER_MESSAGE, removeObjects, storeFiles } from "../attachments/uploads";
import { attachmentInsertStatements } from "../attachments/attachments";
import { createContact } from "../contacts/contacts";
import type { ContactRow } from "../contacts/rows";
import { EMAIL_CHANNEL, normalizedAddress } from "../inboxes/email-channel";
import { findPublicRoute } from "../identity/public-routes";
import { accountOfConversationUuid } from "../conversations/by-uuid";
import { createConversation } from "../conversations/conversations";
import { createMessage } from "../conversations/messages";
import { messageAttachmentsStatement, messageInsertStatements } from "../conversations/new-messages";
import { messageEventStatements } from "../conversations/events";

const { inboundEmails, emailChannels, inboxes, conversations, messages, contacts } = schema;

/** Chatwoot's `reply+<uuid>@` local part (REPLY_EMAIL_UUID_PATTERN). */
const REPLY_ADDRESS = /^reply\+([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})@/i;
/** The Message-IDs edgedesk and Chatwoot give their own mail: `conversation/<uuid>/messages/<id>@` and `account/<n>/conversation/<uuid>@`. */
const OWN_MESSAGE_ID = /^(?:conversation\/([0-9a-f-]{36})\/messages\/\d+|account\/\d+\/conversation\/([0-9a-f-]{36}))@/i;
/** Chatwoot's cap on a message's content. */
const MAX_CONTENT = 150_000;

export type MailAddress = { address: string; name: string };

/** A file of a mail, decoded; `inline` images are those the HTML shows by `cid:`. */
export type MailFile = { fileName: string; mimeType: string; content: Uint8Array; contentId: string | null; inline: boolean; file: CheckedFile };

/** A parsed mail, as src/email/parse.ts reads it: ids without angle brackets, addresses lower-cased. */
export type InboundMail = {
  storageKey: string;
  envelopeFrom: string;
  envelopeTo: string;
  messageId: string;
  inReplyTo: string | null;
  references: string[];
  from: MailAddress | null;
  replyTo: MailAddress[];
  to: string[];
  cc: string[];
  bcc: string[];
  xOriginalTo: string[];
  subject: string;
  date: string | null;
  contentType: string | null;
  multipart: boolean;
  /** Chatwoot's `content_attributes.email.text_content` / `html_content`: `{}` when the part is absent */
  textContent: { full: string; reply: string; quoted: string } | Record<string, never>;
  htmlContent: { full: string; reply: string; quoted: string } | Record<string, never>;
  headers: Record<string, string> | null;
  /** Auto-Submitted other than "no", X-Autoreply: yes, or Precedence bulk, list or junk */
  autoReply: boolean;
  /** a delivery report: the Message-ID of the mail that bounced, when the report names it */
  bounce: { originalMessageId: string | null; reason: string } | null;
  files: MailFile[];
};

export type InboundOutcome = { outcome: "stored" | "duplicate" | "loop" | "bounce" | "no_inbox" | "failed"; reason?: string; messageId?: number | null };

/** What became of the mail with this raw message, when it was handled before (a queue message run again). */
async function handledBefore(scope: TransportScope, storageKey: string): Promise<InboundOutcome | null> {
  const [rows] = await batch(scope.db, [scope.db.select().from(inboundEmails).where(eq(inboundEmails.storageKey, storageKey))]);
  const row = rows[0];
  return row ? { outcome: row.outcome as InboundOutcome["outcome"], reason: row.reason ?? undefined, messageId: row.messageId } : null;
}

/** Records what became of a mail (once: a second record of the same raw message is ignored). */
export async function recordInboundEmail(
  scope: TransportScope,
  accountId: number,
  mail: Pick<InboundMail, "storageKey" | "envelopeFrom" | "envelopeTo">,
  result: InboundOutcome,
): Promise<InboundOutcome> {
  await batch(scope.db, [
    scope.db
      .insert(inboundEmails)
      .values({
        accountId,
        storageKey: mail.storageKey,
        envelopeFrom: mail.envelopeFrom,
        envelopeTo: mail.envelopeTo,
        outcome: result.outcome,
        reason: result.reason ?? null,
        messageId: result.messageId ?? null,
        createdAt: now(),
      })
      .onConflictDoNothing(),
  ]);
  return result;
}

/** The account's e-mail inbox the mail is for: the first recipient, in Chatwoot's order, that is one of its addresses. */
async function findInbox(scope: AccountScope, mail: InboundMail) {
  const { db, accountId } = scope;
  const candidates = [mail.envelopeTo, ...mail.to, ...mail.cc, ...mail.xOriginalTo, ...mail.bcc].map(normalizedAddress);
  const replyUuids = [mail.envelopeTo, ...mail.to].map((a) => REPLY_ADDRESS.exec(a)?.[1]?.toLowerCase()).filter((u): u is string => Boolean(u));
  const [channels, replied] = await batch(db, [
    db
      .select({ inboxId: inboxes.id, email: emailChannels.email, forwardToEmail: emailChannels.forwardToEmail })
      .from(emailChannels)
      .innerJoin(inboxes, and(eq(inboxes.accountId, accountId), eq(inboxes.channelType, EMAIL_CHANNEL), eq(inboxes.channelId, emailChannels.id)))
      .where(and(eq(emailChannels.accountId, accountId), or(inArray(emailChannels.email, candidates), inArray(emailChannels.forwardToEmail, candidates)))),
    db
      .select({ inboxId: conversations.inboxId })
      .from(conversations)
      .innerJoin(inboxes, and(eq(inboxes.id, conversations.inboxId), eq(inboxes.channelType, EMAIL_CHANNEL)))
      .where(and(eq(conversations.accountId, accountId), inArray(conversations.uuid, replyUuids.length > 0 ? replyUuids : [""]))),
  ]);
  for (const candidate of candidates) {
    const channel = channels.find((c) => c.email === candidate || c.forwardToEmail === candidate);
    if (channel) return { inboxId: channel.inboxId, replyUuids };
  }
  // mail to a conversation's reply address only (the inbox's own address is not among the recipients)
  return replied[0] ? { inboxId: replied[0].inboxId, replyUuids } : null;
}

/** The conversation of the inbox the mail answers: by reply address, then In-Reply-To, then References. */
async function findConversation(scope: AccountScope, inboxId: number, mail: InboundMail, replyUuids: string[]) {
  const { db, accountId } = scope;
  const ids = [...(mail.inReplyTo ? [mail.inReplyTo] : []), ...mail.references];
  const uuidsOf = (list: string[]) => list.map((id) => OWN_MESSAGE_ID.exec(id)).flatMap((m) => (m ? [(m[1] ?? m[2]).toLowerCase()] : []));
  const uuids = [...replyUuids, ...uuidsOf(ids)];
  const inInbox = and(eq(conversations.accountId, accountId), eq(conversations.inboxId, inboxId));
  const [byUuid, bySource] = await batch(db, [
    db.select().from(conversations).where(and(inInbox, inArray(conversations.uuid, uuids.length > 0 ? uuids : [""]))),
    db
      .select({ sourceId: messages.sourceId, conversationId: messages.conversationId })
      .from(messages)
      .where(and(eq(messages.accountId, accountId), eq(messages.inboxId, inboxId), inArray(messages.sourceId, ids.length > 0 ? ids : [""]))),
  ]);
  const uuidOrder = (uuid: string) => uuids.indexOf(uuid);
  const direct = byUuid.sort((a, b) => uuidOrder(a.uuid) - uuidOrder(b.uuid))[0];
  // a reply address wins, then the ids in the mail's order (In-Reply-To first)
  if (direct && replyUuids.includes(direct.uuid)) return direct;
  for (const id of ids) {
    const own = uuidsOf([id])[0];
    const conversation = own ? byUuid.find((c) => c.uuid === own) : undefined;
    if (conversation) return conversation;
    const source = bySource.find((m) => m.sourceId === id);
    if (source) {
      const [rows] = await batch(db, [db.select().from(conversations).where(and(inInbox, eq(conversations.id, source.conversationId)))]);
      if (rows[0]) return rows[0];
    }
  }
  return null;
}

/** The contact the mail is from: Reply-To, then From, by e-mail in the account, or a new one. */
async function findOrCreateContact(scope: AccountScope, inboxId: number, sender: MailAddress): Promise<ContactRow> {
  const { db, accountId } = scope;
  const [rows] = await batch(db, [
    db.select().from(contacts).where(and(eq(contacts.accountId, accountId), sql`lower(${contacts.email}) = ${sender.address}`)).orderBy(desc(contacts.id)).limit(1),
  ]);
  if (rows[0]) return rows[0];
  const name = sender.name.trim() || sender.address.split("@")[0];
  const { record } = await createContact(scope, { name: name.slice(0, 255), email: sender.address, inboxId, sourceId: sender.address });
  return record.contact;
}

/** Chatwoot's `content_attributes.email` (MailPresenter#serialized_data). */
function emailAttributes(mail: InboundMail, sender: MailAddress) {
  return {
    bcc: mail.bcc,
    cc: mail.cc,
    content_type: mail.contentType,
    date: mail.date,
    from: mail.replyTo.length > 0 ? mail.replyTo.map((a) => a.address) : [sender.address],
    headers: mail.headers,
    html_content: mail.htmlContent,
    in_reply_to: mail.inReplyTo,
    message_id: mail.messageId,
    multipart: mail.multipart,
    number_of_attachments: mail.files.length,
    references: mail.references,
    subject: mail.subject,
    text_content: mail.textContent,
    to: mail.to,
    auto_reply: mail.autoReply,
  };
}

/**
 * Which of the message's files (by position: they are stored in this order) each `cid:` of the HTML
 * shows. The views put the file's signed URL in its place at every rendering (src/views/attachments.ts),
 * so the HTML stays as the mail had it and its images never point at an expired URL.
 */
function inlineImages(kept: MailFile[]): { inline_images?: Record<string, number> } {
  const entries = kept.flatMap((f, i) => (f.inline && f.contentId ? [[f.contentId.toLowerCase(), i] as const] : []));
  return entries.length > 0 ? { inline_images: Object.fromEntries(entries) } : {};
}

const isUniqueViolation = (error: unknown) => /UNIQUE constraint failed: messages\./.test(String(error instanceof Error ? `${error.message} ${String(error.cause)}` : error));

/** A delivery report: the outgoing message of the inbox it names is marked failed; no conversation starts. */
async function markBounce(scope: AccountScope, inboxId: number, bounce: NonNullable<InboundMail["bounce"]>): Promise<InboundOutcome> {
  const { db, accountId } = scope;
  if (!bounce.originalMessageId) return { outcome: "bounce", reason: "the report names no message" };
  const where = and(eq(messages.accountId, accountId), eq(messages.inboxId, inboxId), eq(messages.sourceId, bounce.originalMessageId), eq(messages.messageType, MESSAGE_TYPE.outgoing));
  const [rows] = await batch(db, [db.select({ id: messages.id, contentAttributes: messages.contentAttributes }).from(messages).where(where)]);
  const bounced = rows[0];
  if (!bounced) return { outcome: "bounce", reason: "the bounced message is not this inbox's" };
  await batch(db, [
    db
      .update(messages)
      .set({ status: MESSAGE_STATUS.failed, contentAttributes: { ...bounced.contentAttributes, external_error: bounce.reason }, updatedAt: now() })
      .where(and(eq(messages.accountId, accountId), eq(messages.id, bounced.id))),
  ]);
  return { outcome: "bounce", messageId: bounced.id };
}

/**
 * Threads one parsed mail into the account (see the file's comment) and records what became of it.
 * `ownSender` is edgedesk's own sender address: mail from it is a loop and is dropped.
 */
export async function receiveEmail(transport: TransportScope, accountId: number, mail: InboundMail, ownSender: string): Promise<InboundOutcome> {
  const before = await handledBefore(transport, mail.storageKey);
  if (before) return before;
  const record = (result: InboundOutcome) => recordInboundEmail(transport, accountId, mail, result);
  const scope = systemScope(transport, accountId);
  const found = await findInbox(scope, mail);
  if (!found) return record({ outcome: "no_inbox", reason: "no recipient is an address of the account's e-mail inboxes" });
  const sender = mail.replyTo[0] ?? mail.from;
  if ([mail.from?.address, sender?.address, normalizedAddress(mail.envelopeFrom)].includes(ownSender.toLowerCase())) {
    return record({ outcome: "loop", reason: `from edgedesk's own sender ${ownSender}` });
  }
  if (mail.bounce) return record(await markBounce(scope, found.inboxId, mail.bounce));
  const [stored] = await batch(scope.db, [
    scope.db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.inboxId, found.inboxId), eq(messages.sourceId, mail.messageId), eq(messages.contentType, CONTENT_TYPE.incoming_email))),
  ]);
  if (stored[0]) return record({ outcome: "duplicate", messageId: stored[0].id });
  if (!sender || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(sender.address)) return record({ outcome: "failed", reason: "the sender has no valid address" });

  const conversation = await findConversation(scope, found.inboxId, mail, found.replyUuids);
  const contact = await findOrCreateContact(scope, found.inboxId, sender);
  const contactScope: AccountScope = { ...scope, actor: { type: "contact", contact } };
  const content = (("reply" in mail.textContent && mail.textContent.reply) || ("reply" in mail.htmlContent && mail.htmlContent.reply) || "").slice(0, MAX_CONTENT);
  // Chatwoot keeps the last 15 files
  const kept = mail.files.slice(-MAX_FILES_PER_MESSAGE);
  const files = kept.map((f) => f.file);
  const attributes = { email: { ...emailAttributes(mail, sender), ...inlineImages(kept) }, cc_email: mail.cc, bcc_email: mail.bcc };
  try {
    if (conversation) {
      const result = await createMessage(contactScope, conversation.displayId, {
        messageType: "incoming",
        contentType: "incoming_email",
        content,
        sourceId: mail.messageId,
        files,
        channelAttributes: attributes,
      });
      return record({ outcome: "stored", messageId: result.message.message.id });
    }
    const messageId = await startConversation(contactScope, found.inboxId, contact, mail, content, attributes, files);
    return record({ outcome: "stored", messageId });
  } catch (error) {
    // the same mail, stored by a delivery that ran alongside this one
    if (isUniqueViolation(error)) return record({ outcome: "duplicate" });
    throw error;
  }
}

/** A new conversation whose first message is the mail, written in one batch with its files. */
async function startConversation(
  scope: AccountScope,
  inboxId: number,
  contact: ContactRow,
  mail: InboundMail,
  content: string,
  attributes: Record<string, unknown>,
  files: CheckedFile[],
): Promise<number> {
  const at = now();
  const storedFiles = files.length > 0 ? await storeFiles(scope.env, scope.accountId, files, "attachments") : [];
  const conversationId = lastInsertedId(conversations);
  const messageId = lastInsertedId(messages);
  const draft = { messageType: MESSAGE_TYPE.incoming, sender: { senderType: "Contact" as const, senderId: contact.id }, content, contentType: "incoming_email" as const, contentAttributes: attributes, sourceId: mail.messageId };
  const alsoWrite: Statement[] = [
    ...messageInsertStatements(scope, { id: conversationId, inboxId }, draft, at),
    ...attachmentInsertStatements(scope.db, scope.accountId, { conversationId, messageId }, storedFiles, at),
    ...(storedFiles.length > 0 ? [messageAttachmentsStatement(scope, messageId)] : []),
    ...messageEventStatements(scope, "message_created", messageId, MESSAGE_TYPE.incoming),
  ];
  try {
    const created = await createConversation(scope, {
      inboxId,
      contactId: contact.id,
      additionalAttributes: {
        in_reply_to: mail.inReplyTo,
        source: "email",
        auto_reply: mail.autoReply,
        mail_subject: mail.subject,
        initiated_at: { timestamp: new Date(at).toUTCString() },
      },
      alsoWrite,
    });
    const [rows] = await batch(scope.db, [
      scope.db.select({ id: messages.id }).from(messages).where(and(eq(messages.conversationId, created.conversation.id), eq(messages.sourceId, mail.messageId))),
    ]);
    return rows[0].id;
  } catch (error) {
    await removeObjects(scope.env, storedFiles.map((f) => f.storageKey));
    throw error;
  }
}

/**
 * The account a recipient address leads to, asked at SMTP time: an e-mail inbox's address or forwarding
 * address (the directory's public routes, one indexed read), or a conversation's reply address
 * `reply+<uuid>@<inbound domain>` (the conversation's uuid on each shard, read side by side). Null: no
 * account takes mail there, and the sender is told so.
 */
export async function recipientAccount(scope: TransportScope, recipient: string, inboundDomain: string): Promise<number | null> {
  const address = normalizedAddress(recipient);
  const owner = await findPublicRoute(scope, "inbox_email", address);
  if (owner !== null) return owner;
  const uuid = REPLY_ADDRESS.exec(recipient.trim())?.[1]?.toLowerCase();
  if (!uuid || !inboundDomain || !recipient.trim().toLowerCase().endsWith(`@${inboundDomain.toLowerCase()}`)) return null;
  return accountOfConversationUuid(scope, uuid);
}
