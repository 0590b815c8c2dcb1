/**
 * Auto-assignment's side of the queue (the decision is the domain's, src/domain/assignment): a created
 * or reopened conversation is offered to the available agents of its inbox, and an agent who became
 * available (announced by the account's live feed) gets the conversations waiting in their inboxes
 * handed out, and so does an inbox whose business hours began (noticed by the cron each minute). All
 * tolerate repeats: a conversation someone holds by then is left as it is.
 */
import type { Database } from "../db/client";
import { assignWaitingConversations, assignWaitingInInbox, autoAssignConversation, inboxesOpenedBetween } from "../domain/assignment/auto-assignment";
import type { AgentAvailableMessage } from "../events/agent-available";
import { type InboxOpenedMessage, announceInboxOpened } from "../events/inbox-opened";
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

export async function runAutoAssignmentForOpenedInbox(db: Database, env: Env, message: InboxOpenedMessage): Promise<void> {
  await assignWaitingInInbox(jobScope(db, env), message.accountId, message.inboxId);
}

/**
 * How far back the cron's minute looks for inboxes that opened: five minutes, not one, so that a minute
 * run late or lost still hands out what waited. An inbox that opened in that time is announced once a
 * minute until it is five minutes open; each hand-out gives only what is still waiting (25 at most).
 */
const OPENED_WITHIN_MS = 5 * 60_000;

/** The cron's minute: each inbox that opened lately gets its waiting conversations handed out. */
export async function announceOpenedInboxes(db: Database, env: Env, at = Date.now(), sinceMs = at - OPENED_WITHIN_MS): Promise<number> {
  const opened = await inboxesOpenedBetween(jobScope(db, env), sinceMs, at);
  for (const { accountId, inboxId } of opened) await announceInboxOpened(env.EVENTS, accountId, inboxId);
  return opened.length;
}
