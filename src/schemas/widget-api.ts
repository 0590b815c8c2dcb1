/**
 * Request and answer schemas of the website widget's API (/api/v1/widget/*), with Chatwoot's
 * parameters: the inbox by `?website_token=`, the visitor by the `X-Auth-Token` header, and bodies as
 * Chatwoot's widget sends them.
 */
import { z } from "zod";
import { PhoneNumber } from "./contacts";
import { Email, HttpUrl, Id, JsonObject, ShortText, wrapped } from "./common";
import { CONVERSATION_STATUSES } from "../domain/kernel/enums";
import { PublicContactRecord, PublicMessage, PublicMessageUpdate } from "./widget";
import { seconds } from "./responses";

/** Every call: the inbox's website token; `locale` (the widget adds it) and the page's own query are ignored. */
export const WidgetQuery = z.object({
  website_token: z.string().trim().min(1, { error: "is required" }).max(255),
  locale: z.string().max(20).optional(),
});

const clearable = <S extends z.ZodType>(schema: S) => z.preprocess((v) => (v === "" ? null : v), schema.nullable()).optional();

const contactFields = {
  name: ShortText.optional(),
  email: clearable(Email),
  phone_number: clearable(PhoneNumber),
  identifier: clearable(z.union([ShortText, z.number().int().transform(String)])),
  identifier_hash: z.string().trim().max(128).optional(),
  avatar_url: clearable(HttpUrl),
  additional_attributes: JsonObject.optional(),
  custom_attributes: JsonObject.optional(),
};

/** PATCH /contact: the widget sends the fields bare (a `contact` wrapper is read too). */
export const WidgetContactUpdate = wrapped("contact", z.object(contactFields));

/** PATCH /contact/set_user: `{identifier, ...user}` as `window.$chatwoot.setUser(identifier, user)` sends it. */
export const WidgetSetUser = wrapped(
  "contact",
  z.object({ ...contactFields, identifier: z.union([ShortText.trim().min(1), z.number().int().transform(String)], { error: "is required (a string or a number)" }) }),
);

/** POST /contact/destroy_custom_attributes: the keys to remove. */
export const WidgetContactAttributeKeys = z.object({ custom_attributes: z.array(ShortText).min(1).max(100) });

/**
 * The page the visitor writes from (kept as the conversation's `referer`, which the dashboard shows as a
 * link): an http(s) URL, or nothing. Any other value is dropped rather than refused, so that a page
 * with an odd address (a `javascript:` or `data:` one, whether sent by a hostile client or not) loses
 * no message.
 */
const RefererUrl = HttpUrl.optional().catch(undefined);

/** POST /conversations: the pre-chat form's contact fields and first message. */
export const WidgetConversationCreate = z.object({
  contact: z.object({ name: ShortText.optional(), email: clearable(Email), phone_number: clearable(PhoneNumber), custom_attributes: JsonObject.optional() }).optional(),
  message: z.object({ content: z.string().trim().min(1).max(150_000), timestamp: ShortText.optional(), referer_url: RefererUrl }),
  custom_attributes: JsonObject.optional(),
});

/** POST /conversations/toggle_typing. */
export const WidgetTyping = z.object({ typing_status: z.enum(["on", "off"], { error: "must be on or off" }) });

/** POST /conversations/set_custom_attributes: the new hash (it replaces the old one). */
export const WidgetConversationAttributes = z.object({ custom_attributes: JsonObject });

/** POST /conversations/destroy_custom_attributes: Chatwoot's singular key with a list. */
export const WidgetConversationAttributeKeys = z.object({ custom_attribute: z.array(ShortText).min(1).max(100) });

/** GET /messages: message ids bounding the page. */
export const WidgetMessagesQuery = WidgetQuery.extend({ before: Id.optional(), after: Id.optional() });

/** POST /messages (JSON, or multipart with `message[attachments][]` files). */
export const WidgetMessageCreate = z.object({
  message: z.object({
    content: z.string().trim().min(1).max(150_000).optional(),
    reply_to: Id.nullish(),
    timestamp: ShortText.optional(),
    referer_url: RefererUrl,
    echo_id: ShortText.optional(),
  }),
});

export const WidgetMessagePath = z.object({ id: Id });

/** PATCH /messages/:id: an input_email answer (`contact.email`), or submitted values. */
export const WidgetMessageUpdate = z.object({
  contact: z.object({ email: Email }).optional(),
  message: PublicMessageUpdate.optional(),
});

/** POST /events: only the events Chatwoot's widget sends. */
export const WidgetEventBody = z.object({
  name: z.enum(["webwidget.triggered", "campaign.triggered"], { error: "must be webwidget.triggered or campaign.triggered" }),
  event_info: JsonObject.optional(),
});

export const WidgetLabelBody = z.object({ label: ShortText.trim().min(1) });
export const WidgetLabelPath = z.object({ label: ShortText.trim().min(1) });

/** POST /direct_uploads: ActiveStorage's blob description. */
export const WidgetDirectUpload = z.object({
  blob: z.object({ filename: ShortText, content_type: ShortText, byte_size: z.number().int().min(0), checksum: ShortText }).partial().optional(),
});

// ---------------------------------------------------------------- answers (src/views/widget-api.ts)

const int = z.number().int();

/** GET /contact. */
export const WidgetContact = z
  .looseObject({ id: int, has_email: z.boolean(), has_name: z.boolean(), has_phone_number: z.boolean(), identifier: z.string().nullable() })
  .meta({ id: "WidgetContact" });

/** PATCH /contact and /contact/set_user; `widget_auth_token` when the visitor became another contact. */
export const WidgetContactUpdated = z
  .looseObject({ id: int, has_email: z.boolean(), has_name: z.boolean(), has_phone_number: z.boolean(), widget_auth_token: z.string().optional() })
  .meta({ id: "WidgetContactUpdated" });

/** GET /conversations: the current conversation, or `{}`. */
export const WidgetConversation = z
  .looseObject({ id: int.optional(), inbox_id: int.optional(), contact_last_seen_at: seconds.nullable().optional(), status: z.enum(CONVERSATION_STATUSES).optional() })
  .meta({ id: "WidgetConversation" });

/** POST /conversations, and destroy_custom_attributes. */
export const WidgetConversationRecord = z
  .looseObject({
    id: int,
    inbox_id: int,
    contact_last_seen_at: seconds.nullable(),
    status: z.enum(CONVERSATION_STATUSES),
    messages: z.array(PublicMessage),
    custom_attributes: z.record(z.string(), z.unknown()),
    contact: PublicContactRecord,
  })
  .meta({ id: "WidgetConversationRecord" });

export const WidgetMessages = z.object({ payload: z.array(PublicMessage), meta: z.looseObject({ contact_last_seen_at: seconds.nullable().optional() }) }).meta({ id: "WidgetMessages" });

export const WidgetMessage = PublicMessage.extend({ inbox_id: int, private: z.boolean(), source_id: z.string().nullable() }).meta({ id: "WidgetMessage" });

export const WidgetContactAnswer = z.object({ contact: PublicContactRecord });

export const WidgetInboxMembers = z
  .object({ payload: z.array(z.object({ id: int, name: z.string(), avatar_url: z.string(), availability_status: z.enum(["online", "busy", "offline"]) })) })
  .meta({ id: "WidgetInboxMembers" });

export const WidgetConfig = z
  .looseObject({ website_channel_config: z.record(z.string(), z.unknown()), contact: z.record(z.string(), z.unknown()), global_config: z.record(z.string(), z.unknown()) })
  .meta({ id: "WidgetConfig" });
