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
 * `account_id`, and `performer` when the row's data names one. An entry with `visitors` also reaches the
 * widgets of the conversation's visitors, with what src/feed/visitors.ts lets them see.
 */
import { sql } from "drizzle-orm";
import { type Database, schema } from "../db/client";
import type { OutboxRow } from "../domain/kernel/outbox";
import { type AudienceQuery, type VisitorQuery, accountAudience, conversationAudience, conversationVisitors, userAudience } from "./audience";
import { type FeedBuilt, contactPayload, conversationPayload, mentionPayload, messagePayload, notificationPayload, typingPayload } from "./payloads";
import { type VisitorEntry, visitorConversation, visitorMessage, visitorTyping } from "./visitors";

export type FeedEntry = {
  /** Chatwoot's event name on the feed */
  event: string;
  /**
   * the event's data and the users the audience's query found (read in one batch with the data), or
   * null when there is nothing true to say any more (its subject is gone)
   */
  payload: (db: Database, row: OutboxRow, audience: AudienceQuery, visitors: VisitorQuery) => Promise<FeedBuilt | null>;
  /** who may receive it: a query the payload runs with its own reads */
  audience: (db: Database, row: OutboxRow) => AudienceQuery;
  /** a user who never receives it, though in the audience (the typer of a typing event) */
  except?: (row: OutboxRow) => number | undefined;
  /**
   * for an event the conversation's visitors hear too (src/feed/visitors.ts): what they are shown; the
   * payload reads who they are (`conversationVisitors`) in its batch
   */
  visitors?: VisitorEntry;
};

const { messages } = schema;

/** The event's conversation: its subject, or its message's. */
const conversationOf = (row: OutboxRow) =>
  row.subjectType === "Message"
    ? sql<number>`(SELECT ${messages.conversationId} FROM ${messages} WHERE ${messages.id} = ${row.subjectId} AND ${messages.accountId} = ${row.accountId})`
    : row.subjectId;

/** Those who may see the event's conversation. */
export const toConversation: FeedEntry["audience"] = (db, row) => conversationAudience(db, row.accountId, conversationOf(row));
/** The visitors whose widget shows the event's conversation. */
export const toVisitors = (db: Database, row: OutboxRow): VisitorQuery => conversationVisitors(db, row.accountId, conversationOf(row));
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

const onConversation = (event: string, visitors?: VisitorEntry): FeedEntry => ({ event, payload: conversationPayload, audience: toConversation, visitors });
const onMessage = (event: string, visitors?: VisitorEntry): FeedEntry => ({ event, payload: messagePayload, audience: toConversation, visitors });
const onContact = (event: string): FeedEntry => ({ event, payload: contactPayload, audience: toAccount });
const onTyping = (event: string): FeedEntry => ({ event, payload: typingPayload, audience: toConversation, except: typingUser, visitors: visitorTyping });

export const FEED_EVENTS: Readonly<Record<string, FeedEntry>> = {
  message_created: onMessage("message.created", visitorMessage),
  // activity messages have an outbox event of their own, which webhooks and automation do not take (nor visitors)
  activity_message_created: onMessage("message.created"),
  message_updated: onMessage("message.updated", visitorMessage),
  conversation_created: onConversation("conversation.created", visitorConversation),
  conversation_updated: onConversation("conversation.updated"),
  conversation_status_changed: onConversation("conversation.status_changed", visitorConversation),
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
