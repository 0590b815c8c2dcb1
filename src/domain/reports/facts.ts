/**
 * Reporting facts: one `reporting_events` row per thing reports count (a conversation created, its first
 * response, its resolution), written in the same batch as the change it records, so that reports read
 * the facts of a window instead of replaying the account's history.
 */
import type { SQL } from "drizzle-orm";
import { schema } from "../../db/client";
import { type AccountScope, actingUserId } from "../kernel/scope";

const { reportingEvents } = schema;

export const REPORTING_FACTS = ["conversation_created", "first_response", "conversation_resolved"] as const;
export type ReportingFact = (typeof REPORTING_FACTS)[number];

/**
 * The insert of fact `name` about `conversation` (whose id may be `lastInsertedId(...)` of the same
 * batch), with its value in seconds and the acting user, if any.
 */
export function reportingFactStatement(
  scope: AccountScope,
  conversation: { id: number | SQL<number>; inboxId: number },
  name: ReportingFact,
  valueSeconds: number,
  at: number,
) {
  return scope.db.insert(reportingEvents).values({
    accountId: scope.accountId,
    name,
    value: valueSeconds,
    conversationId: conversation.id,
    inboxId: conversation.inboxId,
    userId: actingUserId(scope),
    createdAt: at,
  });
}

/** Seconds from `fromMs` to `toMs`, as facts store durations. */
export const secondsBetween = (fromMs: number, toMs: number) => Math.round((toMs - fromMs) / 1000);
