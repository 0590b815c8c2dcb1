/**
 * Short-lived tickets for agents' live-room sockets. A browser cannot set headers on a WebSocket, and
 * an API key in a URL ends up in logs, so an agent first asks for a ticket with its key (an ordinary
 * request) and opens the socket with `?ticket=`. A ticket names the user, the account and the
 * conversation, expires after a minute, and is signed with the digest of the user's current key: it
 * needs no storage to check, and resetting the key voids every ticket. At the upgrade the user's access to
 * the conversation is checked again, and the conversation's room spends the ticket: it opens one socket.
 */
import { and, eq } from "drizzle-orm";
import { type Database, schema } from "../../db/client";
import { readConversation } from "./access";
import { ACCOUNT_STATUS, ROLES, enumName } from "../kernel/enums";
import { DomainError, notFound } from "../kernel/errors";
import { type AccountScope, type TransportScope, transportOf } from "../kernel/scope";
import { hmacSha256Hex } from "../identity/keys";
import { batch } from "../kernel/batch";

const { users, accessTokens, accounts, accountUsers } = schema;

/** How long a ticket may wait before its socket opens. */
export const LIVE_TICKET_TTL_S = 60;

const refused = (message: string) => new DomainError("unauthenticated", message, [{ field: "ticket", message, code: "invalid_ticket" }]);

const digestQuery = (db: Database, userId: number) =>
  db
    .select({ digest: accessTokens.tokenDigest })
    .from(accessTokens)
    .where(and(eq(accessTokens.ownerType, "User"), eq(accessTokens.ownerId, userId)))
    .limit(1);

function sameHex(a: string, b: string) {
  const [x, y] = [new TextEncoder().encode(a), new TextEncoder().encode(b)];
  return x.byteLength === y.byteLength && crypto.subtle.timingSafeEqual(x, y);
}

/** A ticket for the caller (a user) to watch a conversation it may act on. */
export async function issueLiveTicket(scope: AccountScope, displayId: number) {
  if (scope.actor.type !== "user") throw refused("Only users open live rooms with tickets");
  const userId = scope.actor.user.id;
  // the conversation on the account's shard, the key's digest in the directory (docs/shards.md), side by side
  const [, [digests]] = await Promise.all([readConversation(scope, displayId, []), batch(scope.directory, [digestQuery(scope.directory, userId)])]);
  const digest = digests[0]?.digest;
  if (!digest) throw refused("The user has no key to sign a ticket with");
  const expiresAt = Math.floor(Date.now() / 1000) + LIVE_TICKET_TTL_S;
  // a nonce, so two tickets asked for within the same second differ: a room spends each one by its signature
  const nonce = [...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, "0")).join("");
  const claims = `${userId}.${scope.accountId}.${displayId}.${expiresAt}.${nonce}`;
  return { ticket: `${claims}.${await hmacSha256Hex(digest, claims)}`, expiresAt };
}

/** The scope and conversation a ticket opens, or a 401 (bad, expired or voided ticket) / 403 / 404. */
export async function redeemLiveTicket(transport: TransportScope, ticket: string) {
  const { directory: db } = transport;
  const match = /^(\d{1,15})\.(\d{1,15})\.(\d{1,15})\.(\d{1,12})\.([0-9a-f]{16})\.([0-9a-f]{64})$/.exec(ticket);
  if (!match) throw refused("The ticket is not valid");
  const [userId, accountId, displayId, expiresAt] = match.slice(1, 5).map(Number);
  if (expiresAt < Date.now() / 1000) throw refused("The ticket has expired: ask for a new one");
  const [userRows, digests, accountRows, memberships] = await batch(db, [
    db.select().from(users).where(eq(users.id, userId)),
    digestQuery(db, userId),
    db.select().from(accounts).where(eq(accounts.id, accountId)),
    db.select().from(accountUsers).where(and(eq(accountUsers.accountId, accountId), eq(accountUsers.userId, userId))),
  ]);
  const digest = digests[0]?.digest;
  const expected = digest ? await hmacSha256Hex(digest, match.slice(1, 6).join(".")) : "";
  if (!userRows[0] || !sameHex(expected, match[6])) throw refused("The ticket is not valid");
  const account = accountRows[0];
  const membership = memberships[0];
  if (!account || !membership || account.status !== ACCOUNT_STATUS.active || account.shard >= transport.shards.count) throw notFound("Account", accountId, "account_id");
  // the conversation is on the account's shard
  const scope: AccountScope = { ...transportOf(transport), db: transport.shards.open(account.shard), accountId, actor: { type: "user", user: userRows[0] }, role: enumName(ROLES, membership.role) };
  const { conversation } = await readConversation(scope, displayId, []);
  // the ticket's signature names it: the room it opens keeps it until it expires, so it opens one socket
  return { scope, conversation, user: userRows[0], ticket: { id: match[6], expiresAt } };
}
