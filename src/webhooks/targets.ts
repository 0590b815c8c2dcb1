/**
 * Who receives an event, read in one round trip with the event itself (reference §3.1):
 * - account webhooks subscribed to the event (and not disabled);
 * - the API-channel inbox's `webhook_url`, for every conversation, message and typing event of the inbox;
 * - the agent bots with an `outgoing_url` connected to the inbox or assigned to the conversation, for
 *   their events.
 * Account webhooks, inbox callbacks and bots differ only in their URL, their secret and what they get.
 * A push (a `notification_created` for a user with registered devices) is one more target, one per
 * device, read by the fan-out from the notification (src/jobs/fan-out.ts).
 */
import { type SQL, and, eq, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import { type Database, schema } from "../db/client";
import { type BatchResults, batch } from "../domain/kernel/batch";
import type { OutboxEventRef, OutboxRow } from "../domain/kernel/outbox";

const { eventOutbox, webhooks, conversations, inboxes, apiChannels, agentBots, agentBotInboxes, messages, notificationSubscriptions } = schema;

/** "push": a device (notification subscription) reached through the configured push relay. */
export type TargetType = "webhook" | "api_inbox" | "agent_bot" | "url" | "push";
/** A receiver of an event's one payload (a push's body is its device's own: see src/jobs/fan-out.ts). */
export type Target = { type: Exclude<TargetType, "url" | "push">; id: number };

/** What an API inbox's callback gets: its conversations, messages and typing; never contact or inbox events. */
export const API_INBOX_EVENTS: ReadonlySet<string> = new Set([
  "conversation_created",
  "conversation_updated",
  "conversation_status_changed",
  "message_created",
  "message_updated",
  "webwidget_triggered",
  "conversation_typing_on",
  "conversation_typing_off",
]);

/** What an agent bot gets (Chatwoot's AgentBotListener). */
export const AGENT_BOT_EVENTS: ReadonlySet<string> = new Set([
  "message_created",
  "message_updated",
  "webwidget_triggered",
  "conversation_opened",
  "conversation_resolved",
  "conversation_updated",
  "conversation_status_changed",
]);

/** The conversation an event is about: its subject, or the conversation of its message. */
function conversationOfEvent({ accountId, eventId }: OutboxEventRef) {
  return sql<number>`(SELECT CASE ${eventOutbox.subjectType}
    WHEN 'Conversation' THEN ${eventOutbox.subjectId}
    WHEN 'Message' THEN (SELECT ${messages.conversationId} FROM ${messages} WHERE ${messages.id} = ${eventOutbox.subjectId} AND ${messages.accountId} = ${eventOutbox.accountId})
  END FROM ${eventOutbox} WHERE ${eventOutbox.id} = ${eventId} AND ${eventOutbox.accountId} = ${accountId})`;
}

const timeOfEvent = ({ accountId, eventId }: OutboxEventRef) =>
  sql<number>`(SELECT ${eventOutbox.createdAt} FROM ${eventOutbox} WHERE ${eventOutbox.id} = ${eventId} AND ${eventOutbox.accountId} = ${accountId})`;

/**
 * The statements that read everyone who may receive an event of `accountId` about `conversationId`
 * (values, or subqueries of the outbox row so that the event and its targets come in one round trip).
 *
 * The receivers are those that existed when the change happened (`eventAt`), not when the consumer runs
 * a moment later: a webhook created after the event, or a bot connected to the inbox after it, gets
 * nothing of it. Only creation times count: a webhook's later change of subscriptions or URL is read as it
 * is now.
 */
function recipientQueries(db: Database, accountId: number | SQL<number>, conversationId: number | SQL<number>, eventAt: number | SQL<number>) {
  const inboxId = sql`(SELECT ${conversations.inboxId} FROM ${conversations} WHERE ${conversations.id} = ${conversationId} AND ${conversations.accountId} = ${accountId})`;
  const assignedBot = sql`(SELECT ${conversations.assigneeAgentBotId} FROM ${conversations} WHERE ${conversations.id} = ${conversationId} AND ${conversations.accountId} = ${accountId})`;
  return [
    db
      .select({ id: webhooks.id, subscriptions: webhooks.subscriptions })
      .from(webhooks)
      .where(and(sql`${webhooks.accountId} = ${accountId}`, eq(webhooks.webhookType, 0), isNull(webhooks.disabledAt), sql`${webhooks.createdAt} <= ${eventAt}`)),
    db
      .select({ id: inboxes.id })
      .from(inboxes)
      .innerJoin(apiChannels, and(eq(apiChannels.id, inboxes.channelId), eq(apiChannels.accountId, inboxes.accountId)))
      .where(
        and(
          sql`${inboxes.id} = ${inboxId}`,
          sql`${inboxes.accountId} = ${accountId}`,
          eq(inboxes.channelType, "Channel::Api"),
          isNotNull(apiChannels.webhookUrl),
          sql`${apiChannels.webhookUrl} <> ''`,
        ),
      ),
    db
      .select({ id: agentBots.id })
      .from(agentBots)
      .where(
        and(
          isNotNull(agentBots.outgoingUrl),
          sql`${agentBots.outgoingUrl} <> ''`,
          or(isNull(agentBots.accountId), sql`${agentBots.accountId} = ${accountId}`),
          or(
            inArray(
              agentBots.id,
              db
                .select({ id: agentBotInboxes.agentBotId })
                .from(agentBotInboxes)
                .where(and(sql`${agentBotInboxes.accountId} = ${accountId}`, sql`${agentBotInboxes.inboxId} = ${inboxId}`, eq(agentBotInboxes.status, 0), sql`${agentBotInboxes.createdAt} <= ${eventAt}`)),
            ),
            sql`${agentBots.id} = ${assignedBot}`,
          ),
        ),
      ),
  ] as const;
}

/** Who receives `event`, of those `recipientQueries` read. */
function recipientsOf(event: OutboxRow, [hooks, apiInboxes, bots]: BatchResults<ReturnType<typeof recipientQueries>>): Target[] {
  return [
    ...hooks.filter((h) => h.subscriptions.includes(event.eventName)).map((h) => ({ type: "webhook" as const, id: h.id })),
    ...(API_INBOX_EVENTS.has(event.eventName) ? apiInboxes.map((i) => ({ type: "api_inbox" as const, id: i.id })) : []),
    // one copy per bot, however it is connected
    ...(AGENT_BOT_EVENTS.has(event.eventName) ? [...new Set(bots.map((b) => b.id))].map((id) => ({ type: "agent_bot" as const, id })) : []),
  ];
}

/** The outbox event and everyone who should receive it; null when the event is gone (already handled). */
export async function eventWithTargets(db: Database, ref: OutboxEventRef): Promise<{ event: OutboxRow; targets: Target[] } | null> {
  const [events, ...targetRows] = await batch(db, [
    db.select().from(eventOutbox).where(and(eq(eventOutbox.accountId, ref.accountId), eq(eventOutbox.id, ref.eventId))),
    ...recipientQueries(db, ref.accountId, conversationOfEvent(ref), timeOfEvent(ref)),
  ]);
  const event = events[0];
  if (!event) return null;
  return { event, targets: recipientsOf(event, targetRows) };
}

/** Everyone who should receive a live event (one with no outbox row: typing); it is about a conversation. */
export async function liveEventTargets(db: Database, event: OutboxRow): Promise<Target[]> {
  const targetRows = await batch(db, recipientQueries(db, event.accountId, event.subjectId, event.createdAt));
  return recipientsOf(event, targetRows);
}

export type ResolvedTarget = { url: string; secret: string | null; disabledReason: string | null } | null;

/** Reads of a delivery's target by its type and id (one of them answers), for the batch of an attempt. */
export function targetQueries(db: Database, accountId: number, deliveryId: number) {
  const { webhookDeliveries: d } = schema;
  const idOf = (type: TargetType) => sql`(SELECT ${d.targetId} FROM ${d} WHERE ${d.id} = ${deliveryId} AND ${d.accountId} = ${accountId} AND ${d.targetType} = ${type})`;
  const accountOf = sql`${accountId}`;
  return [
    db
      .select({ url: webhooks.url, secret: webhooks.secret, disabledAt: webhooks.disabledAt, disabledReason: webhooks.disabledReason })
      .from(webhooks)
      .where(and(sql`${webhooks.id} = ${idOf("webhook")}`, sql`${webhooks.accountId} = ${accountOf}`)),
    db
      .select({ url: apiChannels.webhookUrl, secret: apiChannels.secret })
      .from(inboxes)
      .innerJoin(apiChannels, and(eq(apiChannels.id, inboxes.channelId), eq(apiChannels.accountId, inboxes.accountId)))
      .where(and(sql`${inboxes.id} = ${idOf("api_inbox")}`, sql`${inboxes.accountId} = ${accountOf}`, eq(inboxes.channelType, "Channel::Api"))),
    db
      .select({ url: agentBots.outgoingUrl, secret: agentBots.secret })
      .from(agentBots)
      .where(and(sql`${agentBots.id} = ${idOf("agent_bot")}`, or(isNull(agentBots.accountId), sql`${agentBots.accountId} = ${accountOf}`))),
  ] as const;
}

/**
 * Whether a push's device is still registered to the user the push was written for (a token that
 * another user has taken over since, or that was removed, is nobody to push to). Devices belong to
 * users, so the directory holds them (docs/shards.md).
 */
export async function pushDeviceRegistered(directory: Database, delivery: { targetId: number | null; body: string }): Promise<boolean> {
  const userId = (JSON.parse(delivery.body) as { user_id?: unknown }).user_id;
  if (delivery.targetId === null || typeof userId !== "number") return false;
  const [rows] = await batch(directory, [
    directory
      .select({ id: notificationSubscriptions.id })
      .from(notificationSubscriptions)
      .where(and(eq(notificationSubscriptions.id, delivery.targetId), eq(notificationSubscriptions.userId, userId))),
  ]);
  return rows.length > 0;
}
