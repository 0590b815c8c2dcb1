/**
 * What the live account feed shows: one entry per event name of the outbox (or of a live event such as
 * typing), saying which Chatwoot event it becomes, who receives it and how its data is built. An event
 * with no entry is not shown (webhook-only events, inbox changes).
 *
 * Adding an event is one entry here, e.g. a notification for its owner:
 *
 *     notification_created: { event: "notification.created", payload: notificationPayload, audience: toUser("user_id") },
 *
 * where the outbox row's `data.user_id` names the user and `notificationPayload(db, row, audience)` answers
 * `{ data, userIds }` (or null when the subject is gone), running the audience's query in the batch that
 * reads the data, so an audience is found from the row alone. The forwarder (src/feed/forward.ts) adds
 * `account_id`, and `performer` when the row's data names one.
 */
import { sql } from "drizzle-orm";
import { type Database, schema } from "../db/client";
import type { OutboxRow } from "../domain/kernel/outbox";
import { type AudienceQuery, accountAudience, conversationAudience, userAudience } from "./audience";
import { type FeedBuilt, contactPayload, conversationPayload, mentionPayload, messagePayload, notificationPayload, typingPayload } from "./payloads";

export type FeedEntry = {
  /** Chatwoot's event name on the feed */
  event: string;
  /**
   * the event's data and the users the audience's query found (read in one batch with the data), or
   * null when there is nothing true to say any more (its subject is gone)
   */
  payload: (db: Database, row: OutboxRow, audience: AudienceQuery) => Promise<FeedBuilt | null>;
  /** who may receive it: a query the payload runs with its own reads */
  audience: (db: Database, row: OutboxRow) => AudienceQuery;
  /** a user who never receives it, though in the audience (the typer of a typing event) */
  except?: (row: OutboxRow) => number | undefined;
};

const { messages } = schema;

/** Those who may see the event's conversation: its subject, or its message's. */
export const toConversation: FeedEntry["audience"] = (db, row) =>
  conversationAudience(
    db,
    row.accountId,
    row.subjectType === "Message"
      ? sql<number>`(SELECT ${messages.conversationId} FROM ${messages} WHERE ${messages.id} = ${row.subjectId} AND ${messages.accountId} = ${row.accountId})`
      : row.subjectId,
  );
/** Everyone in the account. */
export const toAccount: FeedEntry["audience"] = (db, row) => accountAudience(db, row.accountId);
/** The one user the row's `data[field]` names. */
export const toUser =
  (field: string): FeedEntry["audience"] =>
  (db, row) =>
    userAudience(db, row.accountId, row.data[field]);
/** Nobody is told of their own typing. */
const typingUser = (row: OutboxRow) => {
  const user = row.data.user as { type?: string; id?: number } | undefined;
  return user?.type === "user" ? user.id : undefined;
};

const onConversation = (event: string): FeedEntry => ({ event, payload: conversationPayload, audience: toConversation });
const onMessage = (event: string): FeedEntry => ({ event, payload: messagePayload, audience: toConversation });
const onContact = (event: string): FeedEntry => ({ event, payload: contactPayload, audience: toAccount });
const onTyping = (event: string): FeedEntry => ({ event, payload: typingPayload, audience: toConversation, except: typingUser });

export const FEED_EVENTS: Readonly<Record<string, FeedEntry>> = {
  message_created: onMessage("message.created"),
  // activity messages have an outbox event of their own, which webhooks and automation do not take
  activity_message_created: onMessage("message.created"),
  message_updated: onMessage("message.updated"),
  conversation_created: onConversation("conversation.created"),
  conversation_updated: onConversation("conversation.updated"),
  conversation_status_changed: onConversation("conversation.status_changed"),
  conversation_read: onConversation("conversation.read"),
  assignee_changed: onConversation("assignee.changed"),
  team_changed: onConversation("team.changed"),
  conversation_typing_on: onTyping("conversation.typing_on"),
  conversation_typing_off: onTyping("conversation.typing_off"),
  contact_created: onContact("contact.created"),
  contact_updated: onContact("contact.updated"),
  contact_merged: onContact("contact.merged"),
  contact_deleted: onContact("contact.deleted"),
  // to the notification's user alone, who is the one mentioned for conversation_mentioned
  notification_created: { event: "notification.created", payload: notificationPayload, audience: toUser("user_id") },
  notification_updated: { event: "notification.updated", payload: notificationPayload, audience: toUser("user_id") },
  notification_deleted: { event: "notification.deleted", payload: notificationPayload, audience: toUser("user_id") },
  conversation_mentioned: { event: "conversation.mentioned", payload: mentionPayload, audience: toUser("user_id") },
};
