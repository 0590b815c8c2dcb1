/**
 * What a delivery's final failure does beyond the log, as Chatwoot does it (reference §3.4):
 * - an API inbox whose callback never took a message event: the message is marked `failed` with
 *   `external_error` (which emits `message_updated`, as in Chatwoot);
 * - an agent bot that never took a message event of a pending conversation: the conversation moves to
 *   open with an activity message, so a person sees it.
 * The queue's job that saw the failure (src/jobs/deliveries.ts) dispatches the events this writes.
 */
import { and, eq, sql } from "drizzle-orm";
import { type Statement, schema } from "../../db/client";
import { batch, write } from "../kernel/batch";
import { CONVERSATION_STATUS, MESSAGE_STATUS, MESSAGE_STATUSES } from "../kernel/enums";
import { type TransportScope, systemScope } from "../kernel/scope";
import { changeStatements } from "./changes";
import { messageEventStatements } from "./events";
import { activityMessageStatements } from "./new-messages";

const { messages, conversations, webhookDeliveries } = schema;

type FailedDelivery = Pick<typeof webhookDeliveries.$inferSelect, "accountId" | "targetType" | "eventName" | "subjectType" | "subjectId">;

const MESSAGE_EVENTS = new Set(["message_created", "message_updated"]);

export const BOT_FAILURE_ACTIVITY = "Agent bot could not be reached, so the conversation was moved to open";

/** What the last attempt said (a webhook attempt's outcome carries it). */
type FinalOutcome = { error: string | null };

/** Answers whether it wrote anything (and so events that want dispatching). */
export async function onFinalFailure(service: TransportScope, delivery: FailedDelivery, outcome: FinalOutcome, at: number): Promise<boolean> {
  const { db } = service;
  if (delivery.subjectType !== "Message" || delivery.subjectId === null || !MESSAGE_EVENTS.has(delivery.eventName)) return false;
  if (delivery.targetType !== "api_inbox" && delivery.targetType !== "agent_bot") return false;
  const scope = systemScope(service, delivery.accountId);
  const [messageRows, conversationRows] = await batch(db, [
    db.select().from(messages).where(and(eq(messages.id, delivery.subjectId), eq(messages.accountId, delivery.accountId))),
    db
      .select()
      .from(conversations)
      .where(
        and(
          eq(conversations.accountId, delivery.accountId),
          sql`${conversations.id} = (SELECT ${messages.conversationId} FROM ${messages} WHERE ${messages.id} = ${delivery.subjectId} AND ${messages.accountId} = ${delivery.accountId})`,
        ),
      ),
  ]);
  const message = messageRows[0];
  const conversation = conversationRows[0];
  if (!message || !conversation) return false;
  const writes: Statement[] = [];

  if (delivery.targetType === "api_inbox" && message.status !== MESSAGE_STATUS.failed) {
    const externalError = outcome.error ?? "the inbox's webhook_url did not accept the message";
    writes.push(
      db
        .update(messages)
        .set({ status: MESSAGE_STATUS.failed, contentAttributes: { ...message.contentAttributes, external_error: externalError }, updatedAt: at })
        .where(and(eq(messages.accountId, message.accountId), eq(messages.id, message.id))),
      ...messageEventStatements(scope, "message_updated", message.id, message.messageType, {
        changed_attributes: [{ status: { previous_value: MESSAGE_STATUSES[message.status], current_value: "failed" } }],
      }),
    );
  }
  if (delivery.targetType === "agent_bot" && conversation.status === CONVERSATION_STATUS.pending) {
    const { after, statements } = changeStatements(scope, conversation, { status: CONVERSATION_STATUS.open }, [], at);
    writes.push(...statements, ...activityMessageStatements(scope, after, BOT_FAILURE_ACTIVITY, at));
  }
  if (writes.length === 0) return false;
  await write(db, writes);
  return true;
}
