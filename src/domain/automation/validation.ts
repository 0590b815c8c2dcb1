/**
 * Save-time validation of a rule. Chatwoot checks a rule's operators only when it fires (and then counts
 * an "authorization error"); here a rule that cannot run is refused with a 422 naming the path of each
 * problem (`conditions[1].filter_operator`, `actions[0].action_params[0]`).
 *
 * The check walks the rule twice: once without the account's data, to learn which agents, teams, inboxes
 * and labels it names (so one round trip loads exactly those), then with them.
 */
import type { ErrorEntry } from "../kernel/errors";
import type { AttributeDefinition } from "../custom-attributes/values";
import { refusedTarget } from "../kernel/target-url";
import { LABEL_TAG_MAX, labelTagProblem } from "../kernel/label-tags";
import { type ResolvedKey, resolveKey } from "./keys";
import type { Action, Condition } from "./rows";
import { MAX_DAYS_BEFORE } from "../kernel/time-values";
import {
  ACTION_NAMES,
  type ActionName,
  FILTER_OPERATORS,
  type FilterOperator,
  NIL,
  PARAMETERLESS_ACTIONS,
  VALUELESS_OPERATORS,
  type ValueKind,
} from "./vocabulary";

/** A condition or action as the client sent it (shapes checked by the request schema, meanings here). */
export type RawCondition = {
  attribute_key: string;
  filter_operator: string;
  values?: unknown;
  query_operator?: string | null;
  custom_attribute_type?: "conversation_attribute" | "contact_attribute";
};
export type RawAction = { action_name: string; action_params?: unknown[] };

/** What the account holds of what the rule names. */
export type Lookups = {
  definitions: readonly AttributeDefinition[];
  agentIds: ReadonlySet<number>;
  teamIds: ReadonlySet<number>;
  inboxIds: ReadonlySet<number>;
  /** lower-cased titles */
  labels: ReadonlySet<string>;
  /** files attached with POST /automation_rules/attach_file */
  ruleFileIds: ReadonlySet<number>;
  /** where send_webhook_event may post: the one policy account webhooks, inbox callbacks and bots obey */
  targetEnv: { WEBHOOK_TARGET_POLICY?: string };
};

/** The references a rule makes, collected on the first walk. */
export type References = { agentIds: Set<number>; teamIds: Set<number>; inboxIds: Set<number>; labels: Set<string>; ruleFileIds: Set<number> };

const MAX_TEXT = 1_000;
const MAX_VALUES = 100;
const MAX_MESSAGE = 20_000;
const MAX_TRANSCRIPT_RECIPIENTS = 20;
const EMAIL = /^[^\s@,]+@[^\s@,]+$/;
/** The one template variable a transcript recipient may be (Chatwoot allows liquid variables). */
export const CONTACT_EMAIL_VARIABLE = "{{contact.email}}";

const asId = (v: unknown): number | null => {
  if (typeof v === "number" && Number.isSafeInteger(v) && v > 0) return v;
  if (typeof v === "string" && /^\d{1,15}$/.test(v.trim()) && Number(v) > 0) return Number(v);
  return null;
};
const asText = (v: unknown): string | null => (typeof v === "string" ? v : typeof v === "number" && Number.isFinite(v) ? String(v) : null);
const asBoolean = (v: unknown): boolean | null => (v === true || v === "true" ? true : v === false || v === "false" ? false : null);
const asNumber = (v: unknown): number | null => {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  return null;
};
const asDate = (v: unknown): number | null => {
  if (typeof v !== "string" || !/^\d{4}-\d{2}-\d{2}/.test(v)) return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : t;
};

class Walk {
  readonly errors: ErrorEntry[] = [];
  readonly refs: References = { agentIds: new Set(), teamIds: new Set(), inboxIds: new Set(), labels: new Set(), ruleFileIds: new Set() };
  constructor(readonly lookups: Lookups | null) {}

  fail(field: string, message: string, code: string) {
    this.errors.push({ field, message, code });
  }

  /** Records a reference; on the second walk, fails when the account does not hold it. */
  agent(id: number, field: string) {
    this.refs.agentIds.add(id);
    if (this.lookups && !this.lookups.agentIds.has(id)) this.fail(field, `user ${id} is not an agent of this account`, "not_found");
  }
  team(id: number, field: string) {
    this.refs.teamIds.add(id);
    if (this.lookups && !this.lookups.teamIds.has(id)) this.fail(field, `team ${id} does not exist in this account`, "not_found");
  }
  inbox(id: number, field: string) {
    this.refs.inboxIds.add(id);
    if (this.lookups && !this.lookups.inboxIds.has(id)) this.fail(field, `inbox ${id} does not exist in this account`, "not_found");
  }
  ruleFile(id: number, field: string) {
    this.refs.ruleFileIds.add(id);
    if (this.lookups && !this.lookups.ruleFileIds.has(id)) {
      this.fail(field, `file ${id} does not exist in this account (attach it first with POST /automation_rules/attach_file)`, "not_found");
    }
  }
  label(title: string, field: string) {
    const lower = title.trim().toLowerCase();
    this.refs.labels.add(lower);
    if (this.lookups && !this.lookups.labels.has(lower)) this.fail(field, `label "${title}" does not exist in this account`, "not_found");
  }

  /** One value of a condition, against what its key holds; `nullable` for attribute_changed's "none". */
  value(kind: ValueKind, operator: FilterOperator, v: unknown, field: string, nullable = false) {
    if (v === null && nullable) return;
    switch (kind.kind) {
      case "enum": {
        const name = typeof v === "string" ? v.toLowerCase() : null;
        if (name === null || !(kind.names.includes(name) || (kind.nil && name === NIL))) {
          this.fail(field, `must be one of: ${[...kind.names, ...(kind.nil ? [NIL] : [])].join(", ")}`, "invalid_value");
        }
        return;
      }
      case "id": {
        const id = asId(v);
        if (id === null) return this.fail(field, "must be a positive integer id", "invalid_type");
        if (kind.of === "agent") this.agent(id, field);
        else if (kind.of === "team") this.team(id, field);
        else this.inbox(id, field);
        return;
      }
      case "label": {
        if (typeof v !== "string" || v.trim() === "") return this.fail(field, "must be a label title", "invalid_type");
        return this.label(v, field);
      }
      case "text": {
        const text = asText(v);
        if (text === null) return this.fail(field, "must be a string", "invalid_type");
        if (text.trim() === "") return this.fail(field, "must not be blank", "blank");
        if (text.length > MAX_TEXT) this.fail(field, `is too long (maximum is ${MAX_TEXT} characters)`, "too_long");
        return;
      }
      case "boolean":
        if (asBoolean(v) === null) this.fail(field, "must be true or false", "invalid_type");
        return;
      case "number":
        if (asNumber(v) === null) this.fail(field, "must be a number", "invalid_type");
        return;
      case "date":
        if (operator === "days_before") {
          const days = asNumber(v);
          if (days === null || !Number.isInteger(days) || days < 0 || days > MAX_DAYS_BEFORE) this.fail(field, `must be a whole number of days (0 to ${MAX_DAYS_BEFORE})`, "invalid_value");
        } else if (asDate(v) === null) {
          this.fail(field, "must be a date (YYYY-MM-DD or an ISO 8601 time)", "invalid_format");
        }
        return;
      case "list":
        if (typeof v !== "string" || !kind.options.includes(v)) this.fail(field, `must be one of the attribute's values: ${kind.options.join(", ")}`, "invalid_value");
        return;
    }
  }

  condition(raw: RawCondition, index: number, last: boolean): Condition | null {
    const at = `conditions[${index}]`;
    const key = resolveKey(raw, this.lookups?.definitions ?? []);
    if (!key && this.lookups) {
      const message = raw.custom_attribute_type
        ? `is not a ${raw.custom_attribute_type.replace("_", " ")} of this account`
        : "is not a supported condition key or a custom attribute of this account";
      this.fail(`${at}.attribute_key`, message, "unsupported_key");
    }
    const operator = raw.filter_operator as FilterOperator;
    if (!FILTER_OPERATORS.includes(operator)) {
      this.fail(`${at}.filter_operator`, `must be one of: ${FILTER_OPERATORS.join(", ")}`, "invalid_value");
    } else if (key) {
      this.operatorFor(key, operator, raw, at);
    }
    const queryOperator = this.queryOperator(raw.query_operator, at, last);
    if (!key || !FILTER_OPERATORS.includes(operator)) return null;
    const values = operator === "attribute_changed" ? this.changedValues(key, raw.values, at) : this.values(key, operator, raw.values, at);
    return {
      attribute_key: raw.attribute_key,
      filter_operator: operator,
      values,
      query_operator: queryOperator,
      ...(raw.custom_attribute_type && { custom_attribute_type: raw.custom_attribute_type }),
    };
  }

  operatorFor(key: ResolvedKey, operator: FilterOperator, raw: RawCondition, at: string) {
    if (operator === "attribute_changed") {
      if (!key.changedAs) {
        this.fail(
          `${at}.filter_operator`,
          `attribute_changed reads the changes a conversation event reports, and ${raw.attribute_key} is not one of them (status, priority, assignee_id, team_id, labels, conversation custom attributes)`,
          "operator_not_allowed",
        );
      }
      return;
    }
    if (!key.operators.includes(operator)) {
      this.fail(`${at}.filter_operator`, `is not allowed for ${raw.attribute_key} (allowed: ${[...key.operators, "attribute_changed"].join(", ")})`, "operator_not_allowed");
    }
  }

  queryOperator(value: string | null | undefined, at: string, last: boolean): "AND" | "OR" | null {
    const given = value === undefined || value === null || value === "" ? null : value;
    if (last) {
      if (given !== null) this.fail(`${at}.query_operator`, "must be empty on the last condition", "not_allowed");
      return null;
    }
    if (given === null) {
      this.fail(`${at}.query_operator`, "is required on every condition but the last (AND or OR)", "required");
      return null;
    }
    const upper = given.toUpperCase();
    if (upper !== "AND" && upper !== "OR") {
      this.fail(`${at}.query_operator`, 'must be either "AND" or "OR"', "invalid_value");
      return null;
    }
    return upper;
  }

  values(key: ResolvedKey, operator: FilterOperator, values: unknown, at: string): unknown[] {
    if (VALUELESS_OPERATORS.has(operator)) return Array.isArray(values) ? values : [];
    if (!Array.isArray(values) || values.length === 0) {
      this.fail(`${at}.values`, "must be a non-empty list of values", values === undefined ? "required" : "invalid_type");
      return [];
    }
    if (values.length > MAX_VALUES) {
      this.fail(`${at}.values`, `must hold at most ${MAX_VALUES} values`, "too_many");
      return [];
    }
    // ordering and day counts compare with one value; the others accept any of the listed values
    const used = operator === "is_greater_than" || operator === "is_less_than" || operator === "days_before" || operator === "starts_with" ? values.slice(0, 1) : values;
    used.forEach((v, i) => this.value(key.values, operator, v, `${at}.values[${i}]`));
    if (used.length < values.length) this.fail(`${at}.values`, `${operator} takes exactly one value`, "too_many");
    return values;
  }

  changedValues(key: ResolvedKey, values: unknown, at: string): { from: unknown[]; to: unknown[] } {
    const shape = values && typeof values === "object" && !Array.isArray(values) ? (values as Record<string, unknown>) : null;
    if (!shape) {
      this.fail(`${at}.values`, "must be an object with from and to lists for attribute_changed", "invalid_type");
      return { from: [], to: [] };
    }
    const side = (name: "from" | "to") => {
      const list = shape[name] ?? [];
      if (!Array.isArray(list) || list.length > MAX_VALUES) {
        this.fail(`${at}.values.${name}`, `must be a list of at most ${MAX_VALUES} values (empty for any value)`, Array.isArray(list) ? "too_many" : "invalid_type");
        return [];
      }
      list.forEach((v, i) => this.value(key.values, "equal_to", v, `${at}.values.${name}[${i}]`, true));
      return list;
    };
    return { from: side("from"), to: side("to") };
  }

  action(raw: RawAction, index: number): Action | null {
    const at = `actions[${index}]`;
    const name = raw.action_name as ActionName;
    const params = raw.action_params ?? [];
    if (!ACTION_NAMES.includes(name)) {
      this.fail(`${at}.action_name`, `is not a supported action (supported: ${ACTION_NAMES.join(", ")})`, "unsupported_action");
      return null;
    }
    const p = (i: number) => `${at}.action_params[${i}]`;
    const exactlyOne = () => {
      if (params.length !== 1) this.fail(`${at}.action_params`, "must hold exactly one value", params.length === 0 ? "required" : "too_many");
      return params.length >= 1;
    };
    if (PARAMETERLESS_ACTIONS.has(name)) {
      if (params.length > 0) this.fail(`${at}.action_params`, "must be empty: this action takes no parameters", "too_many");
      return { action_name: name, action_params: [] };
    }
    switch (name) {
      case "send_attachment":
        // Chatwoot's blob id: the id POST /automation_rules/attach_file answered
        if (exactlyOne()) {
          const id = asId(params[0]);
          if (id === null) this.fail(p(0), "must be the blob_id of a file attached with POST /automation_rules/attach_file", "invalid_type");
          else this.ruleFile(id, p(0));
        }
        break;
      case "assign_agent":
        if (exactlyOne() && params[0] !== NIL) {
          const id = asId(params[0]);
          if (id === null) this.fail(p(0), `must be an agent id or "${NIL}"`, "invalid_type");
          else this.agent(id, p(0));
        }
        break;
      case "assign_team": {
        if (params.length > 1) this.fail(`${at}.action_params`, "must hold at most one value", "too_many");
        const v = params[0];
        if (params.length === 1 && v !== NIL && v !== 0 && v !== "0") {
          const id = asId(v);
          if (id === null) this.fail(p(0), `must be a team id, 0 or "${NIL}"`, "invalid_type");
          else this.team(id, p(0));
        }
        break;
      }
      case "add_label":
      case "remove_label":
        if (params.length === 0) this.fail(`${at}.action_params`, "must name at least one label", "required");
        if (params.length > 100) this.fail(`${at}.action_params`, "must name at most 100 labels", "too_many");
        // labels are free-form tags: any name the conversation labels route takes, Label record or not
        params.slice(0, 100).forEach((v, i) => this.labelTag(v, p(i)));
        break;
      case "send_message":
      case "add_private_note":
        if (exactlyOne()) {
          const text = params[0];
          if (typeof text !== "string") this.fail(p(0), "must be the message text", "invalid_type");
          else if (text.trim() === "") this.fail(p(0), "must not be blank", "blank");
          else if (text.length > MAX_MESSAGE) this.fail(p(0), `is too long (maximum is ${MAX_MESSAGE} characters)`, "too_long");
        }
        break;
      case "send_webhook_event":
        if (exactlyOne()) {
          const url = params[0];
          if (typeof url !== "string" || !/^https?:\/\//i.test(url.trim()) || url.length > 2048) this.fail(p(0), "must be an http or https URL", "invalid_format");
          else if (this.lookups) refusedTarget(this.lookups.targetEnv, p(0), url.trim()).forEach((e) => this.fail(e.field, e.message, e.code));
        }
        break;
      case "change_status":
        if (exactlyOne()) this.value({ kind: "enum", names: ["open", "resolved", "pending", "snoozed"] }, "equal_to", params[0], p(0));
        break;
      case "change_priority":
        if (exactlyOne()) this.value({ kind: "enum", names: ["low", "medium", "high", "urgent"], nil: true }, "equal_to", params[0], p(0));
        break;
      case "send_email_to_team":
        if (exactlyOne()) this.teamEmail(params[0], p(0));
        break;
      case "send_email_transcript":
        if (exactlyOne()) this.transcriptRecipients(params[0], p(0));
        break;
    }
    return { action_name: name, action_params: params };
  }

  labelTag(v: unknown, field: string) {
    if (typeof v !== "string") return this.fail(field, "must be a label name", "invalid_type");
    const problem = labelTagProblem(v);
    if (problem === "too_long") this.fail(field, `is too long (maximum is ${LABEL_TAG_MAX} characters)`, "too_long");
    else if (problem === "blank") this.fail(field, "must not be blank", "blank");
  }

  teamEmail(v: unknown, field: string) {
    const shape = v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
    if (!shape) return this.fail(field, "must be an object with team_ids and message", "invalid_type");
    const ids = shape.team_ids;
    if (!Array.isArray(ids) || ids.length === 0) this.fail(`${field}.team_ids`, "must be a non-empty list of team ids", "required");
    else if (ids.length > 50) this.fail(`${field}.team_ids`, "must hold at most 50 teams", "too_many");
    else
      ids.forEach((t, i) => {
        const id = asId(t);
        if (id === null) this.fail(`${field}.team_ids[${i}]`, "must be a team id", "invalid_type");
        else this.team(id, `${field}.team_ids[${i}]`);
      });
    const message = shape.message;
    if (typeof message !== "string" || message.trim() === "") this.fail(`${field}.message`, "must not be blank", message === undefined ? "required" : "blank");
    else if (message.length > MAX_MESSAGE) this.fail(`${field}.message`, `is too long (maximum is ${MAX_MESSAGE} characters)`, "too_long");
  }

  transcriptRecipients(v: unknown, field: string) {
    if (typeof v !== "string") return this.fail(field, "must be a comma-separated list of email addresses", "invalid_type");
    const recipients = splitRecipients(v);
    if (recipients.length === 0) return this.fail(field, "must name at least one email address", "blank");
    if (recipients.length > MAX_TRANSCRIPT_RECIPIENTS) return this.fail(field, `must name at most ${MAX_TRANSCRIPT_RECIPIENTS} addresses`, "too_many");
    const bad = recipients.filter((r) => r !== CONTACT_EMAIL_VARIABLE && !EMAIL.test(r));
    if (bad.length) this.fail(field, `has addresses that are not valid: ${bad.slice(0, 5).join(", ")} (use email addresses or ${CONTACT_EMAIL_VARIABLE})`, "invalid_format");
  }
}

/** Chatwoot's transcript parameter: one comma-separated string, whitespace stripped. */
export function splitRecipients(value: string): string[] {
  return value
    .split(",")
    .map((r) => r.replace(/\s+/g, ""))
    .filter((r) => r !== "");
}

export type CheckedRule = { conditions: Condition[]; actions: Action[] };

/**
 * Walks the conditions and actions. Without `lookups` it only collects the references (and its errors
 * are not reported); with them it answers the errors and the rule as it will be stored.
 */
export function checkRule(raw: { conditions: RawCondition[]; actions: RawAction[] }, lookups: Lookups | null) {
  const walk = new Walk(lookups);
  const conditions = raw.conditions.map((c, i) => walk.condition(c, i, i === raw.conditions.length - 1));
  const actions = raw.actions.map((a, i) => walk.action(a, i));
  const rule: CheckedRule = {
    conditions: conditions.filter((c): c is Condition => c !== null),
    actions: actions.filter((a): a is Action => a !== null),
  };
  return { errors: walk.errors, refs: walk.refs, rule };
}

export { asBoolean, asDate, asId, asNumber, asText };
