/**
 * The data model of edgedesk.
 *
 * Conventions:
 * - Every id is `INTEGER PRIMARY KEY AUTOINCREMENT`: ids are public (Chatwoot exposes them) and SQLite
 *   would otherwise reuse the id of a deleted row.
 * - Times are Unix epoch milliseconds; views render seconds or ISO strings as Chatwoot does.
 * - Enums are stored as Chatwoot's integers and named in src/domain/enums.ts.
 * - JSON columns hold objects or arrays serialised as text.
 * - Every account-scoped table carries `account_id`, so each query can be scoped structurally and an
 *   account can be removed table by table.
 * - Indexes are named after what they serve; each one matches the leading columns of a query.
 */
import { sql } from "drizzle-orm";
import {
  index,
  integer,
  primaryKey,
  type SQLiteColumn,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";

const id = () => integer("id").primaryKey({ autoIncrement: true });
const json = <T>(name: string) => text(name, { mode: "json" }).$type<T>();
const bool = (name: string) => integer(name, { mode: "boolean" });
const timestamps = {
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
};

export type JsonObject = Record<string, unknown>;

// ---------------------------------------------------------------- accounts, users, keys

export const accounts = sqliteTable("accounts", {
  id: id(),
  name: text("name").notNull(),
  locale: text("locale").notNull().default("en"),
  domain: text("domain"),
  supportEmail: text("support_email"),
  /** 0 active, 1 suspended */
  status: integer("status").notNull().default(0),
  customAttributes: json<JsonObject>("custom_attributes").notNull().default({}),
  settings: json<JsonObject>("settings").notNull().default({}),
  limits: json<JsonObject>("limits").notNull().default({}),
  /** feature flag name -> enabled */
  features: json<Record<string, boolean>>("features").notNull().default({}),
  /** the shard database that holds the account's rows (README "Shards"); read from the directory's row */
  shard: integer("shard").notNull().default(0),
  /**
   * 0 provisioning (its shard rows are being written), 1 active, 2 moving to another shard, 3 deleting.
   * While moving, `updated_at` is the move's heartbeat.
   */
  shardStatus: integer("shard_status").notNull().default(1),
  /** bumped when the account moves, so a cached placement can be told stale */
  shardVersion: integer("shard_version").notNull().default(1),
  /**
   * While moving: the shard it moves to. Once active again: a shard that still holds rows of it to remove
   * (its old shard after a move, or the partial copy of a move rolled back), until they are gone. The
   * cron leaves the shards named here alone meanwhile (src/jobs/account-move.ts).
   */
  moveTo: integer("move_to"),
  ...timestamps,
});

/**
 * Directory only: the public keys that lead to an account without a credential (a website inbox's
 * identifier, a help-center portal's slug), so a public request finds the shard in one indexed read.
 * The key is unique across all accounts here, which is what keeps portal slugs unique across shards.
 */
export const publicRoutes = sqliteTable(
  "public_routes",
  {
    /** "inbox", "portal", "portal_domain", or "inbox_email" (an e-mail inbox's address or forwarding address) */
    kind: text("kind").notNull(),
    key: text("key").notNull(),
    accountId: integer("account_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.key] }), index("public_routes_account").on(t.accountId)],
);

/** Directory only: how full each shard is, for placing new accounts on the least full. */
export const shardStats = sqliteTable("shard_stats", {
  shard: integer("shard").primaryKey(),
  accounts: integer("accounts").notNull().default(0),
  /** the shard's size when the cron last looked (D1 reports it with every answer) */
  bytes: integer("bytes").notNull().default(0),
  updatedAt: integer("updated_at").notNull().default(0),
});

export const users = sqliteTable(
  "users",
  {
    id: id(),
    name: text("name").notNull(),
    displayName: text("display_name"),
    /** stored lower-cased; unique across the installation */
    email: text("email").notNull(),
    passwordHash: text("password_hash"),
    avatarUrl: text("avatar_url"),
    messageSignature: text("message_signature"),
    uiSettings: json<JsonObject>("ui_settings").notNull().default({}),
    customAttributes: json<JsonObject>("custom_attributes").notNull().default({}),
    pubsubToken: text("pubsub_token").notNull(),
    /** null or "SuperAdmin" */
    type: text("type"),
    confirmedAt: integer("confirmed_at"),
    inviterId: integer("inviter_id"),
    /**
     * An address the user asked to change to, waiting for its confirmation link (lower-cased). Until then
     * nobody finds the user by it; no two users wait for the same address.
     */
    unconfirmedEmail: text("unconfirmed_email"),
    /** SHA-256 of the single-use confirmation token mailed to `unconfirmed_email` (never the token) */
    confirmationTokenDigest: text("confirmation_token_digest"),
    confirmationExpiresAt: integer("confirmation_expires_at"),
    /** SHA-256 of the single-use password reset token mailed to the user (never the token) */
    resetPasswordTokenDigest: text("reset_password_token_digest"),
    resetPasswordExpiresAt: integer("reset_password_expires_at"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("users_email_unique").on(t.email),
    uniqueIndex("users_pubsub_token_unique").on(t.pubsubToken),
    uniqueIndex("users_unconfirmed_email_unique").on(t.unconfirmedEmail),
    uniqueIndex("users_confirmation_token_digest_unique").on(t.confirmationTokenDigest),
    uniqueIndex("users_reset_password_token_digest_unique").on(t.resetPasswordTokenDigest),
  ],
);

export const accountUsers = sqliteTable(
  "account_users",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    userId: integer("user_id").notNull(),
    /** 0 agent, 1 administrator */
    role: integer("role").notNull().default(0),
    /** 0 online, 1 offline, 2 busy */
    availability: integer("availability").notNull().default(0),
    autoOffline: bool("auto_offline").notNull().default(true),
    activeAt: integer("active_at"),
    inviterId: integer("inviter_id"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("account_users_account_user_unique").on(t.accountId, t.userId),
    index("account_users_user").on(t.userId),
  ],
);

/**
 * API keys of users, agent bots and platform apps. A key is found by the SHA-256 digest of what the
 * client sends, so lookups never compare secrets. `token` keeps the plain key of users and bots,
 * whose profile and admin views show it (as Chatwoot does); platform keys are stored as digests only.
 */
export const accessTokens = sqliteTable(
  "access_tokens",
  {
    id: id(),
    /** "User" | "AgentBot" | "PlatformApp" */
    ownerType: text("owner_type").notNull(),
    ownerId: integer("owner_id").notNull(),
    token: text("token"),
    tokenDigest: text("token_digest").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("access_tokens_digest_unique").on(t.tokenDigest),
    index("access_tokens_owner").on(t.ownerType, t.ownerId),
  ],
);

/**
 * Sign-ins with e-mail and password (POST /auth/sign_in), as Chatwoot's apps make them: one row per
 * client (device), found by the client id and the SHA-256 digest of its access token (never the token).
 */
export const authSessions = sqliteTable(
  "auth_sessions",
  {
    id: id(),
    userId: integer("user_id").notNull(),
    /** the random `client` header of this sign-in */
    clientId: text("client_id").notNull(),
    tokenDigest: text("token_digest").notNull(),
    expiresAt: integer("expires_at").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("auth_sessions_client_unique").on(t.clientId), index("auth_sessions_user").on(t.userId)],
);

/** Single-use login links issued through the Platform API. */
export const ssoTokens = sqliteTable(
  "sso_tokens",
  {
    id: id(),
    userId: integer("user_id").notNull(),
    tokenDigest: text("token_digest").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("sso_tokens_digest_unique").on(t.tokenDigest), index("sso_tokens_user").on(t.userId)],
);

export const platformApps = sqliteTable("platform_apps", {
  id: id(),
  name: text("name").notNull(),
  ...timestamps,
});

/** What each platform app created, and so may read, change and delete. */
export const platformAppPermissibles = sqliteTable(
  "platform_app_permissibles",
  {
    id: id(),
    platformAppId: integer("platform_app_id").notNull(),
    /** "Account" | "User" | "AgentBot" */
    permissibleType: text("permissible_type").notNull(),
    permissibleId: integer("permissible_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("platform_app_permissibles_unique").on(t.platformAppId, t.permissibleType, t.permissibleId),
    index("platform_app_permissibles_target").on(t.permissibleType, t.permissibleId),
  ],
);

export const agentBots = sqliteTable(
  "agent_bots",
  {
    id: id(),
    /** null for a system bot, usable by every account */
    accountId: integer("account_id"),
    name: text("name").notNull(),
    description: text("description"),
    outgoingUrl: text("outgoing_url"),
    /** 0 webhook */
    botType: integer("bot_type").notNull().default(0),
    botConfig: json<JsonObject>("bot_config").notNull().default({}),
    avatarUrl: text("avatar_url"),
    /** signs the bot's webhook deliveries */
    secret: text("secret").notNull(),
    ...timestamps,
  },
  (t) => [index("agent_bots_account").on(t.accountId)],
);

// ---------------------------------------------------------------- inboxes and teams

export const inboxes = sqliteTable(
  "inboxes",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    name: text("name").notNull(),
    /** "Channel::Api" | "Channel::WebWidget" */
    channelType: text("channel_type").notNull(),
    channelId: integer("channel_id").notNull(),
    /**
     * Public identifier of the inbox: the `inbox_identifier` of an API inbox and the `website_token`
     * of a website inbox. The public API addresses inboxes by it.
     */
    identifier: text("identifier").notNull(),
    /** key of the HMAC that proves a contact's identifier (identity validation) */
    hmacToken: text("hmac_token").notNull(),
    hmacMandatory: bool("hmac_mandatory").notNull().default(false),
    avatarUrl: text("avatar_url"),
    greetingEnabled: bool("greeting_enabled").notNull().default(false),
    greetingMessage: text("greeting_message"),
    enableEmailCollect: bool("enable_email_collect").notNull().default(true),
    csatSurveyEnabled: bool("csat_survey_enabled").notNull().default(false),
    csatConfig: json<JsonObject>("csat_config").notNull().default({}),
    enableAutoAssignment: bool("enable_auto_assignment").notNull().default(true),
    autoAssignmentConfig: json<JsonObject>("auto_assignment_config").notNull().default({}),
    workingHoursEnabled: bool("working_hours_enabled").notNull().default(false),
    workingHours: json<JsonObject[]>("working_hours").notNull().default([]),
    outOfOfficeMessage: text("out_of_office_message"),
    timezone: text("timezone").notNull().default("UTC"),
    allowMessagesAfterResolved: bool("allow_messages_after_resolved").notNull().default(true),
    lockToSingleConversation: bool("lock_to_single_conversation").notNull().default(false),
    /** 0 friendly, 1 professional */
    senderNameType: integer("sender_name_type").notNull().default(0),
    businessName: text("business_name"),
    portalId: integer("portal_id"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("inboxes_identifier_unique").on(t.identifier),
    index("inboxes_account_name").on(t.accountId, t.name),
    // the cron's minute looks for inboxes that auto-assign under business hours and just opened: only those
    index("inboxes_auto_assign_business_hours").on(t.accountId, t.id).where(sql`working_hours_enabled = 1 AND enable_auto_assignment = 1`),
  ],
);

export const apiChannels = sqliteTable("api_channels", {
  id: id(),
  accountId: integer("account_id").notNull(),
  webhookUrl: text("webhook_url"),
  /** signs callbacks to webhook_url */
  secret: text("secret").notNull(),
  additionalAttributes: json<JsonObject>("additional_attributes").notNull().default({}),
  ...timestamps,
});

export const webWidgetChannels = sqliteTable("web_widget_channels", {
  id: id(),
  accountId: integer("account_id").notNull(),
  websiteUrl: text("website_url").notNull(),
  widgetColor: text("widget_color").notNull().default("#1f93ff"),
  welcomeTitle: text("welcome_title"),
  welcomeTagline: text("welcome_tagline"),
  replyTime: integer("reply_time").notNull().default(0),
  featureFlags: integer("feature_flags").notNull().default(7),
  preChatFormEnabled: bool("pre_chat_form_enabled").notNull().default(false),
  preChatFormOptions: json<JsonObject>("pre_chat_form_options").notNull().default({}),
  continuityViaEmail: bool("continuity_via_email").notNull().default(true),
  allowedDomains: text("allowed_domains").notNull().default(""),
  ...timestamps,
});

/**
 * An e-mail inbox's channel (Chatwoot's `Channel::Email`). `email` and `forward_to_email` are also
 * claimed in the directory's public routes (kind "inbox_email"), which keeps them unique across every
 * account and lets the Worker's `email()` handler find the account of a recipient before it accepts
 * the mail. The IMAP and SMTP settings are stored and shown to administrators as Chatwoot shows them;
 * edgedesk neither polls IMAP nor sends through them (README "E-mail inboxes").
 */
export const emailChannels = sqliteTable(
  "email_channels",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    /** stored lower-cased */
    email: text("email").notNull(),
    /** `<32 hex>@<INBOUND_EMAIL_DOMAIN>`, lower-cased */
    forwardToEmail: text("forward_to_email").notNull(),
    imapEnabled: bool("imap_enabled").notNull().default(false),
    imapAddress: text("imap_address").notNull().default(""),
    imapPort: integer("imap_port").notNull().default(0),
    imapLogin: text("imap_login").notNull().default(""),
    imapPassword: text("imap_password").notNull().default(""),
    imapEnableSsl: bool("imap_enable_ssl").notNull().default(true),
    smtpEnabled: bool("smtp_enabled").notNull().default(false),
    smtpAddress: text("smtp_address").notNull().default(""),
    smtpPort: integer("smtp_port").notNull().default(0),
    smtpLogin: text("smtp_login").notNull().default(""),
    smtpPassword: text("smtp_password").notNull().default(""),
    smtpDomain: text("smtp_domain").notNull().default(""),
    smtpEnableSslTls: bool("smtp_enable_ssl_tls").notNull().default(false),
    smtpEnableStarttlsAuto: bool("smtp_enable_starttls_auto").notNull().default(true),
    smtpAuthentication: text("smtp_authentication").notNull().default("login"),
    smtpOpensslVerifyMode: text("smtp_openssl_verify_mode").notNull().default("none"),
    provider: text("provider"),
    verifiedForSending: bool("verified_for_sending").notNull().default(false),
    ...timestamps,
  },
  (t) => [uniqueIndex("email_channels_email_unique").on(t.email), uniqueIndex("email_channels_forward_to_email_unique").on(t.forwardToEmail)],
);

/**
 * Every mail the Worker's `email()` handler accepted for the account, by the R2 key of its raw message
 * (kept there: nothing is lost when a mail cannot be parsed), and what became of it: `stored` (the
 * message it became), `duplicate`, `loop` (from edgedesk's own sender), `bounce`, `no_inbox`, or
 * `failed` with the reason. The queue consumer writes it, so a retried queue message sees the mail done.
 */
export const inboundEmails = sqliteTable(
  "inbound_emails",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    storageKey: text("storage_key").notNull(),
    envelopeFrom: text("envelope_from").notNull(),
    envelopeTo: text("envelope_to").notNull(),
    outcome: text("outcome").notNull(),
    reason: text("reason"),
    messageId: integer("message_id"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("inbound_emails_storage_key_unique").on(t.storageKey), index("inbound_emails_account").on(t.accountId, t.id)],
);

export const inboxMembers = sqliteTable(
  "inbox_members",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    inboxId: integer("inbox_id").notNull(),
    userId: integer("user_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("inbox_members_inbox_user_unique").on(t.inboxId, t.userId),
    index("inbox_members_user").on(t.userId, t.inboxId),
  ],
);

export const agentBotInboxes = sqliteTable(
  "agent_bot_inboxes",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    inboxId: integer("inbox_id").notNull(),
    agentBotId: integer("agent_bot_id").notNull(),
    /** 0 active, 1 inactive */
    status: integer("status").notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("agent_bot_inboxes_inbox_unique").on(t.inboxId),
    index("agent_bot_inboxes_bot").on(t.agentBotId),
  ],
);

/**
 * How auto-assignment hands out an inbox's new and reopened conversations (Chatwoot's assignment
 * policies): the order among online member agents, which waiting conversations go first when an agent
 * comes online, and the fair-distribution cap of assignments per agent per window.
 */
export const assignmentPolicies = sqliteTable(
  "assignment_policies",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    /** 0 round_robin, 1 balanced */
    assignmentOrder: integer("assignment_order").notNull().default(0),
    /** 0 earliest_created, 1 longest_waiting */
    conversationPriority: integer("conversation_priority").notNull().default(0),
    fairDistributionLimit: integer("fair_distribution_limit").notNull().default(100),
    /** seconds */
    fairDistributionWindow: integer("fair_distribution_window").notNull().default(3600),
    enabled: bool("enabled").notNull().default(true),
    ...timestamps,
  },
  (t) => [uniqueIndex("assignment_policies_account_name_unique").on(t.accountId, t.name)],
);

/** The one policy an inbox follows (none: round robin with no cap, as Chatwoot's default). */
export const inboxAssignmentPolicies = sqliteTable(
  "inbox_assignment_policies",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    inboxId: integer("inbox_id").notNull(),
    assignmentPolicyId: integer("assignment_policy_id").notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("inbox_assignment_policies_inbox_unique").on(t.inboxId), index("inbox_assignment_policies_policy").on(t.assignmentPolicyId)],
);

export const teams = sqliteTable(
  "teams",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    /** stored lower-cased */
    name: text("name").notNull(),
    description: text("description"),
    allowAutoAssign: bool("allow_auto_assign").notNull().default(true),
    ...timestamps,
  },
  (t) => [uniqueIndex("teams_account_name_unique").on(t.accountId, t.name)],
);

export const teamMembers = sqliteTable(
  "team_members",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    teamId: integer("team_id").notNull(),
    userId: integer("user_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("team_members_team_user_unique").on(t.teamId, t.userId),
    index("team_members_user").on(t.userId, t.teamId),
  ],
);

// ---------------------------------------------------------------- contacts and conversations

export const contacts = sqliteTable(
  "contacts",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    name: text("name").notNull().default(""),
    /** stored lower-cased */
    email: text("email"),
    phoneNumber: text("phone_number"),
    identifier: text("identifier"),
    blocked: bool("blocked").notNull().default(false),
    avatarUrl: text("avatar_url"),
    additionalAttributes: json<JsonObject>("additional_attributes").notNull().default({}),
    customAttributes: json<JsonObject>("custom_attributes").notNull().default({}),
    lastActivityAt: integer("last_activity_at"),
    /** 1 when the contact has an email, a phone number or an identifier: only these are listed */
    resolved: bool("resolved").notNull().default(false),
    /**
     * Sort keys derived by src/domain/contact-fields.ts on every write, so that each list order is an
     * index range scan: null when the contact has no value (listed last), lower-cased otherwise.
     * `name_sort` is prefixed "0", or "1" for names starting with "+" or a digit (Chatwoot lists those
     * after the others); the other three come from additional_attributes company_name, city, country.
     */
    nameSort: text("name_sort"),
    companySort: text("company_sort"),
    citySort: text("city_sort"),
    countrySort: text("country_sort"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("contacts_account_email_unique").on(t.accountId, t.email).where(sql`email IS NOT NULL`),
    uniqueIndex("contacts_account_phone_unique").on(t.accountId, t.phoneNumber).where(sql`phone_number IS NOT NULL`),
    uniqueIndex("contacts_account_identifier_unique").on(t.accountId, t.identifier).where(sql`identifier IS NOT NULL`),
    index("contacts_account_resolved_id").on(t.accountId, t.resolved, t.id),
    // Every contact of an account in id order (listed or not): the scan a one- or two-character search
    // needs, resumed from a cursor by an id range.
    index("contacts_account_id").on(t.accountId, t.id),
    // One index per sort key of the contact list, over listed (resolved) contacts only: the page query
    // `WHERE account_id = ? AND resolved = 1 ORDER BY key, id LIMIT 15 OFFSET n` walks n + 15 entries.
    ...listIndexes(t),
  ],
);

function listIndexes(t: {
  accountId: SQLiteColumn;
  nameSort: SQLiteColumn;
  email: SQLiteColumn;
  phoneNumber: SQLiteColumn;
  lastActivityAt: SQLiteColumn;
  createdAt: SQLiteColumn;
  companySort: SQLiteColumn;
  citySort: SQLiteColumn;
  countrySort: SQLiteColumn;
  id: SQLiteColumn;
}) {
  const listed = sql`resolved = 1`;
  return [
    index("contacts_list_name").on(t.accountId, t.nameSort, t.id).where(listed),
    index("contacts_list_email").on(t.accountId, t.email, t.id).where(listed),
    index("contacts_list_phone_number").on(t.accountId, t.phoneNumber, t.id).where(listed),
    index("contacts_list_last_activity_at").on(t.accountId, t.lastActivityAt, t.id).where(listed),
    index("contacts_list_created_at").on(t.accountId, t.createdAt, t.id).where(listed),
    index("contacts_list_company").on(t.accountId, t.companySort, t.id).where(listed),
    index("contacts_list_city").on(t.accountId, t.citySort, t.id).where(listed),
    index("contacts_list_country").on(t.accountId, t.countrySort, t.id).where(listed),
  ];
}

export const contactInboxes = sqliteTable(
  "contact_inboxes",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    contactId: integer("contact_id").notNull(),
    inboxId: integer("inbox_id").notNull(),
    /** the contact's id in the channel; the public API's contact identifier */
    sourceId: text("source_id").notNull(),
    hmacVerified: bool("hmac_verified").notNull().default(false),
    pubsubToken: text("pubsub_token").notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("contact_inboxes_inbox_source_unique").on(t.inboxId, t.sourceId),
    uniqueIndex("contact_inboxes_pubsub_token_unique").on(t.pubsubToken),
    index("contact_inboxes_contact").on(t.contactId),
  ],
);

/** The conversation filter's keys kept in `additional_attributes`, each with an index on its JSON path. */
export const ADDITIONAL_FILTER_KEYS = ["browser_language", "conversation_language", "referer", "mail_subject"] as const;

export const conversations = sqliteTable(
  "conversations",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    /** per-account number; the `id` clients see and address */
    displayId: integer("display_id").notNull(),
    uuid: text("uuid").notNull(),
    inboxId: integer("inbox_id").notNull(),
    contactId: integer("contact_id").notNull(),
    contactInboxId: integer("contact_inbox_id").notNull(),
    assigneeId: integer("assignee_id"),
    assigneeAgentBotId: integer("assignee_agent_bot_id"),
    teamId: integer("team_id"),
    campaignId: integer("campaign_id"),
    /** 0 open, 1 resolved, 2 pending, 3 snoozed */
    status: integer("status").notNull().default(0),
    /** null, 0 low, 1 medium, 2 high, 3 urgent */
    priority: integer("priority"),
    snoozedUntil: integer("snoozed_until"),
    waitingSince: integer("waiting_since"),
    firstReplyCreatedAt: integer("first_reply_created_at"),
    agentLastSeenAt: integer("agent_last_seen_at"),
    assigneeLastSeenAt: integer("assignee_last_seen_at"),
    contactLastSeenAt: integer("contact_last_seen_at"),
    lastActivityAt: integer("last_activity_at").notNull(),
    additionalAttributes: json<JsonObject>("additional_attributes").notNull().default({}),
    customAttributes: json<JsonObject>("custom_attributes").notNull().default({}),
    slaPolicyId: integer("sla_policy_id"),
    ...timestamps,
    /**
     * Sort keys of Chatwoot's waiting-time orders (src/domain/conversations/order.ts), computed by SQLite
     * and never written: each turns the nullable waiting_since into one that orders as Chatwoot's order
     * does, nobody waiting last in either direction, so the order is one direction over (key, created_at,
     * id), which an index walks and a cursor continues with a row-value range (SQLite uses row values as
     * an index range on columns only, not on expressions, hence columns).
     * Read ascending: the longest wait first, then the conversations nobody waits on (the largest safe integer).
     */
    sortWaitingAsc: integer("sort_waiting_asc").generatedAlwaysAs(sql`coalesce(waiting_since, 9007199254740991)`, { mode: "virtual" }),
    /** Read ascending: the shortest wait first, then the conversations nobody waits on. */
    sortWaitingDesc: integer("sort_waiting_desc").generatedAlwaysAs(sql`coalesce(-waiting_since, 9007199254740991)`, { mode: "virtual" }),
  },
  (t) => [
    uniqueIndex("conversations_account_display_unique").on(t.accountId, t.displayId),
    uniqueIndex("conversations_uuid_unique").on(t.uuid),
    index("conversations_account_status_activity").on(t.accountId, t.status, t.lastActivityAt),
    // the list with status=all and the filter endpoint sort the whole account by activity
    index("conversations_account_activity").on(t.accountId, t.lastActivityAt),
    index("conversations_inbox_status_activity").on(t.inboxId, t.status, t.lastActivityAt),
    // the list's `sort_by` on creation time walks these as the two above serve the activity order
    index("conversations_account_status_created").on(t.accountId, t.status, t.createdAt),
    index("conversations_inbox_status_created").on(t.inboxId, t.status, t.createdAt),
    // the list's priority orders: one walk per priority value by activity (order.ts), per status (account
    // or inbox) and for status=all; the filter's priority equality reads the account's too
    index("conversations_account_status_priority_activity").on(t.accountId, t.status, t.priority, t.lastActivityAt),
    index("conversations_account_priority_activity").on(t.accountId, t.priority, t.lastActivityAt),
    index("conversations_inbox_status_priority_activity").on(t.inboxId, t.status, t.priority, t.lastActivityAt),
    // the waiting-time orders: each sort key with creation time, likewise
    ...(
      [
        ["waiting_asc", t.sortWaitingAsc],
        ["waiting_desc", t.sortWaitingDesc],
      ] as const
    ).flatMap(([name, key]) => [
      index(`conversations_account_status_${name}`).on(t.accountId, t.status, key, t.createdAt),
      index(`conversations_account_${name}`).on(t.accountId, key, t.createdAt),
      index(`conversations_inbox_status_${name}`).on(t.inboxId, t.status, key, t.createdAt),
    ]),
    // a contact's conversations (its list, its delete, the widget's): the account first, as every read
    // names it, so SQLite takes this over the account-wide indexes
    index("conversations_account_contact_activity").on(t.accountId, t.contactId, t.lastActivityAt),
    index("conversations_contact_inbox").on(t.contactInboxId),
    // the scheduled wake-up finds snoozed conversations whose time has come, across accounts
    index("conversations_snoozed_until").on(t.snoozedUntil).where(sql`status = 3`),
    // `/conversations/filter`: each allow-listed key's equality (or range) finds its matches by index,
    // so a filter reads in proportion to what it finds (src/domain/conversations/filter.ts)
    index("conversations_account_assignee").on(t.accountId, t.assigneeId),
    index("conversations_account_team").on(t.accountId, t.teamId),
    index("conversations_account_campaign").on(t.accountId, t.campaignId),
    index("conversations_account_created").on(t.accountId, t.createdAt),
    // the same JSON paths, spelled the same, as the filter's conditions on these additional attributes
    ...ADDITIONAL_FILTER_KEYS.map((key) =>
      index(`conversations_account_${key}`).on(t.accountId, sql`${t.additionalAttributes} ->> ${sql.raw(`'$.${key}'`)}`),
    ),
  ],
);

export const messages = sqliteTable(
  "messages",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    inboxId: integer("inbox_id").notNull(),
    conversationId: integer("conversation_id").notNull(),
    /** 0 incoming, 1 outgoing, 2 activity, 3 template */
    messageType: integer("message_type").notNull(),
    /** see CONTENT_TYPES in src/domain/enums.ts */
    contentType: integer("content_type").notNull().default(0),
    content: text("content"),
    private: bool("private").notNull().default(false),
    /** 0 sent, 1 delivered, 2 read, 3 failed */
    status: integer("status").notNull().default(0),
    sourceId: text("source_id"),
    /** "User" | "Contact" | "AgentBot" | null */
    senderType: text("sender_type"),
    senderId: integer("sender_id"),
    contentAttributes: json<JsonObject>("content_attributes").notNull().default({}),
    additionalAttributes: json<JsonObject>("additional_attributes").notNull().default({}),
    externalSourceIds: json<JsonObject>("external_source_ids").notNull().default({}),
    sentiment: json<JsonObject>("sentiment").notNull().default({}),
    processedMessageContent: text("processed_message_content"),
    campaignId: integer("campaign_id"),
    echoId: text("echo_id"),
    /**
     * The message's files as its views show them (a copy of its `attachments` rows, written in the same
     * batch), so that every place that renders a message has them without a read of its own.
     */
    attachments: json<StoredAttachment[]>("attachments").notNull().default([]),
    ...timestamps,
  },
  (t) => [
    index("messages_conversation_id").on(t.conversationId, t.id),
    // unread_count: the incoming messages after a time, read at most 10 index entries per conversation
    index("messages_conversation_type_created").on(t.conversationId, t.messageType, t.createdAt),
    index("messages_account_created").on(t.accountId, t.createdAt),
    // one stored mail per Message-ID and inbox, however often it arrives (content_type 8 is incoming_email);
    // other channels' source ids are their clients' and may repeat
    uniqueIndex("messages_inbox_email_source_unique").on(t.inboxId, t.sourceId).where(sql`content_type = 8`),
  ],
);

/** What a message keeps of each of its files (see `attachments`). */
export type StoredAttachment = {
  id: number;
  /** "image" | "audio" | "video" | "file" */
  file_type: string;
  extension: string;
  content_type: string;
  file_name: string;
  file_size: number;
  width: number | null;
  height: number | null;
};

/**
 * Files of messages, kept in R2 under `storage_key`. A row exists for each object: the files of a
 * conversation are listed from here, a signed URL is served from here (so a deleted file stops being
 * served even before its URL expires), and deleting a message or a conversation finds its objects here.
 */
export const attachments = sqliteTable(
  "attachments",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    conversationId: integer("conversation_id").notNull(),
    messageId: integer("message_id").notNull(),
    /** "image" | "audio" | "video" | "file" */
    fileType: text("file_type").notNull(),
    extension: text("extension").notNull(),
    /** the type found in the file's first bytes, never the one the client declared */
    contentType: text("content_type").notNull(),
    fileName: text("file_name").notNull(),
    fileSize: integer("file_size").notNull(),
    width: integer("width"),
    height: integer("height"),
    storageKey: text("storage_key").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("attachments_conversation").on(t.conversationId, t.id), index("attachments_message").on(t.messageId)],
);

/**
 * Files attached to automation rules for their `send_attachment` actions (Chatwoot's rule `files`),
 * kept in R2 like message files. A rule that sends one copies it to the new message's own object, so
 * deleting the message never removes the rule's file.
 */
/**
 * A contact import (Chatwoot's data_imports): the uploaded CSV lies in R2 under `storage_key` and is
 * read in chunks by the queue consumer, each chunk resuming at `next_offset` (a byte offset at a record
 * boundary) with the record numbered `next_row`. A chunk's writes are guarded by the offset it started
 * from, so a queue message delivered twice writes its rows once.
 */
export const contactImports = sqliteTable(
  "contact_imports",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    userId: integer("user_id"),
    /** TRANSFER_STATUSES: pending, processing, completed, failed */
    status: integer("status").notNull().default(0),
    fileName: text("file_name").notNull(),
    fileSize: integer("file_size").notNull(),
    storageKey: text("storage_key").notNull(),
    /** the header row's column names, normalised; null until the first chunk has read it */
    columns: json<string[]>("columns"),
    nextOffset: integer("next_offset").notNull().default(0),
    /** the record number (the header is row 1) of the record at next_offset */
    nextRow: integer("next_row").notNull().default(1),
    totalRecords: integer("total_records").notNull().default(0),
    /** rows imported (created or updated): Chatwoot's processed_records */
    processedRecords: integer("processed_records").notNull().default(0),
    refusedRecords: integer("refused_records").notNull().default(0),
    /** why the whole import stopped (status failed) */
    failure: text("failure"),
    completedAt: integer("completed_at"),
    ...timestamps,
  },
  (t) => [index("contact_imports_account").on(t.accountId, t.id), index("contact_imports_status").on(t.status, t.updatedAt)],
);

/** One refused row of an import: its record number and the reasons, as the error body's entries. */
export const contactImportRefusals = sqliteTable(
  "contact_import_refusals",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    importId: integer("import_id").notNull(),
    rowNumber: integer("row_number").notNull(),
    errors: json<Array<{ field: string; message: string; code: string }>>("errors").notNull(),
  },
  (t) => [index("contact_import_refusals_import").on(t.importId, t.rowNumber)],
);

/**
 * A contact export: the queue consumer writes the CSV to R2 in segments (`<storage_key>/<n>`, each
 * covering the contacts after `last_contact_id`), and the signed download streams them back to back.
 * A step's writes are guarded by the segment count it started from.
 */
export const contactExports = sqliteTable(
  "contact_exports",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    userId: integer("user_id"),
    status: integer("status").notNull().default(0),
    columnNames: json<string[]>("column_names").notNull(),
    /** what selects the contacts: a contact filter payload (as POST /contacts/filter takes it) and a label; null: every contact */
    filter: json<{ payload: unknown[] | null; label: string | null }>("filter"),
    storageKey: text("storage_key").notNull(),
    segments: integer("segments").notNull().default(0),
    lastContactId: integer("last_contact_id").notNull().default(0),
    exportedRecords: integer("exported_records").notNull().default(0),
    fileSize: integer("file_size").notNull().default(0),
    failure: text("failure"),
    completedAt: integer("completed_at"),
    ...timestamps,
  },
  (t) => [index("contact_exports_account").on(t.accountId, t.id), index("contact_exports_status").on(t.status, t.updatedAt)],
);

export const automationRuleFiles = sqliteTable(
  "automation_rule_files",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    /** null until a rule that sends it is saved */
    automationRuleId: integer("automation_rule_id"),
    fileType: text("file_type").notNull(),
    extension: text("extension").notNull(),
    contentType: text("content_type").notNull(),
    fileName: text("file_name").notNull(),
    fileSize: integer("file_size").notNull(),
    width: integer("width"),
    height: integer("height"),
    storageKey: text("storage_key").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("automation_rule_files_account").on(t.accountId, t.id)],
);

export const labels = sqliteTable(
  "labels",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    /** stored lower-cased */
    title: text("title").notNull(),
    description: text("description"),
    color: text("color").notNull().default("#1f93ff"),
    showOnSidebar: bool("show_on_sidebar").notNull().default(true),
    ...timestamps,
  },
  (t) => [uniqueIndex("labels_account_title_unique").on(t.accountId, t.title)],
);

/** A label title applied to a conversation or a contact (Chatwoot tags by title). */
export const taggings = sqliteTable(
  "taggings",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    /** "Conversation" | "Contact" */
    taggableType: text("taggable_type").notNull(),
    taggableId: integer("taggable_id").notNull(),
    tag: text("tag").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("taggings_taggable_tag_unique").on(t.taggableType, t.taggableId, t.tag),
    // One conversation's or contact's labels, read with the account as every query is, in tag order:
    // three equal columns and the order, so SQLite prefers it to `taggings_account_tag`, whose range is
    // every tagging of that type in the account (a label change read a row per tagging of the account).
    index("taggings_account_target").on(t.accountId, t.taggableType, t.taggableId, t.tag),
    index("taggings_account_tag").on(t.accountId, t.taggableType, t.tag),
    // Filters by label (contacts case-insensitively, conversations' `labels[]`): the tagged ids come from
    // an index range, so a label filter reads its matches, not the account's taggings.
    index("taggings_account_label_target").on(t.accountId, t.taggableType, sql`lower(${t.tag})`, t.taggableId),
  ],
);

// ---------------------------------------------------------------- campaigns

/**
 * Chatwoot's campaigns. The type follows the inbox (a website inbox's are `ongoing`, shown to its widget
 * on the pages their URL rule matches; an API inbox's are edgedesk's `one_off`, sent once at
 * `scheduled_at` to the contacts carrying one of the audience labels). The `run_*` columns are the
 * one-off run's state: the cron looks at a campaign when `run_due_at` has come (src/domain/campaigns/runs.ts).
 */
export const campaigns = sqliteTable(
  "campaigns",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    /** per-account number; the `id` clients see and address */
    displayId: integer("display_id").notNull(),
    title: text("title").notNull(),
    description: text("description"),
    message: text("message").notNull(),
    inboxId: integer("inbox_id").notNull(),
    senderId: integer("sender_id"),
    enabled: bool("enabled").notNull().default(true),
    triggerRules: json<JsonObject>("trigger_rules").notNull().default({}),
    triggerOnlyDuringBusinessHours: bool("trigger_only_during_business_hours").notNull().default(false),
    /** epoch ms; one-off campaigns only */
    scheduledAt: integer("scheduled_at"),
    /** [{type: "Label", id}] */
    audience: json<Array<{ type: string; id: number }>>("audience").notNull().default([]),
    /** 0 ongoing, 1 one_off */
    campaignType: integer("campaign_type").notNull().default(0),
    /** 0 active, 1 completed */
    campaignStatus: integer("campaign_status").notNull().default(0),
    /** contacts carrying an audience label when the run started; null before */
    audienceCount: integer("audience_count"),
    /** conversations the campaign has opened (one per contact) */
    sentCount: integer("sent_count").notNull().default(0),
    /** when the cron should look at the one-off run next (null: nothing to do) */
    runDueAt: integer("run_due_at"),
    runStartedAt: integer("run_started_at"),
    /** the highest contact id the run has gone past */
    runCursor: integer("run_cursor").notNull().default(0),
    completedAt: integer("completed_at"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("campaigns_account_display_unique").on(t.accountId, t.displayId),
    index("campaigns_inbox").on(t.inboxId),
    // the minute sweep: the one-off runs whose time has come, across accounts
    index("campaigns_run_due").on(t.runDueAt).where(sql`run_due_at IS NOT NULL`),
  ],
);

/**
 * Who a campaign reached: one row per campaign and contact, written in the batch that opens the
 * contact's conversation, so a contact gets a campaign at most once however often its run is repeated.
 */
export const campaignRecipients = sqliteTable(
  "campaign_recipients",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    campaignId: integer("campaign_id").notNull(),
    contactId: integer("contact_id").notNull(),
    conversationId: integer("conversation_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("campaign_recipients_campaign_contact_unique").on(t.campaignId, t.contactId)],
);

// ---------------------------------------------------------------- notifications and participants

/**
 * Agents taking part in a conversation besides its assignee (Chatwoot's conversation_participants): added
 * by hand or by a mention; they hear of each new message.
 */
export const conversationParticipants = sqliteTable(
  "conversation_participants",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    conversationId: integer("conversation_id").notNull(),
    userId: integer("user_id").notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("conversation_participants_conversation_user_unique").on(t.conversationId, t.userId),
    index("conversation_participants_user").on(t.accountId, t.userId),
  ],
);

/**
 * A notification for one user in one account. `notification_type` is Chatwoot's integer (1 creation, 2
 * assignment, 3 new message in an assigned conversation, 4 mention, 5 new message in a participating one).
 * The primary actor is always the conversation; the secondary one the message or the acting user.
 * `announce` is 1 only between the insert and the end of its batch: the batch writes one
 * `notification_created` event per row so marked, then clears the marks (ids are not known before).
 */
export const notifications = sqliteTable(
  "notifications",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    userId: integer("user_id").notNull(),
    notificationType: integer("notification_type").notNull(),
    primaryActorType: text("primary_actor_type").notNull(),
    primaryActorId: integer("primary_actor_id").notNull(),
    secondaryActorType: text("secondary_actor_type"),
    secondaryActorId: integer("secondary_actor_id"),
    readAt: integer("read_at"),
    snoozedUntil: integer("snoozed_until"),
    lastActivityAt: integer("last_activity_at").notNull(),
    meta: json<JsonObject>("meta").notNull().default({}),
    announce: integer("announce").notNull().default(0),
    ...timestamps,
  },
  (t) => [
    // the list (newest or oldest first) and the total count of one user in one account
    index("notifications_user_activity").on(t.accountId, t.userId, t.lastActivityAt),
    // unread counts: the unread rows of a user only
    index("notifications_user_unread").on(t.accountId, t.userId).where(sql`read_at IS NULL`),
    // read_all for one conversation, and the replacement of a user's earlier notification of a conversation
    index("notifications_primary_actor").on(t.primaryActorId, t.userId),
    index("notifications_announce").on(t.announce).where(sql`announce = 1`),
  ],
);

/** Which notifications a user of an account wants (Chatwoot's email and push flag bits); no row: the defaults. */
export const notificationSettings = sqliteTable(
  "notification_settings",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    userId: integer("user_id").notNull(),
    emailFlags: integer("email_flags").notNull(),
    pushFlags: integer("push_flags").notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("notification_settings_account_user_unique").on(t.accountId, t.userId)],
);

/**
 * A device registered for push (Chatwoot's notification_subscriptions). One row per push token: a device
 * belongs to the user who registered it last (Chatwoot moves it when another user signs in on it).
 */
export const notificationSubscriptions = sqliteTable(
  "notification_subscriptions",
  {
    id: id(),
    userId: integer("user_id").notNull(),
    subscriptionType: text("subscription_type").notNull(),
    pushToken: text("push_token").notNull(),
    subscriptionAttributes: json<JsonObject>("subscription_attributes").notNull().default({}),
    ...timestamps,
  },
  (t) => [uniqueIndex("notification_subscriptions_push_token_unique").on(t.pushToken), index("notification_subscriptions_user").on(t.userId)],
);

// ---------------------------------------------------------------- configuration

export const webhooks = sqliteTable(
  "webhooks",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    inboxId: integer("inbox_id"),
    name: text("name"),
    url: text("url").notNull(),
    subscriptions: json<string[]>("subscriptions").notNull(),
    /** 0 account, 1 inbox */
    webhookType: integer("webhook_type").notNull().default(0),
    /** signs deliveries */
    secret: text("secret").notNull(),
    /** set when the service stopped delivering to it (410 Gone, or 3 days of failures); null while enabled */
    disabledAt: integer("disabled_at"),
    disabledReason: text("disabled_reason"),
    /** the first failed attempt since the last success; null while deliveries succeed */
    failingSince: integer("failing_since"),
    ...timestamps,
  },
  (t) => [uniqueIndex("webhooks_account_url_unique").on(t.accountId, t.url)],
);

/**
 * One logical delivery of one payload to one target, however many attempts it takes. Targets: an
 * account webhook, an API inbox's `webhook_url`, an agent bot's `outgoing_url`, or a plain URL (an
 * automation rule's action).
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    /** "webhook" | "api_inbox" | "agent_bot" | "url" */
    targetType: text("target_type").notNull().default("webhook"),
    /** the webhook, inbox or agent bot id (0 for a plain URL); the column predates other targets */
    targetId: integer("webhook_id").notNull(),
    /** the outbox event it carries (0 when it carries none) */
    eventId: integer("event_id").notNull(),
    eventName: text("event_name").notNull(),
    /** what the event was about, e.g. "Message" 12: a message whose callback fails is marked failed */
    subjectType: text("subject_type"),
    subjectId: integer("subject_id"),
    /** sent as the delivery headers (X-Chatwoot-Delivery, webhook-id); the same on every attempt */
    deliveryUuid: text("delivery_uuid").notNull(),
    /** one delivery per key, however often it is asked for (a queue message can arrive twice) */
    dedupeKey: text("dedupe_key"),
    /** "pending" | "delivered" | "failed" | "cancelled" */
    status: text("status").notNull().default("pending"),
    /** the exact JSON sent (and signed) on every attempt; kept for redelivery */
    body: text("body").notNull().default(""),
    /** a plain URL target's address and signing secret (other targets are read at each attempt) */
    url: text("url"),
    secret: text("secret"),
    attempts: integer("attempts").notNull().default(0),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    lastAttemptAt: integer("last_attempt_at"),
    /** when the next attempt is due; null when none is */
    nextAttemptAt: integer("next_attempt_at"),
    /** no automatic attempt after this time: the end of the retry window */
    retryUntil: integer("retry_until").notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("webhook_deliveries_uuid_unique").on(t.deliveryUuid),
    uniqueIndex("webhook_deliveries_dedupe_unique").on(t.dedupeKey),
    // the log of one target, newest first
    index("webhook_deliveries_target").on(t.targetType, t.targetId, t.id),
    // the minute sweep: pending deliveries whose attempt is overdue
    index("webhook_deliveries_due").on(t.status, t.nextAttemptAt),
    // pruning after 30 days
    index("webhook_deliveries_updated").on(t.updatedAt),
  ],
);

/** Every attempt at a delivery: what was answered, how fast, and why it failed. */
export const webhookDeliveryAttempts = sqliteTable(
  "webhook_delivery_attempts",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    deliveryId: integer("delivery_id").notNull(),
    attemptedAt: integer("attempted_at").notNull(),
    /** "delivered" | "retry" | "failed" */
    outcome: text("outcome").notNull(),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms"),
    /** the first KiB of the answer */
    responseBody: text("response_body"),
    error: text("error"),
    /** "automatic" | "redelivery" */
    trigger: text("trigger").notNull().default("automatic"),
  },
  (t) => [index("webhook_delivery_attempts_delivery").on(t.deliveryId, t.id)],
);

export const automationRules = sqliteTable(
  "automation_rules",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    eventName: text("event_name").notNull(),
    conditions: json<JsonObject[]>("conditions").notNull().default([]),
    actions: json<JsonObject[]>("actions").notNull().default([]),
    active: bool("active").notNull().default(true),
    /** signs the rule's send_webhook_event deliveries; shown to administrators with the rule */
    webhookSecret: text("webhook_secret").notNull().default(""),
    ...timestamps,
  },
  (t) => [index("automation_rules_account_event").on(t.accountId, t.eventName)],
);

/**
 * Which rule ran for which event, and how far: a queue message may arrive twice, and a rule must not act
 * twice on one event. Each action's own write batch carries this row (see src/domain/automation/engine.ts),
 * so a redelivered event resumes after the last action that was written, never before it.
 */
export const automationRuleRuns = sqliteTable(
  "automation_rule_runs",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    ruleId: integer("rule_id").notNull(),
    eventId: integer("event_id").notNull(),
    /** how many of the rule's actions are done (ran or failed) */
    actionsDone: integer("actions_done").notNull().default(0),
    /** one entry per finished action: `{ action_name, status: "done" | "failed", error? }` */
    outcomes: json<JsonObject[]>("outcomes").notNull().default([]),
    finished: bool("finished").notNull().default(false),
    ...timestamps,
  },
  (t) => [uniqueIndex("automation_rule_runs_event_rule_unique").on(t.eventId, t.ruleId), index("automation_rule_runs_rule").on(t.ruleId, t.id)],
);

/**
 * Every mail the service writes (automation rules' send_email_to_team and send_email_transcript,
 * transcripts, e-mail confirmations, password resets) and the log of its sending: the queue's
 * outgoing-mail job (src/jobs/outgoing-email.ts) sends each pending row through the mail port and
 * records the outcome here.
 */
/**
 * A message of an e-mail conversation as its mail: the headers Chatwoot's reply mailer sets, the Markdown
 * the HTML part is rendered from (`body` is the text part), a CSAT survey's link, and the message's files
 * (read from R2 when the mail is sent; those beyond the size limit become links).
 */
export type OutgoingMailParts = {
  from: { email: string; name: string };
  replyTo: string;
  cc: string[];
  bcc: string[];
  /** In-Reply-To, References, and Auto-Submitted on automatic mail */
  headers: Record<string, string>;
  /** the Message-ID asked for (a provider may give the mail its own) */
  messageId: string;
  markdown: string;
  /** a CSAT survey: the survey page the ratings link to */
  surveyUrl: string | null;
  files: Array<{ id: number; fileName: string; contentType: string; size: number; storageKey: string }>;
};

export const outgoingEmails = sqliteTable(
  "outgoing_emails",
  {
    id: id(),
    /** null for mail that belongs to no account (an e-mail confirmation) */
    accountId: integer("account_id"),
    /** "team_notification" | "transcript" | "email_confirmation" */
    kind: text("kind").notNull(),
    recipients: json<string[]>("recipients").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    conversationId: integer("conversation_id"),
    automationRuleId: integer("automation_rule_id"),
    /** "pending" until sent; "sent", or "failed" once refused or out of attempts (`last_error` says why) */
    status: text("status").notNull().default("pending"),
    /** sending attempts made */
    attempts: integer("attempts").notNull().default(0),
    /** when the sweep hands the row to the queue again (null: at once) */
    nextAttemptAt: integer("next_attempt_at"),
    lastError: text("last_error"),
    /** the Message-ID the mail went out with (the provider's, brackets stripped) */
    providerMessageId: text("provider_message_id"),
    sentAt: integer("sent_at"),
    /** a conversation's message mailed to its contact (an agent's reply, a CSAT survey): the message */
    messageId: integer("message_id"),
    /** what such a mail has beyond a subject and a text (src/domain/email/replies.ts); null for the service's own mail */
    parts: json<OutgoingMailParts>("parts"),
    ...timestamps,
  },
  (t) => [
    index("outgoing_emails_pending").on(t.status, t.id),
    // one mail per message, however often its event is handled; a retry sends that row again
    uniqueIndex("outgoing_emails_message").on(t.accountId, t.messageId).where(sql`message_id IS NOT NULL`),
  ],
);

export const customAttributeDefinitions = sqliteTable(
  "custom_attribute_definitions",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    attributeDisplayName: text("attribute_display_name").notNull(),
    attributeKey: text("attribute_key").notNull(),
    /** 0 text, 1 number, 2 currency, 3 percent, 4 link, 5 date, 6 list, 7 checkbox */
    attributeDisplayType: integer("attribute_display_type").notNull().default(0),
    /** 0 conversation_attribute, 1 contact_attribute */
    attributeModel: integer("attribute_model").notNull().default(0),
    attributeDescription: text("attribute_description"),
    attributeValues: json<string[]>("attribute_values").notNull().default([]),
    defaultValue: text("default_value"),
    regexPattern: text("regex_pattern"),
    regexCue: text("regex_cue"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("custom_attribute_definitions_key_unique").on(t.accountId, t.attributeModel, t.attributeKey),
  ],
);

/**
 * Notes agents keep on a contact (Chatwoot's notes). `user_id` is the author; a note outlives its
 * author's membership (the view then shows no user, as Chatwoot does once the user is gone).
 */
export const contactNotes = sqliteTable(
  "contact_notes",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    contactId: integer("contact_id").notNull(),
    userId: integer("user_id"),
    content: text("content").notNull(),
    ...timestamps,
  },
  (t) => [index("contact_notes_account_contact_created").on(t.accountId, t.contactId, t.createdAt)],
);

export const cannedResponses = sqliteTable(
  "canned_responses",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    shortCode: text("short_code").notNull(),
    content: text("content").notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("canned_responses_account_short_code_unique").on(t.accountId, t.shortCode)],
);

export const customFilters = sqliteTable(
  "custom_filters",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    userId: integer("user_id").notNull(),
    name: text("name").notNull(),
    /** 0 conversation, 1 contact, 2 report */
    filterType: integer("filter_type").notNull().default(0),
    query: json<JsonObject>("query").notNull().default({}),
    ...timestamps,
  },
  (t) => [index("custom_filters_account_user_type").on(t.accountId, t.userId, t.filterType)],
);

/**
 * Macros: named lists of automation actions an agent runs on chosen conversations (Chatwoot's). A personal
 * macro is its creator's alone; a global one every member of the account sees and runs.
 */
export const macros = sqliteTable(
  "macros",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    name: text("name").notNull(),
    /** "personal" or "global" */
    visibility: text("visibility").notNull().default("personal"),
    actions: json<JsonObject[]>("actions").notNull().default([]),
    /** users who may since have left the account (or been deleted): shown when still there */
    createdById: integer("created_by_id").notNull(),
    updatedById: integer("updated_by_id").notNull(),
    ...timestamps,
  },
  (t) => [index("macros_account_visibility").on(t.accountId, t.visibility), index("macros_account_creator").on(t.accountId, t.createdById)],
);

export const integrationHooks = sqliteTable(
  "integration_hooks",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    /** catalogue id, e.g. "webhook" */
    appId: text("app_id").notNull(),
    inboxId: integer("inbox_id"),
    /** 0 disabled, 1 enabled */
    status: integer("status").notNull().default(1),
    /** 0 account, 1 inbox */
    hookType: integer("hook_type").notNull().default(0),
    settings: json<JsonObject>("settings").notNull().default({}),
    referenceId: text("reference_id"),
    ...timestamps,
  },
  (t) => [index("integration_hooks_account_app").on(t.accountId, t.appId)],
);

export const dashboardApps = sqliteTable(
  "dashboard_apps",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    userId: integer("user_id"),
    title: text("title").notNull(),
    /** [{type: "frame", url}] */
    content: json<JsonObject[]>("content").notNull().default([]),
    ...timestamps,
  },
  (t) => [index("dashboard_apps_account").on(t.accountId)],
);

// ---------------------------------------------------------------- help center

export const portals = sqliteTable(
  "portals",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    name: text("name").notNull(),
    /** unique across the installation: public help-center routes address portals by slug */
    slug: text("slug").notNull(),
    customDomain: text("custom_domain"),
    color: text("color"),
    headerText: text("header_text"),
    homepageLink: text("homepage_link"),
    pageTitle: text("page_title"),
    archived: bool("archived").notNull().default(false),
    config: json<JsonObject>("config").notNull().default({}),
    inboxId: integer("inbox_id"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("portals_slug_unique").on(t.slug),
    uniqueIndex("portals_custom_domain_unique").on(t.customDomain).where(sql`custom_domain IS NOT NULL`),
    index("portals_account").on(t.accountId),
  ],
);

export const categories = sqliteTable(
  "categories",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    portalId: integer("portal_id").notNull(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    locale: text("locale").notNull().default("en"),
    description: text("description"),
    position: integer("position").notNull().default(0),
    icon: text("icon"),
    parentCategoryId: integer("parent_category_id"),
    associatedCategoryId: integer("associated_category_id"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("categories_portal_locale_slug_unique").on(t.portalId, t.locale, t.slug),
    index("categories_portal_locale_position").on(t.portalId, t.locale, t.position),
  ],
);

export const articles = sqliteTable(
  "articles",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    portalId: integer("portal_id").notNull(),
    categoryId: integer("category_id"),
    folderId: integer("folder_id"),
    authorId: integer("author_id"),
    associatedArticleId: integer("associated_article_id"),
    title: text("title").notNull(),
    slug: text("slug").notNull(),
    description: text("description"),
    content: text("content").notNull(),
    /** 0 draft, 1 published, 2 archived */
    status: integer("status").notNull().default(0),
    position: integer("position"),
    locale: text("locale").notNull().default("en"),
    meta: json<JsonObject>("meta").notNull().default({}),
    views: integer("views").notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("articles_portal_slug_unique").on(t.portalId, t.slug),
    index("articles_portal_status_updated").on(t.portalId, t.status, t.updatedAt),
    index("articles_category_position").on(t.categoryId, t.position),
    // the members of an article group (the same article in other locales), found from its root
    index("articles_associated_article").on(t.associatedArticleId),
  ],
);

// ---------------------------------------------------------------- events and counters

/**
 * Facts the reports aggregate, written in the same batch as the change (Chatwoot's reporting_events):
 * "conversation_created", "first_response" and "conversation_resolved". `value` is the duration in
 * seconds the fact measures (time to first reply, time to resolution), 0 for plain occurrences.
 */
export const reportingEvents = sqliteTable(
  "reporting_events",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    name: text("name").notNull(),
    value: integer("value").notNull().default(0),
    conversationId: integer("conversation_id").notNull(),
    inboxId: integer("inbox_id").notNull(),
    userId: integer("user_id"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("reporting_events_account_name_created").on(t.accountId, t.name, t.createdAt)],
);

/**
 * Report rollups: per account, fact, dimension (account, agent, inbox, label, team, with its id; 0 for the
 * account) and UTC hour, how many facts fell in that hour and the sum of their values in seconds. Written
 * by upsert in the same batch as the change that causes the fact (src/domain/reports/facts.ts), so that a
 * report reads one row per hour of its window, whatever the size of the account. Days, weeks, months,
 * years and time zones in whole hours are sums of hours.
 */
export const reportRollups = sqliteTable(
  "report_rollups",
  {
    accountId: integer("account_id").notNull(),
    /** the fact: conversation_created, first_response, conversation_resolved, reply_time, incoming_message, ... */
    metric: text("metric").notNull(),
    /** "account" | "agent" | "inbox" | "label" | "team" */
    dimension: text("dimension").notNull(),
    dimensionId: integer("dimension_id").notNull(),
    /** the start of the UTC hour, epoch ms */
    bucket: integer("bucket").notNull(),
    count: integer("count").notNull().default(0),
    /** sum of the facts' values in seconds (durations), 0 for plain occurrences */
    total: integer("total").notNull().default(0),
  },
  (t) => [
    // a time series of one dimension: one index range
    primaryKey({ columns: [t.accountId, t.metric, t.dimension, t.dimensionId, t.bucket] }),
    // a summary grouped by every id of a dimension (summary_reports/agent ...): one index range per fact
    index("report_rollups_by_bucket").on(t.accountId, t.metric, t.dimension, t.bucket),
  ],
);

/**
 * CSAT surveys and their answers (Chatwoot's csat_survey_responses): a row is written with the
 * `input_csat` message sent when a conversation is resolved, and completed when the contact answers it.
 * `rating` is null until then; the responses list shows answered rows only.
 */
export const csatSurveyResponses = sqliteTable(
  "csat_survey_responses",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    conversationId: integer("conversation_id").notNull(),
    messageId: integer("message_id").notNull(),
    inboxId: integer("inbox_id").notNull(),
    teamId: integer("team_id"),
    contactId: integer("contact_id").notNull(),
    /** the conversation's assignee when the survey was sent */
    assignedAgentId: integer("assigned_agent_id"),
    rating: integer("rating"),
    feedbackMessage: text("feedback_message"),
    sentAt: integer("sent_at").notNull(),
    /** when the contact answered (first answer; a later change of mind updates updated_at) */
    answeredAt: integer("answered_at"),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("csat_survey_responses_message_unique").on(t.messageId),
    index("csat_survey_responses_account_answered").on(t.accountId, t.answeredAt),
    index("csat_survey_responses_account_sent").on(t.accountId, t.sentAt),
  ],
);

/**
 * Events written in the same batch as the change that caused them; after the response they go to the
 * events queue. A row is the contract: name, subject and what changed. Payloads are built on delivery.
 */
export const eventOutbox = sqliteTable(
  "event_outbox",
  {
    id: id(),
    accountId: integer("account_id").notNull(),
    eventName: text("event_name").notNull(),
    /** "Conversation" | "Message" | "Contact" | "Inbox" | ... */
    subjectType: text("subject_type").notNull(),
    subjectId: integer("subject_id").notNull(),
    /** changed_attributes, performer and anything else the payload builder needs */
    data: json<JsonObject>("data").notNull().default({}),
    /** set for changes an automation rule made; the automation consumer ignores those (no loops) */
    causedByAutomation: bool("caused_by_automation").notNull().default(false),
    createdAt: integer("created_at").notNull(),
    dispatchedAt: integer("dispatched_at"),
    /** when every consumer was done with it; the cron deletes it a while later */
    consumedAt: integer("consumed_at"),
  },
  (t) => [index("event_outbox_pending").on(t.dispatchedAt, t.id), index("event_outbox_consumed").on(t.consumedAt)],
);

/**
 * Totals kept in the same batch as the change that moves them, so list endpoints never count rows.
 * Keys are named by the domain module that owns them, e.g. "contacts.resolved".
 */
export const counters = sqliteTable(
  "counters",
  {
    accountId: integer("account_id").notNull(),
    key: text("key").notNull(),
    value: integer("value").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] })],
);

/**
 * The first answer to each `Idempotency-Key`, kept for 24 hours (src/http/idempotency). The row is inserted
 * in the same batch as the change the request made, so a stored key always means a committed change;
 * the answer is filled in right after. Keys are scoped to the caller: account and key holder, platform
 * app, or public inbox and contact.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of method, path and normalised body: the same key with another request is refused */
    requestDigest: text("request_digest").notNull(),
    /** null while the first request has committed its change but not yet recorded its answer */
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    responseType: text("response_type"),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index("idempotency_keys_expiry").on(t.expiresAt)],
);
