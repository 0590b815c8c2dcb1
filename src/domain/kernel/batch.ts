/**
 * Batches with typed results. D1 has no interactive transactions: a change is one `db.batch`, which runs
 * atomically and alone. These helpers keep each statement's result attached to its statement by type or
 * by name, so that adding a statement to a batch can never shift what another part of the code reads.
 */
import type { Database, Statement } from "../../db/client";

/** The result type of each statement of a tuple of statements. */
export type BatchResults<T extends readonly unknown[]> = { -readonly [K in keyof T]: T[K] extends PromiseLike<infer R> ? R : never };

type Batchable = readonly [Statement, ...Statement[]];

/** Runs `statements` in one round trip and answers their results as a tuple of the same shape. */
export async function batch<const T extends readonly Statement[]>(db: Database, statements: T): Promise<BatchResults<T>> {
  if (statements.length === 0) return [] as unknown as BatchResults<T>;
  return (await db.batch(statements as unknown as Batchable)) as unknown as BatchResults<T>;
}

/**
 * Runs `writes` (whose results nobody reads) and then `reads` in one round trip, so the reads see the
 * change; answers the reads' results by type. The usual shape of a change: write, then load what the
 * answer shows.
 */
export async function writeThenRead<const T extends readonly Statement[]>(db: Database, writes: readonly Statement[], reads: T): Promise<BatchResults<T>> {
  const results = await batch(db, [...writes, ...reads]);
  return results.slice(writes.length) as unknown as BatchResults<T>;
}

/**
 * Runs the named statements in one round trip, in the order they are written, and answers their results
 * under the same names: for a batch whose result of interest sits between writes that must follow it.
 * (Names keep their order as long as none is an integer, which JavaScript would move to the front.)
 */
export async function batchNamed<const T extends Record<string, Statement>>(
  db: Database,
  statements: T,
): Promise<{ -readonly [K in keyof T]: T[K] extends PromiseLike<infer R> ? R : never }> {
  const names = Object.keys(statements);
  const results = await batch(db, names.map((name) => statements[name]));
  return Object.fromEntries(names.map((name, i) => [name, results[i]])) as never;
}

/** Runs `writes` in one round trip, when there are any. */
export async function write(db: Database, writes: readonly Statement[]): Promise<void> {
  await batch(db, writes);
}

type Groups = Readonly<Record<string, readonly Statement[]>> | ReadonlyArray<readonly Statement[]>;

/**
 * Runs groups of statements in one round trip, in order, and answers each group's results as a tuple of
 * its shape, under the group's name (or, for a list of groups, at its index). For a batch whose parts
 * have different readers, e.g. `{ created: [insert.returning()], writes, loads }`, or the same reads
 * repeated for each chunk of a page.
 */
export async function batchGroups<const T extends Groups>(
  db: Database,
  groups: T,
): Promise<{ -readonly [K in keyof T]: T[K] extends readonly Statement[] ? BatchResults<T[K]> : never }> {
  const lists: ReadonlyArray<readonly Statement[]> = Object.values(groups);
  const results: unknown[] = await batch(db, lists.flat());
  let offset = 0;
  const split = lists.map((list) => results.slice(offset, (offset += list.length)));
  if (Array.isArray(groups)) return split as never;
  return Object.fromEntries(Object.keys(groups).map((name, i) => [name, split[i]])) as never;
}

/** Whether `error` is SQLite refusing a statement for a UNIQUE or NOT NULL constraint (D1 and libSQL word it alike). */
export function refusedByConstraint(error: unknown): boolean {
  const text = String((error as { message?: unknown })?.message ?? "") + String((error as { cause?: unknown })?.cause ?? "");
  return /(UNIQUE|NOT NULL) constraint failed/.test(text);
}

/**
 * A write that is its own check: `attempt` runs the change in one batch whose constraints refuse what the
 * checks would (a unique index for a taken value, a NOT NULL column filled by a subquery for a row that
 * must exist), so a valid change costs that one round trip. A batch runs atomically: when a constraint
 * refuses it nothing was written, and `checked` runs instead, reading first to name what was wrong (and
 * writing, if a concurrent change made it right in between).
 */
export async function writeCheckedByConstraints<T>(attempt: () => Promise<T>, checked: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (!refusedByConstraint(error)) throw error;
  }
  return checked();
}
