/**
 * Saved filters. Each belongs to one user in one account and nobody else sees it, administrators
 * included: every statement is scoped to both, so another user's filter is simply not found.
 */
import { and, eq, sql } from "drizzle-orm";
import { now, schema } from "../../db/client";
import { batch } from "../kernel/batch";
import { FILTER_TYPE } from "../kernel/enums";
import { type AccountScope } from "../kernel/scope";
import type { CustomFilterRow } from "./rows";
import { forbidden, invalidField, notFound } from "../kernel/errors";

const { customFilters } = schema;

export type CustomFilterInput = { name?: string; filterType?: number; query?: Record<string, unknown> };

/** Chatwoot's limit per user per account. */
export const MAX_CUSTOM_FILTERS = 1000;

function ownerOf(scope: AccountScope): number {
  // Bot keys never reach these routes (auth's allow-list); this keeps the domain honest if one ever did.
  if (scope.actor.type !== "user") throw forbidden("Only users have custom filters", "user_required");
  return scope.actor.user.id;
}

const mine = (scope: AccountScope) =>
  and(eq(customFilters.accountId, scope.accountId), eq(customFilters.userId, ownerOf(scope)));

export async function listCustomFilters(scope: AccountScope, filterType: number): Promise<CustomFilterRow[]> {
  const { db } = scope;
  const [rows] = await batch(db, [
    db.select().from(customFilters).where(and(mine(scope), eq(customFilters.filterType, filterType))).orderBy(customFilters.id),
  ]);
  return rows;
}

export async function getCustomFilter(scope: AccountScope, id: number): Promise<CustomFilterRow> {
  const { db } = scope;
  const [rows] = await batch(db, [db.select().from(customFilters).where(and(mine(scope), eq(customFilters.id, id)))]);
  if (!rows[0]) throw notFound("Custom filter", id);
  return rows[0];
}

export async function createCustomFilter(
  scope: AccountScope,
  input: CustomFilterInput & { name: string; query: Record<string, unknown> },
): Promise<CustomFilterRow> {
  const { db, accountId } = scope;
  // Counting stops at the limit, so the read never scans more than MAX_CUSTOM_FILTERS index entries.
  const upToLimit = db.select({ one: sql`1` }).from(customFilters).where(mine(scope)).limit(MAX_CUSTOM_FILTERS).as("up_to_limit");
  const [[{ count }]] = await batch(db, [db.select({ count: sql<number>`count(*)` }).from(upToLimit)]);
  if (count >= MAX_CUSTOM_FILTERS) {
    throw invalidField("", `Limit reached: a user may keep at most ${MAX_CUSTOM_FILTERS} custom filters per account`, "limit_reached");
  }
  const at = now();
  const [rows] = await batch(db, [
    db
      .insert(customFilters)
      .values({
        accountId,
        userId: ownerOf(scope),
        name: input.name,
        filterType: input.filterType ?? FILTER_TYPE.conversation,
        query: input.query,
        createdAt: at,
        updatedAt: at,
      })
      .returning(),
  ]);
  return rows[0];
}

export async function updateCustomFilter(scope: AccountScope, id: number, input: CustomFilterInput): Promise<CustomFilterRow> {
  const { db } = scope;
  const [rows] = await batch(db, [
    db
      .update(customFilters)
      .set({ name: input.name, filterType: input.filterType, query: input.query, updatedAt: now() })
      .where(and(mine(scope), eq(customFilters.id, id)))
      .returning(),
  ]);
  if (!rows[0]) throw notFound("Custom filter", id);
  return rows[0];
}

export async function deleteCustomFilter(scope: AccountScope, id: number): Promise<void> {
  const { db } = scope;
  const [rows] = await batch(db, [
    db.delete(customFilters).where(and(mine(scope), eq(customFilters.id, id))).returning({ id: customFilters.id }),
  ]);
  if (!rows[0]) throw notFound("Custom filter", id);
}
