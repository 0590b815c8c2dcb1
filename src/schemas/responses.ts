/**
 * Response schemas: what the views (src/views) answer, for the API document. Records are open objects
 * (`z.looseObject`): the listed fields are promised, a later field is not a breaking change. A test
 * (test/api/openapi-responses.test.ts) checks real answers against the document built from these.
 */
import { z } from "zod";
import { ERROR_CODES } from "../domain/kernel/errors";

export const seconds = z.number().int().describe("Unix time in seconds");
export const isoTime = z.string().describe("ISO 8601");
export const json = z.record(z.string(), z.unknown());
/** The answer of a change that returns nothing to show (deletes, member removals). */
export const Empty = z.object({}).meta({ id: "Empty" });

/**
 * How a placeholder below says so in the document: test/api/openapi.test.ts lists the operations whose
 * success answer still contains one, so the gap stays visible.
 */
export const PLACEHOLDER = "Not detailed in this document yet";

/** The specification's one error body. */
export const ErrorBody = z
  .object({
    description: z.string(),
    errors: z.array(
      z.object({
        field: z.string().describe('the path of the offending value ("conditions[0].values"), or "" for none'),
        message: z.string(),
        code: z.string().describe("a stable machine reason, e.g. required, invalid_format, not_found, rate_limited"),
      }),
    ),
  })
  .describe(`The error body of every failure. Statuses map from the domain codes ${ERROR_CODES.join(", ")}.`);

export const InboxSlim = z.looseObject({
  id: z.number().int(),
  avatar_url: z.string(),
  channel_id: z.number().int(),
  name: z.string(),
  channel_type: z.string(),
  provider: z.string().nullable(),
});

export const ContactInbox = z.looseObject({ source_id: z.string(), inbox: InboxSlim }).meta({ id: "ContactInbox" });

export const Contact = z
  .looseObject({
    id: z.number().int(),
    name: z.string().nullable(),
    email: z.string().nullable(),
    phone_number: z.string().nullable(),
    identifier: z.string().nullable(),
    blocked: z.boolean(),
    thumbnail: z.string(),
    availability_status: z.string(),
    additional_attributes: json,
    custom_attributes: json,
    last_activity_at: seconds.nullable(),
    created_at: seconds,
    contact_inboxes: z.array(ContactInbox).optional(),
  })
  .meta({ id: "Contact" });

export const Message = z
  .looseObject({
    id: z.number().int(),
    content: z.string().nullable(),
    account_id: z.number().int(),
    inbox_id: z.number().int(),
    conversation_id: z.number().int().describe("the conversation's display id"),
    message_type: z.number().int().describe("0 incoming, 1 outgoing, 2 activity, 3 template"),
    created_at: seconds,
    updated_at: seconds,
    private: z.boolean(),
    status: z.string(),
    source_id: z.string().nullable(),
    content_type: z.string(),
    content_attributes: json,
    sender_type: z.string().nullable(),
    sender_id: z.number().int().nullable(),
    sender: z.looseObject({ id: z.number().int(), type: z.string() }).nullable(),
  })
  .meta({ id: "Message" });

export const Conversation = z
  .looseObject({
    id: z.number().int().describe("the display id, per account"),
    account_id: z.number().int(),
    uuid: z.string(),
    inbox_id: z.number().int(),
    status: z.enum(["open", "resolved", "pending", "snoozed"]),
    priority: z.string().nullable(),
    messages: z.array(Message),
    labels: z.array(z.string()),
    unread_count: z.number().int(),
    created_at: seconds,
    meta: z.looseObject({ sender: z.looseObject({ id: z.number().int() }).nullable(), hmac_verified: z.boolean() }),
  })
  .meta({ id: "Conversation" });

export const PlatformAccount = z
  .looseObject({
    id: z.number().int(),
    name: z.string(),
    locale: z.string(),
    domain: z.string().nullable(),
    support_email: z.string().nullable(),
    status: z.enum(["active", "suspended"]),
    enabled_features: json,
    custom_attributes: json,
    limits: json,
    created_at: z.string().describe("ISO 8601"),
  })
  .meta({ id: "PlatformAccount" });

export const payloadOf = <T extends z.ZodType>(item: T) => z.looseObject({ payload: item });
export const listOf = <T extends z.ZodType>(item: T) => z.array(item);
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.looseObject({ meta: z.looseObject({ count: z.number().int().optional() }), payload: z.array(item) });

/** GET /api: Chatwoot clients probe it for the server version. */
export const ServiceStatus = z.object({
  version: z.string().describe("the Chatwoot API level this server speaks"),
  edgedesk_version: z.string().describe("edgedesk's own version"),
  timestamp: z.string(),
  queue_services: z.string(),
  data_services: z.string(),
  shards: z.number().int().describe("how many shard databases hold the accounts (docs/shards.md)"),
});

/**
 * An answer whose shape this document does not detail yet (it is Chatwoot's, see the reference); any
 * JSON value. Replace it with a record schema when the route's answer is described.
 */
export const Unspecified = z.unknown().describe(`${PLACEHOLDER}: Chatwoot's shape for this route.`);

/** Chatwoot's Attachment (src/views/attachments.ts), with its signed URL. */
export const Attachment = z
  .looseObject({
    id: z.number().int(),
    message_id: z.number().int(),
    file_type: z.string(),
    account_id: z.number().int(),
    extension: z.string(),
    data_url: z.string().describe("a signed URL; empty when the server has no signing secret"),
    thumb_url: z.string().describe("the image itself for an image, else empty"),
    file_size: z.number().int(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
  })
  .meta({ id: "Attachment" });

/** Who sent a message, as Chatwoot pushes it: a user, a contact or an agent bot. */
export const Sender = z.looseObject({ id: z.number().int(), type: z.string() });
