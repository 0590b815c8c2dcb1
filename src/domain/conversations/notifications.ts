/**
 * The notifications a conversation change causes, written in the change's own batch (Chatwoot's
 * NotificationListener, NewMessageNotificationService and MentionService):
 * - a new conversation: its inbox's members (never while it is pending);
 * - an assignment: the new assignee, unless they assigned themselves (never while pending);
 * - a new incoming or outgoing message: the assignee, then the participants;
 * - a private note with `mention://user/ID/` or `mention://team/ID/`: the users and team members named,
 *   who also become participants (and a `conversation_mentioned` event names each).
 * Every recipient is a member of the account who can see the conversation (administrator, inbox or team
 * member), is not the user who acted, and has the type's e-mail or push flag on (no settings row: Chatwoot's
 * defaults). One message notifies a user once: a mention wins over the assignee's, which wins over the
 * participant's. Recipients are chosen in SQL (INSERT ... SELECT), so a change reads nothing more for them;
 * `announceNotifications` ends the batch: it writes the events of the rows just inserted, the e-mail of each
 * one whose user selected the type's e-mail flag (Chatwoot's ConversationNotificationsMailer, sent by the
 * outgoing-mail queue) and, as Chatwoot's duplicate removal does, drops a recipient's earlier
 * notifications of the same conversation.
 */
import { type SQL, sql } from "drizzle-orm";
import { type Database, type Statement, schema } from "../../db/client";
import { DEFAULT_NOTIFICATION_FLAGS, MESSAGE_TYPE, NOTIFICATION_TYPE, NOTIFICATION_TYPES, type NotificationType, ROLE, notificationFlagBit } from "../kernel/enums";
import { outgoingEmailsSelect } from "../kernel/outgoing-email";
import { type AccountScope, actingUserId } from "../kernel/scope";
import type { Ref } from "./loader";

const { notifications, notificationSettings, accountUsers, inboxMembers, teamMembers, conversationParticipants, eventOutbox, users, conversations, inboxes, messages } = schema;

/** The conversation a notification is about; `id` may be `lastInsertedId(conversations)` of the batch. */
export type NotifiedConversation = { id: Ref; inboxId: Ref; teamId: Ref | null };

type Secondary = { type: "Message" | "User"; id: Ref } | null;

/** `au.user_id` (a member of the account) can see the conversation: Chatwoot's rule for conversation actions. */
function seesConversation(conversation: NotifiedConversation): SQL {
  const team = conversation.teamId === null ? sql`` : sql` OR au.user_id IN (SELECT ${teamMembers.userId} FROM ${teamMembers} WHERE ${teamMembers.accountId} = au.account_id AND ${teamMembers.teamId} = ${conversation.teamId})`;
  return sql`(au.role = ${ROLE.administrator} OR au.user_id IN (SELECT ${inboxMembers.userId} FROM ${inboxMembers} WHERE ${inboxMembers.accountId} = au.account_id AND ${inboxMembers.inboxId} = ${conversation.inboxId})${team})`;
}

/**
 * One INSERT ... SELECT: a notification of `type` for each of `candidates` (a query of user ids) who is a
 * member able to see the conversation, is not the actor, wants the type, and has none yet in this batch
 * for this conversation (one notification per user and change).
 */
function notifyStatement(scope: AccountScope, type: NotificationType, conversation: NotifiedConversation, candidates: SQL, secondary: Secondary, at: number): Statement {
  const bit = notificationFlagBit(type);
  const flags = DEFAULT_NOTIFICATION_FLAGS;
  const actor = actingUserId(scope) ?? 0;
  // columns in the order of `notifications`
  return scope.db.insert(notifications).select(sql`SELECT NULL, au.account_id, au.user_id, ${NOTIFICATION_TYPE[type]}, 'Conversation', ${conversation.id},
      ${secondary?.type ?? null}, ${secondary?.id ?? null}, NULL, NULL, ${at}, '{}', 1, ${at}, ${at}
    FROM ${accountUsers} au
    LEFT JOIN ${notificationSettings} ns ON ns.account_id = au.account_id AND ns.user_id = au.user_id
    WHERE au.account_id = ${scope.accountId} AND au.user_id IN (${candidates}) AND au.user_id <> ${actor}
      AND ((coalesce(ns.email_flags, ${flags}) | coalesce(ns.push_flags, ${flags})) & ${bit}) <> 0
      AND ${seesConversation(conversation)}
      AND NOT EXISTS (SELECT 1 FROM ${notifications} n WHERE n.announce = 1 AND n.account_id = au.account_id AND n.primary_actor_id = ${conversation.id} AND n.user_id = au.user_id)`);
}

const idList = (ids: readonly Ref[]) => (ids.length === 0 ? sql`NULL` : sql.join(ids.map((id) => sql`${id}`), sql`, `));

/** A new conversation: its inbox's members hear of it, unless it waits for a bot (pending). */
export function conversationCreatedNotifications(scope: AccountScope, conversation: NotifiedConversation & { pending: boolean }, at: number): Statement[] {
  if (conversation.pending) return [];
  const members = sql`SELECT ${inboxMembers.userId} FROM ${inboxMembers} WHERE ${inboxMembers.accountId} = au.account_id AND ${inboxMembers.inboxId} = ${conversation.inboxId}`;
  return [notifyStatement(scope, "conversation_creation", conversation, members, actorSecondary(scope), at), ...announceNotifications(scope, at)];
}

/** A new assignee hears of it, unless they took it themselves or it is pending. */
export function assignmentNotifications(scope: AccountScope, conversation: NotifiedConversation, assigneeId: number, pending: boolean, at: number): Statement[] {
  if (pending || assigneeId === actingUserId(scope)) return [];
  return [notifyStatement(scope, "conversation_assignment", conversation, idList([assigneeId]), actorSecondary(scope), at), ...announceNotifications(scope, at)];
}

/** How many users and teams one note may mention: each is a bound parameter of the statements (D1 binds at most 100). */
export const MAX_MENTIONS = 50;

/**
 * Who is named by Chatwoot's editor mentions in `content`: `[@Name](mention://user/ID/Name)`,
 * `mention://team/ID/...`; the first MAX_MENTIONS distinct ones.
 */
export function mentionedIds(content: string): { userIds: number[]; teamIds: number[] } {
  const userIds = new Set<number>();
  const teamIds = new Set<number>();
  for (const [, kind, id] of content.matchAll(/mention:\/\/(user|team)\/(\d{1,15})\//g)) {
    if (userIds.size + teamIds.size >= MAX_MENTIONS) break;
    (kind === "user" ? userIds : teamIds).add(Number(id));
  }
  return { userIds: [...userIds], teamIds: [...teamIds] };
}

/** `assigneeId` may be the conversation's column, read in the batch (a null one notifies nobody). */
export type NotifiedMessage = { id: Ref; messageType: number; private: boolean; content: string; assigneeId: Ref | null };

/**
 * A new message's notifications: mentions in a private note (with their participants and events), the
 * assignee's, the participants'. Activity and template messages notify nobody.
 */
export function messageNotifications(scope: AccountScope, conversation: NotifiedConversation, message: NotifiedMessage, at: number): Statement[] {
  if (message.messageType !== MESSAGE_TYPE.incoming && message.messageType !== MESSAGE_TYPE.outgoing) return [];
  const { db, accountId } = scope;
  const secondary: Secondary = { type: "Message", id: message.id };
  const statements: Statement[] = [];
  const mentioned = message.private ? mentionedIds(message.content) : { userIds: [], teamIds: [] };
  if (mentioned.userIds.length > 0 || mentioned.teamIds.length > 0) {
    const named = sql`SELECT ${accountUsers.userId} FROM ${accountUsers} WHERE ${accountUsers.accountId} = ${accountId} AND ${accountUsers.userId} IN (${idList(mentioned.userIds)})
      UNION SELECT ${teamMembers.userId} FROM ${teamMembers} WHERE ${teamMembers.accountId} = ${accountId} AND ${teamMembers.teamId} IN (${idList(mentioned.teamIds)})`;
    // the named members who can see the conversation, the author included (Chatwoot records them all)
    const valid = sql`SELECT au.user_id FROM ${accountUsers} au WHERE au.account_id = ${accountId} AND au.user_id IN (${named}) AND ${seesConversation(conversation)}`;
    statements.push(
      notifyStatement(scope, "conversation_mention", conversation, named, secondary, at),
      db.insert(conversationParticipants).select(sql`SELECT NULL, ${accountId}, ${conversation.id}, user_id, ${at}, ${at} FROM (${valid}) WHERE true
        ON CONFLICT DO NOTHING`),
      db.insert(eventOutbox).select(sql`SELECT NULL, ${accountId}, 'conversation_mentioned', 'Conversation', ${conversation.id},
        json_object('user_id', user_id), 0, ${at}, NULL, NULL FROM (${valid})`).returning(),
    );
  }
  if (message.assigneeId !== null) {
    statements.push(notifyStatement(scope, "assigned_conversation_new_message", conversation, idList([message.assigneeId]), secondary, at));
  }
  const participants = sql`SELECT ${conversationParticipants.userId} FROM ${conversationParticipants} WHERE ${conversationParticipants.accountId} = au.account_id AND ${conversationParticipants.conversationId} = ${conversation.id}`;
  statements.push(notifyStatement(scope, "participating_conversation_new_message", conversation, participants, secondary, at), ...announceNotifications(scope, at));
  return statements;
}

/** Chatwoot's secondary actor of a creation or an assignment: the user who acted (none for bots, rules, contacts). */
function actorSecondary(scope: AccountScope): Secondary {
  const userId = actingUserId(scope);
  return userId === null ? null : { type: "User", id: userId };
}

/**
 * The end of a batch that inserted notifications (marked `announce = 1`): each recipient's earlier
 * notifications of the same conversation are deleted (with `notification_deleted`), each new one gets its
 * `notification_created` event and, when its user selected the type's e-mail flag, its mail; then the
 * marks are cleared. Batches are atomic and run one at a time, so the marked rows are exactly this batch's.
 */
export function announceNotifications(scope: AccountScope, at: number): Statement[] {
  const { db } = scope;
  const replaced = sql`SELECT old.id FROM ${notifications} n JOIN ${notifications} old
    ON old.primary_actor_id = n.primary_actor_id AND old.user_id = n.user_id AND old.account_id = n.account_id
      AND old.primary_actor_type = n.primary_actor_type AND old.announce = 0
    WHERE n.announce = 1`;
  return [
    db.insert(eventOutbox).select(sql`SELECT NULL, account_id, 'notification_deleted', 'Notification', id,
      json_object('user_id', user_id, 'notification_id', id), 0, ${at}, NULL, NULL FROM ${notifications} WHERE id IN (${replaced})`).returning(),
    db.delete(notifications).where(sql`id IN (${replaced})`),
    db.insert(eventOutbox).select(sql`SELECT NULL, account_id, 'notification_created', 'Notification', id,
      json_object('user_id', user_id), 0, ${at}, NULL, NULL FROM ${notifications} WHERE announce = 1`).returning(),
    notificationMails(scope, at),
    db.update(notifications).set({ announce: 0 }).where(sql`announce = 1`),
  ];
}

/** The mail kind of notification e-mails in `outgoing_emails`. */
export const NOTIFICATION_MAIL_KIND = "conversation_notification";

/** How much of the message a notification e-mail quotes. */
const MAIL_EXCERPT_CHARS = 500;

/**
 * Chatwoot's subjects (AgentNotifications::ConversationNotificationsMailer), over `name` (the user's
 * display name, else name), `c` the conversation and `i` its inbox.
 */
const MAIL_SUBJECTS: Record<NotificationType, (name: SQL) => SQL> = {
  conversation_creation: (name) => sql`${name} || ', A new conversation [ID - ' || c.display_id || '] has been created in ' || i.name || '.'`,
  conversation_assignment: (name) => sql`${name} || ', A new conversation [ID - ' || c.display_id || '] has been assigned to you.'`,
  conversation_mention: (name) => sql`${name} || ', You have been mentioned in conversation [ID - ' || c.display_id || ']'`,
  assigned_conversation_new_message: (name) => sql`${name} || ', New message in your assigned conversation [ID - ' || c.display_id || '].'`,
  participating_conversation_new_message: (name) => sql`${name} || ', New message in your participating conversation [ID - ' || c.display_id || '].'`,
};

/** `CASE n.notification_type WHEN <type> THEN <of type> ... END` */
const byType = (of: (type: NotificationType) => SQL) =>
  sql`CASE n.notification_type ${sql.join(NOTIFICATION_TYPES.map((type) => sql`WHEN ${NOTIFICATION_TYPE[type]} THEN ${of(type)}`), sql` `)} END`;

/**
 * The mail of each notification of the batch whose user selected its type's e-mail flag (no settings
 * row: Chatwoot's defaults), to the user's address: the subject, the conversation's display id and inbox,
 * the message's text where the notification is about one, and, as the last paragraph, the link to the
 * conversation in the dashboard (the HTML part links it: src/email/notifications.ts). Chosen in SQL, as
 * the notifications are.
 */
function notificationMails(scope: AccountScope, at: number): Statement {
  const name = sql`coalesce(nullif(u.display_name, ''), u.name)`;
  const link = sql`${scope.env.FRONTEND_URL.replace(/\/$/, "")} || '/app/accounts/' || n.account_id || '/conversations/' || c.display_id`;
  const excerpt = sql`CASE WHEN coalesce(m.content, '') = '' THEN ''
    WHEN length(m.content) > ${MAIL_EXCERPT_CHARS} THEN char(10, 10) || substr(m.content, 1, ${MAIL_EXCERPT_CHARS}) || '…'
    ELSE char(10, 10) || m.content END`;
  const flags = sql`coalesce(ns.email_flags, ${DEFAULT_NOTIFICATION_FLAGS})`;
  return outgoingEmailsSelect(
    scope.db,
    NOTIFICATION_MAIL_KIND,
    {
      accountId: sql`n.account_id`,
      recipients: sql`json_array(u.email)`,
      subject: byType((type) => MAIL_SUBJECTS[type](name)),
      body: sql`${byType((type) => MAIL_SUBJECTS[type](name))} || char(10, 10) || 'Conversation #' || c.display_id || ' in ' || i.name
        || ${excerpt} || char(10, 10) || ${link}`,
      conversationId: sql`n.primary_actor_id`,
    },
    sql`FROM ${notifications} n
      JOIN ${users} u ON u.id = n.user_id
      JOIN ${conversations} c ON c.account_id = n.account_id AND c.id = n.primary_actor_id
      JOIN ${inboxes} i ON i.account_id = c.account_id AND i.id = c.inbox_id
      LEFT JOIN ${messages} m ON n.secondary_actor_type = 'Message' AND m.account_id = n.account_id AND m.id = n.secondary_actor_id
      LEFT JOIN ${notificationSettings} ns ON ns.account_id = n.account_id AND ns.user_id = n.user_id
      WHERE n.announce = 1 AND (${flags} & ${byType((type) => sql`${notificationFlagBit(type)}`)}) <> 0`,
    at,
  );
}

/**
 * What goes with deleted conversations (`ids`, a query of conversation ids of the account): their
 * participants, and their notifications, each with its `notification_deleted` (Chatwoot destroys them
 * with the conversation). Put before the conversations' own delete.
 */
export function conversationsGoneStatements(db: Database, accountId: number, ids: SQL, at: number): Statement[] {
  const theirs = sql`account_id = ${accountId} AND primary_actor_type = 'Conversation' AND primary_actor_id IN (${ids})`;
  return [
    db.insert(eventOutbox).select(sql`SELECT NULL, account_id, 'notification_deleted', 'Notification', id,
      json_object('user_id', user_id, 'notification_id', id), 0, ${at}, NULL, NULL FROM ${notifications} WHERE ${theirs}`).returning(),
    db.delete(notifications).where(theirs),
    db.delete(conversationParticipants).where(sql`${conversationParticipants.accountId} = ${accountId} AND ${conversationParticipants.conversationId} IN (${ids})`),
  ];
}
