/**
 * A conversation's participants (Chatwoot's conversation_participants): agents who follow it besides its
 * assignee and hear of its new messages. Whoever may act on the conversation may read and change them
 * (Chatwoot's conversation permission). A participant must be an agent of the account who can see the
 * conversation (administrator, inbox or team member; Chatwoot asks for inbox access): otherwise a 422
 * names the ids, and nothing is written. A mention adds the users it names (notifications.ts).
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { now, schema } from "../../db/client";
import { batch, write } from "../kernel/batch";
import { ROLE } from "../kernel/enums";
import { invalidField } from "../kernel/errors";
import { type AccountScope } from "../kernel/scope";
import { agentsQuery, assertAllAgents, memberIdsQueries } from "../people/agents";
import type { AgentRow } from "../people/rows";
import { conversationColumn, readConversation } from "./access";
import type { ConversationRow } from "./rows";

const { conversationParticipants, conversations, inboxMembers, teamMembers, accountUsers } = schema;

const participantIds = (scope: AccountScope, displayId: number) =>
  scope.db
    .select({ userId: conversationParticipants.userId })
    .from(conversationParticipants)
    .where(and(eq(conversationParticipants.accountId, scope.accountId), sql`${conversationParticipants.conversationId} = ${conversationColumn(scope, displayId, conversations.id)}`))
    .orderBy(asc(conversationParticipants.id));

/** The participants as agents of the account, in the order they joined. */
async function participantAgents(scope: AccountScope, conversation: ConversationRow, only?: readonly number[]): Promise<AgentRow[]> {
  const { db, accountId } = scope;
  const [rows, agents] = await batch(db, [
    db.select({ userId: conversationParticipants.userId }).from(conversationParticipants).where(and(eq(conversationParticipants.accountId, accountId), eq(conversationParticipants.conversationId, conversation.id))).orderBy(asc(conversationParticipants.id)),
    agentsQuery(db, accountId, inArray(accountUsers.userId, db.select({ id: conversationParticipants.userId }).from(conversationParticipants).where(and(eq(conversationParticipants.accountId, accountId), eq(conversationParticipants.conversationId, conversation.id))))),
  ]);
  const byId = new Map(agents.map((a) => [a.userId, a]));
  return rows.flatMap((r): AgentRow[] => {
    const agent = byId.get(r.userId);
    return agent && (only === undefined || only.includes(agent.userId)) ? [agent] : [];
  });
}

export async function listParticipants(scope: AccountScope, displayId: number): Promise<AgentRow[]> {
  const { conversation } = await readConversation(scope, displayId, []);
  return participantAgents(scope, conversation);
}

/**
 * Reads the conversation and checks `userIds` (422 naming the ids that are not agents of the account, then
 * those who cannot see the conversation); answers the conversation and its current participant ids.
 */
async function checkedChange(scope: AccountScope, displayId: number, userIds: readonly number[]) {
  const { db, accountId } = scope;
  const inboxId = conversationColumn(scope, displayId, conversations.inboxId);
  const teamId = conversationColumn(scope, displayId, conversations.teamId);
  const seeingQuery = db
    .select({ userId: accountUsers.userId })
    .from(accountUsers)
    .where(
      and(
        eq(accountUsers.accountId, accountId),
        inArray(accountUsers.userId, userIds.length ? [...userIds] : [0]),
        sql`(${accountUsers.role} = ${ROLE.administrator}
          OR ${accountUsers.userId} IN (SELECT ${inboxMembers.userId} FROM ${inboxMembers} WHERE ${inboxMembers.accountId} = ${accountId} AND ${inboxMembers.inboxId} = ${inboxId})
          OR ${accountUsers.userId} IN (SELECT ${teamMembers.userId} FROM ${teamMembers} WHERE ${teamMembers.accountId} = ${accountId} AND ${teamMembers.teamId} = ${teamId}))`,
      ),
    );
  const { conversation, extra } = await readConversation(scope, displayId, [participantIds(scope, displayId), seeingQuery, ...memberIdsQueries(db, accountId, userIds)]);
  const [current, seeingRows, ...members] = extra;
  assertAllAgents(userIds, members);
  const seeing = new Set(seeingRows.map((r) => r.userId));
  const blind = userIds.filter((id) => !seeing.has(id));
  if (blind.length > 0) throw invalidField("user_ids", `cannot see this conversation (no inbox or team access): ${blind.join(", ")}`, "no_conversation_access");
  return { conversation, current: current.map((r) => r.userId) };
}

const insertParticipants = (scope: AccountScope, conversation: ConversationRow, userIds: readonly number[], at: number) =>
  userIds.length === 0
    ? []
    : [
        scope.db
          .insert(conversationParticipants)
          .values(userIds.map((userId) => ({ accountId: scope.accountId, conversationId: conversation.id, userId, createdAt: at, updatedAt: at })))
          .onConflictDoNothing(),
      ];

const deleteParticipants = (scope: AccountScope, conversation: ConversationRow, userIds: readonly number[]) =>
  userIds.length === 0
    ? []
    : [scope.db.delete(conversationParticipants).where(and(eq(conversationParticipants.accountId, scope.accountId), eq(conversationParticipants.conversationId, conversation.id), inArray(conversationParticipants.userId, [...userIds])))];

/** POST: adds the users (those already in stay); answers the participants added by this request, as Chatwoot does. */
export async function addParticipants(scope: AccountScope, displayId: number, userIds: readonly number[]): Promise<AgentRow[]> {
  const { conversation, current } = await checkedChange(scope, displayId, userIds);
  const added = [...new Set(userIds)].filter((id) => !current.includes(id));
  await write(scope.db, insertParticipants(scope, conversation, added, now()));
  return participantAgents(scope, conversation, added);
}

/** PATCH: the participants become exactly `userIds`; answers them all. */
export async function replaceParticipants(scope: AccountScope, displayId: number, userIds: readonly number[]): Promise<AgentRow[]> {
  const { conversation, current } = await checkedChange(scope, displayId, userIds);
  const added = [...new Set(userIds)].filter((id) => !current.includes(id));
  const removed = current.filter((id) => !userIds.includes(id));
  const writes = [...insertParticipants(scope, conversation, added, now()), ...deleteParticipants(scope, conversation, removed)];
  await write(scope.db, writes);
  return participantAgents(scope, conversation);
}

/**
 * DELETE: removes the users. Like Chatwoot, ids that are not participants are ignored; ids that are not
 * agents of the account are still a 422, so a typo is not silently accepted.
 */
export async function removeParticipants(scope: AccountScope, displayId: number, userIds: readonly number[]): Promise<void> {
  const { db, accountId } = scope;
  const { conversation, extra } = await readConversation(scope, displayId, memberIdsQueries(db, accountId, userIds));
  assertAllAgents(userIds, extra);
  await write(db, deleteParticipants(scope, conversation, userIds));
}
