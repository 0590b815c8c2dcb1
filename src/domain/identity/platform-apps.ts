/**
 * Platform apps and what they may touch: an app reaches only the accounts, users and agent bots it
 * created (Chatwoot's "permissible" rule). The order of checks is: unknown id 404, then not owned 403.
 * Apps themselves are created outside the API, by scripts/platform-app.mjs.
 */
import { and, eq } from "drizzle-orm";
import type { SQL } from "drizzle-orm";
import { type Database, now, schema } from "../../db/client";
import { forbidden, notFound } from "../kernel/errors";

const { platformAppPermissibles } = schema;

export type PermissibleType = "Account" | "User" | "AgentBot";

/** Statement: record that `platformAppId` created (and so owns) the row `permissibleId`. */
export function grantStatement(db: Database, platformAppId: number, type: PermissibleType, permissibleId: number | SQL<number>) {
  return db
    .insert(platformAppPermissibles)
    .values({ platformAppId, permissibleType: type, permissibleId, createdAt: now() })
    .onConflictDoNothing();
}

/** Statement: the grant row, empty when the app does not own the object. */
export function grantQuery(db: Database, platformAppId: number, type: PermissibleType, permissibleId: number) {
  return db
    .select({ id: platformAppPermissibles.id })
    .from(platformAppPermissibles)
    .where(
      and(
        eq(platformAppPermissibles.platformAppId, platformAppId),
        eq(platformAppPermissibles.permissibleType, type),
        eq(platformAppPermissibles.permissibleId, permissibleId),
      ),
    );
}

/** Throws 404 when the object does not exist, 403 when the app did not create it. */
export function assertOwned<T>(row: T | undefined, grant: unknown[], type: PermissibleType, id: number): T {
  if (!row) throw notFound(type === "AgentBot" ? "Agent bot" : type, id);
  if (grant.length === 0) throw forbidden(`This platform app did not create ${type} ${id}`, "not_permissible");
  return row;
}

/** Statements that remove every grant on an object that is being deleted. */
export function revokeAllStatement(db: Database, type: PermissibleType, permissibleId: number) {
  return db
    .delete(platformAppPermissibles)
    .where(and(eq(platformAppPermissibles.permissibleType, type), eq(platformAppPermissibles.permissibleId, permissibleId)));
}
