/**
 * GET /conversations/{id}/attachments: the files of one conversation, newest first, 100 a page, each
 * with its message's sender (Chatwoot's shape). Reads are bounded by the conversation, never the account.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import type { AttachmentRow } from "../attachments/rows";
import { type AccountScope } from "../kernel/scope";
import { conversationColumn, readConversation } from "./access";
import { type People, type Sender, senderOf, senderQueries } from "./loader";
import type { MessageRow } from "./rows";

const { attachments, messages, conversations } = schema;

export const ATTACHMENTS_PAGE_SIZE = 100;

export type ConversationAttachment = { attachment: AttachmentRow; message: MessageRow; sender: Sender | null };

export async function listConversationAttachments(
  scope: AccountScope,
  displayId: number,
  page: number,
): Promise<{ totalCount: number; attachments: ConversationAttachment[] }> {
  const { db, accountId } = scope;
  const conversationId = conversationColumn(scope, displayId, conversations.id);
  const inConversation = and(eq(attachments.accountId, accountId), sql`${attachments.conversationId} = ${conversationId}`);
  const pageRows = sql`SELECT ${attachments.messageId} FROM ${attachments} WHERE ${inConversation} ORDER BY ${attachments.id} DESC LIMIT ${ATTACHMENTS_PAGE_SIZE} OFFSET ${(page - 1) * ATTACHMENTS_PAGE_SIZE}`;
  const [agentsQ, contactsQ, botsQ] = senderQueries(db, accountId, pageRows);
  const { extra } = await readConversation(scope, displayId, [
    db
      .select()
      .from(attachments)
      .where(inConversation)
      .orderBy(desc(attachments.id))
      .limit(ATTACHMENTS_PAGE_SIZE)
      .offset((page - 1) * ATTACHMENTS_PAGE_SIZE),
    // separately, not joined: D1 answers rows keyed by column name, and both tables have an `id`
    db.select().from(messages).where(and(eq(messages.accountId, accountId), sql`${messages.id} IN (${pageRows})`)),
    db.select({ count: sql<number>`count(*)` }).from(attachments).where(inConversation),
    agentsQ,
    contactsQ,
    botsQ,
  ]);
  const [rows, messageRows, countRows, agents, contacts, bots] = extra;
  const people: People = { agents, contacts, bots };
  const byId = new Map(messageRows.map((m) => [m.id, m]));
  return {
    totalCount: Number(countRows[0]?.count ?? 0),
    attachments: rows.flatMap((attachment) => {
      const message = byId.get(attachment.messageId);
      return message ? [{ attachment, message, sender: senderOf(message, people) }] : [];
    }),
  };
}
