/**
 * The widget's own contact: created (or found) when a visitor starts, shown, and updated by the site
 * that embeds the widget. Writes go through the contacts aggregate, so events and counters are the
 * same as for the account API.
 */
import { and, eq, sql } from "drizzle-orm";
import { type Database, type Statement, schema } from "../../db/client";
import { contactInboxInsert, createContact, newSourceId, updateContact, type ContactInput } from "../contacts/contacts";
import type { ContactInboxRow } from "../contacts/rows";
import { invalidField } from "../kernel/errors";
import { systemScope } from "../kernel/scope";
import { type ContactChain, contactScope, findContactChain, findPublicInbox } from "./chain";
import { checkIdentifierHash, checkSameIdentifier } from "./identity";
import type { PublicContact } from "./rows";
import { batch } from "../kernel/batch";

const { contacts, contactInboxes } = schema;


export type PublicContactInput = Omit<ContactInput, "blocked"> & { sourceId?: string; identifierHash?: string };

const ADJECTIVES = ["quiet", "bright", "gentle", "swift", "calm", "lucky", "brave", "merry", "misty", "sunny", "wild", "silver"];
const NOUNS = ["river", "falcon", "meadow", "harbor", "maple", "comet", "otter", "pine", "willow", "breeze", "cedar", "lark"];

/** Chatwoot names an anonymous visitor with a random two-word handle. */
function randomHandle() {
  const [a, b] = crypto.getRandomValues(new Uint8Array(2));
  return `${ADJECTIVES[a % ADJECTIVES.length]}-${NOUNS[b % NOUNS.length]}`;
}

const toPublic = (chain: Pick<ContactChain, "contact" | "contactInbox">): PublicContact => ({
  contact: chain.contact,
  sourceId: chain.contactInbox.sourceId,
  pubsubToken: chain.contactInbox.pubsubToken,
  hmacVerified: chain.contactInbox.hmacVerified,
});

const markVerified = (db: Database, contactInbox: ContactInboxRow) =>
  db.update(contactInboxes).set({ hmacVerified: true, updatedAt: Date.now() }).where(eq(contactInboxes.id, contactInbox.id));

/**
 * POST .../contacts: (1) the contact inbox with this source_id, else (2) the account's contact with the
 * same identifier, email or phone number (in that order) gets a new contact inbox, else (3) a new
 * contact with its contact inbox. A valid identifier_hash marks the contact inbox verified.
 */
export async function createPublicContact(db: Database, env: Env, identifier: string, input: PublicContactInput): Promise<PublicContact> {
  const { inbox } = await findPublicInbox(db, identifier);
  const verified = await checkIdentifierHash(inbox, input.identifier, input.identifierHash);
  const scope = systemScope(db, env, inbox.accountId);
  const match = (column: typeof contacts.identifier | typeof contacts.email | typeof contacts.phoneNumber, value: string | null | undefined) =>
    db.select().from(contacts).where(and(eq(contacts.accountId, inbox.accountId), value ? eq(column, value) : sql`0`)).limit(1);
  const [existing, existingContacts, byIdentifier, byEmail, byPhone] = await batch(db, [
    db.select().from(contactInboxes).where(and(eq(contactInboxes.inboxId, inbox.id), eq(contactInboxes.sourceId, input.sourceId ?? ""))),
    db.select().from(contacts).where(sql`${contacts.id} = (SELECT ${contactInboxes.contactId} FROM ${contactInboxes} WHERE ${contactInboxes.inboxId} = ${inbox.id} AND ${contactInboxes.sourceId} = ${input.sourceId ?? ""})`),
    match(contacts.identifier, input.identifier),
    match(contacts.email, input.email),
    match(contacts.phoneNumber, input.phoneNumber),
  ]);

  const contactInbox = existing[0];
  if (contactInbox && existingContacts[0]) {
    const contact = existingContacts[0];
    if (verified) checkSameIdentifier(contact.identifier, input.identifier);
    if (verified && !contactInbox.hmacVerified && contact.identifier === input.identifier) {
      await batch(db, [markVerified(db, contactInbox)]);
      return toPublic({ contact, contactInbox: { ...contactInbox, hmacVerified: true } });
    }
    return toPublic({ contact, contactInbox });
  }

  const sourceId = newSourceId(input.sourceId);
  const found = byIdentifier[0] ?? byEmail[0] ?? byPhone[0];
  if (found) {
    if (verified) checkSameIdentifier(found.identifier, input.identifier);
    const [rows] = await batch(db, [contactInboxInsert(scope, found.id, inbox.id, sourceId, verified && found.identifier === input.identifier).returning()]);
    return toPublic({ contact: found, contactInbox: rows[0] });
  }

  await createContact(scope, {
    name: input.name || randomHandle(),
    email: input.email,
    phoneNumber: input.phoneNumber,
    identifier: input.identifier,
    avatarUrl: input.avatarUrl,
    additionalAttributes: input.additionalAttributes,
    customAttributes: input.customAttributes,
    inboxId: inbox.id,
    sourceId,
    hmacVerified: verified,
  });
  // read back: the contact inbox's pubsub_token is made inside the write
  return toPublic(await findContactChain(db, identifier, sourceId));
}

/** GET .../contacts/{source_id}; with identifier_hash (or a mandatory one) it proves the stored identifier. */
export async function showPublicContact(db: Database, identifier: string, sourceId: string, identifierHash?: string): Promise<PublicContact> {
  const chain = await findContactChain(db, identifier, sourceId);
  await checkIdentifierHash(chain.inbox, chain.contact.identifier, identifierHash);
  return toPublic(chain);
}

/**
 * PATCH .../contacts/{source_id}: the site tells what it knows of its visitor. An identifier may be set
 * once; changing an existing one is a 422 (Chatwoot: "identifier cannot change here").
 */
export async function updatePublicContact(db: Database, env: Env, identifier: string, sourceId: string, input: PublicContactInput): Promise<PublicContact> {
  const chain = await findContactChain(db, identifier, sourceId);
  const stored = chain.contact.identifier;
  if (input.identifier && stored && input.identifier !== stored) {
    throw invalidField("identifier", "cannot be changed through the public API", "immutable");
  }
  const verified = await checkIdentifierHash(chain.inbox, input.identifier ?? stored, input.identifierHash);
  const { sourceId: _source, identifierHash: _hash, ...fields } = input;
  const proven = verified && !chain.contactInbox.hmacVerified;
  const precede: Statement[] = proven ? [markVerified(db, chain.contactInbox)] : [];
  await updateContact(contactScope(db, env, chain), chain.contact.id, fields, false, precede);
  return toPublic(await findContactChain(db, identifier, sourceId));
}
