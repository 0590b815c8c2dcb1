/**
 * Contacts: create, show, update, delete and custom attributes, plus the pieces every contact write
 * shares (contact-inboxes.ts, labels.ts, merge.ts use them). Each function reads in one
 * batch and writes in one atomic batch; the "contacts.resolved" counter and the contact_created /
 * contact_updated outbox rows are written in the same batch as the change.
 */
import { type SQL, and, eq, inArray, ne, or, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { JsonObject } from "../../../drizzle/schema";
import { type Statement, lastInsertedId, now, schema } from "../../db/client";
import { batch, batchGroups, write, writeCheckedByConstraints, writeThenRead } from "../kernel/batch";
import { changedAttributes, eventStatement } from "../kernel/outbox";
import { performer } from "../kernel/scope";
import { type ContactFields, derivedContactColumns } from "./fields";
import { type ContactRecord, contactRecordsQuery, oneContactIds, toContactRecords } from "./loader";
import { counterMoves } from "../conversations/counters";
import { unindexMessages } from "../conversations/search-index";
import { conversationsGoneStatements } from "../conversations/notifications";
import { attachmentKeysQuery } from "../attachments/attachments";
import { removeObjects } from "../attachments/uploads";
import { counterStatement } from "../kernel/counters";
import { checkCustomAttributeValues, customAttributeDefinitionsQuery } from "../custom-attributes/values";
import { ATTRIBUTE_MODEL } from "../kernel/enums";
import { randomToken } from "../identity/keys";
import { type AccountScope } from "../kernel/scope";
import { type ErrorEntry, invalid, notFound } from "../kernel/errors";
import { type ContactRow } from "./rows";
import { conversationsLeaveStatements } from "../reports/facts";
import { reindexContacts, unindexContacts } from "./search-index";
import type { InboxRow } from "../inboxes/rows";

const { contacts, contactInboxes, contactNotes, inboxes, taggings, conversations, messages, attachments } = schema;

/** The key of the counter behind `meta.count` of the contact list. */
export const RESOLVED_CONTACTS = "contacts.resolved";

/** `attribute_model` of the custom attribute definitions that apply to contacts. */
export const CONTACT_ATTRIBUTE = ATTRIBUTE_MODEL.contact_attribute;

export type ContactInput = {
  name?: string;
  email?: string | null;
  phoneNumber?: string | null;
  identifier?: string | null;
  blocked?: boolean;
  avatarUrl?: string | null;
  additionalAttributes?: JsonObject;
  customAttributes?: JsonObject;
};

export type ContactInboxResult = { sourceId: string; inbox: InboxRow };

// ---------------------------------------------------------------- shared pieces

/**
 * Moves the resolved-contacts counter by `delta`, evaluated inside the write batch: deltas that read
 * the stored `resolved` flag stay right even when two requests change the same contact at once.
 */
export const resolvedCounter = (scope: AccountScope, delta: number | SQL<number>) =>
  counterStatement(scope.db, scope.accountId, RESOLVED_CONTACTS, delta);

/** The stored `resolved` flag of a contact as a number, 0 when the row is gone (for counter deltas). */
export const storedResolved = (accountId: number, contactId: number) =>
  sql<number>`coalesce((SELECT resolved FROM contacts WHERE id = ${contactId} AND account_id = ${accountId}), 0)`;

/** The attributes the API shows, by their Chatwoot names: what `changed_attributes` compares. */
function visibleAttributes(c: ContactFields & Pick<ContactRow, "blocked" | "avatarUrl" | "customAttributes">) {
  return {
    name: c.name,
    email: c.email,
    phone_number: c.phoneNumber,
    identifier: c.identifier,
    blocked: c.blocked,
    thumbnail: c.avatarUrl,
    additional_attributes: c.additionalAttributes,
    custom_attributes: c.customAttributes,
  };
}

async function readContactRecord(scope: AccountScope, contactId: number, withInboxes: boolean) {
  const [rows] = await batch(scope.db, [contactRecordsQuery(scope.db, scope.accountId, oneContactIds(scope.accountId, contactId), withInboxes)]);
  const record = toContactRecords(rows, withInboxes)[0];
  if (!record) throw notFound("Contact", contactId);
  return record;
}

/** Email, phone number and identifier each belong to one contact of the account: the contacts holding any of them. */
export function uniquenessQuery(scope: AccountScope, fields: Pick<ContactInput, "email" | "phoneNumber" | "identifier">, exceptId?: number) {
  const { db, accountId } = scope;
  const clauses = [
    fields.email ? eq(contacts.email, fields.email) : undefined,
    fields.phoneNumber ? eq(contacts.phoneNumber, fields.phoneNumber) : undefined,
    fields.identifier ? eq(contacts.identifier, fields.identifier) : undefined,
  ].filter((c) => c !== undefined);
  const match = clauses.length > 0 ? or(...clauses) : sql`0`;
  return db
    .select({ id: contacts.id, email: contacts.email, phoneNumber: contacts.phoneNumber, identifier: contacts.identifier })
    .from(contacts)
    .where(and(eq(contacts.accountId, accountId), match, exceptId ? ne(contacts.id, exceptId) : undefined))
    .limit(3);
}

function uniquenessErrors(
  taken: { email: string | null; phoneNumber: string | null; identifier: string | null }[],
  fields: Pick<ContactInput, "email" | "phoneNumber" | "identifier">,
): ErrorEntry[] {
  const clash = (name: keyof typeof fields, field: string): ErrorEntry[] =>
    fields[name] && taken.some((t) => t[name] === fields[name])
      ? [{ field, message: "has already been taken", code: "taken" }]
      : [];
  return [...clash("email", "email"), ...clash("phoneNumber", "phone_number"), ...clash("identifier", "identifier")];
}

function throwIfAny(errors: ErrorEntry[]) {
  if (errors.length > 0) throw invalid(errors);
}

/** The values of a contact after `input` is applied: attributes are merged, as Chatwoot does on update. */
export function applyInput(current: ContactFields & Pick<ContactRow, "blocked" | "avatarUrl" | "customAttributes">, input: ContactInput) {
  const next = {
    name: input.name ?? current.name,
    email: input.email !== undefined ? input.email : current.email,
    phoneNumber: input.phoneNumber !== undefined ? input.phoneNumber : current.phoneNumber,
    identifier: input.identifier !== undefined ? input.identifier : current.identifier,
    blocked: input.blocked ?? current.blocked,
    avatarUrl: input.avatarUrl !== undefined ? input.avatarUrl : current.avatarUrl,
    additionalAttributes: { ...current.additionalAttributes, ...input.additionalAttributes },
    customAttributes: { ...current.customAttributes, ...input.customAttributes },
  };
  return { ...next, ...derivedContactColumns(next) };
}

const EMPTY_CONTACT = {
  name: "",
  email: null,
  phoneNumber: null,
  identifier: null,
  blocked: false,
  avatarUrl: null,
  additionalAttributes: {},
  customAttributes: {},
};

/** `source_id` of a new contact inbox: the one given, or a random one as Chatwoot makes for API inboxes. */
export const newSourceId = (given: string | undefined) => given || crypto.randomUUID();

export function contactInboxInsert(scope: AccountScope, contactId: number | SQL<number>, inboxId: number | SQL<number>, sourceId: string, hmacVerified = false) {
  const at = now();
  return scope.db.insert(contactInboxes).values({
    accountId: scope.accountId,
    contactId,
    inboxId,
    sourceId,
    hmacVerified,
    pubsubToken: randomToken(),
    createdAt: at,
    updatedAt: at,
  });
}

export const inboxQuery = (scope: AccountScope, inboxId: number) =>
  scope.db.select().from(inboxes).where(and(eq(inboxes.id, inboxId), eq(inboxes.accountId, scope.accountId)));

export const contactQuery = (scope: AccountScope, contactId: number) =>
  scope.db.select().from(contacts).where(and(eq(contacts.id, contactId), eq(contacts.accountId, scope.accountId)));

// ---------------------------------------------------------------- create, show, update, delete

export async function showContact(scope: AccountScope, contactId: number, withInboxes: boolean): Promise<ContactRecord> {
  return readContactRecord(scope, contactId, withInboxes);
}

/**
 * Creates a contact; with `inboxId`, also its contact inbox there (the inbox must be the account's),
 * under `sourceId` or a random one.
 *
 * Without custom attributes (whose values are checked against their definitions before anything is
 * written) the write is its own check, so a create costs one round trip: the unique indexes refuse a
 * taken email, phone number or identifier, and the contact inbox's inbox id comes from a subquery that
 * finds no inbox of another account (NOT NULL refuses it). Only a refused create reads the checks, to
 * answer the same 404 or 422 as before.
 */
export async function createContact(
  scope: AccountScope,
  input: ContactInput & { inboxId?: number; sourceId?: string; hmacVerified?: boolean },
): Promise<{ record: ContactRecord; contactInbox: ContactInboxResult | null }> {
  if (Object.keys(input.customAttributes ?? {}).length > 0) return checkThenInsertContact(scope, input);
  return writeCheckedByConstraints(
    () => insertContact(scope, input),
    () => checkThenInsertContact(scope, input),
  );
}

async function checkThenInsertContact(
  scope: AccountScope,
  input: ContactInput & { inboxId?: number; sourceId?: string; hmacVerified?: boolean },
): Promise<{ record: ContactRecord; contactInbox: ContactInboxResult | null }> {
  const { db, accountId } = scope;
  const [definitions, taken, inboxRows] = await batch(db, [
    customAttributeDefinitionsQuery(db, accountId, CONTACT_ATTRIBUTE),
    uniquenessQuery(scope, input),
    inboxQuery(scope, input.inboxId ?? 0),
  ]);
  if (input.inboxId !== undefined && !inboxRows[0]) throw notFound("Inbox", input.inboxId, "inbox_id");
  throwIfAny([
    ...uniquenessErrors(taken, input),
    ...checkCustomAttributeValues(definitions, input.customAttributes ?? {}, "custom_attributes"),
  ]);
  return insertContact(scope, input);
}

/** The create's one batch: the contact, its search rows, counter, contact inbox and event, then the record and inbox the answer shows. */
async function insertContact(
  scope: AccountScope,
  input: ContactInput & { inboxId?: number; sourceId?: string; hmacVerified?: boolean },
): Promise<{ record: ContactRecord; contactInbox: ContactInboxResult | null }> {
  const { db, accountId } = scope;
  const values = applyInput(EMPTY_CONTACT, input);
  const at = now();
  const contactId = lastInsertedId(contacts);
  const sourceId = input.inboxId !== undefined ? newSourceId(input.sourceId) : null;
  // null (refused by NOT NULL) unless the inbox is the account's
  const inboxId = sql<number>`(SELECT ${inboxes.id} FROM ${inboxes} WHERE ${inboxes.id} = ${input.inboxId ?? 0} AND ${inboxes.accountId} = ${accountId})`;
  const { created, inbox } = await batchGroups(db, {
    writes: [
      db.insert(contacts).values({ ...values, accountId, createdAt: at, updatedAt: at }),
      ...reindexContacts(db, accountId, sql`SELECT ${contactId}`),
      ...(values.resolved ? [resolvedCounter(scope, 1)] : []),
      ...(sourceId ? [contactInboxInsert(scope, contactId, inboxId, sourceId, input.hmacVerified)] : []),
      eventStatement(db, { accountId, eventName: "contact_created", subjectType: "Contact", subjectId: contactId }),
    ],
    created: [contactRecordsQuery(db, accountId, sql`SELECT ${contactId} AS id`, true)],
    inbox: sourceId ? [inboxQuery(scope, input.inboxId ?? 0)] : [],
  });
  const record = toContactRecords(created[0], true)[0];
  const inboxRow = inbox[0]?.[0];
  return { record, contactInbox: inboxRow && sourceId ? { sourceId, inbox: inboxRow } : null };
}

/** Applies `input`: given fields replace, custom and additional attributes are merged into the stored ones. */
export async function updateContact(
  scope: AccountScope,
  contactId: number,
  input: ContactInput,
  withInboxes: boolean,
  /** statements of the same change written in the same batch (the widget marks its contact inbox verified) */
  precede: Statement[] = [],
): Promise<ContactRecord> {
  const { db, accountId } = scope;
  const [current, definitions, taken] = await batch(db, [
    contactQuery(scope, contactId),
    customAttributeDefinitionsQuery(db, accountId, CONTACT_ATTRIBUTE),
    uniquenessQuery(scope, input, contactId),
  ]);
  if (!current[0]) throw notFound("Contact", contactId);
  throwIfAny([
    ...uniquenessErrors(taken, input),
    ...checkCustomAttributeValues(definitions, input.customAttributes ?? {}, "custom_attributes"),
  ]);
  return writeContactChange(scope, current[0], applyInput(current[0], input), withInboxes, precede);
}

/** Removes the given keys from the contact's custom attributes. */
export async function destroyCustomAttributes(scope: AccountScope, contactId: number, keys: string[]): Promise<ContactRecord> {
  const [current] = await batch(scope.db, [contactQuery(scope, contactId)]);
  if (!current[0]) throw notFound("Contact", contactId);
  const customAttributes = Object.fromEntries(Object.entries(current[0].customAttributes).filter(([k]) => !keys.includes(k)));
  return writeContactChange(scope, current[0], { ...current[0], customAttributes }, true);
}

/**
 * Writes the new values of one contact with its counter move and its contact_updated event (only when
 * something the API shows changed), then reads the record back in the same batch.
 */
export async function writeContactChange(
  scope: AccountScope,
  before: ContactRow,
  after: ReturnType<typeof applyInput>,
  withInboxes: boolean,
  precede: Statement[] = [],
): Promise<ContactRecord> {
  const { db, accountId } = scope;
  const [shownBefore, shownAfter] = [visibleAttributes(before), visibleAttributes(after)];
  const changes = changedAttributes(shownBefore, shownAfter, Object.keys(shownAfter) as Array<keyof typeof shownAfter>);
  const readBack = contactRecordsQuery(db, accountId, oneContactIds(accountId, before.id), withInboxes);
  if (changes.length === 0 && precede.length === 0) {
    const [rows] = await batch(db, [readBack]);
    return toContactRecords(rows, withInboxes)[0];
  }
  const { name, email, phoneNumber, identifier, blocked, avatarUrl, additionalAttributes, customAttributes } = after;
  const derived = derivedContactColumns(after);
  const searchable = (["name", "email", "phoneNumber", "identifier"] as const).some((k) => before[k] !== after[k]);
  const writes: Statement[] = [
    ...precede,
    resolvedCounter(scope, sql<number>`${derived.resolved ? 1 : 0} - ${storedResolved(accountId, before.id)}`),
    db
      .update(contacts)
      .set({ name, email, phoneNumber, identifier, blocked, avatarUrl, additionalAttributes, customAttributes, ...derived, updatedAt: now() })
      .where(and(eq(contacts.id, before.id), eq(contacts.accountId, accountId))),
    ...(searchable ? reindexContacts(db, accountId, sql`SELECT ${before.id}`) : []),
    ...(changes.length > 0
      ? [eventStatement(db, { accountId, eventName: "contact_updated", subjectType: "Contact", subjectId: before.id, data: { changed_attributes: changes } })]
      : []),
  ];
  const [rows] = await writeThenRead(db, writes, [readBack]);
  return toContactRecords(rows, withInboxes)[0];
}

/**
 * Deletes the contact with its contact inboxes, labels, and its conversations and their messages
 * (Chatwoot destroys them with the contact).
 */
export async function deleteContact(scope: AccountScope, contactId: number): Promise<void> {
  const { db, accountId } = scope;
  const own = (t: { accountId: SQLiteColumn }) => eq(t.accountId, accountId);
  const contactConversations = db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(own(conversations), eq(conversations.contactId, contactId)));
  const [current, removedConversations, fileKeys] = await batch(db, [
    contactQuery(scope, contactId),
    db
      .select({
        inboxId: conversations.inboxId,
        teamId: conversations.teamId,
        status: conversations.status,
        assigneeId: conversations.assigneeId,
        firstReplyCreatedAt: conversations.firstReplyCreatedAt,
        waitingSince: conversations.waitingSince,
      })
      .from(conversations)
      .where(and(own(conversations), eq(conversations.contactId, contactId))),
    attachmentKeysQuery(db, accountId, inArray(attachments.conversationId, contactConversations)),
  ]);
  if (!current[0]) throw notFound("Contact", contactId);
  await write(db, [
    // the files of its conversations go too (their objects once the batch has committed)
    db.delete(attachments).where(and(own(attachments), inArray(attachments.conversationId, contactConversations))),
    resolvedCounter(scope, sql<number>`-${storedResolved(accountId, contactId)}`),
    // the contact's conversations go with it, and leave the conversation counts
    ...counterMoves(db, accountId, removedConversations.map((before) => ({ before, after: null }))),
    unindexMessages(db, sql`${db.select({ id: messages.id }).from(messages).where(and(own(messages), inArray(messages.conversationId, contactConversations)))}`),
    db.delete(messages).where(and(own(messages), inArray(messages.conversationId, contactConversations))),
    ...conversationsLeaveStatements(scope, sql`c.contact_id = ${contactId}`),
    db
      .delete(taggings)
      .where(and(own(taggings), eq(taggings.taggableType, "Conversation"), inArray(taggings.taggableId, contactConversations))),
    ...conversationsGoneStatements(db, accountId, sql`SELECT id FROM ${conversations} WHERE account_id = ${accountId} AND contact_id = ${contactId}`, now()),
    db.delete(conversations).where(and(own(conversations), eq(conversations.contactId, contactId))),
    db.delete(taggings).where(and(own(taggings), eq(taggings.taggableType, "Contact"), eq(taggings.taggableId, contactId))),
    db.delete(contactInboxes).where(and(own(contactInboxes), eq(contactInboxes.contactId, contactId))),
    db.delete(contactNotes).where(and(own(contactNotes), eq(contactNotes.contactId, contactId))),
    unindexContacts(db, sql`SELECT ${contactId}`),
    db.delete(contacts).where(and(own(contacts), eq(contacts.id, contactId))),
    // the contact is gone when the event is shown: it carries what the live feed says of it
    eventStatement(db, { accountId, eventName: "contact_deleted", subjectType: "Contact", subjectId: contactId, data: { performer: performer(scope), contact: current[0] } }),
  ]);
  await removeObjects(scope.env, fileKeys.map((r) => r.key));
}
