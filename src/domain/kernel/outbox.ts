/**
 * Events are written to the outbox in the same batch as the change that causes them, so an
 * acknowledged change never loses its event. Delivery (queue, webhooks, automation) reads the outbox;
 * the live feeds are shown each committed row as its batch returns it (src/feed/commit.ts).
 */
import type { SQL } from "drizzle-orm";
import { type Database, now, schema } from "../../db/client";

/** `{ "<attribute>": { previous_value, current_value } }` entries, as Chatwoot's webhooks carry them. */
export type ChangedAttributes = Array<Record<string, { previous_value: unknown; current_value: unknown }>>;

/** An outbox row as stored: what fan-out, payloads and automation read. */
export type OutboxRow = typeof schema.eventOutbox.$inferSelect;

/** One outbox event as the queue names it: ids are unique per shard only, so the account goes with the id. */
export type OutboxEventRef = { accountId: number; eventId: number };

export type OutboxEvent = {
  accountId: number;
  eventName: string;
  /** "Conversation" | "Message" | "Contact" | "Inbox" | ... */
  subjectType: string;
  /** the subject's id, or `lastInsertedId(table)` for a row inserted earlier in the same batch */
  subjectId: number | SQL<number>;
  data?: Record<string, unknown>;
  causedByAutomation?: boolean;
};

/** The row's insert; it returns the row, so whoever committed the batch knows its events without reading them back. */
export function eventStatement(db: Database, event: OutboxEvent) {
  return db.insert(schema.eventOutbox).values({
    accountId: event.accountId,
    eventName: event.eventName,
    subjectType: event.subjectType,
    subjectId: event.subjectId,
    data: event.data ?? {},
    causedByAutomation: event.causedByAutomation ?? causedByRule(event.data),
    createdAt: now(),
  }).returning();
}

/**
 * Every change an automation rule makes runs with the rule as its actor, and every event names its
 * performer from the actor: so the performer says whether a rule caused the event, and only the automation
 * consumer reads the flag (a rule's changes still reach webhooks, but never trigger rules: no loops).
 */
function causedByRule(data: Record<string, unknown> | undefined): boolean {
  const performer = data?.performer as { type?: unknown } | null | undefined;
  return performer?.type === "AutomationRule";
}

/** The changes between two versions of a record, for the given attributes (JSON-equal values are unchanged). */
export function changedAttributes<T extends Record<string, unknown>>(before: T, after: T, keys: Array<keyof T & string>): ChangedAttributes {
  return keys
    .filter((key) => JSON.stringify(before[key] ?? null) !== JSON.stringify(after[key] ?? null))
    .map((key) => ({ [key]: { previous_value: before[key] ?? null, current_value: after[key] ?? null } }));
}
