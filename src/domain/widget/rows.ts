/** What the widget side answers: a contact as its widget knows it, and a conversation with its latest public message. */
import type { ContactRow } from "../contacts/rows";
import type { MessageWithSender } from "../conversations/loader";
import type { ConversationRow } from "../conversations/rows";

export type PublicContact = { contact: ContactRow; sourceId: string; pubsubToken: string; hmacVerified: boolean };

export type PublicConversation = { conversation: ConversationRow; contact: ContactRow | null; lastMessage: MessageWithSender | null };

/**
 * Where a visitor's e-mail or phone number that another contact holds is kept: in the visitor's own
 * contact's `additional_attributes`, since both are unique in the account. The public answers show the
 * claim in place of the stored value, so a visitor sees what it sent whether or not the address is a
 * customer's, and agents see what the visitor said it was.
 */
export const CLAIMED = { email: "claimed_email", phoneNumber: "claimed_phone_number" } as const;
