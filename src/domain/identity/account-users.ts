import { and, eq } from "drizzle-orm";
import { now, schema } from "../../db/client";
import { batch, write } from "../kernel/batch";
import { ROLE } from "../kernel/enums";
import type { TransportScope } from "../kernel/scope";
import { copyIdentityToShards } from "./mirror";

const { accountUsers, inboxMembers, teamMembers, conversations, notifications, notificationSettings, conversationParticipants } = schema;

export type AccountUserRecord = { accountId: number; userId: number; role: number };

export async function listAccountUsers(scope: TransportScope, accountId: number): Promise<AccountUserRecord[]> {
  const { directory: db } = scope;
  const [rows] = await batch(db, [
    db
      .select({ accountId: accountUsers.accountId, userId: accountUsers.userId, role: accountUsers.role })
      .from(accountUsers)
      .where(eq(accountUsers.accountId, accountId))
      .orderBy(accountUsers.id),
  ]);
  return rows;
}

/**
 * Makes the user a member of the account with `role` (an agent unless given), or changes the role of an
 * existing member. The caller has loaded both the account and the user.
 */
export async function upsertAccountUser(scope: TransportScope, accountId: number, userId: number, role: number = ROLE.agent): Promise<AccountUserRecord> {
  const { directory: db } = scope;
  const at = now();
  const [rows] = await batch(db, [
    db
      .insert(accountUsers)
      .values({ accountId, userId, role, activeAt: at, createdAt: at, updatedAt: at })
      .onConflictDoUpdate({ target: [accountUsers.accountId, accountUsers.userId], set: { role, updatedAt: at } })
      .returning({ accountId: accountUsers.accountId, userId: accountUsers.userId, role: accountUsers.role }),
  ]);
  await copyIdentityToShards(scope, [accountId], { userIds: [userId] });
  // an administrator made agent sees less from now on (a new member has no socket yet)
  if (role !== ROLE.administrator) await scope.ports.feed.accessChanged(accountId, [userId]);
  return rows[0];
}

/**
 * Ends a membership; nothing happens when there is none. The user leaves the account's inboxes and teams
 * too, and its open assignments in the account are released.
 */
export async function removeAccountUser(scope: TransportScope, accountId: number, userId: number) {
  const { directory } = scope;
  // the directory first: from here on no key of the user reaches the account
  await write(directory, [directory.delete(accountUsers).where(and(eq(accountUsers.accountId, accountId), eq(accountUsers.userId, userId)))]);
  // nor any live socket: what the user opens again is checked against the directory
  await scope.ports.feed.accessChanged(accountId, [userId]);
  const db = await scope.shards.ofAccount(accountId);
  if (!db) return;
  await write(db, [
    db
      .update(conversations)
      .set({ assigneeId: null, updatedAt: now() })
      .where(and(eq(conversations.accountId, accountId), eq(conversations.assigneeId, userId))),
    db.delete(inboxMembers).where(and(eq(inboxMembers.accountId, accountId), eq(inboxMembers.userId, userId))),
    db.delete(teamMembers).where(and(eq(teamMembers.accountId, accountId), eq(teamMembers.userId, userId))),
    // what the user had of the account: notifications (no event: nobody is left to hear it), settings, participations
    db.delete(notifications).where(and(eq(notifications.accountId, accountId), eq(notifications.userId, userId))),
    db.delete(notificationSettings).where(and(eq(notificationSettings.accountId, accountId), eq(notificationSettings.userId, userId))),
    db.delete(conversationParticipants).where(and(eq(conversationParticipants.accountId, accountId), eq(conversationParticipants.userId, userId))),
    // the shard's copy of the membership (on libSQL, the same row as above: already gone)
    db.delete(accountUsers).where(and(eq(accountUsers.accountId, accountId), eq(accountUsers.userId, userId))),
  ]);
}

/** The ids of the accounts `userId` is a member of, at most `limit` (a caller that needs one asks for two). */
export async function memberAccountIds(scope: TransportScope, userId: number, limit: number): Promise<number[]> {
  const { directory: db } = scope;
  const [rows] = await batch(db, [
    db.select({ accountId: accountUsers.accountId }).from(accountUsers).where(eq(accountUsers.userId, userId)).orderBy(accountUsers.accountId).limit(limit),
  ]);
  return rows.map((row) => row.accountId);
}
