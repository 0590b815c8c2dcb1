/**
 * PATCH /api/v1/widget/contact/set_user: the site tells the widget who its visitor is
 * (`window.$chatwoot.setUser(identifier, user)`), as Chatwoot's widget does, with the public API's
 * identity rules:
 * - a hash (or an inbox that demands one) is checked: a wrong or missing one is a 401;
 * - when the visitor already is someone else (another identifier, proven or claimed), the visitor
 *   becomes a new contact, so that the next person on a shared browser never sees the last one's
 *   conversations; the transport then issues a new token (`widget_auth_token`);
 * - a proven identifier that another contact holds selects that contact: the visitor gets a new,
 *   verified contact inbox of it (and a new token), which is how conversations follow a signed-in
 *   customer across devices;
 * - an identifier without a hash, where the inbox does not demand one, is the visitor's own claim and
 *   never selects, merges into or reveals another contact (rows.ts `CLAIMED`).
 * The rest of the call (name, e-mail, avatar, phone, attributes) is written as a public contact update.
 */
import { and, eq, ne } from "drizzle-orm";
import { schema } from "../../db/client";
import { batch } from "../kernel/batch";
import type { TransportScope } from "../kernel/scope";
import { type ContactChain, findContactChain } from "./chain";
import { type PublicContactInput, createPublicContact, updatePublicContact } from "./contacts";
import { checkIdentifierHash } from "./identity";
import { CLAIMED } from "./rows";
import type { Website } from "./website";

const { contacts } = schema;

/** Who the visitor is so far: its proven identifier, else the one it claimed. */
function identityOf(chain: ContactChain): string | null {
  const claim = chain.contact.additionalAttributes[CLAIMED.identifier];
  return chain.contact.identifier ?? (typeof claim === "string" && claim !== "" ? claim : null);
}

export async function setWebsiteUser(transport: TransportScope, website: Website, chain: ContactChain, input: PublicContactInput): Promise<{ chain: ContactChain; renewed: boolean }> {
  const { db } = transport;
  const token = website.inbox.identifier;
  const identifier = input.identifier || null;
  // Chatwoot skips the check for a call that only sets custom attributes (no identifier)
  const proven = identifier !== null && (await checkIdentifierHash(website.inbox, identifier, input.identifierHash));
  const { identifier: _identifier, identifierHash: _hash, ...rest } = input;
  const identity = identityOf(chain);

  let target = chain;
  let renewed = false;
  if (identifier !== null && identity !== null && identity !== identifier) {
    // someone else now: a new contact (found by the proven identifier, or made with the claim)
    const made = await createPublicContact(transport, token, { identifier, identifierHash: input.identifierHash });
    target = await findContactChain(transport, token, made.sourceId);
    renewed = true;
  } else if (proven) {
    const [holders] = await batch(db, [
      db.select({ id: contacts.id }).from(contacts).where(and(eq(contacts.accountId, website.inbox.accountId), eq(contacts.identifier, identifier), ne(contacts.id, chain.contact.id))).limit(1),
    ]);
    if (holders.length > 0) {
      const made = await createPublicContact(transport, token, { identifier, identifierHash: input.identifierHash });
      target = await findContactChain(transport, token, made.sourceId);
      renewed = true;
    }
  }
  await updatePublicContact(transport, token, target.contactInbox.sourceId, { ...rest, identifier: input.identifier, identifierHash: input.identifierHash });
  return { chain: await findContactChain(transport, token, target.contactInbox.sourceId), renewed };
}
