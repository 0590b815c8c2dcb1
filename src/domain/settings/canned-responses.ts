/**
 * Canned responses: short codes that expand to saved replies. Chatwoot has no policy on them, so every
 * member of the account may read and change them.
 */
import { and, eq, or, sql } from "drizzle-orm";
import { now, schema } from "../../db/client";
import { batch } from "../kernel/batch";
import { type AccountScope } from "../kernel/scope";
import type { CannedResponseRow } from "./rows";
import { invalidField, notFound } from "../kernel/errors";

const { cannedResponses } = schema;

export type CannedResponseInput = { shortCode?: string; content?: string };

const inAccount = (scope: AccountScope) => eq(cannedResponses.accountId, scope.accountId);

/**
 * SQLite's lower() folds ASCII only, so the search text is folded the same way: matching is then
 * case-insensitive for ASCII letters and exact for the rest, and both sides agree. instr() instead of
 * LIKE means the user's % and _ are plain characters and there is no pattern length limit.
 */
const foldAscii = (text: string) => text.replace(/[A-Z]/g, (ch) => ch.toLowerCase());

/** All of the account's canned responses; with `search`, the matching ones, best match first. */
export async function listCannedResponses(scope: AccountScope, search?: string): Promise<CannedResponseRow[]> {
  const { db } = scope;
  const needle = foldAscii(search ?? "");
  if (!needle) {
    const [rows] = await batch(db, [db.select().from(cannedResponses).where(inAccount(scope)).orderBy(cannedResponses.id)]);
    return rows;
  }
  const inCode = sql<number>`instr(lower(${cannedResponses.shortCode}), ${needle})`;
  const inContent = sql<number>`instr(lower(${cannedResponses.content}), ${needle})`;
  // Chatwoot's ranking: short code starts with the text, then short code contains it, then content does.
  const rank = sql`CASE WHEN ${inCode} = 1 THEN 0 WHEN ${inCode} > 0 THEN 1 ELSE 2 END`;
  const [rows] = await batch(db, [
    db
      .select()
      .from(cannedResponses)
      .where(and(inAccount(scope), or(sql`${inCode} > 0`, sql`${inContent} > 0`)))
      .orderBy(rank, cannedResponses.shortCode, cannedResponses.id),
  ]);
  return rows;
}

const shortCodeTaken = () => invalidField("short_code", "has already been taken", "taken");

export async function createCannedResponse(
  scope: AccountScope,
  input: Required<CannedResponseInput>,
): Promise<CannedResponseRow> {
  const { db, accountId } = scope;
  const [clash] = await batch(db, [
    db
      .select({ id: cannedResponses.id })
      .from(cannedResponses)
      .where(and(inAccount(scope), eq(cannedResponses.shortCode, input.shortCode))),
  ]);
  if (clash.length) throw shortCodeTaken();
  const at = now();
  const [rows] = await batch(db, [
    db
      .insert(cannedResponses)
      .values({ accountId, shortCode: input.shortCode, content: input.content, createdAt: at, updatedAt: at })
      .returning(),
  ]);
  return rows[0];
}

export async function updateCannedResponse(
  scope: AccountScope,
  id: number,
  input: CannedResponseInput,
): Promise<CannedResponseRow> {
  const { db } = scope;
  // One read finds both the response and any other response that already uses the new short code.
  const [rows] = await batch(db, [
    db
      .select({ id: cannedResponses.id })
      .from(cannedResponses)
      .where(
        and(
          inAccount(scope),
          or(eq(cannedResponses.id, id), input.shortCode === undefined ? undefined : eq(cannedResponses.shortCode, input.shortCode)),
        ),
      ),
  ]);
  if (!rows.some((r) => r.id === id)) throw notFound("Canned response", id);
  if (rows.some((r) => r.id !== id)) throw shortCodeTaken();
  const [updated] = await batch(db, [
    db
      .update(cannedResponses)
      .set({ shortCode: input.shortCode, content: input.content, updatedAt: now() })
      .where(and(inAccount(scope), eq(cannedResponses.id, id)))
      .returning(),
  ]);
  return updated[0];
}

export async function deleteCannedResponse(scope: AccountScope, id: number): Promise<void> {
  const { db } = scope;
  const [deleted] = await batch(db, [
    db
      .delete(cannedResponses)
      .where(and(inAccount(scope), eq(cannedResponses.id, id)))
      .returning({ id: cannedResponses.id }),
  ]);
  if (!deleted.length) throw notFound("Canned response", id);
}
