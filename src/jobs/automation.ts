/**
 * The automation engine, the queue's side of automation rules (their storage, conditions and actions are
 * the domain's, src/domain/automation): for one event from the events queue, runs the account's active
 * rules for that event, in id order, each whose conditions hold; and delivers the webhook events rules
 * asked for.
 *
 * Cost per event, whatever the number of rules:
 * - round trip 1: the event, the account's active rules for its name (none when a rule caused the
 *   event), the runs already recorded for it, and the triggering message;
 * - round trip 2 (only when a rule is left to evaluate): the conversation, its contact, its labels, the
 *   account's custom attribute definitions and, when a condition reads messages of a conversation event,
 *   its latest messages.
 * Conditions are evaluated in memory. A rule that matches then costs what its actions cost through
 * their HTTP routes' domain functions, one more read of the context (so later rules see its changes) and,
 * once per event, the dispatch of the events the rules wrote.
 *
 * Exactly once under redelivery: each action's own write batch also upserts the rule's run for this
 * event (`automation_rule_runs`: actions done, outcomes), through a database handle that appends that
 * statement to the first batch of the action that writes. A redelivered event skips finished runs and
 * resumes an interrupted one after its last written action.
 */
import { SQLiteDeleteBase, SQLiteInsertBase, SQLiteUpdateBase } from "drizzle-orm/sqlite-core";
import { and, asc, desc, eq, is, sql } from "drizzle-orm";
import { type Database, type Statement, now, schema } from "../db/client";
import type { ChangedAttributes } from "../domain/kernel/outbox";
import type { OutboxEventRef, OutboxRow } from "../domain/kernel/outbox";
import type { ConversationRow, MessageRow } from "../domain/conversations/rows";
import { batchNamed, write } from "../domain/kernel/batch";
import { DomainError } from "../domain/kernel/errors";
import type { AccountScope } from "../domain/kernel/scope";
import { jobScope } from "./scope";
import { runAction } from "../domain/automation/actions";
import { type EvaluationContext, ruleMatches } from "../domain/automation/conditions";
import { resolveKey } from "../domain/automation/keys";
import { type AutomationRuleRow, type AutomationRuleRunRow, actionsOf, conditionsOf } from "../domain/automation/rows";
import { isRuleWebhookEvent } from "../domain/automation/webhook-adapter";
import { deliverRuleWebhook } from "./rule-webhooks";
import { isAutoReplyEmail } from "../domain/conversations/new-messages";

const { eventOutbox, automationRules, automationRuleRuns, messages, conversations, contacts, taggings, customAttributeDefinitions } = schema;

/** How many of a conversation's latest messages conditions on message keys see for conversation events. */
export const CONVERSATION_MESSAGES_SCANNED = 100;

/** Runs the automation side of one event message; safe to repeat (rule runs are recorded per event). */
export async function runAutomationForEvent(db: Database, env: Env, { accountId, eventId }: OutboxEventRef): Promise<void> {
  const ofEvent = (column: typeof eventOutbox.eventName | typeof eventOutbox.causedByAutomation) =>
    sql`(SELECT ${column} FROM ${eventOutbox} WHERE ${eventOutbox.id} = ${eventId} AND ${eventOutbox.accountId} = ${accountId})`;
  const first = await batchNamed(db, {
    events: db.select().from(eventOutbox).where(and(eq(eventOutbox.accountId, accountId), eq(eventOutbox.id, eventId))),
    rules: db
      .select()
      .from(automationRules)
      .where(
        and(
          eq(automationRules.accountId, accountId),
          sql`${automationRules.eventName} = ${ofEvent(eventOutbox.eventName)}`,
          eq(automationRules.active, true),
          sql`${ofEvent(eventOutbox.causedByAutomation)} = 0`,
        ),
      )
      .orderBy(asc(automationRules.id)),
    runs: db.select().from(automationRuleRuns).where(and(eq(automationRuleRuns.accountId, accountId), eq(automationRuleRuns.eventId, eventId))),
    trigger: db
      .select()
      .from(messages)
      .where(
        and(
          sql`${messages.id} = (SELECT ${eventOutbox.subjectId} FROM ${eventOutbox} WHERE ${eventOutbox.id} = ${eventId} AND ${eventOutbox.accountId} = ${accountId} AND ${eventOutbox.subjectType} = 'Message')`,
          eq(messages.accountId, accountId),
        ),
      ),
  });
  const event = first.events[0];
  if (!event) return;
  if (isRuleWebhookEvent(event.eventName)) return deliverRuleWebhook(db, env, event);
  if (event.causedByAutomation) return;

  const runs = new Map(first.runs.map((run) => [run.ruleId, run]));
  const pending = first.rules.filter((rule) => !runs.get(rule.id)?.finished);
  if (pending.length === 0) return;
  const trigger = first.trigger[0] ?? null;
  const conversationId = event.subjectType === "Conversation" ? event.subjectId : trigger?.conversationId;
  if (conversationId === undefined) return;

  const load = () => loadContext(db, event, conversationId, trigger, pending);
  let context = await load();
  if (!context || skipsAutomation(event.eventName, context.conversation, trigger)) return;
  for (const [index, rule] of pending.entries()) {
    const run = runs.get(rule.id) ?? null;
    if (!run && !ruleMatches(conditionsOf(rule), context)) continue;
    await runRule(db, env, event, rule, context.conversation, run);
    if (index < pending.length - 1) {
      context = await load();
      if (!context) break;
    }
  }
}

/** Chatwoot's listener leaves conversations opened by an auto-reply alone, and the auto-reply mails themselves. */
function skipsAutomation(eventName: string, conversation: ConversationRow, trigger: MessageRow | null) {
  if (eventName === "message_created" && trigger && isAutoReplyEmail(trigger)) return true;
  return (eventName === "conversation_created" || eventName === "conversation_opened") && Boolean(conversation.additionalAttributes.auto_reply);
}

async function loadContext(db: Database, event: OutboxRow, conversationId: number, trigger: MessageRow | null, rules: AutomationRuleRow[]): Promise<EvaluationContext | null> {
  const forMessage = event.eventName === "message_created";
  // message keys on a conversation event read the conversation's messages; known keys only, so cheap to tell
  const readsMessages = !forMessage && rules.some((rule) => conditionsOf(rule).some((c) => resolveKey(c, [])?.source.from === "message"));
  const accountId = event.accountId;
  const read = await batchNamed(db, {
    conversations: db.select().from(conversations).where(and(eq(conversations.accountId, accountId), eq(conversations.id, conversationId))),
    contacts: db
      .select()
      .from(contacts)
      .where(and(eq(contacts.accountId, accountId), sql`${contacts.id} = (SELECT ${conversations.contactId} FROM ${conversations} WHERE ${conversations.id} = ${conversationId} AND ${conversations.accountId} = ${accountId})`)),
    labels: db
      .select({ tag: taggings.tag })
      .from(taggings)
      .where(and(eq(taggings.accountId, accountId), eq(taggings.taggableType, "Conversation"), eq(taggings.taggableId, conversationId)))
      .orderBy(asc(taggings.id)),
    definitions: db.select().from(customAttributeDefinitions).where(eq(customAttributeDefinitions.accountId, accountId)),
    messages: db
      .select()
      .from(messages)
      .where(and(eq(messages.accountId, accountId), eq(messages.conversationId, readsMessages ? conversationId : 0)))
      .orderBy(desc(messages.id))
      .limit(CONVERSATION_MESSAGES_SCANNED),
  });
  const conversation = read.conversations[0];
  if (!conversation) return null;
  return {
    conversation,
    contact: read.contacts[0] ?? null,
    labels: read.labels.map((l) => l.tag),
    messages: forMessage ? (trigger ? [trigger] : []) : read.messages,
    changedAttributes: (event.data.changed_attributes as ChangedAttributes | undefined) ?? null,
    definitions: read.definitions,
    now: now(),
  };
}

type Outcome = { action_name: string; status: "done" | "failed"; error?: string };

/** Runs a rule's actions from where its run for this event stopped (the start, for a new run). */
async function runRule(db: Database, env: Env, event: OutboxRow, rule: AutomationRuleRow, conversation: ConversationRow, run: AutomationRuleRunRow | null) {
  const actions = actionsOf(rule);
  const outcomes = [...((run?.outcomes ?? []) as Outcome[])];
  for (let index = run?.actionsDone ?? 0; index < actions.length; index++) {
    const action = actions[index];
    const progress = (outcome: Outcome) => runStatement(db, event, rule, index + 1, [...outcomes, outcome], index + 1 === actions.length);
    const recording = recordingDb(db, () => progress({ action_name: action.action_name, status: "done" }));
    const scope: AccountScope = {
      ...jobScope(recording.db, env),
      accountId: rule.accountId,
      actor: { type: "automation_rule", ruleId: rule.id, name: rule.name },
      // a rule acts on every conversation of its account, as an administrator's route would
      role: "administrator",
    };
    let outcome: Outcome = { action_name: action.action_name, status: "done" };
    try {
      await runAction({ scope, rule, conversation, eventName: event.eventName }, action);
    } catch (error) {
      // a refusal (agent not in the inbox, label gone...) is this action's outcome; anything else is ours,
      // and the queue retries the event from this action
      if (!(error instanceof DomainError)) throw error;
      outcome = { action_name: action.action_name, status: "failed", error: error.description };
      console.log(JSON.stringify({ level: "warn", what: "automation_action_failed", rule_id: rule.id, event_id: event.id, action: action.action_name, error: error.description }));
    }
    outcomes.push(outcome);
    if (!recording.attached() || outcome.status === "failed") await write(db, [progress(outcome)]);
  }
}

function runStatement(db: Database, event: OutboxRow, rule: AutomationRuleRow, actionsDone: number, outcomes: Outcome[], finished: boolean) {
  const at = now();
  const progress = { actionsDone, outcomes, finished, updatedAt: at };
  return db
    .insert(automationRuleRuns)
    .values({ accountId: rule.accountId, ruleId: rule.id, eventId: event.id, createdAt: at, ...progress })
    .onConflictDoUpdate({ target: [automationRuleRuns.eventId, automationRuleRuns.ruleId], set: progress });
}

const isWrite = (statement: unknown) => is(statement, SQLiteInsertBase) || is(statement, SQLiteUpdateBase) || is(statement, SQLiteDeleteBase);

/**
 * The database as an action sees it: the first batch that writes also runs `record()` (appended last, its
 * result removed), so the action's change and the rule's progress commit together or not at all.
 */
function recordingDb(db: Database, record: () => Statement) {
  let attached = false;
  const recording = Object.create(db) as Database;
  const batch = async (statements: Statement[]) => {
    if (attached || !statements.some(isWrite)) return db.batch(statements as [Statement, ...Statement[]]);
    const results = await db.batch([...statements, record()] as unknown as [Statement, ...Statement[]]);
    attached = true;
    return results.slice(0, statements.length);
  };
  Object.defineProperty(recording, "batch", { value: batch });
  return { db: recording, attached: () => attached };
}
