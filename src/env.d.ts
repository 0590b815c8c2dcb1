// Secrets that `wrangler types` cannot see in wrangler.toml (set with `wrangler secret put`).
interface Env {
  /** optional: key of the HMAC that user records carry as `hmac_identifier` */
  DESK_USER_HMAC_KEY?: string;
  /** optional: a libSQL server (Turso or `sqld`), e.g. libsql://name.turso.io; when set, it replaces D1 */
  LIBSQL_URL?: string;
  /** the libSQL server's token, with LIBSQL_URL */
  LIBSQL_AUTH_TOKEN?: string;
  /**
   * Signs the URLs that serve message attachments (set with `wrangler secret put`; `npm start` and the
   * tests supply one). Without it, files can be neither uploaded nor served.
   */
  ATTACHMENT_URL_SECRET?: string;
  /**
   * Signs the website widget's visitor tokens (HS256 JWTs, README "Website widget"; `wrangler secret put
   * WIDGET_TOKEN_SECRET`; `npm start` and the tests supply one). Without it `/widget` and
   * `/api/v1/widget/*` answer 503. A Chatwoot installation's `secret_key_base` keeps its visitors' tokens valid.
   */
  WIDGET_TOKEN_SECRET?: string;
  /** Chatwoot's limit for one file, in MB (default 40). */
  MAXIMUM_FILE_UPLOAD_SIZE?: string;
  /**
   * Signs every push sent to PUSH_RELAY_URL (both webhook signature schemes, docs/notifications.md "Push notifications"):
   * base64, e.g. `openssl rand -base64 32`, optionally prefixed `whsec_`. Without it pushes go unsigned.
   */
  PUSH_RELAY_SECRET?: string;
  /** The Resend API key, when MAIL_TRANSPORT is "resend" (docs/email.md). */
  RESEND_API_KEY?: string;
}

