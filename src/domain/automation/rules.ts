/**
 * Automation rules of an account: list, show, create, update, delete and clone. Administrators only (the
 * routes say so). Every save is validated against the vocabulary and the account's own agents, teams,
 * inboxes, labels and custom attributes; see ./validation.ts.
 */
import { and, asc, eq } from "drizzle-orm";
import { inJsonList, now, schema } from "../../db/client";
import { randomToken } from "../identity/keys";
import { batchNamed } from "../kernel/batch";
import { invalid, notFound } from "../kernel/errors";
import type { AccountScope } from "../kernel/scope";
import type { AutomationRuleRow } from "./rows";
import { type CheckedRule, type RawAction, type RawCondition, checkRule } from "./validation";
import type { RuleEvent } from "./vocabulary";

const { automationRules, automationRuleFiles, customAttributeDefinitions, accountUsers, teams, inboxes, labels } = schema;

export type RuleInput = {
  name?: string;
  description?: string | null;
  eventName?: RuleEvent;
  active?: boolean;
  conditions?: RawCondition[];
  actions?: RawAction[];
};

const inAccount = (scope: AccountScope) => eq(automationRules.accountId, scope.accountId);

/** One round trip: the rule's references as the account holds them, and its custom attribute definitions. */
async function lookups(scope: AccountScope, raw: { conditions: RawCondition[]; actions: RawAction[] }) {
  const { db, accountId } = scope;
  const { refs } = checkRule(raw, null);
  const found = await batchNamed(db, {
    definitions: db.select().from(customAttributeDefinitions).where(eq(customAttributeDefinitions.accountId, accountId)),
    agents: db.select({ id: accountUsers.userId }).from(accountUsers).where(and(eq(accountUsers.accountId, accountId), inJsonList(accountUsers.userId, refs.agentIds))),
    teams: db.select({ id: teams.id }).from(teams).where(and(eq(teams.accountId, accountId), inJsonList(teams.id, refs.teamIds))),
    inboxes: db.select({ id: inboxes.id }).from(inboxes).where(and(eq(inboxes.accountId, accountId), inJsonList(inboxes.id, refs.inboxIds))),
    labels: db.select({ title: labels.title }).from(labels).where(and(eq(labels.accountId, accountId), inJsonList(labels.title, refs.labels))),
    ruleFiles: db
      .select({ id: automationRuleFiles.id })
      .from(automationRuleFiles)
      .where(and(eq(automationRuleFiles.accountId, accountId), inJsonList(automationRuleFiles.id, refs.ruleFileIds))),
  });
  return {
    definitions: found.definitions,
    agentIds: new Set(found.agents.map((r) => r.id)),
    teamIds: new Set(found.teams.map((r) => r.id)),
    inboxIds: new Set(found.inboxes.map((r) => r.id)),
    labels: new Set(found.labels.map((r) => r.title.toLowerCase())),
    ruleFileIds: new Set(found.ruleFiles.map((r) => r.id)),
    targetEnv: scope.env,
  };
}

/** The conditions and actions as they will be stored, or a 422 naming every problem. */
async function validated(scope: AccountScope, raw: { conditions: RawCondition[]; actions: RawAction[] }) {
  const { errors, rule } = checkRule(raw, await lookups(scope, raw));
  if (errors.length) throw invalid(errors);
  return rule;
}

/** A macro's actions, checked exactly as a rule's are (src/domain/macros): the stored list, or a 422. */
export async function validatedActions(scope: AccountScope, actions: RawAction[]): Promise<CheckedRule["actions"]> {
  return (await validated(scope, { conditions: [], actions })).actions;
}

export async function listRules(scope: AccountScope): Promise<AutomationRuleRow[]> {
  const { rows } = await batchNamed(scope.db, { rows: scope.db.select().from(automationRules).where(inAccount(scope)).orderBy(asc(automationRules.id)) });
  return rows;
}

export async function getRule(scope: AccountScope, id: number): Promise<AutomationRuleRow> {
  const { rows } = await batchNamed(scope.db, { rows: scope.db.select().from(automationRules).where(and(inAccount(scope), eq(automationRules.id, id))) });
  if (!rows[0]) throw notFound("Automation rule", id);
  return rows[0];
}

export async function createRule(scope: AccountScope, input: Required<Pick<RuleInput, "name" | "eventName" | "conditions" | "actions">> & RuleInput) {
  const rule = await validated(scope, { conditions: input.conditions, actions: input.actions });
  return insertRule(scope, {
    name: input.name,
    description: input.description ?? null,
    eventName: input.eventName,
    active: input.active ?? true,
    conditions: rule.conditions,
    actions: rule.actions,
  });
}

/** PATCH and PUT: the given fields replace the stored ones (conditions and actions as whole lists). */
export async function updateRule(scope: AccountScope, id: number, input: RuleInput): Promise<AutomationRuleRow> {
  const current = await getRule(scope, id);
  const reshaped = input.conditions !== undefined || input.actions !== undefined;
  const rule = reshaped
    ? await validated(scope, {
        conditions: input.conditions ?? (current.conditions as unknown as RawCondition[]),
        actions: input.actions ?? (current.actions as unknown as RawAction[]),
      })
    : null;
  const { rows } = await batchNamed(scope.db, {
    rows: scope.db
      .update(automationRules)
      .set({
        ...(input.name !== undefined && { name: input.name }),
        ...(input.description !== undefined && { description: input.description }),
        ...(input.eventName !== undefined && { eventName: input.eventName }),
        ...(input.active !== undefined && { active: input.active }),
        ...(rule && { conditions: rule.conditions, actions: rule.actions }),
        updatedAt: now(),
      })
      .where(and(inAccount(scope), eq(automationRules.id, id)))
      .returning(),
  });
  if (!rows[0]) throw notFound("Automation rule", id);
  return rows[0];
}

export async function deleteRule(scope: AccountScope, id: number): Promise<void> {
  const { rows } = await batchNamed(scope.db, {
    rows: scope.db.delete(automationRules).where(and(inAccount(scope), eq(automationRules.id, id))).returning({ id: automationRules.id }),
  });
  if (!rows[0]) throw notFound("Automation rule", id);
}

/** A copy of the rule under the same name (as Chatwoot's clone), with its own webhook secret. */
export async function cloneRule(scope: AccountScope, id: number): Promise<AutomationRuleRow> {
  const source = await getRule(scope, id);
  const { name, description, eventName, active, conditions, actions } = source;
  return insertRule(scope, { name, description, eventName, active, conditions, actions });
}

type RuleFields = Pick<AutomationRuleRow, "name" | "description" | "eventName" | "active" | "conditions" | "actions">;

/** Stores a new rule of the account, with a webhook secret of its own. */
async function insertRule(scope: AccountScope, fields: RuleFields): Promise<AutomationRuleRow> {
  const at = now();
  const { rows } = await batchNamed(scope.db, {
    rows: scope.db
      .insert(automationRules)
      .values({ accountId: scope.accountId, ...fields, webhookSecret: randomToken(32), createdAt: at, updatedAt: at })
      .returning(),
  });
  return rows[0];
}
