/**
 * The widget's own contact: created (or found) when a visitor starts, shown, and updated by the site
 * that embeds the widget. Writes go through the contacts aggregate, so events and counters are the
 * same as for the account API.
 */
import { and, eq, sql } from "drizzle-orm";
import { type Database, type Statement, schema } from "../../db/client";
import { contactInboxInsert, createContact, newSourceId, uniquenessQuery, updateContact, type ContactInput } from "../contacts/contacts";
import type { ContactInboxRow } from "../contacts/rows";
import type { InboxRow } from "../inboxes/rows";
import { invalidField } from "../kernel/errors";
import { type TransportScope, systemScope } from "../kernel/scope";
import { type ContactChain, contactScope, findContactChain, findPublicInbox } from "./chain";
import { checkIdentifierHash, checkSameIdentifier } from "./identity";
import { checkPublicAttributes } from "./attributes";
import { CLAIMED, type PublicContact } from "./rows";
import { batch } from "../kernel/batch";

const { contacts, contactInboxes } = schema;


export type PublicContactInput = Omit<ContactInput, "blocked"> & { sourceId?: string; identifierHash?: string };

const CLAIMABLE = ["email", "phoneNumber"] as const;

/**
 * The claims of `input` whose value another contact holds (`taken`), and, for a value given that is
 * free, the removal of an earlier claim of the contact (`current`): what to merge into its attributes.
 */
function claimsOf(input: PublicContactInput, taken: Array<Record<(typeof CLAIMABLE)[number], string | null>>, current: Record<string, unknown> = {}) {
  const claims: Record<string, string | null> = {};
  for (const key of CLAIMABLE) {
    const value = input[key];
    if (value === undefined) continue;
    if (value && taken.some((t) => t[key] === value)) claims[CLAIMED[key]] = value;
    else if (current[CLAIMED[key]] !== undefined) claims[CLAIMED[key]] = null;
  }
  return claims;
}

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
  db.update(contactInboxes).set({ hmacVerified: true, updatedAt: Date.now() }).where(and(eq(contactInboxes.accountId, contactInbox.accountId), eq(contactInboxes.id, contactInbox.id)));

/**
 * POST .../contacts: (1) the contact inbox with this source_id (the visitor's own credential), else
 * (2) with a proven identifier (valid identifier_hash), the account's contact with that identifier gets
 * a new, verified contact inbox, else (3) a new contact with its contact inbox.
 * An e-mail or phone number never selects a contact: anyone can type a customer's. One that another
 * contact already holds is kept as the visitor's claim (`CLAIMED`) instead, so the answer, and the rows
 * written, are the same whether or not it is a customer's, and never show what another contact stored.
 */
export async function createPublicContact(transport: TransportScope, identifier: string, input: PublicContactInput): Promise<PublicContact> {
  const { db } = transport;
  const { inbox } = await findPublicInbox(transport, identifier);
  const verified = await checkIdentifierHash(inbox, input.identifier, input.identifierHash);
  const proven = verified && input.identifier ? input.identifier : null;
  // without its hash (the inbox does not demand one) an identifier is only the new contact's claim
  const unproven = !verified && input.identifier ? input.identifier : null;
  checkPublicAttributes({ custom_attributes: input.customAttributes, additional_attributes: input.additionalAttributes });
  const scope = systemScope(transport, inbox.accountId);
  const [existing, existingContacts, byIdentifier, taken] = await batch(db, [
    db.select().from(contactInboxes).where(and(eq(contactInboxes.accountId, inbox.accountId), eq(contactInboxes.inboxId, inbox.id), eq(contactInboxes.sourceId, input.sourceId ?? ""))),
    db.select().from(contacts).where(and(eq(contacts.accountId, inbox.accountId), sql`${contacts.id} = (SELECT ${contactInboxes.contactId} FROM ${contactInboxes} WHERE ${contactInboxes.accountId} = ${inbox.accountId} AND ${contactInboxes.inboxId} = ${inbox.id} AND ${contactInboxes.sourceId} = ${input.sourceId ?? ""})`)),
    db.select().from(contacts).where(and(eq(contacts.accountId, inbox.accountId), proven ? eq(contacts.identifier, proven) : sql`0`)).limit(1),
    uniquenessQuery(scope, { email: input.email, phoneNumber: input.phoneNumber }),
  ]);

  const contactInbox = existing[0];
  if (contactInbox && existingContacts[0]) {
    const contact = existingContacts[0];
    if (proven) checkSameIdentifier(contact.identifier, proven);
    if (proven && !contactInbox.hmacVerified && contact.identifier === proven) {
      await batch(db, [markVerified(db, contactInbox)]);
      return toPublic({ contact, contactInbox: { ...contactInbox, hmacVerified: true } });
    }
    return toPublic({ contact, contactInbox });
  }

  const sourceId = newSourceId(input.sourceId);
  const found = byIdentifier[0];
  if (found) {
    // found by the proven identifier alone: nothing else of the request is written on it
    const [rows] = await batch(db, [contactInboxInsert(scope, found.id, inbox.id, sourceId, true).returning()]);
    return toPublic({ contact: found, contactInbox: rows[0] });
  }

  const free = <K extends "email" | "phoneNumber">(key: K) => (input[key] && !taken.some((t) => t[key] === input[key]) ? input[key] : null);
  const claims: Record<string, string | null> = { ...claimsOf(input, taken), ...(unproven && { [CLAIMED.identifier]: unproven }) };
  await createContact(scope, {
    name: input.name || randomHandle(),
    email: free("email"),
    phoneNumber: free("phoneNumber"),
    identifier: proven,
    avatarUrl: input.avatarUrl,
    additionalAttributes: Object.keys(claims).length > 0 ? { ...input.additionalAttributes, ...claims } : input.additionalAttributes,
    customAttributes: input.customAttributes,
    inboxId: inbox.id,
    sourceId,
    hmacVerified: proven !== null,
  });
  // read back: the contact inbox's pubsub_token is made inside the write
  return toPublic(await findContactChain(transport, identifier, sourceId));
}

/**
 * The website widget's anonymous visitor (a /widget page load without a token): a new contact with a
 * random handle and its contact inbox, whatever the inbox's identity setting, as Chatwoot's page makes
 * one; the visitor proves an identity later, with set_user.
 */
export async function createAnonymousVisitor(transport: TransportScope, inbox: InboxRow): Promise<string> {
  const sourceId = newSourceId(undefined);
  await createContact(systemScope(transport, inbox.accountId), { name: randomHandle(), inboxId: inbox.id, sourceId, hmacVerified: false });
  return sourceId;
}

/** GET .../contacts/{source_id}; with identifier_hash (or a mandatory one) it proves the stored identifier. */
export async function showPublicContact(transport: TransportScope, identifier: string, sourceId: string, identifierHash?: string): Promise<PublicContact> {
  const chain = await findContactChain(transport, identifier, sourceId);
  await checkIdentifierHash(chain.inbox, chain.contact.identifier, identifierHash);
  return toPublic(chain);
}

/**
 * PATCH .../contacts/{source_id}: the site tells what it knows of its visitor. An identifier may be set
 * once, with its identifier_hash; changing or clearing an existing one is a 422 (Chatwoot: "identifier
 * cannot change here"). Without its hash, where the inbox does not demand one, it is kept as the
 * visitor's claim (rows.ts `CLAIMED`), which a later one replaces. An identifier another contact holds is a 422 `taken` (Chatwoot merges the two
 * contacts), so the visitor's record never reaches another one; an e-mail or phone number another
 * contact holds becomes the visitor's claim, as on create (a 422 would tell that it is a customer's).
 */
export async function updatePublicContact(
  transport: TransportScope,
  identifier: string,
  sourceId: string,
  input: PublicContactInput,
  /**
   * "always": a mandatory inbox wants the hash with every update (the public API's contact routes);
   * "when_identifying": only with an identifier or a hash (the widget's pre-chat form and e-mail
   * answers, which Chatwoot writes without one; the visitor's signed token names the contact).
   */
  proof: "always" | "when_identifying" = "always",
): Promise<PublicContact> {
  const { db } = transport;
  const chain = await findContactChain(transport, identifier, sourceId);
  const stored = chain.contact.identifier;
  if (input.identifier !== undefined && stored && input.identifier !== stored) {
    throw invalidField("identifier", "cannot be changed through the public API", "immutable");
  }
  const claimed = input.identifier ?? stored;
  const identifying = proof === "always" || input.identifier !== undefined || input.identifierHash !== undefined;
  const verified = identifying && (await checkIdentifierHash(chain.inbox, claimed, input.identifierHash));
  // a new identifier without its hash (the inbox does not demand one) is the visitor's claim, not its identifier
  const unproven = input.identifier !== undefined && input.identifier !== stored && !verified;
  checkPublicAttributes({
    custom_attributes: input.customAttributes && { ...chain.contact.customAttributes, ...input.customAttributes },
    additional_attributes: input.additionalAttributes && { ...chain.contact.additionalAttributes, ...input.additionalAttributes },
  });
  const scope = contactScope(transport, chain);
  const [taken] = await batch(db, [uniquenessQuery(scope, { email: input.email, phoneNumber: input.phoneNumber }, chain.contact.id)]);
  const claims = claimsOf(input, taken, chain.contact.additionalAttributes);
  const { sourceId: _source, identifierHash: _hash, ...fields } = input;
  const earlierClaim = chain.contact.additionalAttributes[CLAIMED.identifier];
  if (unproven) {
    delete fields.identifier;
    claims[CLAIMED.identifier] = input.identifier || null;
  } else if (verified && input.identifier && earlierClaim !== undefined) {
    claims[CLAIMED.identifier] = null; // proven now: the identifier replaces the claim
  }
  for (const key of CLAIMABLE) if (typeof claims[CLAIMED[key]] === "string") delete fields[key];
  if (Object.keys(claims).length > 0) fields.additionalAttributes = { ...fields.additionalAttributes, ...claims };
  // verified only for an identifier the contact holds once this write is done (a taken one is refused)
  const proven = verified && claimed !== null && claimed !== "" && !chain.contactInbox.hmacVerified;
  const precede: Statement[] = proven ? [markVerified(db, chain.contactInbox)] : [];
  await updateContact(scope, chain.contact.id, fields, false, precede);
  return toPublic(await findContactChain(transport, identifier, sourceId));
}
