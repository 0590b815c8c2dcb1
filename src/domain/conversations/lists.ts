/**
 * Conversation lists and their counts. Each list is two round trips after auth: the page and its counts
 * in one batch, then the records of the page (loadConversationRecords).
 *
 * Cost bounds (bench/README.md):
 * - counts without `labels` or `q` come from counter rows (conversation-counters.ts): a handful of
 *   primary-key reads, whatever the size of the account;
 * - `labels` considers the LABEL_SCAN most recently applied taggings of the asked labels;
 * - `q` searches the SEARCH_SCAN latest messages of the account;
 * - the filter endpoint evaluates its conditions over the FILTER_SCAN most recently active conversations.
 * Counts of these three are computed over those bounded candidate sets.
 */
import { and, desc, eq, inArray, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { type Database, now, schema } from "../../db/client";
import type { FilterCondition } from "../../schemas/conversations";
import { callerUserId, runBatch } from "./changes";
import {
  type ConversationCounts,
  accountScopeKey,
  countsQuery,
  inboxScopeKey,
  inboxTeamScopeKey,
  scopesByName,
  sumCounts,
  teamScopeKey,
} from "./counters";
import { filterCondition } from "./filter";
import { visibleInboxCondition } from "../inboxes/access";
import { type AttributeDefinition, customAttributeDefinitionsQuery } from "../custom-attributes/values";
import { type ConversationRecord, loadConversationRecords } from "./records";
import { type AccountScope } from "../kernel/scope";
import { type ConversationRow } from "./rows";

const { conversations: c, inboxMembers, taggings, messages } = schema;

export const PAGE_SIZE = 25;
export const LABEL_SCAN = 1_000;
export const SEARCH_SCAN = 5_000;
export const FILTER_SCAN = 2_000;

export type ListInput = {
  /** null: every status */
  status: number | null;
  assigneeType: "me" | "unassigned" | "assigned" | "all";
  inboxId?: number;
  teamId?: number;
  labels?: string[];
  q?: string;
  page: number;
};

export type ConversationPage = { counts: ConversationCounts; records: ConversationRecord[] };

const ALL_STATUSES = [0, 1, 2, 3];

/** Lists show what Chatwoot's finder shows: administrators every inbox, agents the inboxes they are members of. */

function assigneeCondition(type: ListInput["assigneeType"], userId: number | null) {
  if (type === "me") return eq(c.assigneeId, userId ?? 0);
  if (type === "unassigned") return isNull(c.assigneeId);
  if (type === "assigned") return isNotNull(c.assigneeId);
  return undefined;
}

function labelCandidates(accountId: number, labels: string[]) {
  return sql`${c.id} IN (SELECT ${taggings.taggableId} FROM ${taggings} WHERE ${taggings.accountId} = ${accountId} AND ${taggings.taggableType} = 'Conversation' AND ${inArray(taggings.tag, labels)} ORDER BY ${taggings.id} DESC LIMIT ${LABEL_SCAN})`;
}

/** instr() rather than LIKE: D1 limits LIKE patterns to 50 bytes. */
function searchCandidates(accountId: number, q: string) {
  return sql`${c.id} IN (SELECT conversation_id FROM (SELECT ${messages.conversationId} AS conversation_id, ${messages.messageType} AS message_type, ${messages.content} AS content FROM ${messages} WHERE ${messages.accountId} = ${accountId} ORDER BY ${messages.createdAt} DESC LIMIT ${SEARCH_SCAN}) WHERE message_type IN (0, 1) AND instr(lower(content), lower(${q})) > 0)`;
}

const filterCandidates = (accountId: number) =>
  sql`${c.id} IN (SELECT ${c.id} FROM ${c} WHERE ${c.accountId} = ${accountId} ORDER BY ${c.lastActivityAt} DESC LIMIT ${FILTER_SCAN})`;

function pageQuery(db: Database, where: SQL | undefined, page: number) {
  return db
    .select()
    .from(c)
    .where(where)
    .orderBy(desc(c.lastActivityAt), desc(c.id))
    .limit(PAGE_SIZE)
    .offset((page - 1) * PAGE_SIZE);
}

/** Counts over a bounded candidate set (labels, q, filter): one aggregate, no counters. */
function aggregateCountsQuery(db: Database, where: SQL | undefined, userId: number | null) {
  return db
    .select({
      all: sql<number>`count(*)`,
      unassigned: sql<number>`coalesce(sum(${c.assigneeId} IS NULL), 0)`,
      mine: sql<number>`coalesce(sum(${c.assigneeId} = ${userId ?? 0}), 0)`,
    })
    .from(c)
    .where(where);
}

/** The counter scopes that answer the list's filters for this caller. */
function counterScopes(scope: AccountScope, input: ListInput): SQL {
  const { inboxId, teamId } = input;
  if (scope.role === "administrator") {
    if (inboxId && teamId) return scopesByName([inboxTeamScopeKey(inboxId, teamId)]);
    if (inboxId) return scopesByName([inboxScopeKey(inboxId)]);
    if (teamId) return scopesByName([teamScopeKey(teamId)]);
    return scopesByName([accountScopeKey()]);
  }
  // an agent: the counters of each of their inboxes (or of the asked one, if theirs)
  const scopeExpr = teamId ? sql`'i:' || ${inboxMembers.inboxId} || ':t:' || ${String(teamId)}` : sql`'i:' || ${inboxMembers.inboxId}`;
  return sql`SELECT ${scopeExpr} AS scope FROM ${inboxMembers} WHERE ${inboxMembers.accountId} = ${scope.accountId} AND ${inboxMembers.userId} = ${callerUserId(scope) ?? 0}${inboxId ? sql` AND ${inboxMembers.inboxId} = ${inboxId}` : sql``}`;
}

async function readPage(scope: AccountScope, input: ListInput, withPage: boolean): Promise<{ counts: ConversationCounts; rows: ConversationRow[] }> {
  const { db, accountId } = scope;
  const userId = callerUserId(scope);
  const bounded = Boolean(input.labels?.length || input.q);
  // Chatwoot ignores the status when searching
  const status = input.q ? null : input.status;
  const filters = and(
    eq(c.accountId, accountId),
    status === null ? undefined : eq(c.status, status),
    input.inboxId ? eq(c.inboxId, input.inboxId) : undefined,
    input.teamId ? eq(c.teamId, input.teamId) : undefined,
    visibleInboxCondition(scope, c.inboxId),
    input.labels?.length ? labelCandidates(accountId, input.labels) : undefined,
    input.q ? searchCandidates(accountId, input.q) : undefined,
  );
  const counts = bounded
    ? aggregateCountsQuery(db, filters, userId)
    : countsQuery(db, accountId, counterScopes(scope, input), status === null ? ALL_STATUSES : [status], userId);
  const statements = [counts, ...(withPage ? [pageQuery(db, and(filters, assigneeCondition(input.assigneeType, userId)), input.page)] : [])];
  const [countRows, rows] = await runBatch(db, statements);
  const summed = bounded
    ? (() => {
        const r = (countRows as Array<{ all: number; unassigned: number; mine: number }>)[0];
        return { all: Number(r?.all ?? 0), unassigned: Number(r?.unassigned ?? 0), mine: Number(r?.mine ?? 0) };
      })()
    : sumCounts(countRows as Array<{ key: string; value: number }>, userId);
  return { counts: summed, rows: (rows ?? []) as ConversationRow[] };
}

export async function listConversations(scope: AccountScope, input: ListInput): Promise<ConversationPage> {
  const { counts, rows } = await readPage(scope, input, true);
  return { counts, records: await loadConversationRecords(scope.db, scope.accountId, rows) };
}

export async function conversationCounts(scope: AccountScope, input: ListInput): Promise<ConversationCounts> {
  return (await readPage(scope, input, false)).counts;
}

/** POST /conversations/filter: the payload's conditions over the FILTER_SCAN most recently active conversations. */
export async function filterConversations(scope: AccountScope, payload: FilterCondition[], page: number): Promise<ConversationPage> {
  const { db, accountId } = scope;
  const userId = callerUserId(scope);
  const at = now();
  // The page is read in the same batch as the definitions the conditions may name; an undefined key then
  // discards it with a 422. Keys are spliced only as bound JSON paths, so reading first is harmless.
  const definitionsQueries = [customAttributeDefinitionsQuery(db, accountId, 0), customAttributeDefinitionsQuery(db, accountId, 1)];
  let condition: SQL;
  try {
    condition = filterCondition(payload, "unchecked", at);
  } catch (error) {
    // report every bad condition, undefined keys included (an error path may cost a round trip more)
    const [d0, d1] = await runBatch(db, definitionsQueries);
    filterCondition(payload, [...(d0 as AttributeDefinition[]), ...(d1 as AttributeDefinition[])], at);
    throw error;
  }
  const where = and(eq(c.accountId, accountId), visibleInboxCondition(scope, c.inboxId), filterCandidates(accountId), condition);
  const [defs0, defs1, countRows, rows] = await runBatch(db, [
    ...definitionsQueries,
    aggregateCountsQuery(db, where, userId),
    pageQuery(db, where, page),
  ]);
  filterCondition(payload, [...(defs0 as AttributeDefinition[]), ...(defs1 as AttributeDefinition[])], at);
  const r = (countRows as Array<{ all: number; unassigned: number; mine: number }>)[0];
  const counts = { all: Number(r?.all ?? 0), unassigned: Number(r?.unassigned ?? 0), mine: Number(r?.mine ?? 0) };
  return { counts, records: await loadConversationRecords(db, accountId, rows as ConversationRow[]) };
}
