/**
 * Auto-assignment: an open conversation nobody holds, in an inbox with `enable_auto_assignment` (on by
 * default, as in Chatwoot), goes to one of the inbox's member agents who is online and available now.
 *
 * - When: a conversation is created or reopened (its event, on the queue: src/jobs/auto-assignment.ts),
 *   and when an agent becomes available, for the conversations waiting in their inboxes, in the policy's
 *   priority order (earliest created, or longest waiting: oldest last activity), a bounded number per run.
 * - Who: the inbox's members who are agents of the account; of a conversation with a team, only the
 *   team's members, and nobody when the team does not allow auto-assignment (Chatwoot's rule). The
 *   account's live feed, which keeps presence, picks among them (the LiveFeed port's claimAssignee): online
 *   and "online" (busy and offline agents are skipped), under the policy's fair-distribution cap, round
 *   robin or balanced.
 * - How: through the manual assignment's own function (events, notification, counters), acting as
 *   "auto-assignment", and only while the conversation is still open and unassigned.
 * An inbox without a policy is assigned round robin with no cap; a disabled policy stops its inboxes'
 * auto-assignment (Chatwoot's `active_policy_enabled?`).
 * - Business hours: an inbox with `working_hours_enabled` assigns nothing while it is closed (Chatwoot's
 *   `return if inbox.out_of_office?` in its assignment service); its conversations wait, and when it opens
 *   the cron hands them out as an agent coming online would (inboxesOpenedBetween, assignWaitingInInbox).
 */
import { and, asc, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import { type Statement, now, schema } from "../../db/client";
import { outOfOffice } from "../inboxes/business-hours";
import { assignConversation } from "../conversations/conversations";
import type { ConversationRow } from "../conversations/rows";
import { CONVERSATION_STATUS } from "../kernel/enums";
import { batchNamed } from "../kernel/batch";
import type { AssigneeClaim } from "../kernel/ports";
import { type AccountScope, type TransportScope, transportOf } from "../kernel/scope";
import { ASSIGNMENT_ORDERS, type AssignmentPolicyRow } from "./rows";

const { conversations, inboxes, inboxMembers, accountUsers, teams, teamMembers, assignmentPolicies, inboxAssignmentPolicies } = schema;

/** How many waiting conversations of one inbox a run hands out when an agent becomes available. */
export const WAITING_BATCH = 25;
/** Chatwoot's default window when an inbox follows no policy (its cap is then off anyway). */
const DEFAULT_WINDOW_S = 24 * 3600;

const autoScope = (transport: TransportScope, accountId: number, policy: AssignmentPolicyRow | undefined): AccountScope => ({
  ...transportOf(transport),
  accountId,
  actor: { type: "auto_assignment", policyId: policy?.id ?? null },
  role: null,
});

/** The inbox's policy, as a subquery-driven select (one per inbox id expression). */
const policyOfInbox = (transport: TransportScope, accountId: number, inboxId: number | ReturnType<typeof sql>) =>
  transport.db
    .select()
    .from(assignmentPolicies)
    .where(
      and(
        eq(assignmentPolicies.accountId, accountId),
        sql`${assignmentPolicies.id} = (SELECT ${inboxAssignmentPolicies.assignmentPolicyId} FROM ${inboxAssignmentPolicies} WHERE ${inboxAssignmentPolicies.accountId} = ${accountId} AND ${inboxAssignmentPolicies.inboxId} = ${inboxId})`,
      ),
    );

/**
 * Assigns one conversation (by row id) when it is waiting and someone is available; answers the agent's
 * user id, or null when it stays as it is.
 */
export async function autoAssignConversation(transport: TransportScope, accountId: number, conversationId: number): Promise<number | null> {
  const { db } = transport;
  const ofConversation = (column: typeof conversations.inboxId | typeof conversations.teamId) =>
    sql<number>`(SELECT ${column} FROM ${conversations} WHERE ${conversations.id} = ${conversationId} AND ${conversations.accountId} = ${accountId})`;
  const read = await batchNamed(db, {
    conversation: db.select().from(conversations).where(and(eq(conversations.accountId, accountId), eq(conversations.id, conversationId))),
    inbox: db.select(inboxAssignmentColumns).from(inboxes).where(and(eq(inboxes.accountId, accountId), sql`${inboxes.id} = ${ofConversation(conversations.inboxId)}`)),
    policy: policyOfInbox(transport, accountId, ofConversation(conversations.inboxId)),
    members: memberAgentsQuery(transport, accountId, ofConversation(conversations.inboxId)),
    team: db.select({ allowAutoAssign: teams.allowAutoAssign }).from(teams).where(and(eq(teams.accountId, accountId), sql`${teams.id} = ${ofConversation(conversations.teamId)}`)),
    teamMembers: db.select({ userId: teamMembers.userId }).from(teamMembers).where(and(eq(teamMembers.accountId, accountId), sql`${teamMembers.teamId} = ${ofConversation(conversations.teamId)}`)),
  });
  const conversation = read.conversation[0];
  const policy = read.policy[0];
  const inbox = read.inbox[0];
  if (!conversation || !waiting(conversation) || !inbox?.enabled || (policy && !policy.enabled) || outOfOffice(inbox, now())) return null;
  let candidates = read.members.map((m) => m.userId);
  if (conversation.teamId !== null) {
    if (!read.team[0]?.allowAutoAssign) return null;
    const inTeam = new Set(read.teamMembers.map((m) => m.userId));
    candidates = candidates.filter((id) => inTeam.has(id));
  }
  if (candidates.length === 0) return null;
  const order = policy ? ASSIGNMENT_ORDERS[policy.assignmentOrder] ?? "round_robin" : "round_robin";
  const open = order === "balanced" ? await openConversationCounts(transport, accountId, candidates) : new Map<number, number>();
  const claim: AssigneeClaim = {
    inboxId: conversation.inboxId,
    conversationId: conversation.id,
    candidates: candidates.map((userId) => ({ userId, openConversations: open.get(userId) ?? 0 })),
    order,
    limit: policy ? policy.fairDistributionLimit : null,
    windowMs: (policy?.fairDistributionWindow ?? DEFAULT_WINDOW_S) * 1000,
  };
  const chosen = await transport.ports.feed.claimAssignee(accountId, claim);
  if (chosen === null) return null;
  const result = await assignConversation(autoScope(transport, accountId, policy), conversation.displayId, { assigneeId: chosen, onlyIfUnassigned: true });
  return result.kind === "agent" ? chosen : null;
}

/**
 * An agent became available: each of their inboxes that auto-assigns hands out its waiting
 * conversations (up to WAITING_BATCH each, in the policy's priority order) to whoever is available, the
 * agent among them. Answers how many were assigned.
 */
export async function assignWaitingConversations(transport: TransportScope, accountId: number, userId: number): Promise<number> {
  const { db } = transport;
  const { inboxRows } = await batchNamed(db, {
    inboxRows: db
      .select({ id: inboxes.id, ...inboxAssignmentColumns })
      .from(inboxes)
      .where(
        and(
          eq(inboxes.accountId, accountId),
          eq(inboxes.enableAutoAssignment, true),
          sql`${inboxes.id} IN (SELECT ${inboxMembers.inboxId} FROM ${inboxMembers} WHERE ${inboxMembers.accountId} = ${accountId} AND ${inboxMembers.userId} = ${userId})`,
        ),
      )
      .orderBy(asc(inboxes.id)),
  });
  const open = inboxRows.filter((inbox) => !outOfOffice(inbox, now()));
  if (open.length === 0) return 0;
  const named: Record<string, Statement> = {};
  for (const inbox of open) {
    named[`policy${inbox.id}`] = policyOfInbox(transport, accountId, inbox.id);
  }
  const policies = (await batchNamed(db, named)) as Record<string, AssignmentPolicyRow[]>;
  let assigned = 0;
  for (const inbox of open) assigned += await handOutWaiting(transport, accountId, inbox.id, policies[`policy${inbox.id}`][0]);
  return assigned;
}

/**
 * An inbox opened (its business hours began): its waiting conversations are handed out to whoever is
 * available, as when an agent comes online. Answers how many were assigned.
 */
export async function assignWaitingInInbox(transport: TransportScope, accountId: number, inboxId: number): Promise<number> {
  const read = await batchNamed(transport.db, {
    inbox: transport.db.select(inboxAssignmentColumns).from(inboxes).where(and(eq(inboxes.accountId, accountId), eq(inboxes.id, inboxId))),
    policy: policyOfInbox(transport, accountId, inboxId),
  });
  const inbox = read.inbox[0];
  if (!inbox?.enabled || outOfOffice(inbox, now())) return 0;
  return handOutWaiting(transport, accountId, inboxId, read.policy[0]);
}

/** The waiting conversations of one inbox (up to WAITING_BATCH), offered one by one in the policy's order. */
async function handOutWaiting(transport: TransportScope, accountId: number, inboxId: number, policy: AssignmentPolicyRow | undefined) {
  if (policy && !policy.enabled) return 0;
  let assigned = 0;
  for (const conversation of await waitingConversations(transport, accountId, inboxId, policy)) {
    if ((await autoAssignConversation(transport, accountId, conversation.id)) !== null) assigned++;
  }
  return assigned;
}

/**
 * The inboxes of every account that auto-assign under business hours and opened between `fromMs` and
 * `toMs` (closed at the first, open at the second): the cron's minute. Reads the inboxes that keep
 * business hours, not their conversations.
 */
export async function inboxesOpenedBetween(transport: TransportScope, fromMs: number, toMs: number): Promise<Array<{ accountId: number; inboxId: number }>> {
  const { rows } = await batchNamed(transport.db, {
    rows: transport.db
      .select({ accountId: inboxes.accountId, inboxId: inboxes.id, ...inboxAssignmentColumns })
      .from(inboxes)
      // literal, as the partial index inboxes_auto_assign_business_hours says it, so SQLite reads that index only
      .where(sql`${inboxes.workingHoursEnabled} = 1 AND ${inboxes.enableAutoAssignment} = 1`),
  });
  return rows.filter((inbox) => outOfOffice(inbox, fromMs) && !outOfOffice(inbox, toMs)).map(({ accountId, inboxId }) => ({ accountId, inboxId }));
}

/** What decides whether an inbox assigns now: its flag and its business hours. */
const inboxAssignmentColumns = {
  enabled: inboxes.enableAutoAssignment,
  workingHoursEnabled: inboxes.workingHoursEnabled,
  workingHours: inboxes.workingHours,
  timezone: inboxes.timezone,
};

/** Open, and held by nobody: neither an agent nor a bot. */
const waiting = (c: ConversationRow) => c.status === CONVERSATION_STATUS.open && c.assigneeId === null && c.assigneeAgentBotId === null;

/** The inbox's members who are agents or administrators of the account (a member who left it is not). */
const memberAgentsQuery = (transport: TransportScope, accountId: number, inboxId: number | ReturnType<typeof sql>) =>
  transport.db
    .select({ userId: inboxMembers.userId })
    .from(inboxMembers)
    .innerJoin(accountUsers, and(eq(accountUsers.accountId, accountId), eq(accountUsers.userId, inboxMembers.userId)))
    .where(and(eq(inboxMembers.accountId, accountId), sql`${inboxMembers.inboxId} = ${inboxId}`))
    .orderBy(asc(inboxMembers.userId));

/** Each candidate's conversations that are not resolved, for the balanced order. */
async function openConversationCounts(transport: TransportScope, accountId: number, userIds: number[]): Promise<Map<number, number>> {
  const { counts } = await batchNamed(transport.db, {
    counts: transport.db
      .select({ userId: conversations.assigneeId, count: sql<number>`count(*)` })
      .from(conversations)
      .where(and(eq(conversations.accountId, accountId), inArray(conversations.assigneeId, userIds), ne(conversations.status, CONVERSATION_STATUS.resolved)))
      .groupBy(conversations.assigneeId),
  });
  return new Map(counts.map((c) => [c.userId ?? 0, Number(c.count)]));
}

/** The inbox's waiting conversations, first those the policy puts first. */
async function waitingConversations(transport: TransportScope, accountId: number, inboxId: number, policy: AssignmentPolicyRow | undefined) {
  const longestWaiting = policy?.conversationPriority === 1;
  const { rows } = await batchNamed(transport.db, {
    rows: transport.db
      .select({ id: conversations.id })
      .from(conversations)
      .where(
        and(
          eq(conversations.inboxId, inboxId),
          eq(conversations.accountId, accountId),
          eq(conversations.status, CONVERSATION_STATUS.open),
          isNull(conversations.assigneeId),
          isNull(conversations.assigneeAgentBotId),
        ),
      )
      .orderBy(...(longestWaiting ? [asc(conversations.lastActivityAt), asc(conversations.createdAt)] : [asc(conversations.createdAt)]), asc(conversations.id))
      .limit(WAITING_BATCH),
  });
  return rows;
}
