/**
 * Who works an inbox. Members must be agents of the account (Chatwoot accepts any user); a request
 * naming anyone else changes nothing.
 */
import { and, eq, inArray, or, sql } from "drizzle-orm";
import { type Database, schema } from "../../db/client";
import { batch, write, writeThenRead } from "../kernel/batch";
import { ROLE } from "../kernel/enums";
import { type AgentRow, actorUserId, agentsQuery, assertAllAgents, memberIdsQueries } from "../people/agents";
import { inboxMemberSet, leaving } from "../people/member-sets";
import { assertInboxAccess, inboxAccessQueries } from "./inboxes";
import { type AccountScope } from "../kernel/scope";
import { notFound } from "../kernel/errors";

const { inboxes, inboxMembers, accountUsers } = schema;

const seatsOf = inboxMemberSet.userIdsOf;
const inboxAgentsQuery = inboxMemberSet.agentsQuery;

/** The inbox's members; an agent must be one of them to look. */
export async function listInboxMembers(scope: AccountScope, inboxId: number): Promise<AgentRow[]> {
  const [inboxRows, seat, agents] = await batch(scope.db, [
    ...inboxAccessQueries(scope, inboxId),
    inboxAgentsQuery(scope.db, scope.accountId, inboxId),
  ]);
  assertInboxAccess(scope, inboxId, inboxRows, seat, "inbox_id");
  return agents;
}

/**
 * Who may be assigned conversations of every one of `inboxIds`: the agents who are members of all of them
 * (Chatwoot intersects) and every administrator. Each inbox must be the account's (else 404 on `field`)
 * and, for an agent caller, one of theirs (else 403). One round trip, whatever the number of inboxes.
 */
export async function listAssignableAgents(scope: AccountScope, inboxIds: number[], field = "id"): Promise<AgentRow[]> {
  const { db, accountId } = scope;
  const ids = [...new Set(inboxIds)];
  const [found, seats, agents] = await batch(db, [
    db.select({ id: inboxes.id }).from(inboxes).where(and(eq(inboxes.accountId, accountId), inArray(inboxes.id, ids))),
    db.select({ id: inboxMembers.inboxId }).from(inboxMembers).where(and(eq(inboxMembers.accountId, accountId), eq(inboxMembers.userId, actorUserId(scope)), inArray(inboxMembers.inboxId, ids))),
    agentsQuery(db, accountId, or(eq(accountUsers.role, ROLE.administrator), inArray(accountUsers.userId, membersOfAll(db, accountId, ids)))),
  ]);
  for (const id of ids) assertInboxAccess(scope, id, found.filter((r) => r.id === id), seats.filter((r) => r.id === id), field);
  return agents;
}

/** Statement: the users who are members of every one of `inboxIds` (read through the inbox's member index). */
const membersOfAll = (db: Database, accountId: number, inboxIds: number[]) =>
  db
    .select({ userId: inboxMembers.userId })
    .from(inboxMembers)
    .where(and(eq(inboxMembers.accountId, accountId), inArray(inboxMembers.inboxId, inboxIds)))
    .groupBy(inboxMembers.userId)
    .having(sql`count(distinct ${inboxMembers.inboxId}) = ${inboxIds.length}`);

/** Reads the inbox, its current members and which of `userIds` are agents; refuses strangers. */
async function loadForChange(scope: AccountScope, inboxId: number, userIds: number[]) {
  const { db, accountId } = scope;
  const [inboxRows, seats, ...memberRows] = await batch(db, [
    db.select({ id: inboxes.id }).from(inboxes).where(and(eq(inboxes.accountId, accountId), eq(inboxes.id, inboxId))),
    seatsOf(db, inboxId),
    ...memberIdsQueries(db, accountId, userIds),
  ]);
  if (inboxRows.length === 0) throw notFound("Inbox", inboxId, "inbox_id");
  assertAllAgents(userIds, memberRows);
  return new Set(seats.map((s) => s.userId));
}

/** Adds agents to the inbox; answers all members. */
export async function addInboxMembers(scope: AccountScope, inboxId: number, userIds: number[]): Promise<AgentRow[]> {
  const current = await loadForChange(scope, inboxId, userIds);
  const added = userIds.filter((id) => !current.has(id));
  const [members] = await writeThenRead(scope.db, inboxMemberSet.inserts(scope.db, scope.accountId, inboxId, added), [
    inboxAgentsQuery(scope.db, scope.accountId, inboxId),
  ]);
  return members;
}

/** Makes the members exactly `userIds`; every other agent leaves the inbox. Answers all members. */
export async function replaceInboxMembers(scope: AccountScope, inboxId: number, userIds: number[]): Promise<AgentRow[]> {
  const current = await loadForChange(scope, inboxId, userIds);
  const writes = inboxMemberSet.replaceWrites(scope.db, scope.accountId, inboxId, current, userIds);
  const [members] = await writeThenRead(scope.db, writes, [inboxAgentsQuery(scope.db, scope.accountId, inboxId)]);
  await scope.ports.feed.accessChanged(scope.accountId, leaving(current, userIds));
  return members;
}

/** Removes the given agents; ids that are not members are ignored. */
export async function removeInboxMembers(scope: AccountScope, inboxId: number, userIds: number[]) {
  const current = await loadForChange(scope, inboxId, userIds);
  const removed = userIds.filter((id) => current.has(id));
  if (removed.length === 0) return;
  await write(scope.db, inboxMemberSet.deletes(scope.db, inboxId, removed));
  await scope.ports.feed.accessChanged(scope.accountId, removed);
}
