/** The rows the automation aggregate owns, and the stored shape of a rule's conditions and actions. */
import { schema } from "../../db/client";
import type { ActionName, FilterOperator } from "./vocabulary";

export type AutomationRuleRow = typeof schema.automationRules.$inferSelect;
export type AutomationRuleRunRow = typeof schema.automationRuleRuns.$inferSelect;
export type OutgoingEmailRow = typeof schema.outgoingEmails.$inferSelect;

export type ChangedValues = { from: unknown[]; to: unknown[] };

/** A condition as stored after validation: `query_operator` upper-cased, null on the last condition. */
export type Condition = {
  attribute_key: string;
  filter_operator: FilterOperator;
  values: unknown[] | ChangedValues;
  query_operator: "AND" | "OR" | null;
  custom_attribute_type?: "conversation_attribute" | "contact_attribute";
};

export type Action = { action_name: ActionName; action_params: unknown[] };

export const conditionsOf = (rule: AutomationRuleRow) => rule.conditions as unknown as Condition[];
export const actionsOf = (rule: AutomationRuleRow) => rule.actions as unknown as Action[];
