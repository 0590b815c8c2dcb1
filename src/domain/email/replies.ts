/**
 * Messages of an e-mail conversation mailed to its contact, as Chatwoot's reply mailer sends them (README
 * "E-mail inboxes", **Outbound**): an agent's public reply, and the automatic templates (a CSAT survey, an
 * out-of-office or greeting text). The queue's event job (src/jobs/email-replies.ts) calls `queueReplyMail`
 * after the message's batch has committed, so writing a message never waits on this: it composes the
 * mail's headers from the thread and writes one `outgoing_emails` row per message (a unique index), which
 * the outgoing-mail attempts send with their retries and log (src/jobs/outgoing-email.ts). What an attempt
 * came to is written back on the message by `replyOutcomeStatements`: the Message-ID the mail went out with
 * becomes its `source_id` (so the customer's answer, which names it in In-Reply-To, threads), and a final
 * failure marks it `failed` with the reason as `external_error`, as Chatwoot does.
 */
import { and, desc, eq, ne, sql } from "drizzle-orm";
import { type Statement, now, schema } from "../../db/client";
import type { OutgoingMailParts } from "../../../drizzle/schema";
import { batchNamed } from "../kernel/batch";
import { CONTENT_TYPE, MESSAGE_STATUS, MESSAGE_STATUSES, MESSAGE_TYPE } from "../kernel/enums";
import { type TransportScope, systemScope } from "../kernel/scope";
import { EMAIL_CHANNEL } from "../inboxes/email-channel";
import { messageEventStatements } from "../conversations/events";

const { messages, inboxes, emailChannels, conversations, contacts, users, attachments, outgoingEmails } = schema;

/** The kinds of `outgoing_emails` rows this module writes. */
export const REPLY_MAIL_KINDS = { reply: "conversation_reply", survey: "csat_survey", template: "automatic_reply" } as const;

/** How long the minute sweep leaves a row just queued alone (it is re-queued only if its queue message was lost). */
const QUEUED_LEASE_MS = 10 * 60 * 1000;
/** References kept from the thread: enough for any client to thread, far below the header limits. */
const MAX_REFERENCES = 20;
const ADDRESS = /^[^@\s<>",;]+@[^@\s<>",;]+\.[^@\s<>",;]+$/;

/** `to_emails`, `cc_emails`, `bcc_emails` as Chatwoot stores them (arrays) or as its API takes them (comma-separated). */
function addressList(value: unknown): string[] {
  const items = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : [];
  const addresses = items.filter((a): a is string => typeof a === "string").map((a) => a.trim().toLowerCase());
  return [...new Set(addresses.filter((a) => ADDRESS.test(a)))];
}

const bracketed = (id: string) => `<${id.replace(/^<|>$/g, "")}>`;

/** Which of a conversation's messages become mail (Chatwoot's `email_notifiable_message?`), and as what kind. */
function mailKind(message: Pick<typeof messages.$inferSelect, "private" | "messageType" | "contentType" | "contentAttributes">) {
  if (message.private || message.contentAttributes.deleted === true) return null;
  if (message.messageType === MESSAGE_TYPE.outgoing) return REPLY_MAIL_KINDS.reply;
  if (message.messageType !== MESSAGE_TYPE.template) return null;
  if (message.contentType === CONTENT_TYPE.input_csat) return REPLY_MAIL_KINDS.survey;
  return message.contentType === CONTENT_TYPE.text ? REPLY_MAIL_KINDS.template : null;
}

/**
 * Writes the mail of message `messageId` when it is one an e-mail conversation mails, and answers the row
 * to send at once (null: nothing to send, or its mail is already written). `again` (a retry of a failed
 * message) makes the message's row pending again, composed anew, instead of leaving it as it is.
 */
export async function queueReplyMail(transport: TransportScope, accountId: number, messageId: number, again = false): Promise<{ emailId: number; attempt: number } | null> {
  const { db, env } = transport;
  const first = await batchNamed(db, {
    found: db
      // (columns of one name in two tables would be read as one: only the channel's own are taken beside the message)
      .select({
        message: messages,
        channel: { email: emailChannels.email, imapEnabled: emailChannels.imapEnabled, verifiedForSending: emailChannels.verifiedForSending },
        businessName: inboxes.businessName,
        inboxName: inboxes.name,
        senderNameType: inboxes.senderNameType,
      })
      .from(messages)
      .innerJoin(inboxes, and(eq(inboxes.accountId, accountId), eq(inboxes.id, messages.inboxId), eq(inboxes.channelType, EMAIL_CHANNEL)))
      .innerJoin(emailChannels, and(eq(emailChannels.accountId, accountId), eq(emailChannels.id, inboxes.channelId)))
      .where(and(eq(messages.accountId, accountId), eq(messages.id, messageId))),
  });
  const found = first.found[0];
  const kind = found ? mailKind(found.message) : null;
  if (!found || !kind) return null;
  const { message, channel } = found;
  const inConversation = and(eq(messages.accountId, accountId), eq(messages.conversationId, message.conversationId));
  const reads = await batchNamed(db, {
    conversation: db.select().from(conversations).where(and(eq(conversations.accountId, accountId), eq(conversations.id, message.conversationId))),
    contact: db
      .select({ email: contacts.email })
      .from(contacts)
      .where(and(eq(contacts.accountId, accountId), sql`${contacts.id} = (SELECT ${conversations.contactId} FROM ${conversations} WHERE ${conversations.id} = ${message.conversationId} AND ${conversations.accountId} = ${accountId})`)),
    // the agent the display name names: the sender, else the conversation's assignee
    people: db
      .select({ id: users.id, name: users.name, displayName: users.displayName })
      .from(users)
      .where(
        sql`${users.id} IN (SELECT ${message.senderType === "User" ? (message.senderId ?? 0) : 0} UNION SELECT ${conversations.assigneeId} FROM ${conversations} WHERE ${conversations.id} = ${message.conversationId} AND ${conversations.accountId} = ${accountId})`,
      ),
    lastIncoming: db.select({ contentAttributes: messages.contentAttributes }).from(messages).where(and(inConversation, eq(messages.messageType, MESSAGE_TYPE.incoming))).orderBy(desc(messages.id)).limit(1),
    // Chatwoot's "chat" messages (neither activity nor private): only whether there is more than one matters
    chat: db
      .select({ count: sql<number>`count(*)` })
      .from(db.select({ one: sql`1` }).from(messages).where(and(inConversation, ne(messages.messageType, MESSAGE_TYPE.activity), eq(messages.private, false))).limit(2).as("chat")),
    files: db.select().from(attachments).where(and(eq(attachments.accountId, accountId), eq(attachments.messageId, message.id))).orderBy(attachments.id),
  });
  const conversation = reads.conversation[0];
  if (!conversation) return null;

  const inboundDomain = env.INBOUND_EMAIL_DOMAIN;
  const ownDomain = inboundDomain || channel.email.split("@")[1];
  const attributes = message.contentAttributes;
  const to = addressList(attributes.to_emails);
  const contactEmail = addressList(reads.contact[0]?.email ?? "");
  const agent = reads.people.find((p) => message.senderType === "User" && p.id === message.senderId) ?? reads.people.find((p) => p.id === conversation.assigneeId);
  const business = found.businessName || found.inboxName;
  // friendly: "<agent> from <business>"; professional: the business alone (Chatwoot's two sender names)
  const name = found.senderNameType === 0 ? `${agent?.displayName || agent?.name || "Notifications"} from ${business}` : business;
  const incoming = reads.lastIncoming[0]?.contentAttributes.email as { message_id?: unknown; references?: unknown } | undefined;
  const inReplyTo = typeof incoming?.message_id === "string" && incoming.message_id ? bracketed(incoming.message_id) : `<account/${accountId}/conversation/${conversation.uuid}@${ownDomain}>`;
  const threadReferences = Array.isArray(incoming?.references) ? incoming.references.filter((r): r is string => typeof r === "string").map(bracketed) : [];
  const references = [...new Set([...threadReferences, inReplyTo])].slice(-MAX_REFERENCES);
  const subject = typeof conversation.additionalAttributes.mail_subject === "string" ? conversation.additionalAttributes.mail_subject : null;
  const content = message.content ?? "";
  const surveyUrl = kind === REPLY_MAIL_KINDS.survey ? new URL(`/survey/responses/${conversation.uuid}`, env.FRONTEND_URL).toString() : null;
  const parts: OutgoingMailParts = {
    // the inbox's own address only once it may send from it; otherwise the service's sender
    from: { email: channel.verifiedForSending ? channel.email : env.MAILER_SENDER_EMAIL, name },
    replyTo: channel.imapEnabled || !inboundDomain ? channel.email : `reply+${conversation.uuid}@${inboundDomain}`,
    cc: addressList(attributes.cc_emails),
    bcc: addressList(attributes.bcc_emails),
    headers: {
      "In-Reply-To": inReplyTo,
      References: references.join(" "),
      // the templates are automatic mail (RFC 3834): no auto-responder answers them
      ...(kind !== REPLY_MAIL_KINDS.reply && { "Auto-Submitted": "auto-generated", "X-Auto-Response-Suppress": "All" }),
    },
    messageId: `conversation/${conversation.uuid}/messages/${message.id}@${ownDomain}`,
    markdown: content,
    surveyUrl,
    files: reads.files.map((f) => ({ id: f.id, fileName: f.fileName, contentType: f.contentType, size: f.fileSize, storageKey: f.storageKey })),
  };
  const at = now();
  const row = {
    accountId,
    kind,
    recipients: to.length > 0 ? to : contactEmail,
    subject: subject === null ? `[#${conversation.displayId}] New messages on this conversation` : Number(reads.chat[0]?.count ?? 0) > 1 ? `Re: ${subject}` : subject,
    body: surveyUrl ? `${content}\n\n${surveyUrl}` : content,
    conversationId: conversation.id,
    messageId: message.id,
    parts,
    status: "pending",
    attempts: 0,
    nextAttemptAt: at + QUEUED_LEASE_MS,
    lastError: null,
    providerMessageId: null,
    sentAt: null,
    createdAt: at,
    updatedAt: at,
  };
  const insert = db.insert(outgoingEmails).values(row);
  const written = await batchNamed(db, {
    row: (again
      ? insert.onConflictDoUpdate({
          target: [outgoingEmails.accountId, outgoingEmails.messageId],
          targetWhere: sql`message_id IS NOT NULL`,
          // composed anew: createdAt is when, and names the attempts' idempotency key (src/email/replies.ts)
          set: row,
          // a mail already on its way is not started a second time
          setWhere: sql`${outgoingEmails.status} <> 'pending'`,
        })
      : insert.onConflictDoNothing()
    ).returning({ id: outgoingEmails.id }),
  });
  const id = written.row[0]?.id;
  return id === undefined ? null : { emailId: id, attempt: 0 };
}

/** The outcome of an attempt at a row this module wrote, for its message: sent, or failed for good. */
export type ReplyOutcome = { result: "sent"; messageId: string } | { result: "failed"; error: string };

/**
 * The statements that write an attempt's outcome on the row's message, to run in the batch that records
 * the attempt: the Message-ID as `source_id`; or `failed` with `external_error`, and `message_updated`.
 */
export async function replyOutcomeStatements(transport: TransportScope, row: { accountId: number | null; messageId: number | null }, outcome: ReplyOutcome): Promise<Statement[]> {
  const { db } = transport;
  if (row.accountId === null || row.messageId === null) return [];
  const where = and(eq(messages.accountId, row.accountId), eq(messages.id, row.messageId));
  if (outcome.result === "sent") return outcome.messageId ? [db.update(messages).set({ sourceId: outcome.messageId }).where(where)] : [];
  const { message } = await batchNamed(db, { message: db.select().from(messages).where(where) });
  const current = message[0];
  if (!current || current.status === MESSAGE_STATUS.failed) return [];
  return [
    db
      .update(messages)
      .set({ status: MESSAGE_STATUS.failed, contentAttributes: { ...current.contentAttributes, external_error: outcome.error }, updatedAt: now() })
      .where(where),
    ...messageEventStatements(systemScope(transport, row.accountId), "message_updated", current.id, current.messageType, {
      changed_attributes: [{ status: { previous_value: MESSAGE_STATUSES[current.status], current_value: "failed" } }],
    }),
  ];
}
