/**
 * The MCP tools: each is the route it names, on the same domain function, with its input made of the
 * route's own zod schemas (path, query and body joined into one object), so validation, permissions,
 * events, webhooks, automation and the live feed are the API's. `bots`: an agent bot key may call it,
 * exactly where the route it mirrors has `allowBots()` (or needs no key at all, the public help center).
 * `writes`: it changes something (refused while the account moves to another shard, as the API's writes).
 */
import { z } from "zod";
import { SEARCH_KINDS, search } from "../domain/search/search";
import { listConversations } from "../domain/conversations/lists";
import { assignConversation, replaceLabels, showConversation, togglePriority, toggleStatus } from "../domain/conversations/conversations";
import { createMessage, listMessages } from "../domain/conversations/messages";
import { showContact, updateContact } from "../domain/contacts/contacts";
import { listPublicArticles, readPublicArticle } from "../domain/help-center/public";
import { listCannedResponses } from "../domain/settings/canned-responses";
import { CONVERSATION_STATUS } from "../domain/kernel/enums";
import type { AppContext } from "../http/app-env";
import { accountScope } from "../http/scopes";
import { nextCursorMeta } from "../http/paging";
import { onlineInAccount } from "../routes/account/online";
import { contactInputOf } from "../routes/account/contacts";
import { AssignmentBody, ConversationListQuery, ConversationParam, LabelsBody, TogglePriority, ToggleStatus } from "../schemas/conversations";
import { MessageCreate, MessageListQuery } from "../schemas/messages";
import { ContactChanges, ContactShowQuery } from "../schemas/contacts";
import { SearchQuery } from "../schemas/search";
import { PublicArticleListQuery, PublicArticleParam, PortalParam } from "../schemas/help-center";
import { CannedResponseQuery } from "../schemas/canned-responses";
import { Id } from "../schemas/common";
import { conversationView, countsView, statusToggleView } from "../views/conversations";
import { messageListView, messageResultView } from "../views/messages";
import { contactView } from "../views/contacts";
import { searchResultsView } from "../views/search";
import { publicArticleView } from "../views/help-center";
import { cannedResponseView } from "../views/canned-responses";
import { agentView } from "../views/agents";
import { agentBotSlimView, teamRecordView } from "../views/people";
import { listInput, ms } from "../routes/account/conversations";

export type Tool<S extends z.ZodObject = z.ZodObject> = {
  name: string;
  title: string;
  description: string;
  input: S;
  bots: boolean;
  writes: boolean;
  run: (c: AppContext, input: z.infer<S>) => Promise<unknown>;
};

const tool = <S extends z.ZodObject>(definition: Tool<S>) => definition as unknown as Tool;

/** A canned-response page: the API answers them all, a tool result stays bounded. */
const CANNED_PER_PAGE = 50;

/** The text of a reply or a note: the API's message content, required here (a tool sends no files). */
const MessageText = z.object({ content: MessageCreate.shape.content.unwrap().trim().min(1) });

const ContactParam = z.object({ contact_id: Id });

const sendMessage = async (c: AppContext, conversationId: number, content: string, isPrivate: boolean) =>
  messageResultView(await createMessage(accountScope(c), conversationId, { content, messageType: "outgoing", private: isPrivate, contentType: "text" }));

export const TOOLS: Tool[] = [
  tool({
    name: "search",
    title: "Search the desk",
    description:
      "Reads only. Searches the account's contacts, conversations, messages and published help-center articles (15 of each kind a page; " +
      "conversations and messages only where the key may see them). Mirrors GET /api/v1/accounts/{id}/search.",
    input: SearchQuery.extend({ kinds: z.array(z.enum(SEARCH_KINDS)).min(1).max(SEARCH_KINDS.length).optional() }),
    bots: false,
    writes: false,
    run: async (c, { q, page, kinds }) => searchResultsView(await search(accountScope(c), { q, page, kinds: kinds ?? SEARCH_KINDS })),
  }),
  tool({
    name: "list_conversations",
    title: "List conversations",
    description:
      "Reads only. Lists conversations by status (open by default, or all), assignee (assignee_type me, unassigned, assigned), inbox, team and labels, " +
      "25 a page with a next_cursor. Mirrors GET /api/v1/accounts/{id}/conversations.",
    input: ConversationListQuery.omit({ "labels[]": true }),
    bots: false,
    writes: false,
    run: async (c, query) => {
      const page = await listConversations(accountScope(c), listInput(query));
      const online = await onlineInAccount(c);
      return { meta: { ...countsView(page.counts), ...nextCursorMeta(page.nextCursor) }, payload: page.records.map((record) => conversationView(record, online)) };
    },
  }),
  tool({
    name: "read_conversation",
    title: "Read a conversation",
    description:
      "Reads only. A conversation (by its display id) with one page of its messages, 20 at a time (before / after a message id, or cursor); " +
      "private notes are marked private: true and are never shown to the contact. Mirrors GET .../conversations/{id} and GET .../messages.",
    input: ConversationParam.extend(MessageListQuery.shape),
    bots: false,
    writes: false,
    run: async (c, { conversation_id, ...window }) => {
      const scope = accountScope(c);
      const [record, list] = await Promise.all([showConversation(scope, conversation_id), listMessages(scope, conversation_id, window)]);
      const view = messageListView(list);
      return { conversation: conversationView(record, await onlineInAccount(c)), messages: view.payload, meta: { ...view.meta, ...nextCursorMeta(list.nextCursor) } };
    },
  }),
  tool({
    name: "reply",
    title: "Reply to the contact",
    description:
      "Changes the conversation: sends a public reply to the contact as the key's holder (an outgoing message, plain text, delivered through the inbox's channel; " +
      "fires message_created to webhooks and automation). Mirrors POST .../conversations/{id}/messages.",
    input: ConversationParam.extend(MessageText.shape),
    bots: true,
    writes: true,
    run: (c, { conversation_id, content }) => sendMessage(c, conversation_id, content, false),
  }),
  tool({
    name: "add_private_note",
    title: "Add a private note",
    description:
      "Changes the conversation: adds a private note for the team (never sent or shown to the contact; fires message_created). " +
      "Mirrors POST .../conversations/{id}/messages with private: true.",
    input: ConversationParam.extend(MessageText.shape),
    bots: true,
    writes: true,
    run: (c, { conversation_id, content }) => sendMessage(c, conversation_id, content, true),
  }),
  tool({
    name: "assign",
    title: "Assign a conversation",
    description:
      "Changes the conversation's assignee (assignee_id, an agent of the account; null or 0 unassigns) and/or its team (team_id); " +
      "fires assignee_changed / team_changed. Mirrors POST .../conversations/{id}/assignments.",
    input: ConversationParam.extend(AssignmentBody.shape),
    bots: true,
    writes: true,
    run: async (c, { conversation_id, assignee_id, assignee_type, team_id }) => {
      const result = await assignConversation(accountScope(c), conversation_id, { assigneeId: assignee_id, assigneeType: assignee_type, teamId: team_id });
      if (result.kind === "agent") return agentView(result.agent, c.var.account.id, await onlineInAccount(c));
      if (result.kind === "agent_bot") return agentBotSlimView(result.bot);
      if (result.kind === "team" && result.team) return teamRecordView(result.team);
      return null;
    },
  }),
  tool({
    name: "set_labels",
    title: "Set a conversation's labels",
    description: "Changes the conversation's labels: replaces them with the list given (an empty list removes all). Mirrors POST .../conversations/{id}/labels.",
    input: ConversationParam.extend(LabelsBody.shape),
    bots: false,
    writes: true,
    run: async (c, { conversation_id, labels }) => ({ payload: await replaceLabels(accountScope(c), conversation_id, labels) }),
  }),
  tool({
    name: "change_status",
    title: "Change a conversation's status",
    description:
      "Changes the conversation's status: open, resolved, pending, or snoozed (until snoozed_until, Unix seconds; without it, until the contact replies); " +
      "fires conversation_status_changed. Mirrors POST .../conversations/{id}/toggle_status.",
    input: ConversationParam.extend(ToggleStatus.shape),
    bots: true,
    writes: true,
    run: async (c, { conversation_id, status, snoozed_until }) =>
      statusToggleView(await toggleStatus(accountScope(c), conversation_id, { status, snoozedUntil: ms(snoozed_until) })),
  }),
  tool({
    name: "set_priority",
    title: "Set a conversation's priority",
    description: "Changes the conversation's priority: urgent, high, medium, low, or none when left out. Mirrors POST .../conversations/{id}/toggle_priority.",
    input: ConversationParam.extend(TogglePriority.shape),
    bots: true,
    writes: true,
    run: async (c, { conversation_id, priority }) => {
      await togglePriority(accountScope(c), conversation_id, priority ?? null);
      return { priority: priority === undefined ? null : priority };
    },
  }),
  tool({
    name: "read_contact",
    title: "Read a contact",
    description: "Reads only. A contact of the account with its contact inboxes. Mirrors GET /api/v1/accounts/{id}/contacts/{contact_id}.",
    input: ContactParam.extend(ContactShowQuery.shape),
    bots: false,
    writes: false,
    run: async (c, { contact_id, include_contact_inboxes }) => ({
      payload: contactView(await showContact(accountScope(c), contact_id, include_contact_inboxes !== "false")),
    }),
  }),
  tool({
    name: "update_contact",
    title: "Update a contact",
    description:
      "Changes the contact: name, email, phone_number (E.164), identifier, blocked, additional_attributes, custom_attributes (checked against their definitions); " +
      "fires contact_updated. Mirrors PATCH /api/v1/accounts/{id}/contacts/{contact_id}.",
    input: ContactParam.extend(ContactChanges.shape),
    bots: false,
    writes: true,
    run: async (c, { contact_id, ...changes }) => ({ payload: contactView(await updateContact(accountScope(c), contact_id, contactInputOf(changes), true)) }),
  }),
  tool({
    name: "search_help_center",
    title: "Search the help center",
    description:
      "Reads only. The published articles of one of the account's portals (by portal_slug), searched by query, filtered by locale or category_slug, " +
      "25 a page. Mirrors GET /public/api/v1/portals/{portal_slug}/articles.",
    input: PortalParam.extend(PublicArticleListQuery.shape),
    bots: true,
    writes: false,
    run: async (c, { portal_slug, page = 1, category_slug, ...filters }) => {
      const result = await listPublicArticles(accountScope(c), portal_slug, { ...filters, page, categorySlug: category_slug });
      return { payload: result.articles.map(publicArticleView), meta: { current_page: page, articles_count: result.total } };
    },
  }),
  tool({
    name: "read_article",
    title: "Read a help-center article",
    description: "Reads only (counts a view). One published article of the account's portal, by slug. Mirrors GET /public/api/v1/portals/{portal_slug}/articles/{article_slug}.",
    input: PublicArticleParam,
    bots: true,
    writes: false,
    run: async (c, { portal_slug, article_slug }) => ({ payload: publicArticleView(await readPublicArticle(accountScope(c), portal_slug, article_slug)) }),
  }),
  tool({
    name: "list_canned_responses",
    title: "List canned responses",
    description: `Reads only. The account's canned responses (short_code and content), matching search if given, ${CANNED_PER_PAGE} a page. Mirrors GET /api/v1/accounts/{id}/canned_responses.`,
    input: CannedResponseQuery.extend({ page: z.number().int().min(1).max(10_000).optional() }),
    bots: false,
    writes: false,
    run: async (c, { search: needle, page = 1 }) => {
      const rows = await listCannedResponses(accountScope(c), needle);
      const from = (page - 1) * CANNED_PER_PAGE;
      return { payload: rows.slice(from, from + CANNED_PER_PAGE).map(cannedResponseView), meta: { current_page: page, count: rows.length } };
    },
  }),
  tool({
    name: "handoff",
    title: "Hand the conversation to the people",
    description:
      "Changes the conversation's status to open, so the inbox's agents take it over; from an agent bot's key on a pending conversation this is the bot's handoff " +
      "(conversation_bot_handoff, counted in the bot reports), as when a bot opens it on the API. Mirrors POST .../conversations/{id}/toggle_status with status open.",
    input: ConversationParam,
    bots: true,
    writes: true,
    run: async (c, { conversation_id }) => statusToggleView(await toggleStatus(accountScope(c), conversation_id, { status: CONVERSATION_STATUS.open })),
  }),
];
