/** What the widget side answers: a contact as its widget knows it, and a conversation with its latest public message. */
import type { ContactRow } from "../contacts/rows";
import type { MessageWithSender } from "../conversations/loader";
import type { ConversationRow } from "../conversations/rows";

export type PublicContact = { contact: ContactRow; sourceId: string; pubsubToken: string; hmacVerified: boolean };

export type PublicConversation = { conversation: ConversationRow; contact: ContactRow | null; lastMessage: MessageWithSender | null };
