/**
 * The domain's hook into live rooms: called after a change's batch has committed, so subscribers only
 * ever see what is stored. A room that cannot be reached costs the subscribers a frame, never the
 * change: failures are logged and swallowed.
 */
import { CONVERSATION_STATUSES, MESSAGE_TYPE, enumName } from "../domain/kernel/enums";
import type { MessageWithSender } from "../domain/conversations/loader";
import type { ConversationRow } from "../domain/conversations/rows";
import { roomMessageView } from "../views/widget";
import { type Delivery, type RoomFrame, conversationRoom } from "./conversation-room";

async function publish(env: Env, conversation: Pick<ConversationRow, "accountId" | "id">, frame: RoomFrame, delivery: Delivery) {
  try {
    await conversationRoom(env, conversation.accountId, conversation.id).publish(frame, delivery);
  } catch (error) {
    console.error(JSON.stringify({ level: "error", room: `${conversation.accountId}:${conversation.id}`, frame: frame.event, error: String(error) }));
  }
}

/** message.created / message.updated; private notes and activity messages reach agents only. */
export function publishMessage(env: Env, conversation: ConversationRow, message: MessageWithSender, event: "message.created" | "message.updated") {
  const agentsOnly = message.message.private || message.message.messageType === MESSAGE_TYPE.activity;
  return publish(env, conversation, { event, data: roomMessageView(message, conversation) }, { agentsOnly });
}

/** conversation.status_changed, when a change moved the status. */
export function publishStatusChange(env: Env, before: Pick<ConversationRow, "status">, after: ConversationRow) {
  if (before.status === after.status) return Promise.resolve();
  const data = {
    id: after.displayId,
    status: enumName(CONVERSATION_STATUSES, after.status),
    previous_status: enumName(CONVERSATION_STATUSES, before.status),
  };
  return publish(env, after, { event: "conversation.status_changed", data }, {});
}
