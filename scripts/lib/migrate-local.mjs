// Applies the migrations to every local database of a wrangler config in one process (docs/shards.md):
// wrangler's platform proxy with all the D1 bindings, over the same state directory `wrangler dev
// --persist-to` uses, recording each migration in `d1_migrations` as wrangler does. One `wrangler d1 migrations
// apply` per database costs a wrangler start each (about 10 s here); a pool of 4 to 64 shards would
// wait minutes for what takes a second.
//
// node scripts/lib/migrate-local.mjs <config> <persist-to>   (Node 22: npm start runs it with the project's Node)
import { readD1Migrations } from "@cloudflare/vitest-plugin";
import { getPlatformProxy } from "wrangler";
import { join } from "node:path";
import { declaredDatabases } from "./shards.mjs";
import { root } from "./wrangler.mjs";

const [configPath, persistTo] = process.argv.slice(2);
const databases = declaredDatabases(configPath);
const migrations = await readD1Migrations(join(root, "migrations"));
// wrangler's own local platform for Node scripts: the config's bindings over the state `wrangler dev` uses
const { env, dispose } = await getPlatformProxy({ configPath, persist: { path: join(persistTo, "v3") } });
try {
  let applied = 0;
  for (const { binding } of databases) {
    const db = env[binding];
    await db.prepare("CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)").run();
    const done = new Set((await db.prepare("SELECT name FROM d1_migrations").all()).results.map((row) => row.name));
    for (const migration of migrations.filter(({ name }) => !done.has(name))) {
      await db.batch([...migration.queries.map((query) => db.prepare(query)), db.prepare("INSERT INTO d1_migrations (name) VALUES (?)").bind(migration.name)]);
      applied += 1;
    }
  }
  console.log(`Migrations: ${databases.length} local databases up to date (${applied} migrations applied).`);
} finally {
  await dispose();
}
