// Secrets that `wrangler types` cannot see in wrangler.toml (set with `wrangler secret put`).
interface Env {
  /** optional: key of the HMAC that user records carry as `hmac_identifier` */
  DESK_USER_HMAC_KEY?: string;
  /** optional: a libSQL server (Turso or `sqld`), e.g. libsql://name.turso.io; when set, it replaces D1 */
  LIBSQL_URL?: string;
  /** the libSQL server's token, with LIBSQL_URL */
  LIBSQL_AUTH_TOKEN?: string;
}
