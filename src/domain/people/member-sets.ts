/**
 * A set of agents that belongs to a group (an inbox's members, a team's members): one row per agent in
 * the group's member table, unique on (group, user). The group's own rules (who may look, what a change
 * answers) stay with the group; this is how the set is read and written.
 */
import { and, eq, inArray } from "drizzle-orm";
import { chunks } from "../../db/chunks";
import { type Database, now, schema } from "../../db/client";
import { agentsQuery } from "./agents";

const { inboxMembers, teamMembers, accountUsers } = schema;

function memberSet<T extends typeof inboxMembers | typeof teamMembers>(
  table: T,
  group: T["inboxId" & keyof T] | T["teamId" & keyof T],
  row: (accountId: number, groupId: number, userId: number, createdAt: number) => T["$inferInsert"],
) {
  // The two tables have the same columns but for the group's; drizzle builds the same SQL for either,
  // so the queries are typed against one of them.
  const members = table as typeof inboxMembers;
  const groupColumn = group as typeof inboxMembers.inboxId;
  const userIdsOf = (db: Database, groupId: number) => db.select({ userId: members.userId }).from(members).where(eq(groupColumn, groupId));
  const inserts = (db: Database, accountId: number, groupId: number, userIds: number[]) => {
    const at = now();
    // Four values a row: 20 rows stay well below D1's 100 bound parameters.
    return chunks(userIds, 20).map((ids) =>
      db
        .insert(members)
        .values(ids.map((userId) => row(accountId, groupId, userId, at)) as Array<typeof inboxMembers.$inferInsert>)
        .onConflictDoNothing(),
    );
  };
  const deletes = (db: Database, groupId: number, userIds: number[]) =>
    chunks(userIds).map((ids) => db.delete(members).where(and(eq(groupColumn, groupId), inArray(members.userId, ids))));
  return {
    /** the user ids of the group's members */
    userIdsOf,
    /** the group's members as agents */
    agentsQuery: (db: Database, accountId: number, groupId: number) => agentsQuery(db, accountId, inArray(accountUsers.userId, userIdsOf(db, groupId))),
    inserts,
    deletes,
    /** the writes that make the set exactly `userIds`, given the `current` members */
    replaceWrites(db: Database, accountId: number, groupId: number, current: Set<number>, userIds: number[]) {
      const removed = leaving(current, userIds);
      const added = userIds.filter((id) => !current.has(id));
      return [...deletes(db, groupId, removed), ...inserts(db, accountId, groupId, added)];
    },
  };
}

/** The members of `current` that a replacement by `userIds` takes out of the set. */
export const leaving = (current: Set<number>, userIds: number[]) => [...current].filter((id) => !userIds.includes(id));

export const inboxMemberSet = memberSet(inboxMembers, inboxMembers.inboxId, (accountId, inboxId, userId, createdAt) => ({ accountId, inboxId, userId, createdAt }));
export const teamMemberSet = memberSet(teamMembers, teamMembers.teamId, (accountId, teamId, userId, createdAt) => ({ accountId, teamId, userId, createdAt }));
