/** Request schemas of the public client API (/public/api/v1/inboxes/{inbox_identifier}/...). */
import { z } from "zod";
import { PhoneNumber } from "./contacts";
import { Email, HttpUrl, Id, Int, JsonObject, LongText, ShortText, wrapped } from "./common";
import { CONVERSATION_STATUSES } from "../domain/kernel/enums";
import { Attachment, Sender, seconds } from "./responses";

/** Public identifiers in paths: the inbox identifier and a contact's source id are opaque text. */
const PublicIdentifier = z.string().trim().min(1).max(255);

export const InboxPath = z.object({ inbox_identifier: PublicIdentifier });
export const ContactPath = InboxPath.extend({ contact_identifier: PublicIdentifier });
export const ConversationPath = ContactPath.extend({ conversation_id: Id });
export const MessagePath = ConversationPath.extend({ message_id: Id });

/** Clients clear a field with "" or null; both are stored as null. */
const clearable = <S extends z.ZodType>(schema: S) => z.preprocess((v) => (v === "" ? null : v), schema.nullable()).optional();

/** Lowercase hex of an HMAC-SHA256 (64 characters); anything else cannot match and is refused as such. */
const IdentifierHash = z.string().trim().max(128);

const contactFields = {
  name: ShortText.optional(),
  email: clearable(Email),
  phone_number: clearable(PhoneNumber),
  identifier: clearable(ShortText),
  identifier_hash: IdentifierHash.optional(),
  avatar_url: clearable(HttpUrl),
  additional_attributes: JsonObject.optional(),
  custom_attributes: JsonObject.optional(),
};

export const PublicContactCreate = wrapped("contact", z.object({ ...contactFields, source_id: ShortText.trim().min(1).optional() }));
export const PublicContactUpdate = wrapped("contact", z.object(contactFields));
export const PublicContactShowQuery = z.object({ identifier_hash: IdentifierHash.optional() });

export const PublicConversationCreate = z.object({ custom_attributes: JsonObject.optional() });

/** `typing_status`, from the body or the query string (the specification describes both). */
export const TypingStatus = z.object({ typing_status: z.enum(["on", "off"]).optional() });

export const PublicMessageListQuery = z.object({ before: Id.optional() });

export const PublicMessageCreate = z.object({
  // may be left out when the message carries files (`attachments[]`, multipart)
  content: z.string().trim().min(1).max(150_000).optional(),
  echo_id: ShortText.optional(),
});

const CsatSurveyResponse = z.object({
  rating: z.preprocess((v) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v), Int.pipe(z.number().min(1).max(5))).optional(),
  feedback_message: LongText.optional(),
});

const SubmittedValue = z.object({
  name: ShortText.optional(),
  title: ShortText.optional(),
  value: z.union([LongText, z.number(), z.boolean(), z.null(), z.array(z.string().max(1000)).max(100)]).optional(),
  csat_survey_response: CsatSurveyResponse.optional(),
});

/**
 * `submitted_values` is a list of answers (input_select, form) or, for a CSAT survey, the one object
 * Chatwoot's widget sends and Chatwoot stores: `{csat_survey_response: {rating, feedback_message}}`.
 * The rating's presence is checked where the message is known to be a survey.
 */
export const PublicMessageUpdate = z.object({
  submitted_values: z.union([z.array(SubmittedValue).min(1).max(50), z.object({ csat_survey_response: CsatSurveyResponse })], {
    error: "must be a list of answers or an object with csat_survey_response",
  }),
});

/** /public/api/v1/csat_survey/{conversation_uuid}: the conversation's uuid from the survey link. */
export const CsatSurveyPath = z.object({ conversation_uuid: z.uuid({ error: "must be a conversation uuid" }) });

/** PUT .../csat_survey/{conversation_uuid}: Chatwoot's survey page sends the answer wrapped in `message`. */
export const CsatSurveyUpdate = wrapped("message", PublicMessageUpdate);

/** POST .../contacts/{source_id}/events: the widget reports itself opened (webwidget_triggered). */
export const WidgetEvent = z.object({ name: ShortText.trim().min(1), event_info: JsonObject.optional() });

// ---------------------------------------------------------------- answers (src/views/widget.ts)

const int = z.number().int();
const text = z.string().nullable();
const object = z.record(z.string(), z.unknown());

/** GET /public/api/v1/inboxes/{inbox_identifier}: what a widget needs to render itself. */
export const PublicInbox = z
  .looseObject({
    identifier: z.string(),
    name: z.string(),
    channel_type: z.string(),
    timezone: z.string(),
    working_hours_enabled: z.boolean(),
    working_hours: z.array(object),
    out_of_office_message: text,
    csat_survey_enabled: z.boolean(),
    greeting_enabled: z.boolean(),
    greeting_message: text,
    enable_email_collect: z.boolean(),
    avatar_url: z.string(),
    widget_color: z.string().optional().describe("website channel"),
    welcome_title: text.optional(),
    welcome_tagline: text.optional(),
    reply_time: int.optional(),
    pre_chat_form_enabled: z.boolean().optional(),
    pre_chat_form_options: object.optional(),
  })
  .meta({ id: "PublicInbox" });

/** The visitor as the widget knows it (create and show); `source_id` addresses it in later calls. */
export const PublicContact = z
  .looseObject({ id: int, source_id: z.string(), pubsub_token: z.string(), name: text, email: text, phone_number: text })
  .meta({ id: "PublicContact" });

/** The visitor after an update: everything the widget may know of its own contact. */
export const PublicContactRecord = PublicContact.extend({
  identifier: text,
  avatar_url: z.string(),
  additional_attributes: object,
  custom_attributes: object,
  hmac_verified: z.boolean(),
});

/** Public Message: never a private note or an activity message. */
export const PublicMessage = z
  .looseObject({
    id: int,
    content: text,
    content_type: z.string(),
    content_attributes: object,
    message_type: int.describe("0 incoming, 1 outgoing, 3 template"),
    created_at: seconds,
    conversation_id: int.describe("the conversation's display id"),
    sender: Sender.nullable(),
    attachments: z.array(Attachment).optional().describe("present when the message has files"),
    echo_id: z.string().optional().describe("the client's echo id, when it sent one"),
  })
  .meta({ id: "PublicMessage" });

/** Public Conversation: `messages` holds the latest public message (the full history is the messages list). */
export const PublicConversation = z
  .looseObject({
    id: int.describe("the display id"),
    uuid: z.string(),
    inbox_id: int,
    status: z.enum(CONVERSATION_STATUSES),
    contact_last_seen_at: seconds.nullable(),
    agent_last_seen_at: seconds.nullable(),
    custom_attributes: object,
    messages: z.array(PublicMessage).max(1),
    contact: z.looseObject({ id: int, name: text, email: text, phone_number: text, identifier: text, custom_attributes: object }).nullable(),
  })
  .meta({ id: "PublicConversation" });

/** POST .../events */
export const PublicEventAnswer = z.looseObject({
  event: z.enum(["webwidget_triggered", "campaign.triggered"]),
  name: z.string(),
  conversation_id: int.nullable().optional().describe("campaign.triggered: the conversation the campaign opened; null when the visitor had one already"),
});

/** POST .../toggle_typing */
export const PublicTypingAnswer = z.looseObject({ conversation_id: int, typing_status: z.enum(["on", "off"]) });

/** The survey as its page reads it: `csat_survey_response` is null until the contact has rated. */
export const CsatSurvey = z
  .looseObject({
    id: int.describe("the survey message's id"),
    csat_survey_response: z
      .looseObject({ id: int, rating: int, feedback_message: text, conversation_id: int, message_id: int, created_at: seconds, updated_at: seconds })
      .nullable(),
    display_type: z.enum(["emoji", "star"]),
    message: text.describe("the survey's question"),
    inbox_avatar_url: z.string(),
    conversation_id: int.describe("the conversation's display id"),
    created_at: seconds,
    locked: z.boolean().describe("true once the survey has expired and no longer takes an answer"),
  })
  .meta({ id: "CsatSurvey" });
