/**
 * Conversation counts kept in `counters`, so the list and meta endpoints read a handful of rows instead of
 * counting the account's conversations (COUNT(*) reads every row it counts, see bench/README.md).
 *
 * Each conversation adds 1 to the key `conversations.<scope>.<status>.<bucket>` of every scope it belongs to:
 * - scopes: `a` (the account), `i:<inbox>`, and with a team `t:<team>` and `i:<inbox>:t:<team>` (the last
 *   one counts what both an inbox and a team reach, for an agent who reaches by one and not the other);
 * - buckets: `all`, and `unassigned` or `assignee:<user>`; in the account scope also `unattended` and
 *   `unattended:assignee:<user>` for conversations nobody answered yet or whose contact waits.
 * A change moves the conversation from the keys of its old state to those of its new state, in the same
 * batch as the change itself.
 */
import { sql, type SQL } from "drizzle-orm";
import { type Database, type Statement, rawSql, schema } from "../../db/client";
import { counterDeltaStatements } from "../kernel/counters";

const { counters, conversations } = schema;

/** The fields of a conversation that decide which counters hold it. */
export type CountedState = {
  inboxId: number;
  teamId: number | null;
  status: number;
  assigneeId: number | null;
  firstReplyCreatedAt: number | null;
  waitingSince: number | null;
};

/** Chatwoot's "unattended": nobody has replied yet, or the contact is waiting for a reply. */
const unattended = (state: CountedState) => state.firstReplyCreatedAt === null || state.waitingSince !== null;

export type ConversationCounts = { mine: number; unassigned: number; all: number };

const key = (scope: string, status: number, bucket: string) => `conversations.${scope}.${status}.${bucket}`;

export const accountScopeKey = () => "a";
export const inboxScopeKey = (inboxId: number) => `i:${inboxId}`;
export const teamScopeKey = (teamId: number) => `t:${teamId}`;
export const inboxTeamScopeKey = (inboxId: number, teamId: number) => `i:${inboxId}:t:${teamId}`;

function keysOf(state: CountedState): string[] {
  const scopes = [accountScopeKey(), inboxScopeKey(state.inboxId)];
  if (state.teamId !== null) scopes.push(teamScopeKey(state.teamId), inboxTeamScopeKey(state.inboxId, state.teamId));
  const buckets = ["all", state.assigneeId === null ? "unassigned" : `assignee:${state.assigneeId}`];
  const keys = scopes.flatMap((scope) => buckets.map((bucket) => key(scope, state.status, bucket)));
  // the live conversation report (reports/conversations) counts unattended ones, per account and assignee
  if (unattended(state)) {
    keys.push(key(accountScopeKey(), state.status, "unattended"));
    if (state.assigneeId !== null) keys.push(key(accountScopeKey(), state.status, `unattended:assignee:${state.assigneeId}`));
  }
  return keys;
}

/** The key of the counter of conversations of `status` in the account: all, unassigned, an assignee's, unattended ones. */
export const accountCounterKey = (status: number, bucket: "all" | "unassigned" | "unattended" | `assignee:${number}` | `unattended:assignee:${number}`) =>
  key(accountScopeKey(), status, bucket);

/**
 * The upserts that move conversations from their `before` to their `after` state (null: did not exist /
 * no longer exists). Keys both states share cancel out, so an unrelated change writes nothing.
 */
export function counterMoves(db: Database, accountId: number, moves: Array<{ before: CountedState | null; after: CountedState | null }>): Statement[] {
  const deltas = new Map<string, number>();
  for (const { before, after } of moves) {
    for (const k of before ? keysOf(before) : []) deltas.set(k, (deltas.get(k) ?? 0) - 1);
    for (const k of after ? keysOf(after) : []) deltas.set(k, (deltas.get(k) ?? 0) + 1);
  }
  return counterDeltaStatements(db, accountId, deltas);
}

/** The upserts that move one conversation from `before` to `after`. */
export function counterStatements(db: Database, accountId: number, before: CountedState | null, after: CountedState | null): Statement[] {
  return counterMoves(db, accountId, [{ before, after }]);
}

/** Chatwoot's "unattended" (`unattended` above) over first reply and wait columns or SQL. */
const unattendedSql = (firstReplyCreatedAt: SQL, waitingSince: SQL) => sql`(${firstReplyCreatedAt} IS NULL OR ${waitingSince} IS NOT NULL)`;

/** The counted state of the conversation `where` selects, as stored when the statement runs, with its `delta`. */
const storedState = (where: SQL, delta: 1 | -1) =>
  sql`SELECT inbox_id, team_id, assignee_id, status AS status, ${unattendedSql(sql`first_reply_created_at`, sql`waiting_since`)} AS unattended, ${sql.raw(String(delta))} AS delta
      FROM ${conversations} WHERE ${where}`;

/**
 * `counterStatements` for a change decided inside the batch: one upsert that moves the conversation
 * `where` selects (from `conversations`, read before the batch updates it) from its state to `next`, whose
 * status, first reply and wait are SQL over its columns (inbox, team and assignee stay).
 */
export function counterMoveInBatch(db: Database, accountId: number, where: SQL, next: { status: SQL; firstReplyCreatedAt: SQL; waitingSince: SQL }): Statement {
  return countedStatesStatement(
    db,
    accountId,
    sql`${storedState(where, -1)}
    UNION ALL SELECT inbox_id, team_id, assignee_id, ${next.status}, ${unattendedSql(next.firstReplyCreatedAt, next.waitingSince)}, 1
      FROM ${conversations} WHERE ${where}`,
  );
}

/**
 * `counterStatements(null, ...)` for a conversation inserted earlier in the batch whose state the batch
 * decided (its first message's change is SQL): adds the conversation `where` selects, as it is stored.
 */
export function counterAddInBatch(db: Database, accountId: number, where: SQL): Statement {
  return countedStatesStatement(db, accountId, storedState(where, 1));
}

/**
 * One upsert adding each counted state's `delta` to the keys of `keysOf`, spelled in SQL over `states`
 * (inbox_id, team_id, assignee_id, status, unattended, delta): a missing team or assignee makes its key
 * null, and null keys count nowhere.
 */
function countedStatesStatement(db: Database, accountId: number, states: SQL): Statement {
  // each (scope, bucket) pair of keysOf: the four scopes by two buckets, and the account's two unattended ones
  const scope = sql`CASE p.column1 WHEN 1 THEN 'a' WHEN 2 THEN 'i:' || s.inbox_id WHEN 3 THEN 't:' || s.team_id ELSE 'i:' || s.inbox_id || ':t:' || s.team_id END`;
  const bucket = sql`CASE p.column2 WHEN 1 THEN 'all'
    WHEN 2 THEN (CASE WHEN s.assignee_id IS NULL THEN 'unassigned' ELSE 'assignee:' || s.assignee_id END)
    WHEN 3 THEN (CASE WHEN s.unattended THEN 'unattended' END)
    ELSE (CASE WHEN s.unattended THEN 'unattended:assignee:' || s.assignee_id END) END`;
  const pairs = sql`VALUES (1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (3, 2), (4, 1), (4, 2), (1, 3), (1, 4)`;
  return rawSql(
    db,
    sql`INSERT INTO ${counters} (account_id, key, value)
      SELECT ${accountId}, m.key, sum(m.delta) FROM (
        SELECT 'conversations.' || (${scope}) || '.' || s.status || '.' || (${bucket}) AS key, s.delta AS delta FROM (${states}) s, (${pairs}) p
      ) m WHERE m.key IS NOT NULL GROUP BY m.key HAVING sum(m.delta) <> 0
      ON CONFLICT (account_id, key) DO UPDATE SET value = value + excluded.value`,
  );
}

/** Scopes given by name, as the `scope` and `sign` columns `countsQuery` reads. */
export const scopesByName = (names: string[]) =>
  sql`SELECT column1 AS scope, 1 AS sign FROM (VALUES ${sql.join(names.map((n) => sql`(${n})`), sql`, `)})`;

/**
 * One read of the counters of `scopes` for the given statuses: primary-key lookups only. `scopes` is a
 * query with a `scope` and a `sign` column (names, or an agent's inboxes and teams from their
 * memberships); each scope's counters are added with its sign, so that a union of scopes can take off
 * what two of its parts both count.
 */
export function countsQuery(db: Database, accountId: number, scopes: SQL, statuses: number[], userId: number | null) {
  const buckets = ["all", "unassigned", ...(userId === null ? [] : [`assignee:${userId}`])];
  const suffixes = statuses.flatMap((status) => buckets.map((bucket) => `.${status}.${bucket}`));
  const suffixValues = sql.join(suffixes.map((s) => sql`(${s})`), sql`, `);
  const wanted = sql`(SELECT 'conversations.' || sc.scope || sf.column1 AS key, sc.sign AS sign FROM (${scopes}) sc, (VALUES ${suffixValues}) sf) wanted`;
  return db
    .select({ key: counters.key, value: sql<number>`${counters.value} * wanted.sign`.as("value") })
    .from(counters)
    .innerJoin(wanted, sql`${counters.accountId} = ${accountId} AND ${counters.key} = wanted.key`);
}

/** Sums the rows read by `countsQuery`. */
export function sumCounts(rows: Array<{ key: string; value: number }>, userId: number | null): ConversationCounts {
  const counts: ConversationCounts = { mine: 0, unassigned: 0, all: 0 };
  const mine = userId === null ? null : `.assignee:${userId}`;
  for (const row of rows) {
    if (row.key.endsWith(".all")) counts.all += row.value;
    else if (row.key.endsWith(".unassigned")) counts.unassigned += row.value;
    else if (mine && row.key.endsWith(mine)) counts.mine += row.value;
  }
  return counts;
}
