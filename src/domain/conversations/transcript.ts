/**
 * A conversation's transcript as mail: its public messages (the latest TRANSCRIPT_LIMIT), oldest first,
 * one line each with the time and the sender's name. The automation action `send_email_transcript`
 * and POST /conversations/:id/transcript both render it here and record it through the one writer of
 * outgoing mail (kernel/outgoing-email.ts); the queue sends it.
 */
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import { batchNamed, write } from "../kernel/batch";
import { MESSAGE_TYPE } from "../kernel/enums";
import { outgoingEmailStatement } from "../kernel/outgoing-email";
import { type AccountScope } from "../kernel/scope";
import type { ContactRow } from "../contacts/rows";
import { usableBy } from "../people/agent-bots";
import { readConversation } from "./access";
import type { ConversationRow, MessageRow } from "./rows";

const { messages, contacts, users, agentBots } = schema;

/** The most messages a transcript carries (the latest ones). */
export const TRANSCRIPT_LIMIT = 500;

export type Transcript = { contact: ContactRow | null; subject: string; body: string };

/** Reads and renders the transcript of `conversation` (already known to be the scope's). */
export async function renderTranscript(scope: AccountScope, conversation: ConversationRow): Promise<Transcript> {
  const { db, accountId } = scope;
  const conversationId = conversation.id;
  const ofConversation = and(eq(messages.accountId, accountId), eq(messages.conversationId, conversationId));
  const senders = (type: string) => sql`(SELECT ${messages.senderId} FROM ${messages} WHERE ${ofConversation} AND ${messages.senderType} = ${type})`;
  const read = await batchNamed(db, {
    messages: db
      .select()
      .from(messages)
      .where(and(ofConversation, eq(messages.private, false), inArray(messages.messageType, [MESSAGE_TYPE.incoming, MESSAGE_TYPE.outgoing])))
      .orderBy(desc(messages.id))
      .limit(TRANSCRIPT_LIMIT),
    contact: db.select().from(contacts).where(and(eq(contacts.accountId, accountId), eq(contacts.id, conversation.contactId))),
    users: db.select({ id: users.id, name: users.name }).from(users).where(sql`${users.id} IN ${senders("User")}`),
    // a sender bot may be a system bot (no account), usable by every account
    bots: db.select({ id: agentBots.id, name: agentBots.name }).from(agentBots).where(and(usableBy(accountId), sql`${agentBots.id} IN ${senders("AgentBot")}`)),
  });
  const contact = read.contact[0] ?? null;
  const name = (m: MessageRow) => {
    if (m.senderType === "Contact") return contact?.name || "Contact";
    if (m.senderType === "User") return read.users.find((u) => u.id === m.senderId)?.name ?? "Agent";
    if (m.senderType === "AgentBot") return read.bots.find((b) => b.id === m.senderId)?.name ?? "Bot";
    return "Automation";
  };
  const lines = read.messages.reverse().map((m) => `[${new Date(m.createdAt).toISOString()}] ${name(m)}: ${m.content ?? ""}`);
  return { contact, subject: `Transcript of conversation #${conversation.displayId}`, body: lines.join("\n") };
}

/**
 * Transcript mail goes to addresses a user typed, outside the account: every recipient spends the
 * account's allowance (`transcript_mail`, docs/limits.md) before the mail is recorded, so that no
 * route, macro or rule makes the service a mail relay. Over the allowance nothing is recorded (429).
 */
export const spendTranscriptAllowance = (scope: AccountScope, recipients: readonly string[]) =>
  scope.ports.allowances.spend("transcript_mail", `account:${scope.accountId}`, recipients.length);

/**
 * POST /conversations/:id/transcript: records the transcript as mail to `email`. The caller must reach
 * the conversation (agents of its inbox or team, administrators): 404 or 403 before anything is written.
 */
export async function emailConversationTranscript(scope: AccountScope, displayId: number, email: string): Promise<void> {
  const { conversation } = await readConversation(scope, displayId, []);
  const transcript = await renderTranscript(scope, conversation);
  await spendTranscriptAllowance(scope, [email]);
  await write(scope.db, [
    outgoingEmailStatement(scope.db, {
      kind: "transcript",
      recipients: [email],
      subject: transcript.subject,
      body: transcript.body,
      accountId: scope.accountId,
      conversationId: conversation.id,
    }),
  ]);
}

/**
 * The transcript of a conversation the caller reaches, to read (the MCP resource): the same public
 * messages the mail carries, so private notes stay out of anything that may be passed on to the contact.
 */
export async function readTranscript(scope: AccountScope, displayId: number): Promise<Transcript> {
  const { conversation } = await readConversation(scope, displayId, []);
  return renderTranscript(scope, conversation);
}
