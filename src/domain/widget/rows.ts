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
 *
 * An identifier sent without its identifier_hash (where the inbox does not demand one) is kept the same
 * way, always: only a proven identifier is stored as the contact's `identifier`, the key by which a
 * proven identifier later finds its contact, so an unproven one never selects, merges into or reveals
 * another contact, and is never found by the real owner's proof (docs/widget.md, "Identity without a hash").
 */
export const CLAIMED = { email: "claimed_email", phoneNumber: "claimed_phone_number", identifier: "claimed_identifier" } as const;
