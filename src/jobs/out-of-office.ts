/** The out-of-office reply's side of the queue (the rule is the domain's, src/domain/conversations/out-of-office.ts). */
import type { Database } from "../db/client";
import { replyOutOfOffice } from "../domain/conversations/out-of-office";
import type { EventMessage } from "../events/dispatch";
import { eventSubject } from "./event-subject";
import { jobScope } from "./scope";

const MESSAGE_CREATED = new Set(["message_created"]);

/** After a message_created event: the reply, when the message is a contact's and the inbox is closed. */
export async function runOutOfOfficeForEvent(db: Database, env: Env, message: EventMessage): Promise<void> {
  const event = await eventSubject(db, message, MESSAGE_CREATED);
  if (event?.subjectType === "Message") await replyOutOfOffice(jobScope(db, env), event.accountId, event.subjectId);
}
