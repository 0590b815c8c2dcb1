import type { ContactInboxItem, ContactRecord } from "../domain/contacts/loader";
import { unixSeconds } from "./time";

type InboxLike = ContactInboxItem["inbox"];

/** Chatwoot's InboxSlim, the inbox inside contact inboxes. */
export const inboxSlimView = (inbox: InboxLike) => ({
  id: inbox.id,
  avatar_url: inbox.avatarUrl ?? "",
  channel_id: inbox.channelId,
  name: inbox.name,
  channel_type: inbox.channelType,
  // Only e-mail and WhatsApp channels have a provider; edgedesk has neither yet.
  provider: null,
});

export const contactInboxView = (ci: { sourceId: string; inbox: InboxLike }) => ({
  source_id: ci.sourceId,
  inbox: inboxSlimView(ci.inbox),
});

/**
 * The contact (reference §6.8 and the specification's Contact). `availability_status` is "offline":
 * edgedesk keeps no presence for contacts. `contact_inboxes` is present only when they were loaded.
 */
export function contactView({ contact, contactInboxes }: ContactRecord) {
  return {
    additional_attributes: contact.additionalAttributes,
    availability_status: "offline",
    email: contact.email,
    id: contact.id,
    name: contact.name,
    phone_number: contact.phoneNumber,
    blocked: contact.blocked,
    identifier: contact.identifier,
    thumbnail: contact.avatarUrl ?? "",
    custom_attributes: contact.customAttributes,
    last_activity_at: unixSeconds(contact.lastActivityAt),
    created_at: unixSeconds(contact.createdAt),
    ...(contactInboxes && { contact_inboxes: contactInboxes.map(contactInboxView) }),
  };
}
