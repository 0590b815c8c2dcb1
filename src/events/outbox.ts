import type { SQL } from "drizzle-orm";
import { type Database, now, schema } from "../db/client";

export type OutboxEvent = {
  accountId: number;
  eventName: string;
  /** "Contact" | "Conversation" | "Message" | ... */
  subjectType: string;
  /** the subject's id, or SQL for a row inserted earlier in the same batch (`lastInsertedId`) */
  subjectId: number | SQL<number>;
  data?: Record<string, unknown>;
  causedByAutomation?: boolean;
};

/**
 * The outbox row of one event, to go into the same `db.batch` as the change it reports: the batch is
 * atomic, so an acknowledged change never loses its event and a failed one never emits it.
 */
export function eventStatement(db: Database, event: OutboxEvent) {
  return db.insert(schema.eventOutbox).values({
    accountId: event.accountId,
    eventName: event.eventName,
    subjectType: event.subjectType,
    subjectId: event.subjectId,
    data: event.data ?? {},
    causedByAutomation: event.causedByAutomation ?? false,
    createdAt: now(),
  });
}

/** `changed_attributes` as Chatwoot's webhooks carry it: one `{attr: {previous_value, current_value}}` per change. */
export function changedAttributes(before: Record<string, unknown>, after: Record<string, unknown>) {
  return Object.keys(after)
    .filter((attr) => JSON.stringify(before[attr] ?? null) !== JSON.stringify(after[attr] ?? null))
    .map((attr) => ({ [attr]: { previous_value: before[attr] ?? null, current_value: after[attr] ?? null } }));
}
