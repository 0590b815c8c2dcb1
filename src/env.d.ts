// Secrets that `wrangler types` cannot see in wrangler.toml (set with `wrangler secret put`).
interface Env {
  /** optional: key of the HMAC that user records carry as `hmac_identifier` */
  DESK_USER_HMAC_KEY?: string;
}
