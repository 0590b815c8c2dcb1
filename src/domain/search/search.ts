/**
 * Global search (Chatwoot's `/search` and its four sub-routes): the contacts, conversations, messages and
 * help-center articles of the account that contain the text, 15 a page, each through the full-text index
 * that already serves its own list:
 * - contacts: the trigram index over name, email, phone number and identifier (contacts/search-index.ts),
 *   listed (resolved) contacts only, latest activity first (contacts without activity last);
 * - conversations: those of the contacts that index finds, and those whose display id contains the
 *   text (display-ids.ts), newest first;
 * - messages: the trigram index over incoming and outgoing message content (conversations/search-index.ts),
 *   newest first, walked backwards so a page stops once it is full;
 * - articles: the account's published articles through the help-center index (every word as a prefix),
 *   last updated first.
 * Every answer is complete: the text must have three characters the trigram indexes can match (fewer:
 * 422 on `q`), so no answer needs a scan. Conversations and messages keep to what the caller reaches, by
 * the one rule of conversations/access.ts; contacts and articles are the whole account's, as Chatwoot's.
 *
 * Round trips: one for the pages of every kind asked for (one more first when the text is a number and
 * conversations are asked for: the highest display id), and one for what the conversations and messages
 * shown need around them (first message, senders, contact, inbox, assignee, unread count).
 */
import { type SQL, and, desc, eq, inArray, sql } from "drizzle-orm";
import { type Database, rawSql, schema, sameAccount } from "../../db/client";
import { batch, batchGroups } from "../kernel/batch";
import { ARTICLE_STATUS } from "../kernel/enums";
import { invalidField } from "../kernel/errors";
import { TRIGRAM, accountMatch, trigramPhrase } from "../kernel/full-text";
import { type AccountScope } from "../kernel/scope";
import { contactSearchIds } from "../contacts/search-index";
import { candidatePageIds } from "../contacts/order";
import { contactRecordsQuery, toContactRecords } from "../contacts/loader";
import { type ContactRow } from "../contacts/rows";
import { reachableCondition } from "../conversations/access";
import { type MessageWithSender, type People, senderOf, senderQueries, unreadCountsQuery } from "../conversations/loader";
import { type ConversationRow } from "../conversations/rows";
import { searchTerms } from "../help-center/article-search";
import { type ArticleRow } from "../help-center/rows";
import { type InboxRow } from "../inboxes/rows";
import { type AgentBotRow, type AgentRow } from "../people/rows";
import { rangesContaining } from "./display-ids";

const { conversations, messages, articles, portals, categories, contactInboxes, inboxes } = schema;

/** Chatwoot's page size for every kind of global search. */
export const SEARCH_PAGE_SIZE = 15;

export const SEARCH_KINDS = ["contacts", "conversations", "messages", "articles"] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export type SearchInput = { q: string; page: number; kinds: readonly SearchKind[] };

/** A message with what its view shows of its conversation. */
export type MessageInContext = { message: MessageWithSender; conversation: ConversationRow; unreadCount: number; sourceId: string | null };

export type ConversationHit = {
  conversation: ConversationRow;
  /** the conversation's first message (Chatwoot shows `conversation.messages.first`) */
  firstMessage: MessageInContext | null;
  contact: ContactRow | null;
  inbox: InboxRow | null;
  assignee: AgentRow | null;
  assigneeBot: AgentBotRow | null;
};

export type ArticleHit = { article: ArticleRow; portalSlug: string; categoryName: string | null };

/** The kinds asked for, each a page in its order. */
export type SearchResults = {
  contacts?: ContactRow[];
  conversations?: ConversationHit[];
  messages?: MessageInContext[];
  articles?: ArticleHit[];
};

/**
 * With more ranges than this (a short number in an account of millions of conversations), the display
 * ids are checked on the account's display-id index instead: still one index, no table rows.
 */
const MAX_DISPLAY_ID_RANGES = 2_000;

/** JSON of a list of values, bound as one parameter however long. */
const jsonList = (values: readonly unknown[]) => JSON.stringify(values);

function pageWindow(page: number) {
  return { limit: SEARCH_PAGE_SIZE, offset: (page - 1) * SEARCH_PAGE_SIZE };
}

/** Contacts: listed ones whose name, email, phone number or identifier contain the text (case folded). */
function contactPage(db: Database, accountId: number, phrase: string, page: number) {
  const candidates = contactSearchIds(accountId, ["name", "email", "phone_number", "identifier"], [phrase]);
  const ids = candidatePageIds(candidates, sql`contacts.account_id = ${accountId} AND contacts.resolved = 1`, { key: "last_activity_at", descending: true }, pageWindow(page));
  return contactRecordsQuery(db, accountId, ids, false);
}

/** The ids of the conversations whose display id contains `digits`, given the account's highest one. */
function displayIdCandidates(accountId: number, digits: string, maxDisplayId: number): SQL {
  const ranges = rangesContaining(digits, maxDisplayId);
  if (ranges.length > MAX_DISPLAY_ID_RANGES) {
    return sql`SELECT id FROM conversations WHERE account_id = ${accountId} AND instr(display_id, ${digits}) > 0`;
  }
  return sql`SELECT conversations.id AS id FROM json_each(${jsonList(ranges)}) AS r
    CROSS JOIN conversations ON conversations.account_id = ${accountId} AND conversations.display_id BETWEEN r.value ->> 0 AND r.value ->> 1`;
}

/** Conversations: of a contact the contact index finds, or whose display id contains the text; newest first. */
function conversationPage(scope: AccountScope, phrase: string, digits: { text: string; max: number } | null, page: number) {
  const { db, accountId } = scope;
  const ofContacts = sql`SELECT conversations.id AS id FROM (${contactSearchIds(accountId, ["name", "email", "phone_number", "identifier"], [phrase])}) AS found
    CROSS JOIN conversations ON conversations.contact_id = found.id AND +conversations.account_id = ${accountId}`;
  const candidates = digits ? sql`${ofContacts} UNION ALL ${displayIdCandidates(accountId, digits.text, digits.max)}` : ofContacts;
  const { limit, offset } = pageWindow(page);
  // DISTINCT keeps SQLite from flattening the candidates, so each is read once by primary key.
  const ids = sql`SELECT conversations.id FROM (SELECT DISTINCT id FROM (${candidates})) AS candidates CROSS JOIN ${conversations} ON ${conversations.id} = candidates.id
    WHERE ${and(eq(conversations.accountId, accountId), reachableCondition(scope))}
    ORDER BY ${conversations.createdAt} DESC, ${conversations.id} DESC LIMIT ${limit} OFFSET ${offset}`;
  return db.select().from(conversations).where(and(sameAccount(conversations.accountId, accountId), sql`${conversations.id} IN (${ids})`)).orderBy(desc(conversations.createdAt), desc(conversations.id));
}

/**
 * Messages: the index's matches walked from the newest (message ids grow with creation), each kept when
 * the caller reaches its conversation, until the page is full.
 */
function messagePage(scope: AccountScope, phrase: string, page: number) {
  const { db, accountId } = scope;
  const { limit, offset } = pageWindow(page);
  const reach = reachableCondition(scope);
  const found = sql`SELECT rowid AS id, conversation_id FROM message_search WHERE message_search MATCH ${accountMatch(accountId, ["content"], [phrase])}`;
  const ids = reach
    ? sql`SELECT found.id FROM (${found}) AS found CROSS JOIN ${conversations} ON ${conversations.id} = found.conversation_id AND +${conversations.accountId} = ${accountId}
        WHERE ${reach} ORDER BY found.id DESC LIMIT ${limit} OFFSET ${offset}`
    : sql`SELECT id FROM (${found}) ORDER BY id DESC LIMIT ${limit} OFFSET ${offset}`;
  return db.select().from(messages).where(and(sameAccount(messages.accountId, accountId), sql`${messages.id} IN (${ids})`)).orderBy(desc(messages.id));
}

/**
 * Articles: published ones of the account's portals (the index keys its rows by portal), every word of
 * the text as a prefix of a word of the title, description, body, tags or meta; last updated first.
 */
function articlePage(db: Database, accountId: number, terms: string, page: number) {
  const { limit, offset } = pageWindow(page);
  // the account's portal keys, or one no portal has; the words never match the portal key itself
  const match = sql`'portal_key:(' || coalesce((SELECT group_concat('"p' || id || '"', ' OR ') FROM ${portals} WHERE ${portals.accountId} = ${accountId}), '"p0"')
    || ') AND {title description content tags meta}:(' || ${terms} || ')'`;
  const ids = sql`SELECT articles.id FROM (SELECT rowid AS id FROM article_search WHERE article_search MATCH ${match}) AS found
    CROSS JOIN ${articles} ON ${articles.id} = found.id
    WHERE ${articles.accountId} = ${accountId} AND ${articles.status} = ${ARTICLE_STATUS.published}
    ORDER BY ${articles.updatedAt} DESC, ${articles.id} DESC LIMIT ${limit} OFFSET ${offset}`;
  // subqueries under names of their own: D1 answers rows as objects, where a joined table's `slug` or
  // `name` would overwrite the article's
  return db
    .select({
      article: articles,
      portalSlug: sql<string>`(SELECT slug FROM ${portals} WHERE ${portals.id} = ${articles.portalId} AND ${portals.accountId} = ${articles.accountId})`.as("search_portal_slug"),
      categoryName: sql<string | null>`(SELECT name FROM ${categories} WHERE ${categories.id} = ${articles.categoryId} AND ${categories.accountId} = ${articles.accountId})`.as("search_category_name"),
    })
    .from(articles)
    .where(and(sameAccount(articles.accountId, accountId), sql`${articles.id} IN (${ids})`))
    .orderBy(desc(articles.updatedAt), desc(articles.id));
}

/** The text as a trigram phrase; a 422 on `q` when it has fewer than three characters the index can match. */
function phraseOf(q: string): string {
  const phrase = trigramPhrase(q.trim());
  if (phrase === null) throw invalidField("q", `must have at least ${TRIGRAM} characters`, "too_short");
  return phrase;
}

/** The account's highest display id, when the text is a number and conversations are searched. */
async function displayIdBound(scope: AccountScope, q: string, kinds: readonly SearchKind[]) {
  if (!kinds.includes("conversations") || !/^\d+$/.test(q)) return null;
  const [rows] = await batch(scope.db, [
    rawSql<{ max: number | null }>(scope.db, sql`SELECT max(display_id) AS max FROM conversations WHERE account_id = ${scope.accountId}`),
  ]);
  return { text: q, max: Number(rows[0]?.max ?? 0) };
}

export async function search(scope: AccountScope, input: SearchInput): Promise<SearchResults> {
  const { db, accountId } = scope;
  const q = input.q.trim();
  const phrase = phraseOf(q);
  const wants = (kind: SearchKind) => input.kinds.includes(kind);
  const digits = await displayIdBound(scope, q, input.kinds);
  const terms = searchTerms(q);
  const read = await batchGroups(db, {
    contacts: wants("contacts") ? [contactPage(db, accountId, phrase, input.page)] : [],
    conversations: wants("conversations") ? [conversationPage(scope, phrase, digits, input.page)] : [],
    messages: wants("messages") ? [messagePage(scope, phrase, input.page)] : [],
    articles: wants("articles") && terms !== null ? [articlePage(db, accountId, terms, input.page)] : [],
  });
  const conversationRows = read.conversations[0] ?? [];
  const messageRows = read.messages[0] ?? [];
  const around = await loadAround(scope, conversationRows, messageRows);
  return {
    ...(wants("contacts") && { contacts: toContactRecords(read.contacts[0] ?? [], false).map((r) => r.contact) }),
    ...(wants("conversations") && { conversations: around.conversations }),
    ...(wants("messages") && { messages: around.messages }),
    ...(wants("articles") && { articles: read.articles[0] ?? [] }),
  };
}

/**
 * One round trip for what the shown conversations and messages need: each conversation's first message,
 * the senders of every message shown, the conversations of the messages, contact inboxes (the message's
 * `source_id` context), inboxes, assignees and unread counts.
 */
async function loadAround(scope: AccountScope, conversationRows: ConversationRow[], messageRows: (typeof messages.$inferSelect)[]) {
  if (conversationRows.length === 0 && messageRows.length === 0) return { conversations: [], messages: [] };
  const { db, accountId } = scope;
  const hitIds = conversationRows.map((c) => c.id);
  const otherIds = [...new Set(messageRows.map((m) => m.conversationId))].filter((id) => !hitIds.includes(id));
  const allIds = [...hitIds, ...otherIds];
  const firstMessageIds = sql`SELECT (SELECT min(m.id) FROM messages m WHERE m.conversation_id = v.value AND ${sameAccount(sql.raw("m.account_id"), accountId)}) FROM json_each(${jsonList(hitIds)}) AS v`;
  const shownMessageIds = sql`SELECT value FROM json_each(${jsonList(messageRows.map((m) => m.id))}) UNION ${firstMessageIds}`;
  const [agentsQuery, contactsQuery, botsQuery] = senderQueries(db, accountId, shownMessageIds, {
    userIds: distinct(conversationRows.map((c) => c.assigneeId)),
    contactIds: distinct(conversationRows.map((c) => c.contactId)),
    botIds: distinct(conversationRows.map((c) => c.assigneeAgentBotId)),
  });
  const [firsts, others, agents, contactRows, bots, contactInboxRows, inboxRows, unread] = await batch(db, [
    db.select().from(messages).where(and(sameAccount(messages.accountId, accountId), sql`${messages.id} IN (${firstMessageIds})`)),
    // `+`: by key, not a walk of the account's index
    db.select().from(conversations).where(and(sameAccount(conversations.accountId, accountId), otherIds.length ? inArray(conversations.id, otherIds) : sql`0`)),
    agentsQuery,
    contactsQuery,
    botsQuery,
    db.select().from(contactInboxes).where(and(sameAccount(contactInboxes.accountId, accountId), sql`${contactInboxes.id} IN (SELECT contact_inbox_id FROM conversations WHERE ${sameAccount(sql.raw("account_id"), accountId)} AND id IN (SELECT value FROM json_each(${jsonList(allIds)})))`)),
    db.select().from(inboxes).where(and(eq(inboxes.accountId, accountId), hitIds.length ? inArray(inboxes.id, distinct(conversationRows.map((c) => c.inboxId))) : sql`0`)),
    unreadCountsQuery(db, accountId, allIds),
  ]);
  const people: People = { agents, contacts: contactRows, bots };
  const conversationById = new Map([...conversationRows, ...others].map((c) => [c.id, c]));
  const inContext = (message: (typeof messages.$inferSelect) | undefined): MessageInContext | null => {
    const conversation = message && conversationById.get(message.conversationId);
    if (!message || !conversation) return null;
    return {
      message: { message, sender: senderOf(message, people) },
      conversation,
      unreadCount: Number(unread.find((u) => u.conversationId === conversation.id)?.unread ?? 0),
      sourceId: contactInboxRows.find((ci) => ci.id === conversation.contactInboxId)?.sourceId ?? null,
    };
  };
  return {
    conversations: conversationRows.map(
      (conversation): ConversationHit => ({
        conversation,
        firstMessage: inContext(firsts.find((m) => m.conversationId === conversation.id)),
        contact: contactRows.find((c) => c.id === conversation.contactId) ?? null,
        inbox: inboxRows.find((i) => i.id === conversation.inboxId) ?? null,
        assignee: conversation.assigneeId === null ? null : (agents.find((a) => a.userId === conversation.assigneeId) ?? null),
        assigneeBot: conversation.assigneeAgentBotId === null ? null : (bots.find((b) => b.id === conversation.assigneeAgentBotId) ?? null),
      }),
    ),
    messages: messageRows.map((m) => inContext(m)).filter((m): m is MessageInContext => m !== null),
  };
}

const distinct = <T>(items: Array<T | null>) => [...new Set(items.filter((i): i is T => i !== null))];
