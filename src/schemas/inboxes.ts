import { z } from "zod";
import { REPLY_TIMES, SENDER_NAME_TYPES, WIDGET_FEATURES } from "../domain/kernel/enums";
import { Bool, EnumValue, HttpUrl, Id, Int, JsonObject, ShortText, wrapped } from "./common";

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

/** Only the API and website channels exist here; other Chatwoot channel types are refused on `channel.type`. */
const ChannelCreate = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("api"), ...z.object(apiChannelFields).partial().shape }),
    z.object({ type: z.literal("web_widget"), ...z.object(widgetChannelFields).partial().shape, website_url: widgetChannelFields.website_url }),
  ],
  { error: "must be api or web_widget (other channel types are not supported)" },
);

/** The channel's editable attributes; those of another channel type are ignored, as Chatwoot does. */
const ChannelUpdate = z.object({ ...apiChannelFields, ...widgetChannelFields }).partial();

/** POST /inboxes (flat or wrapped in `inbox`) */
export const InboxCreate = wrapped(
  "inbox",
  z.object({ ...z.object(inboxFields).partial().shape, name: inboxFields.name, channel: ChannelCreate }),
);

/** PATCH/PUT /inboxes/:id */
export const InboxUpdate = wrapped("inbox", z.object({ ...inboxFields, channel: ChannelUpdate }).partial());

/** POST /inboxes/:id/set_agent_bot: a bot id, or null (or nothing) to disconnect. */
export const SetAgentBot = z.object({ agent_bot: Id.nullish() });
