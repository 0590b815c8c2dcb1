import { z } from "zod";
import { REPLY_TIMES, SENDER_NAME_TYPES, WIDGET_FEATURES } from "../domain/kernel/enums";
import { Bool, Email, EnumValue, HttpUrl, Id, IdList, Int, JsonObject, ShortText, wrapped } from "./common";
import { AgentBot } from "./agent-bots";

/** An IANA time-zone name (Chatwoot checks against TZInfo's identifiers). */
const TimeZone = z
  .string()
  .trim()
  .max(100)
  .refine(
    (tz) => {
      // The runtime also takes offsets such as "+01:00"; Chatwoot does not.
      if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(tz)) return false;
      try {
        new Intl.DateTimeFormat(undefined, { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    },
    { error: "is not a valid time zone" },
  );

const Between = (min: number, max: number) => Int.pipe(z.number().min(min).max(max));

/** One day of the inbox's week (0 Sunday .. 6 Saturday); checked as a whole once merged with the stored day. */
export const WorkingHour = z.object({
  day_of_week: Between(0, 6),
  closed_all_day: Bool.optional(),
  open_all_day: Bool.optional(),
  open_hour: Between(0, 23).nullish(),
  open_minutes: Between(0, 59).nullish(),
  close_hour: Between(0, 24).nullish(),
  close_minutes: Between(0, 59).nullish(),
});

const Message = z.string().max(10_000).nullish();

const inboxFields = {
  name: ShortText.trim().min(1),
  greeting_enabled: Bool,
  greeting_message: Message,
  enable_email_collect: Bool,
  csat_survey_enabled: Bool,
  csat_config: JsonObject,
  enable_auto_assignment: Bool,
  auto_assignment_config: JsonObject,
  working_hours_enabled: Bool,
  out_of_office_message: Message,
  timezone: TimeZone,
  allow_messages_after_resolved: Bool,
  lock_to_single_conversation: Bool,
  sender_name_type: EnumValue(SENDER_NAME_TYPES),
  business_name: ShortText.nullish(),
  avatar_url: HttpUrl.nullish(),
  working_hours: z.array(WorkingHour).max(7),
};

const apiChannelFields = {
  webhook_url: z.union([HttpUrl, z.literal("")]).nullish(),
  hmac_mandatory: Bool,
  additional_attributes: JsonObject,
};

const widgetChannelFields = {
  website_url: ShortText.trim().min(1),
  widget_color: z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, { error: "must be a hex colour such as #1f93ff" }),
  welcome_title: ShortText.nullish(),
  welcome_tagline: ShortText.nullish(),
  reply_time: EnumValue(REPLY_TIMES),
  pre_chat_form_enabled: Bool,
  pre_chat_form_options: JsonObject,
  continuity_via_email: Bool,
  hmac_mandatory: Bool,
  selected_feature_flags: z.array(z.enum(WIDGET_FEATURES)).max(WIDGET_FEATURES.length),
  allowed_domains: z.string().max(20_000).nullish(),
};

const Port = Between(0, 65_535);

/** Chatwoot's `Channel::Email::EDITABLE_ATTRS` (the IMAP and SMTP settings are stored, not used: docs/email.md). */
const emailChannelFields = {
  email: Email,
  imap_enabled: Bool,
  imap_login: ShortText,
  imap_password: ShortText,
  imap_address: ShortText,
  imap_port: Port,
  imap_enable_ssl: Bool,
  smtp_enabled: Bool,
  smtp_login: ShortText,
  smtp_password: ShortText,
  smtp_address: ShortText,
  smtp_port: Port,
  smtp_domain: ShortText,
  smtp_enable_starttls_auto: Bool,
  smtp_enable_ssl_tls: Bool,
  smtp_openssl_verify_mode: z.enum(["none", "peer", "client_once", "fail_if_no_peer_cert"]),
  smtp_authentication: z.enum(["plain", "login", "cram_md5"]),
  provider: z.enum(["google", "microsoft"]).nullish(),
  verified_for_sending: Bool,
};

/** Only the API, website and e-mail channels exist here; other Chatwoot channel types are refused on `channel.type`. */
const ChannelCreate = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("api"), ...z.object(apiChannelFields).partial().shape }),
    z.object({ type: z.literal("web_widget"), ...z.object(widgetChannelFields).partial().shape, website_url: widgetChannelFields.website_url }),
    z.object({ type: z.literal("email"), ...z.object(emailChannelFields).partial().shape, email: emailChannelFields.email }),
  ],
  { error: "must be api, web_widget or email (other channel types are not supported)" },
);

/** The channel's editable attributes; those of another channel type are ignored, as Chatwoot does. */
const ChannelUpdate = z.object({ ...apiChannelFields, ...widgetChannelFields, ...emailChannelFields }).partial();

/** POST /inboxes (flat or wrapped in `inbox`) */
export const InboxCreate = wrapped(
  "inbox",
  z.object({ ...z.object(inboxFields).partial().shape, name: inboxFields.name, channel: ChannelCreate }),
);

/** PATCH/PUT /inboxes/:id */
export const InboxUpdate = wrapped("inbox", z.object({ ...inboxFields, channel: ChannelUpdate }).partial());

/** POST /inboxes/:id/set_agent_bot: a bot id, or null (or nothing) to disconnect. */
export const SetAgentBot = z.object({ agent_bot: Id.nullish() });

const text = z.string().nullable();

/**
 * An inbox as src/views/inboxes.ts shows it: the fields of both channels, null where the inbox's
 * channel has none; the website channel's pre-chat fields, the API channel's webhook fields and
 * identifier, and the HMAC key (administrators only) are present only where they apply.
 */
export const Inbox = z
  .looseObject({
    id: z.number().int(),
    avatar_url: z.string(),
    channel_id: z.number().int(),
    name: z.string(),
    channel_type: z.enum(["Channel::Api", "Channel::WebWidget", "Channel::Email"]),
    greeting_enabled: z.boolean(),
    greeting_message: text,
    working_hours_enabled: z.boolean(),
    enable_email_collect: z.boolean(),
    csat_survey_enabled: z.boolean(),
    csat_config: z.record(z.string(), z.unknown()),
    enable_auto_assignment: z.boolean(),
    auto_assignment_config: z.record(z.string(), z.unknown()),
    out_of_office_message: text,
    working_hours: z.array(z.record(z.string(), z.unknown())),
    timezone: z.string(),
    callback_webhook_url: z.null(),
    allow_messages_after_resolved: z.boolean(),
    lock_to_single_conversation: z.boolean(),
    sender_name_type: z.enum(SENDER_NAME_TYPES),
    business_name: text,
    allowed_domains: text.describe("the website channel's, comma separated"),
    widget_color: text,
    website_url: text,
    hmac_mandatory: z.boolean(),
    welcome_title: text,
    welcome_tagline: text,
    selected_feature_flags: z.array(z.enum(WIDGET_FEATURES)).nullable(),
    reply_time: z.enum(REPLY_TIMES).nullable(),
    messaging_service_sid: z.null(),
    phone_number: z.null(),
    provider: z.enum(["google", "microsoft"]).nullable(),
    pre_chat_form_enabled: z.boolean().optional().describe("website channel"),
    pre_chat_form_options: z.record(z.string(), z.unknown()).optional().describe("website channel"),
    continuity_via_email: z.boolean().optional().describe("website channel"),
    webhook_url: text.optional().describe("API channel"),
    additional_attributes: z.record(z.string(), z.unknown()).optional().describe("API channel"),
    website_token: text.describe("the website channel's public token"),
    web_widget_script: text.describe("the website channel's embed snippet"),
    inbox_identifier: z.string().optional().describe("the API channel's public identifier"),
    hmac_token: z.string().optional().describe("administrators only: the key of identity validation"),
    email: z.string().optional().describe("e-mail channel: the inbox's address"),
    forwarding_enabled: z.boolean().optional().describe("e-mail channel: whether mail forwarded to forward_to_email arrives"),
    forward_to_email: z.string().optional().describe("e-mail channel, when forwarding is enabled"),
    imap_login: z.string().optional().describe("e-mail channel, administrators only"),
    imap_password: z.string().optional().describe("e-mail channel, administrators only"),
    imap_address: z.string().optional().describe("e-mail channel, administrators only"),
    imap_port: z.number().int().optional().describe("e-mail channel, administrators only"),
    imap_enabled: z.boolean().optional().describe("e-mail channel, administrators only"),
    imap_enable_ssl: z.boolean().optional().describe("e-mail channel, administrators only"),
    reauthorization_required: z.boolean().optional().describe("e-mail channel, administrators only"),
    smtp_login: z.string().optional().describe("e-mail channel, administrators only"),
    smtp_password: z.string().optional().describe("e-mail channel, administrators only"),
    smtp_address: z.string().optional().describe("e-mail channel, administrators only"),
    smtp_port: z.number().int().optional().describe("e-mail channel, administrators only"),
    smtp_enabled: z.boolean().optional().describe("e-mail channel, administrators only"),
    smtp_domain: z.string().optional().describe("e-mail channel, administrators only"),
    smtp_enable_ssl_tls: z.boolean().optional().describe("e-mail channel, administrators only"),
    smtp_enable_starttls_auto: z.boolean().optional().describe("e-mail channel, administrators only"),
    smtp_openssl_verify_mode: z.string().optional().describe("e-mail channel, administrators only"),
    smtp_authentication: z.string().optional().describe("e-mail channel, administrators only"),
  })
  .meta({ id: "Inbox" });

/** GET /inboxes/:id/agent_bot */
export const InboxAgentBot = z.looseObject({ agent_bot: AgentBot.nullable() });

/** DELETE /inboxes/:id */
export const InboxDeleted = z.looseObject({ message: z.string() });

/**
 * GET /assignable_agents: `inbox_ids[]=1&inbox_ids[]=2` (or `inbox_ids=1,2`), at least one inbox, at most
 * 25 (an assignee picker names the inboxes of the conversations selected).
 */
export const AssignableAgentsQuery = z
  .object({ "inbox_ids[]": IdList.optional(), inbox_ids: IdList.optional() })
  .transform(({ "inbox_ids[]": bracketed, inbox_ids }) => ({ inbox_ids: [...new Set([...(bracketed ?? []), ...(inbox_ids ?? [])])] }))
  .pipe(z.object({ inbox_ids: z.array(z.number()).min(1).max(25) }));
