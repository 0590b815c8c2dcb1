import { z } from "zod";
import { CUSTOM_ATTRIBUTE_TYPES, RULE_EVENTS } from "../domain/automation/vocabulary";
import { Bool, LongText, ShortText, wrapped } from "./common";
import { seconds } from "./responses";

/**
 * The shapes of a rule's conditions and actions. What they mean (known keys, operators allowed for each
 * key, values of the right kind, ids of the account, the action catalogue) is checked by the domain,
 * which reports each problem at its path.
 */
const Condition = z.object({
  attribute_key: z.string().trim().min(1).max(100),
  filter_operator: z.string().trim().min(1).max(50),
  /** a list; for attribute_changed `{ from: [...], to: [...] }` */
  values: z.unknown().optional(),
  query_operator: z.string().trim().max(10).nullish(),
  custom_attribute_type: z.enum(CUSTOM_ATTRIBUTE_TYPES).nullish().transform((v) => v ?? undefined),
});

const Action = z.object({
  action_name: z.string().trim().min(1).max(100),
  action_params: z.array(z.unknown()).max(100).nullish().transform((v) => v ?? []),
});

const fields = {
  name: ShortText.trim().min(1),
  description: LongText.nullish(),
  event_name: z.enum(RULE_EVENTS),
  active: Bool,
  conditions: z.array(Condition).min(1).max(50),
  actions: z.array(Action).min(1).max(50),
};

/** POST /automation_rules */
export const AutomationRuleCreate = wrapped("automation_rule", z.object({ ...fields, active: Bool.optional() }));

/** PATCH/PUT /automation_rules/:id: the given fields replace the stored ones */
export const AutomationRuleUpdate = wrapped("automation_rule", z.object(fields).partial());

/**
 * An automation rule (src/views/automation-rules.ts): the specification's record, `created_on` in Unix
 * seconds, Chatwoot's (empty) `files`, and the secret that signs its send_webhook_event deliveries
 * (only administrators see rules).
 */
export const AutomationRule = z
  .looseObject({
    id: z.number().int(),
    account_id: z.number().int(),
    name: z.string(),
    description: z.string().nullable(),
    event_name: z.enum(RULE_EVENTS),
    active: z.boolean(),
    conditions: z.array(z.looseObject({ attribute_key: z.string(), filter_operator: z.string() })),
    actions: z.array(z.looseObject({ action_name: z.string() })),
    created_on: seconds,
    files: z.array(z.unknown()).describe("always empty: a rule's files are named by id in its send_attachment actions"),
    webhook_secret: z.string(),
  })
  .meta({ id: "AutomationRule" });

/** POST /automation_rules/attach_file: Chatwoot's `{blob_key, blob_id}`, and the file's signed URL. */
export const RuleFile = z.looseObject({
  blob_id: z.number().int().describe("goes in a send_attachment action's params"),
  blob_key: z.string(),
  filename: z.string(),
  file_type: z.string(),
  file_url: z.string(),
});
