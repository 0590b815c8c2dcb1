/**
 * TEST SETUP ONLY: an embedded libSQL file database under Node with every migration applied, as
 * `wrangler d1 migrations apply` applies them to D1 (each file in order, split at drizzle's breakpoints).
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { createLibsqlDb } from "../../src/db/client";

export async function libsqlDatabase() {
  const dir = mkdtempSync(join(tmpdir(), "edgedesk-libsql-"));
  const client = createClient({ url: `file:${join(dir, "desk.db")}` });
  for (const file of readdirSync("migrations").filter((f) => f.endsWith(".sql")).sort()) {
    const statements = readFileSync(join("migrations", file), "utf8")
      .split("--> statement-breakpoint")
      .map((s) => s.trim())
      .filter((s) => s !== "");
    await client.migrate(statements);
  }
  return {
    client,
    db: createLibsqlDb(client),
    close: () => {
      client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
