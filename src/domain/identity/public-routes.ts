/**
 * The public keys that lead to an account without a credential (docs/shards.md): a website or API
 * inbox's identifier, a help-center portal's slug and custom domain. They live in the directory, where
 * each key is unique across every account, so a public request finds the account's shard in one
 * indexed read, and two accounts on different shards can never hold the same slug or domain.
 */
import { and, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { batch, write } from "../kernel/batch";
import { invalid } from "../kernel/errors";
import type { TransportScope } from "../kernel/scope";

const { publicRoutes } = schema;

export type PublicRouteKind = "inbox" | "portal" | "portal_domain" | "inbox_email";

/** One key a public request may name; `field` is the input it came from, for the refusal. */
export type PublicRouteClaim = { kind: PublicRouteKind; key: string; field: string };

/**
 * Reserves `claims` for the account. A key the account holds already stays its own; a key another
 * account holds is refused with 422 `taken` on its field, and then none of the claims is kept.
 */
export async function claimPublicRoutes(scope: TransportScope, accountId: number, claims: PublicRouteClaim[]) {
  if (claims.length === 0) return;
  const { directory } = scope;
  const results = await batch(directory, [
    ...claims.map(({ kind, key }) => directory.insert(publicRoutes).values({ kind, key, accountId }).onConflictDoNothing()),
    ...claims.map(({ kind, key }) =>
      directory.select({ accountId: publicRoutes.accountId }).from(publicRoutes).where(and(eq(publicRoutes.kind, kind), eq(publicRoutes.key, key))),
    ),
  ]);
  const holders = results.slice(claims.length) as Array<Array<{ accountId: number }>>;
  const taken = claims.filter((_, i) => holders[i][0]?.accountId !== accountId);
  if (taken.length === 0) return;
  // the claims this call made are given back; the taken ones were never ours
  await releasePublicRoutes(scope, accountId, claims.filter((claim) => !taken.includes(claim)));
  throw invalid(taken.map(({ field }) => ({ field, message: "has already been taken", code: "taken" })));
}

/** Gives back the account's `claims` (a key another account holds is left alone). */
export async function releasePublicRoutes(scope: TransportScope, accountId: number, claims: Array<Pick<PublicRouteClaim, "kind" | "key">>) {
  if (claims.length === 0) return;
  const { directory } = scope;
  await write(
    directory,
    claims.map(({ kind, key }) =>
      directory.delete(publicRoutes).where(and(eq(publicRoutes.kind, kind), eq(publicRoutes.key, key), eq(publicRoutes.accountId, accountId))),
    ),
  );
}

/** The account a public key leads to, or null. */
export async function findPublicRoute(scope: TransportScope, kind: PublicRouteKind, key: string): Promise<number | null> {
  const { directory } = scope;
  const [rows] = await batch(directory, [
    directory.select({ accountId: publicRoutes.accountId }).from(publicRoutes).where(and(eq(publicRoutes.kind, kind), eq(publicRoutes.key, key))),
  ]);
  return rows[0]?.accountId ?? null;
}
