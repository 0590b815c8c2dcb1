/**
 * Global search results as Chatwoot's search views show them: slim contacts, conversations as search
 * results (display id, first message, contact, inbox, assignee), messages as the Message record, and
 * articles with their portal's slug and category's name.
 */
import { ARTICLE_STATUSES, ROLES, enumName } from "../domain/kernel/enums";
import type { ContactRow } from "../domain/contacts/rows";
import type { ArticleHit, ConversationHit, MessageInContext, SearchResults } from "../domain/search/search";
import type { InboxRow } from "../domain/inboxes/rows";
import type { AgentRow } from "../domain/people/rows";
import { messageView } from "./messages";
import { agentBotSlimView } from "./people";
import { unixSeconds } from "./time";

export function searchContactView(contact: ContactRow) {
  return {
    email: contact.email,
    id: contact.id,
    name: contact.name,
    phone_number: contact.phoneNumber,
    identifier: contact.identifier,
    additional_attributes: contact.additionalAttributes,
    last_activity_at: unixSeconds(contact.lastActivityAt),
  };
}

const searchInboxView = (inbox: InboxRow) => ({ id: inbox.id, channel_id: inbox.channelId, name: inbox.name, channel_type: inbox.channelType });

const searchAgentView = (agent: AgentRow) => ({
  id: agent.userId,
  available_name: agent.displayName || agent.name,
  email: agent.email,
  name: agent.name,
  role: enumName(ROLES, agent.role),
});

export function searchMessageView({ message, conversation, unreadCount, sourceId }: MessageInContext) {
  return messageView(message, {
    displayId: conversation.displayId,
    assigneeId: conversation.assigneeId,
    unreadCount,
    lastActivityAt: conversation.lastActivityAt,
    sourceId,
  });
}

/** Chatwoot shows an empty object where a conversation has no message, contact or inbox. */
export function searchConversationView(hit: ConversationHit) {
  const { conversation: c } = hit;
  const assignee = hit.assignee
    ? { assignee_type: "User", agent: searchAgentView(hit.assignee) }
    : hit.assigneeBot
      ? { assignee_type: "AgentBot", agent: agentBotSlimView(hit.assigneeBot) }
      : {};
  return {
    id: c.displayId,
    account_id: c.accountId,
    created_at: unixSeconds(c.createdAt),
    message: hit.firstMessage ? searchMessageView(hit.firstMessage) : {},
    contact: hit.contact ? searchContactView(hit.contact) : {},
    inbox: hit.inbox ? searchInboxView(hit.inbox) : {},
    ...assignee,
  };
}

export function searchArticleView({ article, portalSlug, categoryName }: ArticleHit) {
  return {
    id: article.id,
    title: article.title,
    locale: article.locale,
    content: article.content,
    slug: article.slug,
    portal_slug: portalSlug,
    account_id: article.accountId,
    category_name: categoryName,
    status: enumName(ARTICLE_STATUSES, article.status),
    updated_at: unixSeconds(article.updatedAt),
  };
}

/** `{payload: {...}}` with a key for each kind searched. */
export function searchResultsView(results: SearchResults) {
  return {
    payload: {
      ...(results.contacts && { contacts: results.contacts.map(searchContactView) }),
      ...(results.conversations && { conversations: results.conversations.map(searchConversationView) }),
      ...(results.messages && { messages: results.messages.map(searchMessageView) }),
      ...(results.articles && { articles: results.articles.map(searchArticleView) }),
    },
  };
}
