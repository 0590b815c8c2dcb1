/**
 * CSAT surveys. When a conversation is resolved in an inbox with `csat_survey_enabled`, the contact gets
 * one `input_csat` template message (once per conversation, as Chatwoot), inserted through the one
 * message insert (new-messages.ts) in the batch of the resolution, with its `message_created` event and
 * the survey's row in `csat_survey_responses`. The contact answers through the public API's message
 * update (widget/conversations.ts), which completes that row (`csatAnswerStatement`).
 */
import { and, eq, sql } from "drizzle-orm";
import { type Statement, lastInsertedId, now, schema } from "../../db/client";
import { CONTENT_TYPE, CONVERSATION_STATUS, MESSAGE_TYPE } from "../kernel/enums";
import { type AccountScope } from "../kernel/scope";
import { conversationColumn } from "./access";
import { messageEventStatements } from "./events";
import { messageInsertStatements } from "./new-messages";
import { type ConversationRow } from "./rows";

const { conversations, inboxes, messages, taggings, csatSurveyResponses } = schema;

/** Chatwoot's default survey text. */
export const CSAT_DEFAULT_MESSAGE = "Please rate the conversation";

/** Reads that decide whether resolving sends the survey: the inbox's settings, an earlier survey, the labels. */
export function csatSurveyQueries(scope: AccountScope, displayId: number) {
  const { db } = scope;
  const conversationId = conversationColumn(scope, displayId, conversations.id);
  return [
    db
      .select({ enabled: inboxes.csatSurveyEnabled, config: inboxes.csatConfig })
      .from(inboxes)
      .where(and(eq(inboxes.accountId, scope.accountId), sql`${inboxes.id} = ${conversationColumn(scope, displayId, conversations.inboxId)}`)),
    db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.accountId, scope.accountId), sql`${messages.conversationId} = ${conversationId}`, eq(messages.messageType, MESSAGE_TYPE.template), eq(messages.contentType, CONTENT_TYPE.input_csat)))
      .limit(1),
    db.select({ tag: taggings.tag }).from(taggings).where(and(eq(taggings.accountId, scope.accountId), eq(taggings.taggableType, "Conversation"), sql`${taggings.taggableId} = ${conversationId}`)),
  ] as const;
}

type SurveyReads = [
  Array<{ enabled: boolean; config: Record<string, unknown> }>,
  Array<{ id: number }>,
  Array<{ tag: string }>,
];

/** The inbox's survey rule on labels (`csat_config.survey_rules`): contains / does_not_contain any of `values`. */
function allowedByRules(config: Record<string, unknown>, labels: string[]): boolean {
  const rules = config.survey_rules as { operator?: unknown; values?: unknown } | undefined;
  if (!rules || typeof rules !== "object" || !Array.isArray(rules.values) || rules.values.length === 0) return true;
  const wanted = rules.values.map((v) => String(v).toLowerCase());
  const has = labels.some((l) => wanted.includes(l.toLowerCase()));
  if (rules.operator === "contains") return has;
  if (rules.operator === "does_not_contain") return !has;
  return true;
}

/**
 * When the change from `before` to `after` resolves the conversation and the inbox asks for it: the
 * survey message (its insert answers the row), then its event and its response row. Must come after
 * every other message insert of the batch (the event and the row name the last inserted message).
 */
export function csatSurveyStatements(scope: AccountScope, before: ConversationRow, after: ConversationRow, reads: SurveyReads, at = now()) {
  const [inboxRows, earlier, tags] = reads;
  const inbox = inboxRows[0];
  const resolving = before.status !== CONVERSATION_STATUS.resolved && after.status === CONVERSATION_STATUS.resolved;
  if (!resolving || !inbox?.enabled || earlier.length > 0) return null;
  if (!allowedByRules(inbox.config, tags.map((t) => t.tag))) return null;
  const configured = typeof inbox.config.message === "string" ? inbox.config.message.trim() : "";
  const displayType = typeof inbox.config.display_type === "string" ? inbox.config.display_type : "emoji";
  const [insert, ...index] = messageInsertStatements(
    scope,
    after,
    { messageType: MESSAGE_TYPE.template, sender: null, content: configured || CSAT_DEFAULT_MESSAGE, contentType: "input_csat", contentAttributes: { display_type: displayType } },
    at,
  );
  const messageId = lastInsertedId(messages);
  const rest: Statement[] = [
    ...index,
    ...messageEventStatements(scope, "message_created", messageId, MESSAGE_TYPE.template),
    scope.db.insert(csatSurveyResponses).values({
      accountId: scope.accountId,
      conversationId: after.id,
      messageId,
      inboxId: after.inboxId,
      teamId: after.teamId,
      contactId: after.contactId,
      assignedAgentId: after.assigneeId,
      sentAt: at,
      updatedAt: at,
    }),
  ];
  return { insert, rest };
}

/**
 * The contact's answer to the survey `message` of `conversation`: its rating and feedback (a later answer
 * replaces them). A survey message written some other way (an input_csat message posted through the API)
 * gets its row here.
 */
export function csatAnswerStatement(
  scope: AccountScope,
  conversation: ConversationRow,
  message: { id: number; createdAt: number },
  answer: { rating: number; feedbackMessage: string | null },
  at = now(),
) {
  return scope.db
    .insert(csatSurveyResponses)
    .values({
      accountId: scope.accountId,
      conversationId: conversation.id,
      messageId: message.id,
      inboxId: conversation.inboxId,
      teamId: conversation.teamId,
      contactId: conversation.contactId,
      assignedAgentId: conversation.assigneeId,
      rating: answer.rating,
      feedbackMessage: answer.feedbackMessage,
      sentAt: message.createdAt,
      answeredAt: at,
      updatedAt: at,
    })
    .onConflictDoUpdate({
      target: csatSurveyResponses.messageId,
      set: {
        rating: answer.rating,
        feedbackMessage: answer.feedbackMessage,
        answeredAt: sql`coalesce(${csatSurveyResponses.answeredAt}, ${at})`,
        updatedAt: at,
      },
    });
}
