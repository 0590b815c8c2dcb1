/**
 * Chatwoot's enumerations: stored as the integer (the array index), rendered as the name.
 * Requests may send the name or the integer.
 */
export const ACCOUNT_STATUSES = ["active", "suspended"] as const;
export const ROLES = ["agent", "administrator"] as const;
export const AVAILABILITIES = ["online", "offline", "busy"] as const;
export const CONVERSATION_STATUSES = ["open", "resolved", "pending", "snoozed"] as const;
export const PRIORITIES = ["low", "medium", "high", "urgent"] as const;
export const MESSAGE_TYPES = ["incoming", "outgoing", "activity", "template"] as const;
export const MESSAGE_STATUSES = ["sent", "delivered", "read", "failed"] as const;
export const CONTENT_TYPES = [
  "text",
  "input_text",
  "input_textarea",
  "input_email",
  "input_select",
  "cards",
  "form",
  "article",
  "incoming_email",
  "input_csat",
  "integrations",
  "sticker",
  "voice_call",
] as const;
export const ATTRIBUTE_DISPLAY_TYPES = ["text", "number", "currency", "percent", "link", "date", "list", "checkbox"] as const;
export const ATTRIBUTE_MODELS = ["conversation_attribute", "contact_attribute"] as const;
export const FILTER_TYPES = ["conversation", "contact", "report"] as const;
export const ARTICLE_STATUSES = ["draft", "published", "archived"] as const;
export const SENDER_NAME_TYPES = ["friendly", "professional"] as const;
/** A contact import's or export's progress (Chatwoot's data_imports status). */
export const TRANSFER_STATUSES = ["pending", "processing", "completed", "failed"] as const;

export type Role = (typeof ROLES)[number];

/** The name of stored value `value`, or null. */
export function enumName<T extends readonly string[]>(names: T, value: number | null | undefined): T[number] | null {
  return value === null || value === undefined ? null : (names[value] ?? null);
}

/** The stored value of `name`. */
export function enumValue<T extends readonly string[]>(names: T, name: T[number]): number {
  return names.indexOf(name);
}
export const REPLY_TIMES = ["in_a_few_minutes", "in_a_few_hours", "in_a_day"] as const;
/** Website widget options, one bit each (bit 0 is attachments), as Chatwoot stores them. */
export const WIDGET_FEATURES = ["attachments", "emoji_picker", "end_conversation", "use_inbox_avatar_for_bot"] as const;

/** `{ name: storedValue }` for an enumeration, so code says `ROLE.administrator`, never a bare 1. */
function storedValues<const T extends readonly string[]>(names: T): { readonly [K in T[number]]: number } {
  return Object.fromEntries(names.map((name, index) => [name, index])) as { [K in T[number]]: number };
}

export const ACCOUNT_STATUS = storedValues(ACCOUNT_STATUSES);
export const ROLE = storedValues(ROLES);
export const AVAILABILITY = storedValues(AVAILABILITIES);
export const ATTRIBUTE_DISPLAY_TYPE = storedValues(ATTRIBUTE_DISPLAY_TYPES);
export const ATTRIBUTE_MODEL = storedValues(ATTRIBUTE_MODELS);
export const FILTER_TYPE = storedValues(FILTER_TYPES);
export const TRANSFER_STATUS = storedValues(TRANSFER_STATUSES);
/** Chatwoot's agent bot types: only webhook bots exist. */
export const AGENT_BOT_TYPE = storedValues(["webhook"] as const);
export const CONVERSATION_STATUS = storedValues(CONVERSATION_STATUSES);
export const PRIORITY = storedValues(PRIORITIES);
export const MESSAGE_TYPE = storedValues(MESSAGE_TYPES);
export const MESSAGE_STATUS = storedValues(MESSAGE_STATUSES);
export const CONTENT_TYPE = storedValues(CONTENT_TYPES);
export const ARTICLE_STATUS = storedValues(ARTICLE_STATUSES);
/** An agent bot's link to an inbox (Chatwoot's AgentBotInbox status): only an active one serves the inbox. */
export const AGENT_BOT_INBOX_STATUSES = ["active", "inactive"] as const;
export const AGENT_BOT_INBOX_STATUS = storedValues(AGENT_BOT_INBOX_STATUSES);

/** Chatwoot's notification types, stored as its integers (1-based, unlike the arrays above). */
export const NOTIFICATION_TYPES = [
  "conversation_creation",
  "conversation_assignment",
  "assigned_conversation_new_message",
  "conversation_mention",
  "participating_conversation_new_message",
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export const NOTIFICATION_TYPE = Object.fromEntries(NOTIFICATION_TYPES.map((name, i) => [name, i + 1])) as Record<NotificationType, number>;
/** A type's bit in the email and push flag columns (Chatwoot's flag positions: 1, 2, 4, 8, 16). */
export const notificationFlagBit = (type: NotificationType) => 1 << NOTIFICATION_TYPES.indexOf(type);
/** Chatwoot gives a new account member e-mail and push notifications of assignments only. */
export const DEFAULT_NOTIFICATION_FLAGS = notificationFlagBit("conversation_assignment");
