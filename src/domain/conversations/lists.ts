/**
 * Conversation lists and their counts: the list (with `labels[]` and `q`), `/meta` and
 * `/conversations/filter`. Each list is two round trips after auth: the page and its counts in one batch,
 * then the records of the page (loadConversationRecords). Lists, counts and filters keep to what the
 * caller reaches, by the rule every action uses (access.ts). The order is order.ts's (latest activity
 * first, or the list's `sort_by`); `cursor` continues after the last conversation of a page, `page` keeps working as in Chatwoot.
 *
 * Every answer is complete, and reads in proportion to what it finds (bench/README.md):
 * - without `labels` or `q`, the page walks a list index and the counts are counter rows (counters.ts);
 * - `labels[]` finds its conversations through the taggings' (account, label, conversation) index, `q`
 *   through the trigram index over message content (search-index.ts), the filter through the index of
 *   one condition of each OR branch (filter.ts); the candidates are then read by id, checked against
 *   every condition, ordered, and counted;
 * - what no index can find (a `q` of one or two characters, a filter branch with no indexed condition)
 *   is a paged scan of the conversation order: a request examines at most SCAN_BUDGET conversations after
 *   its cursor (page n without a cursor: n times that from the start), and when it stops there it says
 *   `has_more` with a cursor that resumes where it stopped; its counts cover the conversations it
 *   examined. Nothing is cut off silently.
 */
import { and, eq, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { type Database, now, rawSql, schema } from "../../db/client";
import { type AttributeDefinition, type AttributeModel, customAttributeDefinitionsQuery } from "../custom-attributes/values";
import { batch, batchGroups } from "../kernel/batch";
import { ATTRIBUTE_MODELS, CONVERSATION_STATUS, MESSAGE_TYPE, enumValue } from "../kernel/enums";
import { trigramPhrase } from "../kernel/full-text";
import { SCAN_BUDGET, type SortPosition } from "../kernel/paging";
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
import { type FilterCondition, filterCondition } from "./filter";
import { type ConversationRecord, loadConversationRecords } from "./loader";
import {
  type ConversationSort,
  DEFAULT_SORT,
  type PositionedRow,
  beyond,
  decodeConversationCursor,
  encodeConversationCursor,
  listOrder,
  listOrderSql,
  positionOf,
  walkIds,
} from "./order";
import { type ConversationRow } from "./rows";
import { conversationSearchIds } from "./search-index";

const { conversations: c, inboxMembers, teamMembers, messages } = schema;

export const PAGE_SIZE = 25;

export type ListInput = {
  /** null: every status */
  status: number | null;
  assigneeType: "me" | "unassigned" | "assigned" | "all";
  inboxId?: number;
  teamId?: number;
  labels?: string[];
  q?: string;
  page: number;
  /** replaces `page` */
  cursor?: string;
  /** the list's `sort_by` (order.ts); latest activity first when absent */
  sort?: ConversationSort;
};

/**
 * A page with its counts, whether another page follows and the cursor of the next one (null at the end).
 * `scanned`: the answer came from a paged scan, so its counts cover the conversations examined so far.
 */
export type ConversationPage = { counts: ConversationCounts; records: ConversationRecord[]; hasMore: boolean; nextCursor: string | null; scanned: boolean };

type Counted = Omit<ConversationPage, "records"> & { rows: ConversationRow[] };

/** The page asked for: one row more than shown (for `has_more`), from the cursor or the page number. */
type Window = { limit: number; offset: number; after: SortPosition | null; page: number; sort: ConversationSort };

function pageWindow(page: number, cursor: string | undefined, sort: ConversationSort = DEFAULT_SORT): Window {
  const after = cursor === undefined ? null : decodeConversationCursor(sort, cursor);
  return { limit: PAGE_SIZE + 1, offset: after ? 0 : (page - 1) * PAGE_SIZE, after, page, sort };
}

const ALL_STATUSES = Object.values(CONVERSATION_STATUS);

function assigneeCondition(type: ListInput["assigneeType"], userId: number | null) {
  if (type === "me") return eq(c.assigneeId, userId ?? 0);
  if (type === "unassigned") return isNull(c.assigneeId);
  if (type === "assigned") return isNotNull(c.assigneeId);
  return undefined;
}

/** The conversations tagged with any of `labels` (case-insensitively, as Chatwoot's tagged_with), from the taggings' label index. */
const labelCandidates = (accountId: number, labels: string[]) =>
  sql`SELECT taggable_id AS id FROM taggings WHERE account_id = ${accountId} AND taggable_type = 'Conversation'
    AND lower(tag) IN (SELECT value FROM json_each(${JSON.stringify(labels.map((l) => l.toLowerCase()))}))`;

/**
 * A `q` the trigram index cannot match (one or two characters), checked on a conversation's searched
 * messages. instr() rather than LIKE: D1 limits LIKE patterns to 50 bytes.
 */
const shortSearchMatch = (q: string) =>
  sql`EXISTS (SELECT 1 FROM ${messages} WHERE ${messages.conversationId} = ${c.id} AND +${messages.accountId} = ${c.accountId}
    AND ${messages.messageType} IN (${MESSAGE_TYPE.incoming}, ${MESSAGE_TYPE.outgoing}) AND instr(lower(${messages.content}), lower(${q})) > 0)`;

/** Candidates (a query of ids, repeats allowed) read once each by primary key, in this order of the join. */
const fromCandidates = (ids: SQL) => sql`(SELECT DISTINCT id FROM (${ids})) AS candidates CROSS JOIN ${c} ON ${c.id} = candidates.id`;

/** The ids of one page of the conversations `from` yields that meet `where`, in the list order. */
function pageIds(from: SQL, where: SQL | undefined, window: Omit<Window, "page">) {
  const conditions = and(where, window.after ? beyond(window.sort, window.after) : undefined);
  return sql`SELECT ${c.id} FROM ${from} WHERE ${conditions ?? sql`1`} ORDER BY ${listOrderSql(window.sort)} LIMIT ${window.limit} OFFSET ${window.offset}`;
}

/** The rows of the page `ids` selects, read by primary key. */
const rowsQuery = (db: Database, ids: SQL, sort: ConversationSort) => db.select().from(c).where(sql`${c.id} IN (${ids})`).orderBy(...listOrder(sort));

/**
 * The page straight from a list index (no candidates): the order's index serves the walk. A priority
 * order's walks (order.ts) find the page's ids, then its rows are read by id.
 */
const indexPageQuery = (db: Database, where: SQL | undefined, window: Window) =>
  window.sort.priority
    ? rowsQuery(db, walkIds(where, window.after, window.sort, window.limit, window.offset), window.sort)
    : db
        .select()
        .from(c)
        .where(and(where, window.after ? beyond(window.sort, window.after) : undefined))
        .orderBy(...listOrder(window.sort))
        .limit(window.limit)
        .offset(window.offset);

/** Counts of the conversations `from` yields that meet `where`: one aggregate over what was found. */
const aggregateCountsQuery = (db: Database, from: SQL, where: SQL | undefined, userId: number | null) =>
  rawSql<{ all: number; unassigned: number; mine: number }>(
    db,
    sql`SELECT count(*) AS "all", coalesce(sum(${c.assigneeId} IS NULL), 0) AS unassigned, coalesce(sum(${c.assigneeId} = ${userId ?? 0}), 0) AS mine
      FROM ${from} WHERE ${where ?? sql`1`}`,
  );

const toCounts = (row: { all: number; unassigned: number; mine: number } | undefined): ConversationCounts => ({
  all: Number(row?.all ?? 0),
  unassigned: Number(row?.unassigned ?? 0),
  mine: Number(row?.mine ?? 0),
});

/** The page of rows fetched one beyond its size: whether another follows, and its cursor. */
function toPage(rows: ConversationRow[], counts: ConversationCounts, sort: ConversationSort, scanned = false): Counted {
  const shown = rows.slice(0, PAGE_SIZE);
  const hasMore = rows.length > PAGE_SIZE;
  const last = shown[shown.length - 1];
  return { counts, rows: shown, hasMore, nextCursor: hasMore && last ? encodeConversationCursor(sort, positionOf(sort, last)) : null, scanned };
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

/** A page (and counts) of what the list index finds: counts from counters where they answer. */
async function indexedPage(scope: AccountScope, input: ListInput, where: SQL | undefined, status: number | null, page: SQL | undefined, window: Window, withPage: boolean) {
  const { db, accountId } = scope;
  const userId = actingUserId(scope);
  const scopes = counterScopes(scope, reachOf(scope), input);
  const rows = withPage ? [indexPageQuery(db, page, window)] : [];
  if (scopes) {
    const read = await batchGroups(db, { counters: [countsQuery(db, accountId, scopes, status === null ? ALL_STATUSES : [status], userId)], rows });
    return toPage(read.rows[0] ?? [], sumCounts(read.counters[0], userId), window.sort);
  }
  const read = await batchGroups(db, { counts: [aggregateCountsQuery(db, sql`${c}`, where, userId)], rows });
  return toPage(read.rows[0] ?? [], toCounts(read.counts[0][0]), window.sort);
}

/** A page (and complete counts) of the conversations among index candidates that meet `where` (and `page` for the rows). */
function candidateStatements(db: Database, candidates: SQL, where: SQL | undefined, page: SQL | undefined, window: Window, withPage: boolean, userId: number | null) {
  const from = fromCandidates(candidates);
  return { counts: [aggregateCountsQuery(db, from, where, userId)], rows: withPage ? [rowsQuery(db, pageIds(from, page, window), window.sort)] : [] } as const;
}

/**
 * A paged scan: the conversations `walk` selects through a list index, in the list order, at most
 * SCAN_BUDGET after the cursor (page n: n times that from the start), checked against `where` (and `page`
 * for the rows). `end` is the last conversation the scan may examine: when it exists the scan stopped there.
 */
function scanStatements(db: Database, walk: SQL | undefined, where: SQL | undefined, page: SQL | undefined, window: Window, withPage: boolean, userId: number | null) {
  const reach = window.after ? SCAN_BUDGET : window.page * SCAN_BUDGET;
  const scanned = walkIds(walk, window.after, window.sort, reach);
  const from = sql`(${scanned}) AS scanned CROSS JOIN ${c} ON ${c.id} = scanned.id`;
  return {
    counts: [aggregateCountsQuery(db, from, where, userId)],
    rows: withPage ? [rowsQuery(db, pageIds(from, page, { limit: window.limit, offset: window.offset, after: null, sort: window.sort }), window.sort)] : [],
    end: [db.select().from(c).where(sql`${c.id} = (SELECT id FROM (${scanned}) LIMIT 1 OFFSET ${reach - 1})`)],
  } as const;
}

/** A scan's page: when the page did not fill but the scan stopped at its budget, the next page resumes after `end`. */
function scannedPage(rows: ConversationRow[], counts: ConversationCounts, end: PositionedRow | undefined, sort: ConversationSort): Counted {
  const page = toPage(rows, counts, sort, true);
  if (page.hasMore || !end) return page;
  return { ...page, hasMore: true, nextCursor: encodeConversationCursor(sort, positionOf(sort, end)) };
}

async function readList(scope: AccountScope, input: ListInput, withPage: boolean): Promise<Counted> {
  const { db, accountId } = scope;
  const userId = actingUserId(scope);
  const window = pageWindow(input.page, input.cursor, input.sort);
  // Chatwoot ignores the status when searching
  const status = input.q ? null : input.status;
  const walk = and(
    eq(c.accountId, accountId),
    status === null ? undefined : eq(c.status, status),
    input.inboxId ? eq(c.inboxId, input.inboxId) : undefined,
  );
  const where = and(walk, input.teamId ? eq(c.teamId, input.teamId) : undefined, reachableCondition(scope));
  const page = and(where, assigneeCondition(input.assigneeType, userId));
  const labels = input.labels?.length ? labelCandidates(accountId, input.labels) : null;
  const phrase = input.q ? trigramPhrase(input.q) : null;

  if (input.q && phrase === null) {
    const match = and(labels ? sql`${c.id} IN (${labels})` : undefined, shortSearchMatch(input.q));
    const read = await batchGroups(db, scanStatements(db, walk, and(where, match), and(page, match), window, withPage, userId));
    return scannedPage(read.rows[0] ?? [], toCounts(read.counts[0][0]), read.end[0][0], window.sort);
  }
  const found = [labels, phrase ? conversationSearchIds(accountId, phrase) : null].filter((q): q is SQL => q !== null);
  if (found.length === 0) return indexedPage(scope, input, where, status, page, window, withPage);
  const candidates = found.length === 1 ? found[0] : sql`${found[0]} INTERSECT ${found[1]}`;
  const read = await batchGroups(db, candidateStatements(db, candidates, where, page, window, withPage, userId));
  return toPage(read.rows[0] ?? [], toCounts(read.counts[0][0]), window.sort);
}

export async function listConversations(scope: AccountScope, input: ListInput): Promise<ConversationPage> {
  const { rows, ...rest } = await readList(scope, input, true);
  return { ...rest, records: await loadConversationRecords(scope.db, scope.accountId, rows) };
}

export async function conversationCounts(scope: AccountScope, input: ListInput): Promise<Omit<ConversationPage, "records" | "nextCursor">> {
  const { rows: _, nextCursor: __, ...rest } = await readList(scope, input, false);
  return rest;
}

/**
 * POST /conversations/filter: the payload's conditions over the account's conversations, through the
 * indexes of its conditions, or as a paged scan when a branch has no indexed condition.
 */
export async function filterConversations(scope: AccountScope, payload: FilterCondition[], paging: { page: number; cursor?: string }): Promise<ConversationPage> {
  const { db, accountId } = scope;
  const userId = actingUserId(scope);
  const at = now();
  const window = pageWindow(paging.page, paging.cursor);
  // The page is read in the same batch as the definitions the conditions may name; an undefined key then
  // discards it with a 422. Keys are spliced only as bound JSON paths, so reading first is harmless.
  const definitionsQueries = [
    customAttributeDefinitionsQuery(db, accountId, enumValue(ATTRIBUTE_MODELS, "conversation_attribute") as AttributeModel),
    customAttributeDefinitionsQuery(db, accountId, enumValue(ATTRIBUTE_MODELS, "contact_attribute") as AttributeModel),
  ] as const;
  let filter: ReturnType<typeof filterCondition>;
  try {
    filter = filterCondition(accountId, payload, "unchecked", at);
  } catch (error) {
    // report every bad condition, undefined keys included (an error path may cost a round trip more)
    const [conversationDefinitions, contactDefinitions] = await batch(db, definitionsQueries);
    filterCondition(accountId, payload, [...conversationDefinitions, ...contactDefinitions], at);
    throw error;
  }
  const own = eq(c.accountId, accountId);
  const where = and(own, reachableCondition(scope), filter.where);
  const checkDefinitions = (definitions: readonly AttributeDefinition[][]) => filterCondition(accountId, payload, definitions.flat(), at);
  let page: Counted;
  if (filter.candidates !== null) {
    const read = await batchGroups(db, { definitions: definitionsQueries, ...candidateStatements(db, filter.candidates, where, where, window, true, userId) });
    checkDefinitions(read.definitions);
    page = toPage(read.rows[0] ?? [], toCounts(read.counts[0][0]), window.sort);
  } else {
    const read = await batchGroups(db, { definitions: definitionsQueries, ...scanStatements(db, own, where, where, window, true, userId) });
    checkDefinitions(read.definitions);
    page = scannedPage(read.rows[0] ?? [], toCounts(read.counts[0][0]), read.end[0][0], window.sort);
  }
  const { rows, ...rest } = page;
  return { ...rest, records: await loadConversationRecords(db, accountId, rows) };
}
