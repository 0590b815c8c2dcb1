/**
 * Identity validation: a site that knows who its visitor is signs the visitor's identifier with the
 * inbox's hmac_token (lowercase hex HMAC-SHA256) and sends it as identifier_hash. A wrong hash, or none
 * while the inbox makes it mandatory, is a 401 (Chatwoot answers 500).
 *
 * The identifier is the only key by which a visitor may reach a contact it did not create, so only a
 * proven identifier is stored as a contact's identifier: one sent without a hash, where the inbox does
 * not demand one, is the visitor's own claim (rows.ts `CLAIMED`). Stored as the identifier, it would be
 * found later by the real owner's proven identifier, and hand the squatter the owner's conversations.
 */
import { hmacSha256Hex } from "../identity/keys";
import { DomainError } from "../kernel/errors";
import type { InboxRow } from "../inboxes/rows";

const refused = (message: string, reason: string) =>
  new DomainError("unauthenticated", message, [{ field: "identifier_hash", message, code: reason }]);

function sameText(a: string, b: string) {
  const [x, y] = [new TextEncoder().encode(a), new TextEncoder().encode(b)];
  return x.byteLength === y.byteLength && crypto.subtle.timingSafeEqual(x, y);
}

/**
 * Checks `hash` for `identifier` when a hash is given or the inbox requires one. Answers whether the
 * identity is proven (a valid hash was given), which marks the contact inbox hmac_verified.
 */
export async function checkIdentifierHash(inbox: Pick<InboxRow, "hmacToken" | "hmacMandatory">, identifier: string | null | undefined, hash: string | undefined) {
  if (hash === undefined && !inbox.hmacMandatory) return false;
  if (hash === undefined) throw refused("This inbox requires identifier_hash, the HMAC-SHA256 of the identifier under the inbox's hmac_token", "identifier_hash_required");
  const expected = await hmacSha256Hex(inbox.hmacToken, identifier ?? "");
  if (!sameText(expected, hash.toLowerCase())) throw refused("identifier_hash does not match the identifier", "invalid_identifier_hash");
  return true;
}

/** Newer Chatwoot refuses a proven identifier that is not the one the selected contact already has (replay). */
export function checkSameIdentifier(stored: string | null, proven: string | null | undefined) {
  if (stored && proven && stored !== proven) throw refused("The identifier does not match this contact's identifier", "identifier_mismatch");
}
