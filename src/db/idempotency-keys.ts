/**
 * The store behind `Idempotency-Key` (src/http/idempotency.ts): one row per scope and key, holding a digest
 * of the first request and, once recorded, its answer. Rows live 24 hours; the cron prunes them.
 */
import { and, eq, sql } from "drizzle-orm";
import { type Database, now, rawSql, schema } from "./client";

const { idempotencyKeys } = schema;

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const PRUNE_LIMIT = 500;

export type IdempotencyRecord = typeof idempotencyKeys.$inferSelect;
export type StoredAnswer = { status: number; body: string; type: string | null };

export async function findIdempotencyRecord(db: Database, scope: string, key: string): Promise<IdempotencyRecord | null> {
  const [rows] = await db.batch([db.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)))]);
  return rows[0] ?? null;
}

/**
 * The row that claims the key, as a plain D1 statement for the change's own batch. Its primary key makes
 * a second commit under the same key fail, which rolls back the whole batch, so two requests with one key
 * can never both change anything.
 */
export function claimStatement(db: Database, scope: string, key: string, requestDigest: string, at = now()): D1PreparedStatement {
  const query = db.insert(idempotencyKeys).values({ scope, key, requestDigest, createdAt: at, expiresAt: at + IDEMPOTENCY_TTL_MS }).toSQL();
  // D1 only: the rider that carries it exists only on D1 connections (src/db/connect.ts)
  const client = (db as unknown as { $client: D1Database }).$client;
  return client.prepare(query.sql).bind(...query.params);
}

/** Records the answer of the request whose change committed the claim. */
export async function recordAnswer(db: Database, scope: string, key: string, answer: StoredAnswer): Promise<void> {
  await db.batch([
    db
      .update(idempotencyKeys)
      .set({ responseStatus: answer.status, responseBody: answer.body, responseType: answer.type })
      .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key))),
  ]);
}

/**
 * Keeps the answer of a request that succeeded without writing (nothing to protect, but a retry should
 * still see the same answer). A concurrent claim wins over it.
 */
export async function keepAnswer(db: Database, scope: string, key: string, requestDigest: string, answer: StoredAnswer, at = now()): Promise<void> {
  await db.batch([
    db
      .insert(idempotencyKeys)
      .values({
        scope,
        key,
        requestDigest,
        responseStatus: answer.status,
        responseBody: answer.body,
        responseType: answer.type,
        createdAt: at,
        expiresAt: at + IDEMPOTENCY_TTL_MS,
      })
      .onConflictDoNothing(),
  ]);
}

/** Deletes expired keys, a bounded number per run (the cron runs every minute). */
export async function pruneIdempotencyKeys(db: Database, at = now()): Promise<number> {
  const [deleted] = await db.batch([
    rawSql<{ key: string }>(
      db,
      sql`DELETE FROM ${idempotencyKeys} WHERE rowid IN (SELECT rowid FROM ${idempotencyKeys} WHERE ${idempotencyKeys.expiresAt} < ${at} ORDER BY ${idempotencyKeys.expiresAt} LIMIT ${PRUNE_LIMIT}) RETURNING "key"`,
    ),
  ]);
  return deleted.length;
}
