import type { Context } from "hono";
import type { Database } from "../db/client";
import type { Connection } from "../db/connect";
import type { Shards } from "../db/shards";
import type { FirstWriteRider, QueryMeter } from "../db/metering";
import type { Role } from "../domain/kernel/enums";
import type { AccountRow, AccountUserRow } from "../domain/identity/rows";
import type { Actor } from "../domain/kernel/scope";

export type AppEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    /**
     * The database of the account the request acts in (its shard), chosen by accountAuth or by the public
     * route's key (src/http/database.ts); the directory until then, and for platform, profile and sign-in
     * requests.
     */
    db: Database;
    /** the shard `db` is, once chosen */
    shard: number | null;
    directory: Database;
    shards: Shards & { connections: Map<number, Connection> };
    meter: QueryMeter;
    /** statements that commit with the request's change (the Idempotency-Key record); null on libSQL */
    rider: FirstWriteRider | null;
    actor: Actor;
    /** set on /api/v1/accounts/:account_id routes */
    account: AccountRow;
    /** the caller's role in `account`; null for an agent bot */
    role: Role | null;
    membership: AccountUserRow | null;
    /** the files of a multipart body, on routes that declare `acceptFiles()` (other routes drop them) */
    uploads: Upload[];
  };
};

/** One file part of a multipart body: `field` is its form name as sent, e.g. "attachments[]". */
export type Upload = { field: string; file: File };

export type AppContext = Context<AppEnv>;
