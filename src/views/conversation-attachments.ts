import type { ConversationAttachment } from "../domain/conversations/attachments";
import { attachmentRowView } from "./attachments";
import { senderView } from "./messages";

/** GET /conversations/{id}/attachments: Chatwoot's `{meta: {total_count}, payload}`, newest first. */
export function conversationAttachmentsView(list: { totalCount: number; attachments: ConversationAttachment[] }) {
  return {
    meta: { total_count: list.totalCount },
    payload: list.attachments.map(({ attachment, message, sender }) => ({
      ...attachmentRowView(attachment),
      created_at: Math.floor(attachment.createdAt / 1000),
      sender: senderView(sender),
      private: message.private,
    })),
  };
}
