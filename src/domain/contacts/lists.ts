/**
 * The contact lists: the account's listed contacts (a page and the counter), search and filter.
 * Each is one read batch. See order.ts for the orders and what a page costs.
 */
import { type SQL, sql } from "drizzle-orm";
import { now } from "../../db/client";
import { batch } from "../kernel/batch";
import { type FilterCondition, contactFilterSql } from "./filter";
import { type ContactSort, contactPageIds } from "./order";
import { type ContactRecord, contactRecordsQuery, toContactRecords } from "./loader";
import { counterQuery } from "../kernel/counters";
import { customAttributeDefinitionsQuery } from "../custom-attributes/values";
import { CONTACT_ATTRIBUTE, RESOLVED_CONTACTS } from "./contacts";
import { type AccountScope } from "../kernel/scope";

/** Chatwoot's page size for contacts. */
export const CONTACTS_PER_PAGE = 15;

export type ContactListQuery = { page: number; sort: ContactSort; withInboxes: boolean };

/** `resolved = 1` is written as a literal so that SQLite can use the partial list indexes. */
const listed = (accountId: number) => sql`account_id = ${accountId} AND resolved = 1`;

const pageWindow = (page: number, extra = 0) => ({ limit: CONTACTS_PER_PAGE + extra, offset: (page - 1) * CONTACTS_PER_PAGE });

/**
 * One page of the listed (resolved) contacts; the total comes from the counter, never from a count.
 * With `labels` (contacts having any of them) it is the labels filter, which answers `has_more` instead
 * of a total, like search and filter.
 */
export async function listContacts(
  scope: AccountScope,
  query: ContactListQuery & { labels: string[] },
): Promise<{ count: number; records: ContactRecord[]; hasMore: boolean | null }> {
  if (query.labels.length > 0) {
    const labelled = await filterContacts(scope, [{ attribute_key: "labels", filter_operator: "equal_to", values: query.labels }], query);
    return { count: labelled.records.length, ...labelled };
  }
  const { db, accountId } = scope;
  const ids = contactPageIds(listed(accountId), query.sort, pageWindow(query.page));
  const [rows, counter] = await batch(db, [
    contactRecordsQuery(db, ids, query.withInboxes),
    counterQuery(db, accountId, RESOLVED_CONTACTS),
  ]);
  return { count: counter[0]?.value ?? 0, records: toContactRecords(rows, query.withInboxes), hasMore: null };
}

export type PartialPage = { records: ContactRecord[]; hasMore: boolean };

/** Fetches one row more than a page to learn whether another page follows (Chatwoot's `has_more`). */
function partialPage(rows: Record<string, unknown>[], withInboxes: boolean): PartialPage {
  return { records: toContactRecords(rows.slice(0, CONTACTS_PER_PAGE), withInboxes), hasMore: rows.length > CONTACTS_PER_PAGE };
}

/**
 * Contacts of the account (listed or not, as Chatwoot searches today) whose name, email or phone
 * number contains `q` case-insensitively, or whose identifier contains it as typed. A substring match
 * cannot use a B-tree index, so search reads the account's contacts until the page is full.
 * instr() is used instead of LIKE: D1 limits LIKE patterns to 50 bytes and LIKE would treat % and _
 * in `q` as wildcards.
 */
export async function searchContacts(scope: AccountScope, q: string, query: ContactListQuery): Promise<PartialPage> {
  const { db, accountId } = scope;
  const needle = q.toLowerCase();
  const where = sql`account_id = ${accountId} AND (instr(lower(name), ${needle}) > 0 OR instr(email, ${needle}) > 0
    OR instr(lower(phone_number), ${needle}) > 0 OR instr(identifier, ${q}) > 0)`;
  const [rows] = await batch(db, [contactRecordsQuery(db, contactPageIds(where, query.sort, pageWindow(query.page, 1)), query.withInboxes)]);
  return partialPage(rows, query.withInboxes);
}

/**
 * Listed contacts matching Chatwoot's filter payload. Like search, `count` is the number of contacts
 * on the page and `has_more` tells whether another page follows: a total would need a scan of the
 * matching contacts on every request.
 */
export async function filterContacts(scope: AccountScope, conditions: FilterCondition[], query: ContactListQuery): Promise<PartialPage> {
  const { db, accountId } = scope;
  const [definitions] = await batch(db, [customAttributeDefinitionsQuery(db, accountId, CONTACT_ATTRIBUTE)]);
  const where: SQL = sql`${listed(accountId)} AND ${contactFilterSql(conditions, definitions, now())}`;
  const [rows] = await batch(db, [contactRecordsQuery(db, contactPageIds(where, query.sort, pageWindow(query.page, 1)), query.withInboxes)]);
  return partialPage(rows, query.withInboxes);
}
