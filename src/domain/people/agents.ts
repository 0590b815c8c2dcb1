/**
 * Agents: the users of an account, seen through their membership (role, availability). Every list of
 * people inside an account (agents, inbox and team members, assignees) is read with `agentsQuery`, so
 * they all carry the same fields.
 */
import { type SQL, and, asc, eq, inArray, sql } from "drizzle-orm";
import { chunks } from "../../db/chunks";
import { type Database, now, schema } from "../../db/client";
import { removeAccountUser } from "../identity/account-users";
import type { UserRow } from "../identity/rows";
import { newUserStatements } from "../identity/users";
import { copyIdentityToShards, copyUserToShards } from "../identity/mirror";
import { batch, write } from "../kernel/batch";
import { AVAILABILITIES, AVAILABILITY, ROLE, enumName } from "../kernel/enums";
import { type AccountScope } from "../kernel/scope";
import { DomainError, invalidField, notFound } from "../kernel/errors";
import type { AgentRow } from "./rows";

const { users, accountUsers } = schema;

/**
 * The columns an agent view needs. Names are unique across both tables because drizzle maps batched
 * rows by column name: two `id` columns would overwrite each other.
 */
const agentColumns = {
  userId: sql<number>`${users.id}`.as("agent_user_id"),
  name: users.name,
  displayName: users.displayName,
  email: users.email,
  avatarUrl: users.avatarUrl,
  confirmedAt: users.confirmedAt,
  customAttributes: users.customAttributes,
  role: accountUsers.role,
  availability: accountUsers.availability,
  autoOffline: accountUsers.autoOffline,
};

/** Declared with the rows (a message's sender names it without reaching this module). */
export type { AgentRow };

/** Statement: the account's agents (optionally narrowed by `where`), by lower(name) as Chatwoot lists them. */
export function agentsQuery(db: Database, accountId: number, where?: SQL) {
  return db
    .select(agentColumns)
    .from(accountUsers)
    .innerJoin(users, eq(users.id, accountUsers.userId))
    .where(and(eq(accountUsers.accountId, accountId), where))
    .orderBy(asc(sql`lower(${users.name})`), asc(users.id));
}

/**
 * Statement: users picked by `where`, with their membership in the account when they still have one:
 * the authors of old messages may have left it.
 */
export function usersAsAgentsQuery(db: Database, accountId: number, where: SQL | undefined) {
  return db
    .select(agentColumns)
    .from(users)
    .leftJoin(accountUsers, and(eq(accountUsers.userId, users.id), eq(accountUsers.accountId, accountId)))
    .where(where);
}

/** Statements: which of `userIds` are members of the account (any role); one per chunk. */
export function memberIdsQueries(db: Database, accountId: number, userIds: readonly number[]) {
  return chunks(userIds).map((ids) =>
    db
      .select({ memberUserId: accountUsers.userId })
      .from(accountUsers)
      .where(and(eq(accountUsers.accountId, accountId), inArray(accountUsers.userId, ids))),
  );
}

/**
 * Inbox and team members must be agents of the account (Chatwoot accepts any user for inboxes and
 * answers 401 for teams): a 422 that names the ids that are not, before anything is written.
 */
export function assertAllAgents(userIds: readonly number[], memberRows: ReadonlyArray<ReadonlyArray<{ memberUserId: number }>>) {
  const members = new Set(memberRows.flat().map((r) => r.memberUserId));
  const strangers = userIds.filter((id) => !members.has(id));
  if (strangers.length > 0) {
    throw invalidField("user_ids", `are not agents of this account: ${strangers.join(", ")}`, "not_account_members");
  }
}

/** The calling user's id (account routes for people run behind user keys only). */
export function actorUserId(scope: AccountScope): number {
  if (scope.actor.type !== "user") throw new Error("expected a user actor");
  return scope.actor.user.id;
}

export async function listAgents(scope: AccountScope): Promise<AgentRow[]> {
  const [rows] = await batch(scope.db, [agentsQuery(scope.db, scope.accountId)]);
  return rows;
}

export type AgentInput = {
  name?: string;
  role?: number;
  availability?: number;
  autoOffline?: boolean;
};

/**
 * Chatwoot's invitation: the user with this email joins the account; without one, a new user is
 * created (unconfirmed, with its own API key, as Chatwoot creates invitees). A member already: 422.
 */
export async function createAgent(scope: AccountScope, input: AgentInput & { email: string }): Promise<AgentRow> {
  // users and memberships are the directory's (docs/shards.md); the account's shard gets its copy after
  const { directory: db, accountId } = scope;
  const [existing, membership] = await batch(db, [
    db.select().from(users).where(eq(users.email, input.email)),
    db
      .select({ id: accountUsers.id })
      .from(accountUsers)
      .innerJoin(users, eq(users.id, accountUsers.userId))
      .where(and(eq(accountUsers.accountId, accountId), eq(users.email, input.email))),
  ]);
  if (membership.length > 0) throw invalidField("email", "is already an agent of this account", "taken");
  const at = now();
  const inviterId = actorUserId(scope);
  const member = {
    accountId,
    role: input.role ?? ROLE.agent,
    availability: input.availability ?? AVAILABILITY.online,
    autoOffline: input.autoOffline ?? true,
    inviterId,
    createdAt: at,
    updatedAt: at,
  };

  const user = existing[0];
  if (user) {
    await write(db, [db.insert(accountUsers).values({ ...member, userId: user.id })]);
    await copyIdentityToShards(scope, [accountId], { userIds: [user.id] });
    return toAgentRow(user, member);
  }
  const name = input.name?.trim();
  if (!name) throw invalidField("name", "must not be blank", "blank");
  const created = await newUserStatements(db, { name, email: input.email, inviterId, confirmedAt: null });
  const [inserted] = await batch(db, [...created.statements, db.insert(accountUsers).values({ ...member, userId: created.userId })]);
  await copyIdentityToShards(scope, [accountId], { userIds: [inserted[0].id] });
  return toAgentRow(inserted[0], member);
}

export type BulkAgents = { created: AgentRow[]; skipped: Array<{ email: string; reason: "already_a_member" }> };

/**
 * Chatwoot's agents#bulk_create: each e-mail is invited through `createAgent`, as an agent named after
 * the e-mail's local part (Chatwoot's builder does the same); the account's members are skipped. The
 * e-mails are checked (and bounded) by the route before anyone is invited, and one e-mail given twice is invited once.
 */
export async function bulkCreateAgents(scope: AccountScope, emails: readonly string[]): Promise<BulkAgents> {
  const result: BulkAgents = { created: [], skipped: [] };
  for (const email of [...new Set(emails)]) {
    try {
      result.created.push(await createAgent(scope, { email, name: email.split("@")[0] }));
    } catch (error) {
      if (!(error instanceof DomainError) || error.errors[0]?.code !== "taken") throw error;
      result.skipped.push({ email, reason: "already_a_member" });
    }
  }
  return result;
}

function toAgentRow(
  user: UserRow,
  member: { role: number; availability: number; autoOffline: boolean },
): AgentRow {
  return {
    userId: user.id,
    name: user.name,
    displayName: user.displayName,
    email: user.email,
    avatarUrl: user.avatarUrl,
    confirmedAt: user.confirmedAt,
    customAttributes: user.customAttributes,
    role: member.role,
    availability: member.availability,
    autoOffline: member.autoOffline,
  };
}

/** The user's membership of this account, the user's name, and whether the user belongs to any other account. */
async function findMembership(scope: AccountScope, userId: number) {
  const { directory } = scope;
  const [rows, names, elsewhere] = await batch(directory, [
    directory
      .select({ id: accountUsers.id, role: accountUsers.role })
      .from(accountUsers)
      .where(and(eq(accountUsers.accountId, scope.accountId), eq(accountUsers.userId, userId))),
    directory.select({ name: users.name }).from(users).where(eq(users.id, userId)),
    directory
      .select({ id: accountUsers.id })
      .from(accountUsers)
      .where(and(eq(accountUsers.userId, userId), sql`${accountUsers.accountId} <> ${scope.accountId}`))
      .limit(1),
  ]);
  if (!rows[0]) throw notFound("Agent", userId);
  return { id: rows[0].id, role: rows[0].role, name: names[0]?.name, inOtherAccounts: elsewhere.length > 0 };
}

/** Changes the membership (role, availability, auto_offline) and the user's name. */
export async function updateAgent(scope: AccountScope, userId: number, input: AgentInput): Promise<AgentRow> {
  const { directory, db, accountId } = scope;
  const membership = await findMembership(scope, userId);
  const at = now();
  const { name, ...memberFields } = input;
  // The name belongs to the user, not to the membership: renaming a user who also belongs to other
  // accounts would change what those accounts see (any administrator can add an existing user by
  // email), so only the user may rename themselves then (PUT /api/v1/profile). Chatwoot allows it.
  // Sending the current name (a dashboard form sends every field) is no rename.
  if (name !== undefined && name !== membership.name && membership.inOtherAccounts) {
    throw invalidField("name", "belongs to a user who is also a member of other accounts; only they can change it", "shared_user");
  }
  const memberUpdate = directory
    .update(accountUsers)
    .set({ ...memberFields, updatedAt: at })
    .where(and(eq(accountUsers.accountId, accountId), eq(accountUsers.id, membership.id)));
  const nameUpdate = name === undefined ? [] : [directory.update(users).set({ name, updatedAt: at }).where(eq(users.id, userId))];
  await write(directory, [memberUpdate, ...nameUpdate]);
  // a rename reaches the user's other accounts' shards too
  if (name !== undefined) await copyUserToShards(scope, userId);
  else await copyIdentityToShards(scope, [accountId], { userIds: [userId] });
  const [rows] = await batch(db, [agentsQuery(db, accountId, eq(accountUsers.userId, userId))]);
  const availability = enumName(AVAILABILITIES, input.availability);
  if (availability) await scope.ports.feed.availabilityChanged(accountId, userId, availability);
  // a new role changes what the user may see: an administrator made agent keeps only their inboxes and teams
  if (input.role !== undefined && input.role !== membership.role) await scope.ports.feed.accessChanged(accountId, [userId]);
  return rows[0];
}

/**
 * Ends the membership (and the agent's inbox and team seats and assignments in this account). The user
 * stays, with its key, since it may belong to other accounts or be invited again.
 */
export async function deleteAgent(scope: AccountScope, userId: number) {
  await findMembership(scope, userId);
  await removeAccountUser(scope, scope.accountId, userId);
}
