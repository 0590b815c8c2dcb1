/**
 * The contact lists: the account's listed contacts (a page and the counter), search and filter.
 * See order.ts for the orders, what a page costs and the cursors that continue a list.
 *
 * Every answer is complete. Search and filter find their candidates through an index (the trigram index
 * of search-index.ts, the equality, range and label indexes of filter.ts), so they read in proportion to
 * the matches. What no index serves (a search of one or two characters, a filter branch on a key without
 * an index) is a paged scan: a request examines at most SCAN_BUDGET contacts after its cursor (page n
 * without a cursor: n times that from the start), and when it stops before the page is full it says
 * `has_more` with a cursor that resumes exactly where the scan stopped. Nothing is cut off silently.
 */
import { sql } from "drizzle-orm";
import { now, rawSql } from "../../db/client";
import { batch } from "../kernel/batch";
import { type FilterCondition, compileContactFilter } from "./filter";
import { type ContactSort, type SortPosition, candidatePageIds, contactPageIds, decodeCursor, encodeCursor, positionOf } from "./order";
import { type ContactRecord, contactRecordsQuery, toContactRecords } from "./loader";
import { counterQuery } from "../kernel/counters";
import { customAttributeDefinitionsQuery } from "../custom-attributes/values";
import { CONTACT_ATTRIBUTE, RESOLVED_CONTACTS } from "./contacts";
import { type AccountScope } from "../kernel/scope";
import { SCAN_BUDGET } from "../kernel/paging";
import { contactSearchIds, contactSearchScan } from "./search-index";
import { trigramPhrase } from "../kernel/full-text";

/** Chatwoot's page size for contacts. */
export const CONTACTS_PER_PAGE = 15;


/** `cursor`, when given, replaces `page`. */
export type ContactListQuery = { page: number; sort: ContactSort; withInboxes: boolean; cursor?: string };

/** A page, whether another follows, and the cursor of the next one (null at the end). */
export type ContactPage = { records: ContactRecord[]; hasMore: boolean; nextCursor: string | null };

/** `resolved = 1` is written as a literal so that SQLite can use the partial list indexes. */
const listed = (accountId: number) => sql`account_id = ${accountId} AND resolved = 1`;

/** The window of one page (one row more for `has_more` when `extra`), from the cursor or the page number. */
function pageWindow(query: ContactListQuery, sort: ContactSort, extra = 0) {
  const after = query.cursor === undefined ? null : decodeCursor(query.cursor, sort);
  return { limit: CONTACTS_PER_PAGE + extra, offset: (query.page - 1) * CONTACTS_PER_PAGE, after };
}

/** The page of rows fetched one beyond its size: whether another follows, and its cursor. */
function toPage(rows: Record<string, unknown>[], query: ContactListQuery, sort: ContactSort): ContactPage {
  const records = toContactRecords(rows.slice(0, CONTACTS_PER_PAGE), query.withInboxes);
  const hasMore = rows.length > CONTACTS_PER_PAGE;
  const last = records[records.length - 1];
  return { records, hasMore, nextCursor: hasMore && last ? encodeCursor(sort, positionOf(sort, last.contact)) : null };
}

/**
 * One page of the listed (resolved) contacts; the total comes from the counter, never from a count.
 * With `labels` (contacts having any of them) it is the labels filter, which answers `has_more` instead
 * of a total, like search and filter.
 */
export async function listContacts(
  scope: AccountScope,
  query: ContactListQuery & { labels: string[] },
): Promise<ContactPage & { count: number; labelled: boolean }> {
  if (query.labels.length > 0) {
    const labelled = await filterContacts(scope, [{ attribute_key: "labels", filter_operator: "equal_to", values: query.labels }], query);
    return { count: labelled.records.length, labelled: true, ...labelled };
  }
  const { db, accountId } = scope;
  const ids = contactPageIds(listed(accountId), query.sort, pageWindow(query, query.sort, 1));
  const [rows, counter] = await batch(db, [
    contactRecordsQuery(db, accountId, ids, query.withInboxes),
    counterQuery(db, accountId, RESOLVED_CONTACTS),
  ]);
  return { count: counter[0]?.value ?? 0, labelled: false, ...toPage(rows, query, query.sort) };
}

/**
 * The account's contacts among `contactIds` (those its live feed counts online, for Chatwoot's
 * `contacts/active`), a page at a time in the list's order, with how many there are. The ids travel as
 * one JSON parameter, however many.
 */
export async function contactsAmong(scope: AccountScope, contactIds: number[], query: ContactListQuery): Promise<ContactPage & { count: number }> {
  const { db, accountId } = scope;
  const among = sql`account_id = ${accountId} AND id IN (SELECT value FROM json_each(${JSON.stringify(contactIds)}))`;
  const ids = contactPageIds(among, query.sort, pageWindow(query, query.sort, 1));
  const [rows, counted] = await batch(db, [contactRecordsQuery(db, accountId, ids, query.withInboxes), rawSql<{ count: number }>(db, sql`SELECT count(*) AS count FROM contacts WHERE ${among}`)]);
  return { count: Number(counted[0]?.count ?? 0), ...toPage(rows, query, query.sort) };
}

/** Name, email and phone number contain `q` case-insensitively, or the identifier contains it as typed. */
const searchMatch = (q: string) => sql`(instr(lower(name), ${q.toLowerCase()}) > 0 OR instr(email, ${q.toLowerCase()}) > 0
    OR instr(lower(phone_number), ${q.toLowerCase()}) > 0 OR instr(identifier, ${q}) > 0)`;

/** The default order, which the one- and two-character search follows (it scans by id). */
const BY_ID: ContactSort = { key: null, descending: false };

/**
 * Contacts of the account (listed or not, as Chatwoot searches today) whose name, email or phone number
 * contains `q` case-insensitively, or whose identifier contains it as typed. `%` and `_` are literal.
 *
 * Three characters or more: the trigram index yields the matches (case folded in every script, so
 * "ÉMILE" finds "émile"; the identifier is then checked as typed), and the page is sorted from them.
 * One or two characters, which no trigram can match: in the default order, a scan of the account by id
 * that stops once the page is full, or, continued by cursor, after SCAN_BUDGET contacts; with another
 * `sort`, every contact of the account is checked and the matches sorted (the one answer that reads
 * the account: no index can find or order it).
 */
export async function searchContacts(scope: AccountScope, q: string, query: ContactListQuery): Promise<ContactPage> {
  const { db, accountId } = scope;
  const phrase = trigramPhrase(q);
  if (phrase !== null) {
    const candidates = contactSearchIds(accountId, ["name", "email", "phone_number", "identifier"], [phrase]);
    // The index folds case in every script; only the identifier must match as typed.
    const folded = contactSearchIds(accountId, ["name", "email", "phone_number"], [phrase]);
    const exact = sql`contacts.account_id = ${accountId} AND (contacts.id IN (SELECT id FROM (${folded})) OR instr(contacts.identifier, ${q}) > 0)`;
    const ids = candidatePageIds(candidates, exact, query.sort, pageWindow(query, query.sort, 1));
    const [rows] = await batch(db, [contactRecordsQuery(db, accountId, ids, query.withInboxes)]);
    return toPage(rows, query, query.sort);
  }
  if (query.sort.key !== null) {
    // No index orders what no index finds: every contact of the account is checked, then sorted.
    const everyone = sql`SELECT id FROM contacts WHERE account_id = ${accountId}`;
    const ids = candidatePageIds(everyone, sql`contacts.account_id = ${accountId} AND ${searchMatch(q)}`, query.sort, pageWindow(query, query.sort, 1));
    const [rows] = await batch(db, [contactRecordsQuery(db, accountId, ids, query.withInboxes)]);
    return toPage(rows, query, query.sort);
  }
  const window = pageWindow(query, BY_ID, 1);
  const { reach, skip } = scanReach(window);
  const scanned = contactSearchScan(accountId, window.after?.id ?? 0, reach);
  const [rows, end] = await batch(db, [
    contactRecordsQuery(db, accountId, sql`SELECT id FROM (${scanned}) WHERE ${searchMatch(q)} LIMIT ${window.limit} OFFSET ${skip}`, query.withInboxes),
    rawSql<{ id: number }>(db, sql`SELECT id FROM (${scanned}) LIMIT 1 OFFSET ${reach - 1}`),
  ]);
  return budgetedPage(rows, query, BY_ID, end[0] ? { key: null, id: end[0].id } : null);
}

/**
 * How far a budgeted scan reads: SCAN_BUDGET contacts after a cursor; for page n (no cursor), n times the
 * budget from the start, skipping the matches of the pages before.
 */
function scanReach(window: ReturnType<typeof pageWindow>) {
  if (window.after) return { reach: SCAN_BUDGET, skip: 0 };
  const page = window.offset / CONTACTS_PER_PAGE + 1;
  return { reach: page * SCAN_BUDGET, skip: window.offset };
}

/**
 * A page of a budgeted scan: when the page did not fill but the scan stopped at its budget (`stoppedAt`),
 * another page may follow, and its cursor resumes after the last contact examined.
 */
function budgetedPage(rows: Record<string, unknown>[], query: ContactListQuery, sort: ContactSort, stoppedAt: SortPosition | null): ContactPage {
  const page = toPage(rows, query, sort);
  if (page.hasMore || stoppedAt === null) return page;
  return { ...page, hasMore: true, nextCursor: encodeCursor(sort, stoppedAt) };
}

/**
 * Listed contacts matching Chatwoot's filter payload. Like search, `count` is the number of contacts
 * on the page and `has_more` tells whether another page follows: a total would need a scan of the
 * matching contacts on every request.
 *
 * When every OR branch of the payload has a condition an index serves, the page is sorted from those
 * candidates. Otherwise the list index of `sort` is walked and each contact checked, as a paged scan.
 */
export async function filterContacts(scope: AccountScope, conditions: FilterCondition[], query: ContactListQuery): Promise<ContactPage> {
  const { db, accountId } = scope;
  const [definitions] = await batch(db, [customAttributeDefinitionsQuery(db, accountId, CONTACT_ATTRIBUTE)]);
  const filter = compileContactFilter(accountId, conditions, definitions, now());
  const window = pageWindow(query, query.sort, 1);
  if (filter.candidates !== null) {
    const ids = candidatePageIds(filter.candidates, sql`contacts.account_id = ${accountId} AND contacts.resolved = 1 AND ${filter.where}`, query.sort, window);
    const [rows] = await batch(db, [contactRecordsQuery(db, accountId, ids, query.withInboxes)]);
    return toPage(rows, query, query.sort);
  }
  const { reach, skip } = scanReach(window);
  const scanned = contactPageIds(listed(accountId), query.sort, { limit: reach, offset: 0, after: window.after });
  const [rows, end] = await batch(db, [
    contactRecordsQuery(
      db,
      accountId,
      sql`SELECT contacts.id AS id FROM (${scanned}) AS scanned CROSS JOIN contacts ON contacts.id = scanned.id AND +contacts.account_id = ${accountId} WHERE ${filter.where}
        LIMIT ${window.limit} OFFSET ${skip}`,
      query.withInboxes,
    ),
    contactRecordsQuery(db, accountId, sql`SELECT id FROM (${scanned}) LIMIT 1 OFFSET ${reach - 1}`, false),
  ]);
  const last = toContactRecords(end, false)[0];
  return budgetedPage(rows, query, query.sort, last ? positionOf(query.sort, last.contact) : null);
}
