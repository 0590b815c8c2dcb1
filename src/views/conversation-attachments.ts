import type { ConversationAttachment } from "../domain/conversations/attachments";
import { fileUrl } from "./attachments";
import { senderView } from "./messages";

/** GET /conversations/{id}/attachments: Chatwoot's `{meta: {total_count}, payload}`, newest first. */
export function conversationAttachmentsView(list: { totalCount: number; attachments: ConversationAttachment[] }) {
  return {
    meta: { total_count: list.totalCount },
    payload: list.attachments.map(({ attachment: a, message, sender }) => {
      const dataUrl = fileUrl({ collection: "attachments", accountId: a.accountId, fileId: a.id }, a.fileName);
      return {
        id: a.id,
        message_id: a.messageId,
        file_type: a.fileType,
        account_id: a.accountId,
        extension: a.extension,
        data_url: dataUrl,
        thumb_url: a.fileType === "image" ? dataUrl : "",
        file_size: a.fileSize,
        width: a.width,
        height: a.height,
        created_at: Math.floor(a.createdAt / 1000),
        sender: senderView(sender),
        private: message.private,
      };
    }),
  };
}
