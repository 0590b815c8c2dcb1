/**
 * Who may listen to a visitor's live stream (ActionCable's RoomChannel, subscribed by the widget with its
 * contact inbox's `pubsub_token` and no user): the contact inbox whose token it is, while its contact, its
 * inbox and its active account exist. The token is all the identifier holds, so it names no account:
 * every shard is asked at once (one indexed read each, on the token's unique index), as for a survey
 * link's uuid (src/domain/conversations/by-uuid.ts); entering every contact inbox's token in the
 * directory would cost a directory write for each visitor, and a widget subscribes once per page load.
 */
import { and, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { batch } from "../kernel/batch";
import { ACCOUNT_STATUS } from "../kernel/enums";
import type { TransportScope } from "../kernel/scope";

const { accounts, contactInboxes, contacts, inboxes } = schema;

/** The contact inbox a visitor's subscription proves (a contact's, where a user's subscription proves a user). */
export type StreamVisitor = { type: "contact"; accountId: number; contactId: number; contactInboxId: number; inboxId: number };

/** Tokens are 24 characters (randomToken); anything far longer is not looked for. */
const TOKEN_MAX_LENGTH = 255;

/**
 * Whether a RoomChannel identifier is a visitor's: Chatwoot's widget sends no `user_id` (its
 * `JSON.stringify` drops the undefined key), and Chatwoot's channel takes a blank one the same way.
 */
export const isVisitorIdentifier = (params: Record<string, unknown>) => params.user_id === undefined || params.user_id === null || params.user_id === "";

/** The visitor a RoomChannel identifier proves, or null (the subscription is rejected). */
export async function findStreamVisitor(scope: TransportScope, params: Record<string, unknown>): Promise<StreamVisitor | null> {
  const token = params.pubsub_token;
  if (params.channel !== "RoomChannel" || !isVisitorIdentifier(params) || typeof token !== "string" || token === "" || token.length > TOKEN_MAX_LENGTH) return null;
  const found = await Promise.all(
    Array.from({ length: scope.shards.count }, async (_, shard) => {
      const db = scope.shards.open(shard);
      const [rows] = await batch(db, [
        db
          .select({ accountId: contactInboxes.accountId, contactId: contactInboxes.contactId, contactInboxId: contactInboxes.id, inboxId: contactInboxes.inboxId })
          .from(contactInboxes)
          .innerJoin(contacts, and(eq(contacts.accountId, contactInboxes.accountId), eq(contacts.id, contactInboxes.contactId)))
          .innerJoin(inboxes, and(eq(inboxes.accountId, contactInboxes.accountId), eq(inboxes.id, contactInboxes.inboxId)))
          .innerJoin(accounts, and(eq(accounts.id, contactInboxes.accountId), eq(accounts.status, ACCOUNT_STATUS.active)))
          .where(eq(contactInboxes.pubsubToken, token)),
      ]);
      return rows[0] ?? null;
    }),
  );
  const visitor = found.find((row) => row !== null);
  return visitor ? { type: "contact", ...visitor } : null;
}
