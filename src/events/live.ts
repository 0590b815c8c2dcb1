/**
 * Live events: events that change nothing stored, so they have no outbox row (toggling typing writes
 * nothing to D1). The conversation's room sends them straight to the events queue (`sendTypingEvent`)
 * as one message that carries the whole event; the consumer fans them out to subscribed webhooks like
 * outbox events.
 * Their ids are negative, so they never meet an outbox id, and random, so that a queue message delivered
 * twice still makes one delivery per webhook.
 */
import type { OutboxRow } from "../domain/kernel/outbox";

export type LiveEventMessage = {
  kind: "live_event";
  event: Pick<OutboxRow, "id" | "accountId" | "eventName" | "subjectType" | "subjectId" | "data" | "createdAt">;
};

/** A random negative id below any outbox id, within JavaScript's safe integers. */
export function liveEventId(): number {
  const [high, low] = crypto.getRandomValues(new Uint32Array(2));
  return -((high & 0x1fffff) * 2 ** 32 + low + 1);
}

/** conversation_typing_on / conversation_typing_off for the typer in a conversation (by row id). */
function typingEventMessage(
  context: { accountId: number; conversationId: number; user: { type: string; id: number }; isPrivate: boolean },
  on: boolean,
): LiveEventMessage {
  return {
    kind: "live_event",
    event: {
      id: liveEventId(),
      accountId: context.accountId,
      eventName: on ? "conversation_typing_on" : "conversation_typing_off",
      subjectType: "Conversation",
      subjectId: context.conversationId,
      data: { user: { type: context.user.type, id: context.user.id }, is_private: context.isPrivate },
      createdAt: Date.now(),
    },
  };
}

/** Sends a typing change to the events queue, from the conversation's room that saw it. */
export async function sendTypingEvent(queue: Queue, context: Parameters<typeof typingEventMessage>[0], on: boolean): Promise<void> {
  await queue.send(typingEventMessage(context, on));
}

/** A typing change as the row the fan-out and the live feed read. */
export const typingEventRow = (context: Parameters<typeof typingEventMessage>[0], on: boolean): OutboxRow => liveEventRow(typingEventMessage(context, on));

/** The full row shape the fan-out reads. */
export const liveEventRow = (message: LiveEventMessage): OutboxRow => ({ ...message.event, causedByAutomation: false, dispatchedAt: null, consumedAt: null });
