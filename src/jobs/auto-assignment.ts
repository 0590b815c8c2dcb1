/**
 * Auto-assignment's side of the queue (the decision is the domain's, src/domain/assignment): a created
 * or reopened conversation is offered to the available agents of its inbox, and an agent who became
 * available (announced by the account's live feed) gets the conversations waiting in their inboxes
 * handed out. Both tolerate repeats: a conversation someone holds by then is left as it is.
 */
import type { Database } from "../db/client";
import { assignWaitingConversations, autoAssignConversation } from "../domain/assignment/auto-assignment";
import type { AgentAvailableMessage } from "../events/agent-available";
import type { EventMessage } from "../events/dispatch";
import { eventSubject } from "./event-subject";
import { jobScope } from "./scope";

/** The events after which a conversation may be waiting for an agent. */
const TRIGGERS = new Set(["conversation_created", "conversation_opened"]);

export async function runAutoAssignmentForEvent(db: Database, env: Env, message: EventMessage): Promise<void> {
  const event = await eventSubject(db, message, TRIGGERS);
  if (event?.subjectType === "Conversation") await autoAssignConversation(jobScope(db, env), event.accountId, event.subjectId);
}

export async function runAutoAssignmentForAgent(db: Database, env: Env, message: AgentAvailableMessage): Promise<void> {
  await assignWaitingConversations(jobScope(db, env), message.accountId, message.userId);
}
