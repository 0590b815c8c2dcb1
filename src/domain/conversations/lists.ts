/**
 * Conversation lists and their counts. Each list is two round trips after auth: the page and its counts
 * in one batch, then the records of the page (loadConversationRecords). Lists, counts and filters keep
 * to what the caller reaches, by the rule every action uses (access.ts).
 *
 * Cost bounds (bench/README.md):
 * - counts without `labels` or `q` come from counter rows (counters.ts): a handful of primary-key reads,
 *   whatever the size of the account;
 * - `labels` considers the LABEL_SCAN most recently applied taggings of the asked labels;
 * - `q` searches the SEARCH_SCAN latest messages of the account;
 * - the filter endpoint evaluates its conditions over the FILTER_SCAN most recently active conversations.
 * Counts of these three are computed over those bounded candidate sets.
 */
import { and, desc, eq, inArray, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { type Database, now, schema } from "../../db/client";
import type { FilterCondition } from "../../schemas/conversations";
import { type AttributeModel, customAttributeDefinitionsQuery } from "../custom-attributes/values";
import { batch, batchGroups } from "../kernel/batch";
import { ATTRIBUTE_MODELS, CONVERSATION_STATUS, MESSAGE_TYPE, enumValue } from "../kernel/enums";
import { type AccountScope, actingUserId } from "../kernel/scope";
import { type Reach, reachOf, reachableCondition } from "./access";
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
import { type ConversationRecord, loadConversationRecords } from "./loader";
import { type ConversationRow } from "./rows";

const { conversations: c, inboxMembers, teamMembers, taggings, messages } = schema;

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

const ALL_STATUSES = Object.values(CONVERSATION_STATUS);

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
  return sql`${c.id} IN (SELECT conversation_id FROM (SELECT ${messages.conversationId} AS conversation_id, ${messages.messageType} AS message_type, ${messages.content} AS content FROM ${messages} WHERE ${messages.accountId} = ${accountId} ORDER BY ${messages.createdAt} DESC LIMIT ${SEARCH_SCAN}) WHERE message_type IN (${MESSAGE_TYPE.incoming}, ${MESSAGE_TYPE.outgoing}) AND instr(lower(content), lower(${q})) > 0)`;
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

/** The counter scopes that answer the list's filters for a scope that reaches every conversation. */
function accountCounterScopes({ inboxId, teamId }: ListInput): SQL {
  if (inboxId && teamId) return scopesByName([inboxTeamScopeKey(inboxId, teamId)]);
  if (inboxId) return scopesByName([inboxScopeKey(inboxId)]);
  if (teamId) return scopesByName([teamScopeKey(teamId)]);
  return scopesByName([accountScopeKey()]);
}

/**
 * The counter scopes, with their signs, that count what an agent reaches (access.ts: the conversations of
 * their inboxes or of their teams) under the list's filters. Every part reads only the agent's
 * memberships; a conversation of their inbox and of their team is counted once.
 */
function memberCounterScopes(scope: AccountScope, userId: number, { inboxId, teamId }: ListInput): SQL {
  const im = inboxMembers;
  const tm = teamMembers;
  const ownInbox = sql`${im.accountId} = ${scope.accountId} AND ${im.userId} = ${userId}`;
  const ownTeam = sql`${tm.accountId} = ${scope.accountId} AND ${tm.userId} = ${userId}`;
  const isOwnInbox = (id: number) => sql`${id} IN (SELECT ${im.inboxId} FROM ${im} WHERE ${ownInbox})`;
  const isOwnTeam = (id: number) => sql`${id} IN (SELECT ${tm.teamId} FROM ${tm} WHERE ${ownTeam})`;
  if (inboxId && teamId) {
    return sql`SELECT ${inboxTeamScopeKey(inboxId, teamId)} AS scope, 1 AS sign WHERE ${isOwnInbox(inboxId)} OR ${isOwnTeam(teamId)}`;
  }
  if (inboxId) {
    // the whole inbox when it is theirs, else its conversations of their teams
    return sql`SELECT ${inboxScopeKey(inboxId)} AS scope, 1 AS sign WHERE ${isOwnInbox(inboxId)}
      UNION ALL SELECT ${inboxScopeKey(inboxId)} || ':t:' || ${tm.teamId}, 1 FROM ${tm} WHERE ${ownTeam} AND NOT ${isOwnInbox(inboxId)}`;
  }
  if (teamId) {
    // the whole team when it is theirs, else its conversations in their inboxes
    return sql`SELECT ${teamScopeKey(teamId)} AS scope, 1 AS sign WHERE ${isOwnTeam(teamId)}
      UNION ALL SELECT 'i:' || ${im.inboxId} || ${`:t:${teamId}`}, 1 FROM ${im} WHERE ${ownInbox} AND NOT ${isOwnTeam(teamId)}`;
  }
  // their inboxes plus their teams, less what is in both
  return sql`SELECT 'i:' || ${im.inboxId} AS scope, 1 AS sign FROM ${im} WHERE ${ownInbox}
    UNION ALL SELECT 't:' || ${tm.teamId}, 1 FROM ${tm} WHERE ${ownTeam}
    UNION ALL SELECT 'i:' || ${im.inboxId} || ':t:' || ${tm.teamId}, -1 FROM ${im}, ${tm} WHERE ${ownInbox} AND ${ownTeam}`;
}

/** The counter scopes for the list, or null when counters cannot answer for this reach (a contact's own conversations). */
function counterScopes(scope: AccountScope, reach: Reach, input: ListInput): SQL | null {
  if (reach.kind === "all") return accountCounterScopes(input);
  if (reach.kind === "member") return memberCounterScopes(scope, reach.userId, input);
  return null;
}

const toCounts = (row: { all: number; unassigned: number; mine: number } | undefined): ConversationCounts => ({
  all: Number(row?.all ?? 0),
  unassigned: Number(row?.unassigned ?? 0),
  mine: Number(row?.mine ?? 0),
});

async function readPage(scope: AccountScope, input: ListInput, withPage: boolean): Promise<{ counts: ConversationCounts; rows: ConversationRow[] }> {
  const { db, accountId } = scope;
  const userId = actingUserId(scope);
  // Chatwoot ignores the status when searching
  const status = input.q ? null : input.status;
  const filters = and(
    eq(c.accountId, accountId),
    status === null ? undefined : eq(c.status, status),
    input.inboxId ? eq(c.inboxId, input.inboxId) : undefined,
    input.teamId ? eq(c.teamId, input.teamId) : undefined,
    reachableCondition(scope),
    input.labels?.length ? labelCandidates(accountId, input.labels) : undefined,
    input.q ? searchCandidates(accountId, input.q) : undefined,
  );
  const scopes = input.labels?.length || input.q ? null : counterScopes(scope, reachOf(scope), input);
  const page = withPage ? [pageQuery(db, and(filters, assigneeCondition(input.assigneeType, userId)), input.page)] : [];
  if (scopes) {
    const { counters, page: [rows] } = await batchGroups(db, {
      counters: [countsQuery(db, accountId, scopes, status === null ? ALL_STATUSES : [status], userId)],
      page,
    });
    return { counts: sumCounts(counters[0], userId), rows: rows ?? [] };
  }
  const { counts, page: [rows] } = await batchGroups(db, { counts: [aggregateCountsQuery(db, filters, userId)], page });
  return { counts: toCounts(counts[0][0]), rows: rows ?? [] };
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
  const userId = actingUserId(scope);
  const at = now();
  // The page is read in the same batch as the definitions the conditions may name; an undefined key then
  // discards it with a 422. Keys are spliced only as bound JSON paths, so reading first is harmless.
  const definitionsQueries = [
    customAttributeDefinitionsQuery(db, accountId, enumValue(ATTRIBUTE_MODELS, "conversation_attribute") as AttributeModel),
    customAttributeDefinitionsQuery(db, accountId, enumValue(ATTRIBUTE_MODELS, "contact_attribute") as AttributeModel),
  ] as const;
  let condition: SQL;
  try {
    condition = filterCondition(payload, "unchecked", at);
  } catch (error) {
    // report every bad condition, undefined keys included (an error path may cost a round trip more)
    const [conversationDefinitions, contactDefinitions] = await batch(db, definitionsQueries);
    filterCondition(payload, [...conversationDefinitions, ...contactDefinitions], at);
    throw error;
  }
  const where = and(eq(c.accountId, accountId), reachableCondition(scope), filterCandidates(accountId), condition);
  const read = await batchGroups(db, {
    definitions: definitionsQueries,
    counts: [aggregateCountsQuery(db, where, userId)],
    page: [pageQuery(db, where, page)],
  });
  const [conversationDefinitions, contactDefinitions] = read.definitions;
  filterCondition(payload, [...conversationDefinitions, ...contactDefinitions], at);
  return { counts: toCounts(read.counts[0][0]), records: await loadConversationRecords(db, accountId, read.page[0]) };
}
