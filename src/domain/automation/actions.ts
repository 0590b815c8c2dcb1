/**
 * A rule's actions. Each one goes through the domain function its HTTP route uses (toggle_status,
 * assignments, labels, messages, mute, priority), with the rule as the actor, so it makes the same
 * change, the same events and the same activity messages; only the two email actions and the webhook
 * action, which no route has, write here. An action that throws is recorded by the engine and skipped.
 */
import { and, eq, inArray } from "drizzle-orm";
import { schema } from "../../db/client";
import { assignConversation, conversationLabels, replaceLabels, setMuted, toggleStatus, togglePriority } from "../conversations/conversations";
import { createMessage } from "../conversations/messages";
import { renderTranscript, spendTranscriptAllowance } from "../conversations/transcript";
import type { ConversationRow } from "../conversations/rows";
import { batchNamed, write } from "../kernel/batch";
import { CONVERSATION_STATUS, CONVERSATION_STATUSES, PRIORITIES, enumValue } from "../kernel/enums";
import { invalidField } from "../kernel/errors";
import { outgoingEmailStatement } from "../kernel/outgoing-email";
import type { AccountScope } from "../kernel/scope";
import type { Action } from "./rows";
import { CONTACT_EMAIL_VARIABLE, asId, splitRecipients } from "./validation";
import { NIL } from "./vocabulary";
import { ruleWebhookStatement } from "./webhook-adapter";
import { ruleFileForMessage } from "./rule-files";

const { teamMembers, teams, users } = schema;

export type RuleAct = {
  /** the rule (or the macro) as the actor; a rule's db records its progress with each write (see src/jobs/automation.ts) */
  scope: AccountScope;
  /** null when a macro runs the action (src/domain/macros): macros take no action that names a rule */
  rule: { id: number; name: string } | null;
  conversation: ConversationRow;
  eventName: string;
};

export async function runAction(act: RuleAct, action: Action): Promise<void> {
  const { scope, conversation } = act;
  const displayId = conversation.displayId;
  const params = action.action_params;
  const status = (name: (typeof CONVERSATION_STATUSES)[number]) => toggleStatus(scope, displayId, { status: CONVERSATION_STATUS[name] });
  switch (action.action_name) {
    case "assign_agent":
      await assignConversation(scope, displayId, { assigneeId: params[0] === NIL ? null : asId(params[0]) });
      return;
    case "remove_assigned_agent":
      await assignConversation(scope, displayId, { assigneeId: null });
      return;
    case "assign_team": {
      const id = params.length === 0 || params[0] === NIL ? null : asId(params[0]);
      await assignConversation(scope, displayId, { teamId: id });
      return;
    }
    case "remove_assigned_team":
      await assignConversation(scope, displayId, { teamId: null });
      return;
    case "add_label":
    case "remove_label": {
      const current = await conversationLabels(scope, displayId);
      const named = params.map((p) => String(p).trim().toLowerCase());
      const next = action.action_name === "add_label" ? [...current, ...named.filter((l) => !current.includes(l))] : current.filter((l) => !named.includes(l));
      await replaceLabels(scope, displayId, next);
      return;
    }
    case "send_message":
    case "add_private_note":
      await createMessage(scope, displayId, {
        content: String(params[0]),
        messageType: "outgoing",
        private: action.action_name === "add_private_note",
      });
      return;
    case "send_webhook_event":
      await write(scope.db, [ruleWebhookStatement(scope, ruleOf(act).id, String(params[0]).trim(), { eventName: act.eventName, conversationId: conversation.id })]);
      return;
    case "mute_conversation":
      await setMuted(scope, displayId, true);
      return;
    case "snooze_conversation":
      await status("snoozed");
      return;
    case "resolve_conversation":
      await status("resolved");
      return;
    case "open_conversation":
      await status("open");
      return;
    case "pending_conversation":
      await status("pending");
      return;
    case "change_status":
      await status(String(params[0]).toLowerCase() as (typeof CONVERSATION_STATUSES)[number]);
      return;
    case "change_priority": {
      const name = String(params[0]).toLowerCase();
      await togglePriority(scope, displayId, name === NIL ? null : enumValue(PRIORITIES, name as (typeof PRIORITIES)[number]));
      return;
    }
    case "send_email_to_team":
      await emailTeams(act, params[0] as { team_ids: unknown[]; message: string });
      return;
    case "send_email_transcript":
      await emailTranscript(act, String(params[0]));
      return;
    case "send_attachment":
      await createMessage(scope, displayId, {
        messageType: "outgoing",
        files: [await ruleFileForMessage(scope, asId(params[0]) ?? 0)],
      });
      return;
  }
}

/** The acting rule, for the actions only rules take (a macro's save refuses them). */
function ruleOf(act: RuleAct): { id: number; name: string } {
  if (!act.rule) throw invalidField("action_name", "this action runs only in an automation rule", "unsupported_action");
  return act.rule;
}

function emailStatement(act: RuleAct, kind: string, recipients: string[], subject: string, body: string) {
  return outgoingEmailStatement(act.scope.db, {
    kind,
    recipients,
    subject,
    body,
    accountId: act.scope.accountId,
    conversationId: act.conversation.id,
    automationRuleId: act.rule?.id ?? null,
  });
}

/** Chatwoot's team notification: every member of the teams (of this account) gets the rule's message. */
async function emailTeams(act: RuleAct, params: { team_ids: unknown[]; message: string }) {
  const { db, accountId } = act.scope;
  const teamIds = params.team_ids.map(asId).filter((id): id is number => id !== null);
  const { members } = await batchNamed(db, {
    members: db
      .select({ email: users.email })
      .from(teamMembers)
      .innerJoin(teams, and(eq(teams.id, teamMembers.teamId), eq(teams.accountId, accountId)))
      .innerJoin(users, eq(users.id, teamMembers.userId))
      .where(and(eq(teamMembers.accountId, accountId), inArray(teamMembers.teamId, teamIds))),
  });
  const recipients = [...new Set(members.map((m) => m.email))];
  if (recipients.length === 0) throw invalidField("team_ids", "the teams have no members to email", "no_recipients");
  const subject = `Conversation #${act.conversation.displayId}: a message from automation rule "${ruleOf(act).name}"`;
  await write(db, [emailStatement(act, "team_notification", recipients, subject, params.message)]);
}

/** The conversation's transcript (conversations/transcript.ts) to the given addresses. */
async function emailTranscript(act: RuleAct, param: string) {
  const { contact, subject, body } = await renderTranscript(act.scope, act.conversation);
  const recipients = [...new Set(splitRecipients(param).flatMap((r) => (r === CONTACT_EMAIL_VARIABLE ? (contact?.email ? [contact.email] : []) : [r.toLowerCase()])))];
  if (recipients.length === 0) throw invalidField("action_params", "no recipient: the contact has no email address", "no_recipients");
  await spendTranscriptAllowance(act.scope, recipients);
  await write(act.scope.db, [emailStatement(act, "transcript", recipients, subject, body)]);
}
