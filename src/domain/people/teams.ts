/** Teams of an account and their members. Members must be agents of the account. */
import { and, asc, eq } from "drizzle-orm";
import { type Database, now, schema } from "../../db/client";
import { batch, write, writeThenRead } from "../kernel/batch";
import { type AgentRow, actorUserId, assertAllAgents, memberIdsQueries } from "./agents";
import { leaving, teamMemberSet } from "./member-sets";
import { type AccountScope } from "../kernel/scope";
import { invalidField, notFound } from "../kernel/errors";
import type { TeamRow } from "./rows";

const { teams, teamMembers, conversations } = schema;

/** A team with whether the caller belongs to it (Chatwoot's `is_member`). */
export type TeamRecord = { team: TeamRow; isMember: boolean };

export type TeamInput = { name?: string; description?: string | null; allowAutoAssign?: boolean };

const teamQuery = (db: Database, accountId: number, teamId: number) =>
  db.select().from(teams).where(and(eq(teams.accountId, accountId), eq(teams.id, teamId)));

const callerTeamsQuery = (db: Database, accountId: number, userId: number) =>
  db
    .select({ teamId: teamMembers.teamId })
    .from(teamMembers)
    .where(and(eq(teamMembers.accountId, accountId), eq(teamMembers.userId, userId)));

const sameNameQuery = (db: Database, accountId: number, name: string) =>
  db.select({ id: teams.id }).from(teams).where(and(eq(teams.accountId, accountId), eq(teams.name, name)));

function assertNameFree(rows: Array<{ id: number }>, exceptTeamId?: number) {
  if (rows.some((r) => r.id !== exceptTeamId)) throw invalidField("name", "has already been taken", "taken");
}

export async function listTeams(scope: AccountScope): Promise<TeamRecord[]> {
  const { db, accountId } = scope;
  const [rows, mine] = await batch(db, [
    db.select().from(teams).where(eq(teams.accountId, accountId)).orderBy(asc(teams.name), asc(teams.id)),
    callerTeamsQuery(db, accountId, actorUserId(scope)),
  ]);
  const memberOf = new Set(mine.map((m) => m.teamId));
  return rows.map((team) => ({ team, isMember: memberOf.has(team.id) }));
}

export async function getTeam(scope: AccountScope, teamId: number): Promise<TeamRecord> {
  const { db, accountId } = scope;
  const [rows, mine] = await batch(db, [teamQuery(db, accountId, teamId), callerTeamsQuery(db, accountId, actorUserId(scope))]);
  if (!rows[0]) throw notFound("Team", teamId);
  return { team: rows[0], isMember: mine.some((m) => m.teamId === teamId) };
}

/** Names are stored lower-cased and are unique in the account (Chatwoot's rule). */
export async function createTeam(scope: AccountScope, input: TeamInput & { name: string }): Promise<TeamRecord> {
  const { db, accountId } = scope;
  const name = input.name.toLowerCase();
  const [same] = await batch(db, [sameNameQuery(db, accountId, name)]);
  assertNameFree(same);
  const at = now();
  const [rows] = await batch(db, [
    db
      .insert(teams)
      .values({
        accountId,
        name,
        description: input.description ?? null,
        allowAutoAssign: input.allowAutoAssign ?? true,
        createdAt: at,
        updatedAt: at,
      })
      .returning(),
  ]);
  return { team: rows[0], isMember: false };
}

export async function updateTeam(scope: AccountScope, teamId: number, input: TeamInput): Promise<TeamRecord> {
  const { db, accountId } = scope;
  const name = input.name?.toLowerCase();
  const [rows, mine, same] = await batch(db, [
    teamQuery(db, accountId, teamId),
    callerTeamsQuery(db, accountId, actorUserId(scope)),
    sameNameQuery(db, accountId, name ?? ""),
  ]);
  if (!rows[0]) throw notFound("Team", teamId);
  if (name !== undefined) assertNameFree(same, teamId);
  const [updated] = await batch(db, [
    db
      .update(teams)
      .set({ name, description: input.description, allowAutoAssign: input.allowAutoAssign, updatedAt: now() })
      .where(and(eq(teams.accountId, accountId), eq(teams.id, teamId)))
      .returning(),
  ]);
  return { team: updated[0], isMember: mine.some((m) => m.teamId === teamId) };
}

/** Deletes the team and its memberships; its conversations stay, without a team. */
export async function deleteTeam(scope: AccountScope, teamId: number) {
  const { db, accountId } = scope;
  const [rows, members] = await batch(db, [teamQuery(db, accountId, teamId), membersOf(db, teamId)]);
  if (!rows[0]) throw notFound("Team", teamId);
  await write(db, [
    db
      .update(conversations)
      .set({ teamId: null, updatedAt: now() })
      .where(and(eq(conversations.accountId, accountId), eq(conversations.teamId, teamId))),
    db.delete(teamMembers).where(and(eq(teamMembers.accountId, accountId), eq(teamMembers.teamId, teamId))),
    db.delete(teams).where(and(eq(teams.accountId, accountId), eq(teams.id, teamId))),
  ]);
  // its members no longer reach its conversations through it
  await scope.ports.feed.accessChanged(accountId, members.map((m) => m.userId));
}

// ---------------------------------------------------------------- members

const membersOf = teamMemberSet.userIdsOf;
const teamAgentsQuery = teamMemberSet.agentsQuery;

export async function listTeamMembers(scope: AccountScope, teamId: number): Promise<AgentRow[]> {
  const { db, accountId } = scope;
  const [rows, agents] = await batch(db, [teamQuery(db, accountId, teamId), teamAgentsQuery(db, accountId, teamId)]);
  if (!rows[0]) throw notFound("Team", teamId);
  return agents;
}

/** Reads the team, its current members and which of `userIds` are agents; refuses strangers. */
async function loadForMemberChange(scope: AccountScope, teamId: number, userIds: number[]) {
  const { db, accountId } = scope;
  const [rows, current, ...memberRows] = await batch(db, [
    teamQuery(db, accountId, teamId),
    membersOf(db, teamId),
    ...memberIdsQueries(db, accountId, userIds),
  ]);
  if (!rows[0]) throw notFound("Team", teamId);
  assertAllAgents(userIds, memberRows);
  return new Set(current.map((m) => m.userId));
}

/** Adds agents; answers only the ones that were not members yet (Chatwoot's reply). */
export async function addTeamMembers(scope: AccountScope, teamId: number, userIds: number[]): Promise<AgentRow[]> {
  const { db, accountId } = scope;
  const current = await loadForMemberChange(scope, teamId, userIds);
  const added = userIds.filter((id) => !current.has(id));
  if (added.length === 0) return [];
  const [members] = await writeThenRead(db, teamMemberSet.inserts(db, accountId, teamId, added), [teamAgentsQuery(db, accountId, teamId)]);
  const isNew = new Set(added);
  return members.filter((agent) => isNew.has(agent.userId));
}

/** Makes the members exactly `userIds`; answers all members. */
export async function replaceTeamMembers(scope: AccountScope, teamId: number, userIds: number[]): Promise<AgentRow[]> {
  const { db, accountId } = scope;
  const current = await loadForMemberChange(scope, teamId, userIds);
  const writes = teamMemberSet.replaceWrites(db, accountId, teamId, current, userIds);
  const [members] = await writeThenRead(db, writes, [teamAgentsQuery(db, accountId, teamId)]);
  await scope.ports.feed.accessChanged(accountId, leaving(current, userIds));
  return members;
}

/** Removes the given agents; ids that are not members are ignored. */
export async function removeTeamMembers(scope: AccountScope, teamId: number, userIds: number[]) {
  const { db } = scope;
  const current = await loadForMemberChange(scope, teamId, userIds);
  await write(db, teamMemberSet.deletes(db, teamId, userIds));
  await scope.ports.feed.accessChanged(scope.accountId, userIds.filter((id) => current.has(id)));
}
