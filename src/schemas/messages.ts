import { z } from "zod";
import { CONTENT_TYPES, MESSAGE_STATUSES } from "../domain/kernel/enums";
import { Bool, Cursor, Email, Id, JsonObject, ShortText } from "./common";

export const MessageParam = z.object({ conversation_id: Id, message_id: Id });

const TEMPLATE_CATEGORIES = ["UTILITY", "MARKETING", "SHIPPING_UPDATE", "TICKET_UPDATE", "ISSUE_RESOLUTION"] as const;

/** A BCP 47 tag (language, optional script, region and variants), checked by the runtime's Intl. */
const Bcp47 = z
  .string()
  .trim()
  .max(35)
  .refine((tag) => {
    if (!/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(tag)) return false;
    try {
      return Intl.getCanonicalLocales(tag).length === 1;
    } catch {
      return false;
    }
  }, { error: "must be a BCP 47 language tag, e.g. en or pt-BR" });

/** The specification's template_params table. */
export const TemplateParams = z.object({
  name: ShortText.trim().min(1),
  category: z.enum(TEMPLATE_CATEGORIES),
  language: Bcp47,
  processed_params: z.object({
    body: z.record(z.string().max(100), z.string().max(1024)).optional(),
    header: z
      .object({
        media_url: z.url({ protocol: /^https?$/, error: "must be an http or https URL" }).max(2048).optional(),
        media_type: z.enum(["image", "video", "document"]).optional(),
      })
      .optional(),
    buttons: z
      .array(z.object({ type: z.enum(["url", "copy_code"]).optional(), parameter: z.string().max(2000).optional() }))
      .max(10)
      .optional(),
  }),
});

/** The item fields each interactive content_type carries (Chatwoot §7.2); each needs at least one item. */
const ITEM_RULES: Partial<Record<(typeof CONTENT_TYPES)[number], z.ZodType>> = {
  input_select: z.object({ title: z.string().min(1).max(255), value: z.string().max(255) }),
  cards: z.object({
    title: z.string().min(1).max(255),
    description: z.string().max(2000).optional(),
    media_url: z.string().max(2048).optional(),
    actions: z
      .array(z.object({ text: z.string().max(255), type: z.enum(["link", "postback"]), payload: z.string().max(2000).optional(), uri: z.string().max(2048).optional() }))
      .max(10)
      .optional(),
  }),
  form: z.object({
    type: z.enum(["text", "text_area", "email", "select", "number", "date", "checkbox"]),
    name: z.string().min(1).max(255),
    label: z.string().max(255).optional(),
    placeholder: z.string().max(255).optional(),
    options: z.array(z.object({ label: z.string().max(255), value: z.string().max(255) })).max(50).optional(),
    default: z.unknown().optional(),
    required: z.boolean().optional(),
    pattern: z.string().max(500).optional(),
    title: z.string().max(255).optional(),
    pattern_error: z.string().max(255).optional(),
  }),
  article: z.object({ title: z.string().min(1).max(255), description: z.string().max(2000).optional(), link: z.string().max(2048) }),
};

/** The content types a client may send (the specification's list). */
const CREATABLE_CONTENT_TYPES = ["text", "input_email", "cards", "input_select", "form", "article"] as const;

/**
 * Chatwoot's `to_emails`, `cc_emails`, `bcc_emails` of a message create: comma-separated addresses, each
 * checked (one that is no address is a 422 naming it), stored as arrays in `content_attributes`, where an
 * e-mail conversation's mail reads them.
 */
const EmailList = z
  .string()
  .max(5_000)
  .transform((list) => list.split(",").map((address) => address.trim()).filter(Boolean))
  .pipe(z.array(Email).max(50));

/** POST /conversations/:conversation_id/messages (JSON or multipart: booleans and objects may be strings). */
export const MessageCreate = z
  .object({
    // may be left out when the message carries files (`attachments[]`, multipart)
    content: z.string().max(150_000).optional(),
    message_type: z.enum(["outgoing", "incoming"]).optional(),
    private: Bool.optional(),
    content_type: z.enum(CREATABLE_CONTENT_TYPES).optional(),
    content_attributes: JsonObject.optional(),
    to_emails: EmailList.optional(),
    cc_emails: EmailList.optional(),
    bcc_emails: EmailList.optional(),
    campaign_id: Id.optional(),
    template_params: z.preprocess((v) => (typeof v === "string" ? safeJson(v) : v), TemplateParams).optional(),
    echo_id: ShortText.optional(),
    source_id: ShortText.optional(),
    sender_type: z.literal("AgentBot").optional(),
    sender_id: Id.optional(),
  })
  .superRefine((body, ctx) => {
    const rule = body.content_type ? ITEM_RULES[body.content_type] : undefined;
    if (rule) {
      const items = body.content_attributes?.items;
      if (!Array.isArray(items) || items.length === 0) {
        ctx.addIssue({ code: "custom", path: ["content_attributes", "items"], message: "at least one item is required", params: { code: "items_required" } });
      } else {
        items.forEach((item, i) => {
          const result = rule.safeParse(item);
          if (!result.success) {
            for (const issue of result.error.issues) ctx.addIssue({ ...issue, path: ["content_attributes", "items", i, ...issue.path] } as never);
          }
        });
      }
    }
    if (body.sender_type === "AgentBot" && body.sender_id === undefined) {
      ctx.addIssue({ code: "custom", path: ["sender_id"], message: "is required with sender_type AgentBot", params: { code: "required" } });
    }
  });

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** PATCH /conversations/:conversation_id/messages/:message_id (API inboxes only). */
export const MessageUpdate = z.object({
  status: z.enum(MESSAGE_STATUSES),
  external_error: z.string().max(1000).optional(),
});

/** GET /conversations/:conversation_id/messages */
export const MessageListQuery = z.object({ before: Id.optional(), after: Id.optional(), cursor: Cursor });
