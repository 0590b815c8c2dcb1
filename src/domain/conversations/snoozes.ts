/**
 * Snoozed conversations wake up when their `snoozed_until` has passed, as Chatwoot's scheduled job does:
 * they reopen through the same change every route uses, so counters and events follow.
 */
import { and, asc, eq, lte } from "drizzle-orm";
import { now, schema } from "../../db/client";
import { batch, write } from "../kernel/batch";
import { CONVERSATION_STATUS } from "../kernel/enums";
import { type TransportScope, systemScope } from "../kernel/scope";
import { changeStatements } from "./changes";

const { conversations } = schema;

/** Conversations woken per run: the cron runs every minute, and one batch stays small. */
const WAKE_LIMIT = 25;

/** Reopens the snoozed conversations due at `at`; returns how many woke. */
export async function wakeSnoozedConversations(service: TransportScope, at = now()): Promise<number> {
  const { db } = service;
  const [due] = await batch(db, [
    db
      .select()
      .from(conversations)
      .where(and(eq(conversations.status, CONVERSATION_STATUS.snoozed), lte(conversations.snoozedUntil, at)))
      .orderBy(asc(conversations.snoozedUntil))
      .limit(WAKE_LIMIT),
  ]);
  const statements = due.flatMap((conversation) => {
    const scope = systemScope(service, conversation.accountId);
    return changeStatements(scope, conversation, { status: CONVERSATION_STATUS.open, snoozedUntil: null }, [], at).statements;
  });
  await write(db, statements);
  return due.length;
}
