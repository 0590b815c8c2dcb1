/** What an event job needs of its event: its name and subject, from the queue message or, for an older message, the row. */
import { and, eq } from "drizzle-orm";
import { type Database, schema } from "../db/client";
import { batchNamed } from "../domain/kernel/batch";
import type { EventMessage } from "../events/dispatch";

export type EventSubject = { accountId: number; eventName: string; subjectType: string; subjectId: number };

/** The event's subject when its name is one of `names`, else null (read from the row only for a message that lacks it). */
export async function eventSubject(db: Database, message: EventMessage, names: ReadonlySet<string>): Promise<EventSubject | null> {
  if (message.eventName !== undefined && !names.has(message.eventName)) return null;
  if (message.eventName !== undefined && message.subjectType !== undefined && message.subjectId !== undefined) {
    return { accountId: message.accountId, eventName: message.eventName, subjectType: message.subjectType, subjectId: message.subjectId };
  }
  const { rows } = await batchNamed(db, { rows: db.select().from(schema.eventOutbox).where(and(eq(schema.eventOutbox.accountId, message.accountId), eq(schema.eventOutbox.id, message.eventId))) });
  const row = rows[0];
  return row && names.has(row.eventName) ? { accountId: row.accountId, eventName: row.eventName, subjectType: row.subjectType, subjectId: row.subjectId } : null;
}
