/**
 * DELETE /conversations/{id} (administrators, as in Chatwoot): the conversation, its messages (and their
 * search index rows), labels and files, and its place in the conversation counters and in the reports that
 * count conversations as they are now (by status, by label), in one batch. Other report facts stay: the
 * work was done, and past reports do not change when a conversation is deleted. The files'
 * objects leave R2 once the batch has committed (their rows, and so their URLs, are gone with it).
 */
import { and, eq, sql } from "drizzle-orm";
import { now, schema } from "../../db/client";
import { attachmentKeysQuery } from "../attachments/attachments";
import { removeObjects } from "../attachments/uploads";
import { write } from "../kernel/batch";
import { forbidden } from "../kernel/errors";
import { type AccountScope } from "../kernel/scope";
import { readConversation } from "./access";
import { counterStatements } from "./counters";
import { conversationsGoneStatements } from "./notifications";
import { unindexMessages } from "./search-index";
import { conversationsLeaveStatements } from "../reports/facts";

const { conversations, messages, taggings, attachments } = schema;

export async function deleteConversation(scope: AccountScope, displayId: number): Promise<void> {
  if (scope.role !== "administrator") throw forbidden("Only administrators of this account may delete conversations", "administrator_required");
  const { db, accountId } = scope;
  const idOf = sql<number>`(SELECT ${conversations.id} FROM ${conversations} WHERE ${conversations.accountId} = ${accountId} AND ${conversations.displayId} = ${displayId})`;
  const { conversation, extra } = await readConversation(scope, displayId, [attachmentKeysQuery(db, accountId, sql`${attachments.conversationId} = ${idOf}`)]);
  const [keyRows] = extra;
  const id = conversation.id;
  await write(db, [
    ...counterStatements(db, accountId, conversation, null),
    unindexMessages(db, sql`SELECT ${messages.id} FROM ${messages} WHERE ${messages.accountId} = ${accountId} AND ${messages.conversationId} = ${id}`),
    db.delete(messages).where(and(eq(messages.accountId, accountId), eq(messages.conversationId, id))),
    db.delete(attachments).where(and(eq(attachments.accountId, accountId), eq(attachments.conversationId, id))),
    ...conversationsLeaveStatements(scope, sql`c.id = ${id}`),
    db.delete(taggings).where(and(eq(taggings.accountId, accountId), eq(taggings.taggableType, "Conversation"), eq(taggings.taggableId, id))),
    ...conversationsGoneStatements(db, accountId, sql`SELECT ${id}`, now()),
    db.delete(conversations).where(and(eq(conversations.accountId, accountId), eq(conversations.id, id))),
  ]);
  await removeObjects(scope.env, keyRows.map((r) => r.key));
}
