import type { Context } from "hono";
import type { Database } from "../db/client";
import type { QueryMeter } from "../db/metering";
import type { AccountRow, AccountUserRow, Actor } from "../domain/identity/access";
import type { Role } from "../domain/kernel/enums";

export type AppEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    db: Database;
    meter: QueryMeter;
    actor: Actor;
    /** set on /api/v1/accounts/:account_id routes */
    account: AccountRow;
    /** the caller's role in `account`; null for an agent bot */
    role: Role | null;
    membership: AccountUserRow | null;
  };
};

export type AppContext = Context<AppEnv>;

/** What a domain function needs to act inside one account: the account comes from the auth context. */
export type AccountScope = { db: Database; accountId: number; actor: Actor; role: Role | null; env: Env };

export function accountScope(c: AppContext): AccountScope {
  return { db: c.var.db, accountId: c.var.account.id, actor: c.var.actor, role: c.var.role, env: c.env };
}
