/**
 * Snoozed conversations wake up when their `snoozed_until` has passed, as Chatwoot's scheduled job does:
 * they reopen through the same change every route uses, so counters and events follow.
 */
import { and, asc, eq, lte } from "drizzle-orm";
import { type Database, type Statement, now, schema } from "../../db/client";
import { STATUS, changeStatements } from "./changes";

const { conversations } = schema;

/** Conversations woken per run: the cron runs every minute, and one batch stays small. */
const WAKE_LIMIT = 25;

/** Reopens the snoozed conversations due at `at`; returns how many woke. */
export async function wakeSnoozedConversations(db: Database, env: Env, at = now()): Promise<number> {
  const [due] = await db.batch([
    db
      .select()
      .from(conversations)
      .where(and(eq(conversations.status, STATUS.snoozed), lte(conversations.snoozedUntil, at)))
      .orderBy(asc(conversations.snoozedUntil))
      .limit(WAKE_LIMIT),
  ]);
  const statements: Statement[] = due.flatMap((conversation) => {
    const scope = { db, accountId: conversation.accountId, actor: { type: "system" as const }, role: null, env };
    return changeStatements(scope, conversation, { status: STATUS.open, snoozedUntil: null }, [], at).statements;
  });
  if (statements.length > 0) await db.batch(statements as [Statement, ...Statement[]]);
  return due.length;
}
