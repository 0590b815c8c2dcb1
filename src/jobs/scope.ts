/**
 * The one place the queue consumer's and the cron's domain scope is built: the shard database they act
 * on, the directory and the shard pool, the Worker's configuration and the ports (live rooms). The domain
 * derives the scope of each account it then acts in from this one (systemScope), so the databases come
 * from here and nowhere else.
 */
import type { Database } from "../db/client";
import { connectDirectory } from "../db/connect";
import { shardPool } from "../db/shards";
import type { TransportScope } from "../domain/kernel/scope";
import { livePorts } from "../ports";

/** The scope of a job on shard database `db`; the directory is connected here unless the job has one open. */
export function jobScope(db: Database, env: Env, directory: Database = connectDirectory(env).db): TransportScope {
  const shards = shardPool(env, directory);
  return { db, directory, shards, env, ports: livePorts(env, shards) };
}
