import { and, eq, inArray, isNotNull, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { type Database, type Statement, lastInsertedId, now, rawSql, schema } from "../../db/client";
import { SHARD_STATUS } from "../../db/shard-status";
import { forgetPlacement } from "../../db/shards";
import { copyIdentityToShards, sameDatabase } from "./mirror";
import { databaseSize } from "./shard-stats";
import { batch, write, writeThenRead } from "../kernel/batch";
import { unavailable } from "../kernel/errors";
import { ACCOUNT_STATUS } from "../kernel/enums";
import { EVERYONE } from "../kernel/ports";
import { grantStatement } from "./platform-apps";
import { type AccountRow } from "./rows";
import type { PlatformScope, TransportScope } from "../kernel/scope";

const { accounts, accessTokens, agentBots, platformAppPermissibles, shardStats } = schema;

export type AccountInput = {
  name?: string;
  locale?: string;
  domain?: string | null;
  supportEmail?: string | null;
  status?: number;
  limits?: Record<string, unknown>;
  customAttributes?: Record<string, unknown>;
  settings?: Record<string, unknown>;
  /** flag name -> on/off, merged into the account's flags */
  features?: Record<string, boolean>;
};

/** Feature flags a new account starts with. */
const DEFAULT_FEATURES: Record<string, boolean> = {
  agent_bots: true,
  automations: true,
  custom_attributes: true,
  help_center: true,
  integrations: true,
  reports: true,
};

/**
 * Shard sizes count in steps of PLACEMENT_SIZE_STEP_BYTES (64 MiB unless configured): a shard a step or
 * more smaller than the others takes the new accounts; within a step the fewest accounts decide, so a
 * burst of creates between two of the cron's size readings still spreads over the shards.
 */
function placementSizeStep(env: Env): number {
  const step = Number(env.PLACEMENT_SIZE_STEP_BYTES);
  return Number.isInteger(step) && step > 0 ? step : 64 * 1024 * 1024;
}

/**
 * Creates an account that the platform app behind `scope` owns, on the least full shard (docs/shards.md
 * "Shards"): the directory's row first, marked provisioning, which also counts the account on its shard;
 * then the shard's copy of the account; then the directory's row becomes active. An account left
 * provisioning by a failure half way is finished by the cron (`finishPlacements`).
 */
export async function createAccount(scope: PlatformScope, input: AccountInput & { name: string }): Promise<AccountRow> {
  const { directory: db, actor: createdBy } = scope;
  const at = now();
  const pool = Array.from({ length: scope.shards.count }, (_, shard) => shard);
  const [, inserted] = await batch(db, [
    rawSql(db, sql`INSERT INTO ${shardStats} (shard, accounts, bytes, updated_at) SELECT value, 0, 0, 0 FROM json_each(${JSON.stringify(pool)}) WHERE true ON CONFLICT DO NOTHING`),
    db
      .insert(accounts)
      .values({
        name: input.name,
        locale: input.locale ?? "en",
        domain: input.domain ?? null,
        supportEmail: input.supportEmail ?? null,
        status: input.status ?? ACCOUNT_STATUS.active,
        limits: input.limits ?? {},
        customAttributes: input.customAttributes ?? {},
        settings: input.settings ?? {},
        features: { ...DEFAULT_FEATURES, ...input.features },
        // the step is cast: D1 binds a number as a REAL, and a division by a REAL would order by exact size
        shard: sql`(SELECT ${shardStats.shard} FROM ${shardStats} WHERE ${shardStats.shard} < ${pool.length} ORDER BY ${shardStats.bytes} / CAST(${placementSizeStep(scope.env)} AS INTEGER), ${shardStats.accounts}, ${shardStats.shard} LIMIT 1)`,
        shardStatus: SHARD_STATUS.provisioning,
        createdAt: at,
        updatedAt: at,
      })
      .returning({ id: accounts.id, shard: accounts.shard }),
    db
      .update(shardStats)
      // the new account counts at the pool's mean account size until the cron next reads the shard's size,
      // so the creates between two readings do not all go to the shard that was smallest at the last one
      .set({
        accounts: sql`${shardStats.accounts} + 1`,
        bytes: sql`${shardStats.bytes} + (SELECT coalesce(sum(${shardStats.bytes}) / max(sum(${shardStats.accounts}), 1), 0) FROM ${shardStats})`,
      })
      .where(eq(shardStats.shard, sql`(SELECT ${accounts.shard} FROM ${accounts} WHERE ${accounts.id} = ${lastInsertedId(accounts)})`)),
    grantStatement(db, createdBy.platformAppId, "Account", lastInsertedId(accounts)),
  ]);
  return finishPlacement(scope, inserted[0].id, inserted[0].shard);
}

/**
 * Writes the shard's copy of a provisioning account, then makes it active. Repeating it is harmless.
 * Given the account's `shard` (a create), it also reads the shard's size and raises the directory's
 * record of it to that, in the batch that activates the account: a shard whose accounts grew since the
 * cron's last reading (a burst of creates, each filled at once by an import) stops taking the next
 * accounts at the next create, not at the next minute. Raised, never lowered: the estimates of accounts
 * placed since the reading stay until the cron reads the size again.
 */
export async function finishPlacement(scope: TransportScope, accountId: number, shard?: number): Promise<AccountRow> {
  const { directory: db } = scope;
  await copyIdentityToShards(scope, [accountId], { placing: true });
  const size = shard === undefined || sameDatabase(scope) ? null : await databaseSize(scope.shards.open(shard));
  const [rows] = await writeThenRead(
    db,
    [
      db
        .update(accounts)
        .set({ shardStatus: SHARD_STATUS.active })
        .where(and(eq(accounts.id, accountId), eq(accounts.shardStatus, SHARD_STATUS.provisioning))),
      ...(size === null ? [] : [db.update(shardStats).set({ bytes: sql`max(${shardStats.bytes}, ${size})` }).where(eq(shardStats.shard, shard!))]),
    ],
    [db.select().from(accounts).where(eq(accounts.id, accountId))],
  );
  return rows[0];
}

/**
 * Applies the given fields; `features` are merged into the current flags, the rest replace. A suspension
 * ends every live connection of the account once it has committed (every request and subscription after
 * it is refused already).
 */
export async function updateAccount(scope: TransportScope, account: AccountRow, input: AccountInput): Promise<AccountRow> {
  const { directory: db } = scope;
  const { features, ...fields } = input;
  const [rows] = await batch(db, [
    db
      .update(accounts)
      .set({
        ...fields,
        ...(features && { features: { ...account.features, ...features } }),
        updatedAt: now(),
      })
      .where(eq(accounts.id, account.id))
      .returning(),
  ]);
  await copyIdentityToShards(scope, [account.id], { userIds: [] });
  if (account.status !== ACCOUNT_STATUS.suspended && rows[0].status === ACCOUNT_STATUS.suspended) await scope.ports.feed.accessChanged(account.id, EVERYONE);
  return rows[0];
}

type AccountScopedTable = SQLiteTable & { accountId: SQLiteColumn };

/** Every table that holds rows of one account, found by its `account_id` column. */
const ACCOUNT_SCOPED_TABLES = (Object.values(schema) as unknown[]).filter(
  (table): table is AccountScopedTable =>
    typeof table === "object" && table !== null && "accountId" in table && table !== (accounts as unknown),
);

/** The full-text tables, each with the table whose ids are its rowids (they carry no account_id of their own). */
const SEARCH_INDEXES = [
  ["contact_search", schema.contacts],
  ["message_search", schema.messages],
  ["article_search", schema.articles],
] as const;

/**
 * The statements that remove the account and everything of it from the directory: its keys, grants and
 * row, and whatever else it holds of the account. A deployment upgraded from one database still has the
 * account's old rows there (docs/shards.md), search-index rows included; its shard's rows go in rounds
 * (`deleteAccountRows`).
 */
function deleteStatements(db: Database, accountId: number): Statement[] {
  const accountBotIds = db.select({ id: agentBots.id }).from(agentBots).where(eq(agentBots.accountId, accountId));
  return [
    // first, while the rows they index are there to name them
    ...SEARCH_INDEXES.map(([index, table]) => rawSql(db, sql`DELETE FROM ${sql.identifier(index)} WHERE rowid IN (SELECT ${table.id} FROM ${table} WHERE ${table.accountId} = ${accountId})`)),
    db.delete(accessTokens).where(and(eq(accessTokens.ownerType, "AgentBot"), inArray(accessTokens.ownerId, accountBotIds))),
    db
      .delete(platformAppPermissibles)
      .where(
        and(eq(platformAppPermissibles.permissibleType, "AgentBot"), inArray(platformAppPermissibles.permissibleId, accountBotIds)),
      ),
    db
      .delete(platformAppPermissibles)
      .where(and(eq(platformAppPermissibles.permissibleType, "Account"), eq(platformAppPermissibles.permissibleId, accountId))),
    ...ACCOUNT_SCOPED_TABLES.map((table) => db.delete(table).where(eq(table.accountId, accountId))),
    db.delete(accounts).where(eq(accounts.id, accountId)),
  ];
}

/** Rows of one table a delete statement removes at most: D1 caps a statement's time, and a large account holds millions. */
const DELETE_CHUNK_ROWS = 2_000;

/**
 * Removes the account's rows from `db` (its shard) in rounds, one batch each: every table loses up to
 * DELETE_CHUNK_ROWS of them (search-index rows just before the rows they index), and the round's last
 * statement says whether any are left. A small account goes in one round.
 */
async function deleteAccountRows(db: Database, accountId: number) {
  // the same query twice in a round (the search rows, then the rows) finds the same rows: nothing changed
  // the table in between; no ORDER BY, so each round reads only the rows it deletes
  const firstRows = (table: AccountScopedTable) => sql`SELECT rowid FROM ${table} WHERE ${table.accountId} = ${accountId} LIMIT ${DELETE_CHUNK_ROWS}`;
  const indexed = new Map<SQLiteTable, string>(SEARCH_INDEXES.map(([index, table]) => [table, index]));
  const round = ACCOUNT_SCOPED_TABLES.flatMap((table) => [
    ...(indexed.has(table) ? [rawSql(db, sql`DELETE FROM ${sql.identifier(indexed.get(table)!)} WHERE rowid IN (${firstRows(table)})`)] : []),
    rawSql(db, sql`DELETE FROM ${table} WHERE rowid IN (${firstRows(table)})`),
  ]);
  const left = rawSql<{ left: number }>(
    db,
    // one bound parameter, however many tables
    sql`WITH target(id) AS (SELECT ${accountId}) SELECT ${sql.join(
      ACCOUNT_SCOPED_TABLES.map((table) => sql`EXISTS (SELECT 1 FROM ${table} WHERE ${table.accountId} = (SELECT id FROM target))`),
      sql` OR `,
    )} AS "left"`,
  );
  for (;;) {
    const results = await batch(db, [...round, left]);
    const [{ left: remaining }] = results[results.length - 1] as Array<{ left: number }>;
    if (!remaining) break;
  }
  await write(db, [db.delete(accounts).where(eq(accounts.id, accountId))]);
}

/**
 * Deletes the account and everything in it, in the reverse order of its creation: the directory marks
 * it deleting (from then on no request reaches it), its shard's rows go in rounds of bounded
 * statements, then the directory's. Users stay, since they may belong to other accounts; their membership goes. A deletion
 * cut short is finished by the cron (`finishPlacements`).
 */
export async function deleteAccount(scope: TransportScope, accountId: number) {
  const { directory } = scope;
  const [marked, moving] = await batch(directory, [
    directory
      .update(accounts)
      .set({ shardStatus: SHARD_STATUS.deleting, updatedAt: now() })
      // nor while a move is under way or its rows are still on another shard (those would be forgotten)
      .where(and(eq(accounts.id, accountId), ne(accounts.shardStatus, SHARD_STATUS.moving), isNull(accounts.moveTo)))
      .returning({ shard: accounts.shard }),
    directory
      .select({ id: accounts.id })
      .from(accounts)
      .where(and(eq(accounts.id, accountId), or(eq(accounts.shardStatus, SHARD_STATUS.moving), isNotNull(accounts.moveTo)))),
  ]);
  if (moving.length > 0) throw unavailable(`Account ${accountId} is moving to another database; delete it once the move ends`, "account_moving");
  if (marked.length === 0) return;
  forgetPlacement(accountId);
  // marked deleting, the account is refused to every request and subscription: its live connections end now
  await scope.ports.feed.accessChanged(accountId, EVERYONE);
  const shard = marked[0].shard;
  // a shard this deployment lacks fails the delete, which the cron then retries: its rows are never forgotten
  await deleteAccountRows(sameDatabase(scope) ? directory : scope.shards.open(shard), accountId);
  await write(directory, [
    ...deleteStatements(directory, accountId),
    directory.update(shardStats).set({ accounts: sql`max(${shardStats.accounts} - 1, 0)` }).where(eq(shardStats.shard, shard)),
  ]);
}

/**
 * The cron's repair of placements cut short (a shard that failed half way through a create or a
 * delete): accounts provisioning or deleting for over a minute are finished. Answers how many.
 */
export async function finishPlacements(scope: TransportScope, at = now()): Promise<number> {
  const { directory: db } = scope;
  const [stuck] = await batch(db, [
    db
      .select({ id: accounts.id, status: accounts.shardStatus })
      .from(accounts)
      .where(and(inArray(accounts.shardStatus, [SHARD_STATUS.provisioning, SHARD_STATUS.deleting]), lt(accounts.updatedAt, at - 60_000)))
      .limit(50),
  ]);
  for (const account of stuck) {
    if (account.status === SHARD_STATUS.deleting) await deleteAccount(scope, account.id);
    else await finishPlacement(scope, account.id);
  }
  return stuck.length;
}

/**
 * The shards an account is moving from or to (src/jobs/account-move.ts), and those that still hold rows
 * a move left behind (`move_to` of an active account: its old shard, or a partial copy not yet removed).
 * The cron leaves them alone until the move ends and the rows are gone: its sweeps would change rows the
 * mover is copying, act on half-copied ones, or send again the events of rows that moved.
 */
export async function shardsInMoves(scope: TransportScope): Promise<Set<number>> {
  const { directory: db } = scope;
  const [moves] = await batch(db, [
    db
      .select({ shard: accounts.shard, status: accounts.shardStatus, other: accounts.moveTo })
      .from(accounts)
      .where(or(eq(accounts.shardStatus, SHARD_STATUS.moving), isNotNull(accounts.moveTo))),
  ]);
  return new Set(moves.flatMap(({ shard, status, other }) => [...(status === SHARD_STATUS.moving ? [shard] : []), ...(other === null ? [] : [other])]));
}
