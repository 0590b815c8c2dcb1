/** The out-of-office reply's side of the queue (the rule is the domain's, src/domain/conversations/out-of-office.ts). */
import { eq } from "drizzle-orm";
import { type Database, schema } from "../db/client";
import { replyOutOfOffice } from "../domain/conversations/out-of-office";
import { batchNamed } from "../domain/kernel/batch";
import type { EventMessage } from "../events/dispatch";
import { jobScope } from "./scope";

/** After a message_created event: the reply, when the message is a contact's and the inbox is closed. */
export async function runOutOfOfficeForEvent(db: Database, env: Env, message: EventMessage): Promise<void> {
  if (message.eventName !== undefined && message.eventName !== "message_created") return;
  const { rows } = await batchNamed(db, { rows: db.select().from(schema.eventOutbox).where(eq(schema.eventOutbox.id, message.eventId)) });
  const event = rows[0];
  if (!event || event.eventName !== "message_created" || event.subjectType !== "Message") return;
  await replyOutOfOffice(jobScope(db, env), event.accountId, event.subjectId);
}
