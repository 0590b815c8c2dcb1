import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { allShards, directory } from "./databases";

// Idempotent: applied migrations are recorded in d1_migrations. Every database gets the same schema.
for (const db of [directory(), ...allShards()]) await applyD1Migrations(db, env.TEST_MIGRATIONS);
