/**
 * The words of an automation rule (Chatwoot's, reference §4): the events a rule listens to, the condition
 * keys with where each is read and which operators it takes, and the catalogue of actions.
 */
import { CONVERSATION_STATUSES, MESSAGE_TYPES, PRIORITIES } from "../kernel/enums";

export const RULE_EVENTS = ["conversation_created", "conversation_updated", "conversation_opened", "conversation_resolved", "message_created"] as const;
export type RuleEvent = (typeof RULE_EVENTS)[number];

export const FILTER_OPERATORS = [
  "equal_to",
  "not_equal_to",
  "contains",
  "does_not_contain",
  "is_present",
  "is_not_present",
  "is_greater_than",
  "is_less_than",
  "days_before",
  "starts_with",
  "attribute_changed",
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** Operators that read no values. */
export const VALUELESS_OPERATORS = new Set<FilterOperator>(["is_present", "is_not_present"]);

const EQUALITY = ["equal_to", "not_equal_to"] as const;
const PRESENCE = ["is_present", "is_not_present"] as const;
const TEXT = [...EQUALITY, "contains", "does_not_contain"] as const;

/** What a key's values are: names of an enumeration, ids of an account's objects, label titles, free text, a flag. */
export type ValueKind =
  | { kind: "enum"; names: readonly string[]; nil?: boolean }
  | { kind: "id"; of: "agent" | "team" | "inbox" }
  | { kind: "label" }
  | { kind: "text" }
  | { kind: "boolean" }
  | { kind: "number" }
  | { kind: "date" }
  | { kind: "list"; options: readonly string[] };

/** Where the engine reads a standard key. */
export type Source =
  | { from: "conversation"; column: "status" | "priority" | "assigneeId" | "inboxId" | "teamId" }
  | { from: "conversation_attributes"; name: string }
  | { from: "labels" }
  | { from: "contact"; column: "email" | "phoneNumber" }
  | { from: "contact_attributes"; names: readonly string[] }
  | { from: "message"; column: "messageType" | "content" | "private" }
  | { from: "conversation_custom"; name: string }
  | { from: "contact_custom"; name: string };

export type KeySpec = { operators: readonly FilterOperator[]; values: ValueKind; source: Source; changedAs?: string };

/**
 * Chatwoot's allow-list of condition keys (the model's, 4.16-era), each with its filter-keys entry. `changedAs`
 * names the key in an event's `changed_attributes`, for `attribute_changed`.
 */
export const STANDARD_KEYS: Record<string, KeySpec> = {
  status: { operators: EQUALITY, values: { kind: "enum", names: CONVERSATION_STATUSES }, source: { from: "conversation", column: "status" }, changedAs: "status" },
  priority: { operators: EQUALITY, values: { kind: "enum", names: PRIORITIES, nil: true }, source: { from: "conversation", column: "priority" }, changedAs: "priority" },
  assignee_id: { operators: [...EQUALITY, ...PRESENCE], values: { kind: "id", of: "agent" }, source: { from: "conversation", column: "assigneeId" }, changedAs: "assignee_id" },
  inbox_id: { operators: [...EQUALITY, ...PRESENCE], values: { kind: "id", of: "inbox" }, source: { from: "conversation", column: "inboxId" } },
  team_id: { operators: [...EQUALITY, ...PRESENCE], values: { kind: "id", of: "team" }, source: { from: "conversation", column: "teamId" }, changedAs: "team_id" },
  labels: { operators: [...EQUALITY, ...PRESENCE], values: { kind: "label" }, source: { from: "labels" }, changedAs: "label_list" },
  browser_language: { operators: EQUALITY, values: { kind: "text" }, source: { from: "conversation_attributes", name: "browser_language" } },
  conversation_language: { operators: EQUALITY, values: { kind: "text" }, source: { from: "conversation_attributes", name: "conversation_language" } },
  country_code: { operators: EQUALITY, values: { kind: "text" }, source: { from: "conversation_attributes", name: "country_code" } },
  referer: { operators: TEXT, values: { kind: "text" }, source: { from: "conversation_attributes", name: "referer" } },
  mail_subject: { operators: TEXT, values: { kind: "text" }, source: { from: "conversation_attributes", name: "mail_subject" } },
  email: { operators: TEXT, values: { kind: "text" }, source: { from: "contact", column: "email" } },
  phone_number: { operators: [...TEXT, "starts_with"], values: { kind: "text" }, source: { from: "contact", column: "phoneNumber" } },
  city: { operators: TEXT, values: { kind: "text" }, source: { from: "contact_attributes", names: ["city"] } },
  // older Chatwoot builds call it `company`; both read the contact's company_name
  company_name: { operators: TEXT, values: { kind: "text" }, source: { from: "contact_attributes", names: ["company_name", "company"] } },
  company: { operators: TEXT, values: { kind: "text" }, source: { from: "contact_attributes", names: ["company_name", "company"] } },
  message_type: { operators: EQUALITY, values: { kind: "enum", names: MESSAGE_TYPES }, source: { from: "message", column: "messageType" } },
  content: { operators: TEXT, values: { kind: "text" }, source: { from: "message", column: "content" } },
  private_note: { operators: EQUALITY, values: { kind: "boolean" }, source: { from: "message", column: "private" } },
};

/** Custom attribute display types (ATTRIBUTE_DISPLAY_TYPES order) and the operators each takes. */
export function customAttributeSpec(displayType: number, options: readonly string[]): Omit<KeySpec, "source"> {
  switch (displayType) {
    case 1: // number
    case 2: // currency
    case 3: // percent
      return { operators: [...EQUALITY, ...PRESENCE, "is_greater_than", "is_less_than"], values: { kind: "number" } };
    case 5: // date
      return { operators: [...EQUALITY, ...PRESENCE, "is_greater_than", "is_less_than", "days_before"], values: { kind: "date" } };
    case 6: // list
      return { operators: [...EQUALITY, ...PRESENCE], values: { kind: "list", options } };
    case 7: // checkbox
      return { operators: EQUALITY, values: { kind: "boolean" } };
    default: // text, link
      return { operators: [...TEXT, ...PRESENCE], values: { kind: "text" } };
  }
}

export const CUSTOM_ATTRIBUTE_TYPES = ["conversation_attribute", "contact_attribute"] as const;

/** Actions and the shape of their `action_params`. */
export const ACTION_NAMES = [
  "assign_agent",
  "remove_assigned_agent",
  "assign_team",
  "remove_assigned_team",
  "add_label",
  "remove_label",
  "send_message",
  "add_private_note",
  "send_webhook_event",
  "mute_conversation",
  "snooze_conversation",
  "resolve_conversation",
  "open_conversation",
  "pending_conversation",
  "change_status",
  "change_priority",
  "send_email_to_team",
  "send_email_transcript",
  "send_attachment",
] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

/** Actions that take no parameters. */
export const PARAMETERLESS_ACTIONS = new Set<ActionName>([
  "remove_assigned_agent",
  "remove_assigned_team",
  "mute_conversation",
  "snooze_conversation",
  "resolve_conversation",
  "open_conversation",
  "pending_conversation",
]);

/** "nil" (and for teams 0) in Chatwoot's params means "none". */
export const NIL = "nil";
