/**
 * The public client API's shapes (Chatwoot's Public Conversation and Public Message), and the frames
 * live rooms send. Integer message_type and Unix seconds, as the widget reads them.
 */
import { CONTENT_TYPES, CONVERSATION_STATUSES, enumName } from "../domain/kernel/enums";
import type { MessageWithSender } from "../domain/conversations/loader";
import type { ContactRow } from "../domain/contacts/rows";
import type { ConversationRow } from "../domain/conversations/rows";
import type { InboxRow, WidgetChannelRow } from "../domain/inboxes/rows";
import { CLAIMED, type PublicContact, type PublicConversation } from "../domain/widget/rows";
import type { CsatSurvey } from "../domain/widget/csat-survey";
import { senderView } from "./messages";
import { unixSeconds } from "./time";
import { messageAttachmentsView } from "./attachments";

/** Public Message: never a private note or an activity message (the domain filters those out). */
export function publicMessageView({ message, sender }: MessageWithSender, displayId: number) {
  return {
    id: message.id,
    content: message.content,
    content_type: enumName(CONTENT_TYPES, message.contentType),
    content_attributes: message.contentAttributes,
    message_type: message.messageType,
    created_at: unixSeconds(message.createdAt),
    conversation_id: displayId,
    sender: senderView(sender),
    ...messageAttachmentsView(message),
    ...(message.echoId !== null && { echo_id: message.echoId }),
  };
}

const CLAIMED_KEYS = new Set<string>(Object.values(CLAIMED));

/** The e-mail or phone a visitor sees of its contact: its claim of one another contact holds, else the stored one. */
function visitorSees(contact: ContactRow, key: keyof typeof CLAIMED): string | null {
  const claim = (contact.additionalAttributes as Record<string, unknown> | null)?.[CLAIMED[key]];
  return typeof claim === "string" ? claim : contact[key];
}

/** What the widget receives for its contact (create and show). */
export function publicContactView({ contact, sourceId, pubsubToken }: PublicContact) {
  return { id: contact.id, source_id: sourceId, pubsub_token: pubsubToken, name: contact.name, email: visitorSees(contact, "email"), phone_number: visitorSees(contact, "phoneNumber") };
}

/** The contact record after an update: everything the widget may know of its own contact. */
export function publicContactRecordView(result: PublicContact) {
  const { contact } = result;
  return {
    ...publicContactView(result),
    identifier: visitorSees(contact, "identifier"),
    avatar_url: contact.avatarUrl ?? "",
    // the claims are shown as the e-mail and phone; listed here they would tell a customer's from a free one
    additional_attributes: Object.fromEntries(Object.entries(contact.additionalAttributes ?? {}).filter(([key]) => !CLAIMED_KEYS.has(key))),
    custom_attributes: contact.customAttributes,
    hmac_verified: result.hmacVerified,
  };
}

export function publicConversationContactView(contact: ContactRow) {
  return { id: contact.id, name: contact.name, email: visitorSees(contact, "email"), phone_number: visitorSees(contact, "phoneNumber"), identifier: visitorSees(contact, "identifier"), custom_attributes: contact.customAttributes };
}

/** Public Conversation: `messages` holds the latest public message (the full history is the messages list). */
export function publicConversationView({ conversation: c, contact, lastMessage }: PublicConversation) {
  return {
    id: c.displayId,
    uuid: c.uuid,
    inbox_id: c.inboxId,
    status: enumName(CONVERSATION_STATUSES, c.status),
    contact_last_seen_at: unixSeconds(c.contactLastSeenAt),
    agent_last_seen_at: unixSeconds(c.agentLastSeenAt),
    custom_attributes: c.customAttributes,
    messages: lastMessage ? [publicMessageView(lastMessage, c.displayId)] : [],
    contact: contact ? publicConversationContactView(contact) : null,
  };
}

/** GET /public/api/v1/inboxes/{inbox_identifier}: what a widget needs to render itself. */
export function publicInboxView(inbox: InboxRow, widget: WidgetChannelRow | null) {
  return {
    identifier: inbox.identifier,
    name: inbox.name,
    channel_type: inbox.channelType,
    timezone: inbox.timezone,
    working_hours_enabled: inbox.workingHoursEnabled,
    working_hours: inbox.workingHours,
    out_of_office_message: inbox.outOfOfficeMessage,
    csat_survey_enabled: inbox.csatSurveyEnabled,
    greeting_enabled: inbox.greetingEnabled,
    greeting_message: inbox.greetingMessage,
    enable_email_collect: inbox.enableEmailCollect,
    avatar_url: inbox.avatarUrl ?? "",
    ...(widget && {
      widget_color: widget.widgetColor,
      welcome_title: widget.welcomeTitle,
      welcome_tagline: widget.welcomeTagline,
      reply_time: widget.replyTime,
      pre_chat_form_enabled: widget.preChatFormEnabled,
      pre_chat_form_options: widget.preChatFormOptions,
    }),
  };
}

/** A message as a live room frame carries it: the public shape, plus `private` for agents' sockets. */
export const roomMessageView = (message: MessageWithSender, conversation: Pick<ConversationRow, "displayId">) => ({
  ...publicMessageView(message, conversation.displayId),
  private: message.message.private,
});

/** The CSAT survey its page reads (GET and PUT /public/api/v1/csat_survey/{conversation_uuid}). */
export function csatSurveyView({ chain, message, answer, locked }: CsatSurvey) {
  const displayType = message.contentAttributes.display_type === "star" ? "star" : "emoji";
  return {
    id: message.id,
    csat_survey_response: answer && {
      id: answer.id,
      rating: answer.rating,
      feedback_message: answer.feedbackMessage,
      conversation_id: chain.conversation.displayId,
      message_id: message.id,
      created_at: unixSeconds(answer.answeredAt),
      updated_at: unixSeconds(answer.updatedAt),
    },
    display_type: displayType,
    message: message.content,
    inbox_avatar_url: chain.inbox.avatarUrl ?? "",
    conversation_id: chain.conversation.displayId,
    created_at: unixSeconds(message.createdAt),
    locked,
  };
}
