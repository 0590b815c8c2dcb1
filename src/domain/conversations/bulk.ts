/**
 * Bulk actions on conversations (Chatwoot's `POST /bulk_actions` with `type: Conversation`). Every change
 * goes through the function its own route uses (labels, toggle_status, toggle_priority, assignments), with
 * the caller as the actor, so each conversation gets the same row, counters, events, notifications and
 * activity messages as if the caller had made the changes one by one.
 *
 * The ids are display ids. Those the account does not have, and those the caller does not reach (the one
 * access rule of access.ts: an agent reaches the conversations of their inboxes and teams), are skipped and
 * reported; so is a change one conversation refuses (an assignee who is not a member of its inbox), after
 * which its other changes still run. What can be checked for the whole selection is checked before any
 * change: the assignee is an agent of the account, the team one of its teams (422, nothing changed).
 *
 * Up to BULK_IN_REQUEST ids run in the request: one read (the conversations, whether the caller reaches
 * them, their labels), then the changes one conversation at a time. A larger selection is checked the
 * same way up front (the targets) and then runs on the queue in slices (src/jobs/bulk-actions.ts).
 */
import { and, eq, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import { usersAsAgentsQuery } from "../people/agents";
import { batchNamed } from "../kernel/batch";
import { DomainError, type ErrorEntry, forbidden, invalid } from "../kernel/errors";
import { type AccountScope } from "../kernel/scope";
import type { ConversationBulkInput } from "../kernel/bulk-inputs";
import { BULK_IN_REQUEST, queueBulkAction } from "../kernel/bulk-queue";
import { reachableCondition } from "./access";
import { assignConversation, checkAccountAgent, checkTeam, replaceLabels, teamQuery, toggleStatus, togglePriority } from "./conversations";

const { conversations, taggings, users } = schema;

/** Conversations read (and held) at a time. */
export const BULK_SLICE = 100;


export type { ConversationBulkInput };

export type BulkSkip = { id: number; reason: "not_found" | "not_accessible" };
export type BulkFailure = { id: number; field: string; code: string; message: string };
/**
 * What a bulk action did: the ids it acted on, those it skipped, and the changes refused on one of them;
 * or, for a selection too large for the request, how many ids went to the queue (`queued`).
 */
export type BulkResult = { ids: number[]; skipped: BulkSkip[]; failures: BulkFailure[]; queued: number };

export async function bulkUpdateConversations(scope: AccountScope, input: ConversationBulkInput): Promise<BulkResult> {
  if (scope.actor.type !== "user") throw forbidden("Only users run bulk actions", "user_required");
  await checkTargets(scope, input);
  const ids = [...new Set(input.ids)];
  if (ids.length > BULK_IN_REQUEST) return queueBulkAction(scope, ids, (slice) => ({ type: "Conversation", input: { ...input, ids: slice } }));
  const result: BulkResult = { ids: [], skipped: [], failures: [], queued: 0 };
  for (let i = 0; i < ids.length; i += BULK_SLICE) {
    const slice = ids.slice(i, i + BULK_SLICE);
    const { rows, tags } = await readSlice(scope, slice);
    const byDisplayId = new Map(rows.map((r) => [r.displayId, r]));
    const tagsOf = new Map<number, string[]>();
    for (const t of tags) tagsOf.set(t.conversationId, [...(tagsOf.get(t.conversationId) ?? []), t.tag]);
    for (const displayId of slice) {
      const row = byDisplayId.get(displayId);
      if (!row || !row.reachable) {
        result.skipped.push({ id: displayId, reason: row ? "not_accessible" : "not_found" });
        continue;
      }
      result.failures.push(...(await applyChanges(scope, displayId, tagsOf.get(row.id) ?? [], input)));
      result.ids.push(displayId);
    }
  }
  return result;
}

/** The assignee and the team, checked once for the whole selection (the inbox membership is per conversation). */
async function checkTargets(scope: AccountScope, input: ConversationBulkInput) {
  if (!input.assigneeId && !input.teamId) return;
  const read = await batchNamed(scope.db, {
    agents: usersAsAgentsQuery(scope.db, scope.accountId, eq(users.id, input.assigneeId ?? 0)),
    team: teamQuery(scope, input.teamId),
  });
  // both are checked, so one answer names every bad target; the fields sit under `fields` in the body
  const errors: ErrorEntry[] = [];
  const collect = (check: () => unknown) => {
    try {
      check();
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      errors.push(...error.errors.map((e) => ({ ...e, field: `fields.${e.field}` })));
    }
  };
  const { assigneeId, teamId } = input;
  if (assigneeId) collect(() => checkAccountAgent(assigneeId, read.agents));
  if (teamId) collect(() => checkTeam(teamId, read.team));
  if (errors.length > 0) throw invalid(errors);
}

/** One slice: the conversations by display id with whether the caller reaches them, and their labels. */
function readSlice(scope: AccountScope, displayIds: number[]) {
  const { db, accountId } = scope;
  const inSlice = and(eq(conversations.accountId, accountId), sql`${conversations.displayId} IN (SELECT value FROM json_each(${JSON.stringify(displayIds)}))`);
  return batchNamed(db, {
    rows: db
      .select({ id: conversations.id, displayId: conversations.displayId, reachable: sql<number | null>`${reachableCondition(scope) ?? sql`1`}`.as("reachable") })
      .from(conversations)
      .where(inSlice),
    tags: db
      .select({ conversationId: taggings.taggableId, tag: taggings.tag })
      .from(taggings)
      .where(
        and(
          eq(taggings.accountId, accountId),
          eq(taggings.taggableType, "Conversation"),
          sql`${taggings.taggableId} IN (SELECT ${conversations.id} FROM ${conversations} WHERE ${inSlice})`,
        ),
      )
      .orderBy(taggings.id),
  });
}

/**
 * The changes on one conversation, in the order Chatwoot's job makes them (labels, then the fields), each
 * through its route's function; status comes before the assignee so that an agent who opens a conversation
 * and names an assignee leaves it with that assignee. A refused change is reported and the next one runs.
 */
async function applyChanges(scope: AccountScope, displayId: number, currentLabels: string[], input: ConversationBulkInput): Promise<BulkFailure[]> {
  const failures: BulkFailure[] = [];
  const attempt = async (field: string, change: () => Promise<unknown>) => {
    try {
      await change();
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const entry = error.errors[0];
      failures.push({ id: displayId, field: entry?.field || field, code: entry?.code ?? error.code, message: entry?.message ?? error.description });
    }
  };
  if (input.labels) {
    // Chatwoot's job: the removals, then the additions (so a label named in both stays)
    const { add = [], remove = [] } = input.labels;
    const kept = currentLabels.filter((l) => !remove.includes(l));
    const next = [...kept, ...add.filter((l) => !kept.includes(l))];
    if (JSON.stringify(next) !== JSON.stringify(currentLabels)) await attempt("labels", () => replaceLabels(scope, displayId, next));
  }
  if (input.status !== undefined) await attempt("status", () => toggleStatus(scope, displayId, { status: input.status, snoozedUntil: input.snoozedUntil }));
  if (input.priority !== undefined) await attempt("priority", () => togglePriority(scope, displayId, input.priority ?? null));
  if (input.assigneeId !== undefined) await attempt("assignee_id", () => assignConversation(scope, displayId, { assigneeId: input.assigneeId }));
  if (input.teamId !== undefined) await attempt("team_id", () => assignConversation(scope, displayId, { teamId: input.teamId }));
  return failures;
}
