/** Request schemas of the public client API (/public/api/v1/inboxes/{inbox_identifier}/...). */
import { z } from "zod";
import { PhoneNumber } from "./contacts";
import { Email, HttpUrl, Id, Int, JsonObject, LongText, ShortText, wrapped } from "./common";

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

const SubmittedValue = z.object({
  name: ShortText.optional(),
  title: ShortText.optional(),
  value: z.union([LongText, z.number(), z.boolean(), z.null(), z.array(z.string().max(1000)).max(100)]).optional(),
  csat_survey_response: z
    .object({
      rating: z.preprocess((v) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v), Int.pipe(z.number().min(1).max(5))).optional(),
      feedback_message: LongText.optional(),
    })
    .optional(),
});

export const PublicMessageUpdate = z.object({ submitted_values: z.array(SubmittedValue).min(1).max(50) });

/** POST .../contacts/{source_id}/events: the widget reports itself opened (webwidget_triggered). */
export const WidgetEvent = z.object({ name: ShortText.trim().min(1), event_info: JsonObject.optional() });
