/**
 * A user's notifications in one account (Chatwoot's NotificationsController and NotificationFinder). The
 * notifications are written by the changes that cause them (conversations/notifications.ts); here they
 * are listed, counted, read, snoozed and deleted, each by their own user only: another user's id is
 * unknown (404). Every change writes its outbox event for the live feed: `notification_updated` (read,
 * unread, snooze) and `notification_deleted`, with `{user_id}` (and `notification_id` for deletes).
 */
import { type SQL, and, asc, desc, eq, inArray, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import { type Statement, now, schema } from "../../db/client";
import { batch, batchGroups, batchNamed } from "../kernel/batch";
import { notFound } from "../kernel/errors";
import { eventStatement } from "../kernel/outbox";
import { type AccountScope } from "../kernel/scope";
import { actorUserId } from "../people/agents";
import { type ConversationRecord, type People, loadConversationRecords, senderOf, senderQueries } from "../conversations/loader";
import { ofReachableConversation, reachableCondition, userReachableCondition } from "../conversations/access";
import type { ConversationRow, MessageWithSender } from "../conversations/rows";
import type { AgentRow } from "../people/rows";
import type { NotificationRow } from "./rows";

const { notifications, conversations, messages } = schema;

/** Chatwoot's page size for notifications. */
export const NOTIFICATIONS_PER_PAGE = 15;

/** A notification with what its view shows: the conversation, and the message or user that caused it. */
export type NotificationRecord = {
  notification: NotificationRow;
  conversation: ConversationRecord | null;
  secondary: { type: "Message"; message: MessageWithSender } | { type: "User"; user: AgentRow } | null;
  user: AgentRow | null;
};

export type NotificationCounts = { unreadCount: number; count: number };

const mine = (scope: AccountScope) => and(eq(notifications.accountId, scope.accountId), eq(notifications.userId, actorUserId(scope)));

/**
 * A notification is shown while its user reaches its conversation now: one removed from the inbox (or
 * team, or made agent) stops seeing it, in the list and in every count, and sees it again once back.
 */
const reachableNow = (scope: AccountReader, condition: SQL | undefined) => ofReachableConversation(scope, notifications.primaryActorId, condition);

export type NotificationListInput = { includeRead: boolean; includeSnoozed: boolean; order: "asc" | "desc"; page: number };

/**
 * One page of the user's notifications, ordered by last activity, with the unread count and count of the
 * filtered set (unread and not snoozed unless `includes` names them, as Chatwoot's finder filters).
 */
export async function listNotifications(scope: AccountScope, input: NotificationListInput) {
  const { db } = scope;
  const at = now();
  const where = and(
    mine(scope),
    reachableNow(scope, reachableCondition(scope)),
    input.includeRead ? undefined : isNull(notifications.readAt),
    // a snooze ends by itself once its time has passed (Chatwoot's job clears it; here the list stops hiding it)
    input.includeSnoozed ? undefined : or(isNull(notifications.snoozedUntil), lte(notifications.snoozedUntil, at)),
  );
  const direction = input.order === "asc" ? asc : desc;
  const read = await batchNamed(db, {
    page: db
      .select()
      .from(notifications)
      .where(where)
      .orderBy(direction(notifications.lastActivityAt), direction(notifications.id))
      .limit(NOTIFICATIONS_PER_PAGE)
      .offset((input.page - 1) * NOTIFICATIONS_PER_PAGE),
    counts: db
      .select({ count: sql<number>`count(*)`, unread: sql<number>`count(*) FILTER (WHERE ${notifications.readAt} IS NULL)` })
      .from(notifications)
      .where(where),
  });
  return {
    records: await notificationRecords(scope, read.page),
    unreadCount: Number(read.counts[0]?.unread ?? 0),
    count: Number(read.counts[0]?.count ?? 0),
  };
}

/** What reading an account's notifications needs: the live feed reads them with no actor. */
type AccountReader = Pick<AccountScope, "db" | "accountId">;

/** The user's notifications in the account whose conversations `reach` meets (see `reachableNow`). */
const countsQuery = (scope: AccountReader, userId: number, reach: SQL | undefined) =>
  scope.db
    .select({ count: sql<number>`count(*)`, unread: sql<number>`count(*) FILTER (WHERE ${notifications.readAt} IS NULL)` })
    .from(notifications)
    .where(and(eq(notifications.accountId, scope.accountId), eq(notifications.userId, userId), reachableNow(scope, reach)));

/** The user's unread notifications in the account, whatever their snooze. */
export async function unreadNotificationCount(scope: AccountScope): Promise<number> {
  const [rows] = await batch(scope.db, [countsQuery(scope, actorUserId(scope), reachableCondition(scope))]);
  return Number(rows[0]?.unread ?? 0);
}

/** Marks every unread notification read, or only those of one conversation (`primary_actor_id`). */
export async function readAllNotifications(scope: AccountScope, primaryActor: { type: "Conversation"; id: number } | null): Promise<void> {
  const { db } = scope;
  const at = now();
  const where = and(
    mine(scope),
    isNull(notifications.readAt),
    primaryActor ? and(eq(notifications.primaryActorType, primaryActor.type), eq(notifications.primaryActorId, primaryActor.id)) : undefined,
  );
  const userId = actorUserId(scope);
  await batch(db, [
    db.insert(schema.eventOutbox).select(sql`SELECT NULL, ${scope.accountId}, 'notification_updated', 'Notification', id,
      json_object('user_id', ${userId}), 0, ${at}, NULL, NULL FROM ${notifications} WHERE ${where}`).returning(),
    db.update(notifications).set({ readAt: at, updatedAt: at }).where(where),
  ]);
}

/** One of the user's notifications, or 404. */
async function ownNotification(scope: AccountScope, id: number): Promise<NotificationRow> {
  const [rows] = await batch(scope.db, [scope.db.select().from(notifications).where(and(mine(scope), eq(notifications.id, id)))]);
  if (!rows[0]) throw notFound("Notification", id);
  return rows[0];
}

const updatedEvent = (scope: AccountScope, row: NotificationRow) =>
  eventStatement(scope.db, { accountId: scope.accountId, eventName: "notification_updated", subjectType: "Notification", subjectId: row.id, data: { user_id: row.userId } });

async function changeNotification(scope: AccountScope, id: number, change: Partial<NotificationRow>): Promise<NotificationRow> {
  const { db } = scope;
  const row = await ownNotification(scope, id);
  const at = now();
  const [updated] = await batch(db, [
    db.update(notifications).set({ ...change, updatedAt: at }).where(and(eq(notifications.accountId, scope.accountId), eq(notifications.id, row.id))).returning(),
    updatedEvent(scope, row),
  ]);
  return updated[0];
}

/** PATCH: read now. */
export const markNotificationRead = (scope: AccountScope, id: number) => changeNotification(scope, id, { readAt: now() });

/** Back to unread. */
export const markNotificationUnread = (scope: AccountScope, id: number) => changeNotification(scope, id, { readAt: null });

/** Snoozed until a time (epoch ms); Chatwoot resets `meta.last_snoozed_at` as it does. */
export async function snoozeNotification(scope: AccountScope, id: number, until: number): Promise<NotificationRow> {
  const row = await ownNotification(scope, id);
  return changeNotification(scope, row.id, { snoozedUntil: until, meta: { ...row.meta, last_snoozed_at: null } });
}

const deletedEvent = (scope: AccountScope, row: Pick<NotificationRow, "id" | "userId">) =>
  eventStatement(scope.db, {
    accountId: scope.accountId,
    eventName: "notification_deleted",
    subjectType: "Notification",
    subjectId: row.id,
    data: { user_id: row.userId, notification_id: row.id },
  });

export async function deleteNotification(scope: AccountScope, id: number): Promise<void> {
  const row = await ownNotification(scope, id);
  await batch(scope.db, [scope.db.delete(notifications).where(and(eq(notifications.accountId, scope.accountId), eq(notifications.id, row.id))), deletedEvent(scope, row)]);
}

/** Deletes the user's notifications in the account: all of them, or the read ones (`type: read`, as Chatwoot). */
export async function destroyAllNotifications(scope: AccountScope, which: "all" | "read"): Promise<void> {
  const { db } = scope;
  const where = and(mine(scope), which === "read" ? isNotNull(notifications.readAt) : undefined);
  const userId = actorUserId(scope);
  await batch(db, [
    db.insert(schema.eventOutbox).select(sql`SELECT NULL, ${scope.accountId}, 'notification_deleted', 'Notification', id,
      json_object('user_id', ${userId}, 'notification_id', id), 0, ${now()}, NULL, NULL FROM ${notifications} WHERE ${where}`).returning(),
    db.delete(notifications).where(where),
  ]);
}

/**
 * The records of `rows`: their conversations (full records), the messages and users that caused them,
 * and their user, read in two round trips whatever the page size.
 */
export async function notificationRecords(scope: AccountReader, rows: NotificationRow[]): Promise<NotificationRecord[]> {
  if (rows.length === 0) return [];
  const { db, accountId } = scope;
  const conversationIds = [...new Set(rows.map((r) => r.primaryActorId))];
  const messageIds = [...new Set(rows.filter((r) => r.secondaryActorType === "Message" && r.secondaryActorId !== null).map((r) => r.secondaryActorId as number))];
  const userIds = [...new Set(rows.flatMap((r) => [r.userId, ...(r.secondaryActorType === "User" && r.secondaryActorId !== null ? [r.secondaryActorId] : [])]))];
  const idList = (ids: number[]) => (ids.length ? sql.join(ids.map((id) => sql`${id}`), sql`, `) : sql`NULL`);
  const read = await batchGroups(db, {
    conversations: [db.select().from(conversations).where(and(eq(conversations.accountId, accountId), inArray(conversations.id, conversationIds)))],
    messages: [db.select().from(messages).where(and(eq(messages.accountId, accountId), inArray(messages.id, messageIds.length ? messageIds : [0])))],
    people: senderQueries(db, accountId, sql`SELECT id FROM messages WHERE id IN (${idList(messageIds)})`, { userIds }),
  });
  const [conversationRows] = read.conversations;
  const [messageRows] = read.messages;
  const [agents, contacts, bots] = read.people;
  const people: People = { agents, contacts, bots };
  const records = await loadConversationRecords(db, accountId, conversationRows as ConversationRow[]);
  const byConversation = new Map(records.map((r) => [r.conversation.id, r]));
  return rows.map((notification) => {
    const message = notification.secondaryActorType === "Message" ? messageRows.find((m) => m.id === notification.secondaryActorId) : undefined;
    const user = notification.secondaryActorType === "User" ? agents.find((a) => a.userId === notification.secondaryActorId) : undefined;
    return {
      notification,
      conversation: byConversation.get(notification.primaryActorId) ?? null,
      secondary: message ? { type: "Message", message: { message, sender: senderOf(message, people) } } : user ? { type: "User", user } : null,
      user: agents.find((a) => a.userId === notification.userId) ?? null,
    };
  });
}

/**
 * What the live feed sends for a notification event (Chatwoot's ActionCableListener): the notification's
 * record (null once deleted) and its user's totals in the account. For `event.subjectId` and
 * `event.data.user_id` of a `notification_created`, `_updated` or `_deleted` outbox row.
 */
export async function notificationFeedData(scope: AccountReader, notificationId: number, userId: number): Promise<{ record: NotificationRecord | null } & NotificationCounts> {
  const { db } = scope;
  const [rows, counts] = await batch(db, [
    db.select().from(notifications).where(and(eq(notifications.accountId, scope.accountId), eq(notifications.id, notificationId))),
    countsQuery(scope, userId, userReachableCondition(scope, userId)),
  ] as const satisfies readonly Statement[]);
  const [record] = rows[0] ? await notificationRecords(scope, rows) : [null];
  return { record: record ?? null, unreadCount: Number(counts[0]?.unread ?? 0), count: Number(counts[0]?.count ?? 0) };
}
