// Platform apps are created outside the API (as Chatwoot's super admin does): these helpers build the
// SQL that `wrangler d1 execute` runs against the local or the deployed database.
import { createHash, randomBytes } from "node:crypto";

export const LOCAL_APP_NAME = "Local platform app";

/** A new platform key: 24 random bytes, base64url (the same shape as keys made by the Worker). */
export const generateKey = () => randomBytes(24).toString("base64url");

export const sha256Hex = (value) => createHash("sha256").update(value).digest("hex");

const quote = (text) => `'${String(text).replaceAll("'", "''")}'`;

/** SQL that creates a platform app named `name` whose key has SHA-256 digest `digest`. */
export function createAppSql(name, digest, at = Date.now()) {
  return [
    `INSERT INTO platform_apps (name, created_at, updated_at) VALUES (${quote(name)}, ${at}, ${at});`,
    `INSERT INTO access_tokens (owner_type, owner_id, token_digest, created_at) VALUES ('PlatformApp', (SELECT max(id) FROM platform_apps), ${quote(digest)}, ${at});`,
  ].join("\n");
}

/**
 * SQL that makes sure the app named `name` exists and that its one key has digest `digest`
 * (used by `npm start`, so that DESK_PLATFORM_TOKEN is exactly the key of the local app).
 */
export function ensureAppKeySql(name, digest, at = Date.now()) {
  const appId = `(SELECT min(id) FROM platform_apps WHERE name = ${quote(name)})`;
  return [
    `INSERT INTO platform_apps (name, created_at, updated_at) SELECT ${quote(name)}, ${at}, ${at} WHERE NOT EXISTS (SELECT 1 FROM platform_apps WHERE name = ${quote(name)});`,
    `DELETE FROM access_tokens WHERE owner_type = 'PlatformApp' AND owner_id = ${appId} AND token_digest <> ${quote(digest)};`,
    `INSERT OR IGNORE INTO access_tokens (owner_type, owner_id, token_digest, created_at) VALUES ('PlatformApp', ${appId}, ${quote(digest)}, ${at});`,
  ].join("\n");
}
