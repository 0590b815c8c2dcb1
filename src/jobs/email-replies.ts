/**
 * The e-mail channel's side of the events: a message created in an e-mail conversation (an agent's reply,
 * a CSAT survey, an automatic text) is mailed to the contact, and a failed one retried (the retry route's
 * `message_updated`, status failed -> sent) is mailed again. The domain writes the mail's row
 * (src/domain/email/replies.ts); its first attempt is queued at once, the minute sweep being the net
 * for a queue message lost on the way. Handling an event twice writes one row and sends one mail.
 */
import { and, eq } from "drizzle-orm";
import { type Database, schema } from "../db/client";
import { batchNamed } from "../domain/kernel/batch";
import { queueReplyMail } from "../domain/email/replies";
import type { EventMessage } from "../events/dispatch";
import { eventSubject } from "./event-subject";
import type { OutgoingEmailMessage } from "./outgoing-email";
import { jobScope } from "./scope";

const MESSAGE_EVENTS = new Set(["message_created", "message_updated"]);

type StatusChange = { status?: { previous_value?: unknown; current_value?: unknown } } | null;

/** A `message_updated` that is the retry of a failed message. */
async function isRetry(db: Database, message: EventMessage): Promise<boolean> {
  const { rows } = await batchNamed(db, {
    rows: db.select({ data: schema.eventOutbox.data }).from(schema.eventOutbox).where(and(eq(schema.eventOutbox.accountId, message.accountId), eq(schema.eventOutbox.id, message.eventId))),
  });
  const changes = rows[0]?.data.changed_attributes;
  return Array.isArray(changes) && (changes as StatusChange[]).some((c) => c?.status?.previous_value === "failed" && c.status.current_value === "sent");
}

export async function runEmailReplyForEvent(db: Database, env: Env, message: EventMessage): Promise<void> {
  const event = await eventSubject(db, message, MESSAGE_EVENTS);
  if (event?.subjectType !== "Message") return;
  const again = event.eventName === "message_updated";
  if (again && !(await isRetry(db, message))) return;
  const queued = await queueReplyMail(jobScope(db, env), event.accountId, event.subjectId, again);
  if (!queued) return;
  const next: OutgoingEmailMessage = { kind: "outgoing_email", accountId: event.accountId, ...queued };
  await env.EVENTS.send(next);
}
