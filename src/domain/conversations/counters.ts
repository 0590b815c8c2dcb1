/**
 * Conversation counts kept in `counters`, so the list and meta endpoints read a handful of rows instead of
 * counting the account's conversations (COUNT(*) reads every row it counts, see bench/README.md).
 *
 * Each conversation adds 1 to the key `conversations.<scope>.<status>.<bucket>` of every scope it belongs to:
 * - scopes: `a` (the account), `i:<inbox>`, and with a team `t:<team>` and `i:<inbox>:t:<team>` (the last
 *   one answers an agent's team filter, which is limited to the agent's inboxes);
 * - buckets: `all`, and `unassigned` or `assignee:<user>`.
 * A change moves the conversation from the keys of its old state to those of its new state, in the same
 * batch as the change itself.
 */
import { and, eq, sql, type SQL } from "drizzle-orm";
import { type Database, type Statement, schema } from "../../db/client";
import { counterDeltaStatements } from "../kernel/counters";

const { counters } = schema;

/** The fields of a conversation that decide which counters hold it. */
export type CountedState = { inboxId: number; teamId: number | null; status: number; assigneeId: number | null };

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
  return scopes.flatMap((scope) => buckets.map((bucket) => key(scope, state.status, bucket)));
}

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

/** Scopes given by name, as the `scope` column `countsQuery` reads. */
export const scopesByName = (names: string[]) =>
  sql`SELECT column1 AS scope FROM (VALUES ${sql.join(names.map((n) => sql`(${n})`), sql`, `)})`;

/**
 * One read of the counters of `scopes` (a query with a `scope` column: names, or an agent's inboxes
 * from inbox_members) for the given statuses: primary-key lookups only.
 */
export function countsQuery(db: Database, accountId: number, scopes: SQL, statuses: number[], userId: number | null) {
  const buckets = ["all", "unassigned", ...(userId === null ? [] : [`assignee:${userId}`])];
  const suffixes = statuses.flatMap((status) => buckets.map((bucket) => `.${status}.${bucket}`));
  const suffixValues = sql.join(suffixes.map((s) => sql`(${s})`), sql`, `);
  return db
    .select({ key: counters.key, value: counters.value })
    .from(counters)
    .where(
      and(
        eq(counters.accountId, accountId),
        sql`${counters.key} IN (SELECT 'conversations.' || sc.scope || sf.column1 FROM (${scopes}) sc, (VALUES ${suffixValues}) sf)`,
      ),
    );
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
