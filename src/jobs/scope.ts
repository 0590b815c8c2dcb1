/**
 * The one place the queue consumer's and the cron's domain scope is built: the database they connected,
 * the Worker's configuration and the ports (live rooms). The domain derives the scope of each account it
 * then acts in from this one (systemScope), so the database comes from here and nowhere else.
 */
import type { Database } from "../db/client";
import type { TransportScope } from "../domain/kernel/scope";
import { livePorts } from "../ports";

export function jobScope(db: Database, env: Env): TransportScope {
  return { db, env, ports: livePorts(env, db) };
}
