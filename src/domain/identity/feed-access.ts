/**
 * Who may listen to an account's live feed (ActionCable's RoomChannel): the identifier a client subscribes
 * with names a user, an account and the user's `pubsub_token` (the profile shows it). The token must be
 * that user's and the user a member of that active account (not one being deleted); the ids alone prove nothing.
 */
import { and, eq, ne } from "drizzle-orm";
import { schema } from "../../db/client";
import { SHARD_STATUS } from "../../db/shard-status";
import { batch } from "../kernel/batch";
import { ACCOUNT_STATUS, AVAILABILITIES, ROLES, enumName } from "../kernel/enums";
import type { TransportScope } from "../kernel/scope";

const { users, accountUsers, accounts } = schema;

export type FeedSubscriber = {
  accountId: number;
  userId: number;
  role: (typeof ROLES)[number];
  availability: (typeof AVAILABILITIES)[number];
};

/** A positive whole id, as a number or its decimal text (clients send either). */
function idOf(value: unknown): number | null {
  const n = typeof value === "string" && /^[1-9][0-9]{0,15}$/.test(value) ? Number(value) : value;
  return typeof n === "number" && Number.isSafeInteger(n) && n > 0 ? n : null;
}

function sameText(a: string, b: string) {
  const [x, y] = [new TextEncoder().encode(a), new TextEncoder().encode(b)];
  return x.byteLength === y.byteLength && crypto.subtle.timingSafeEqual(x, y);
}

/** The subscriber a RoomChannel identifier proves, or null (the subscription is rejected). One round trip. */
export async function findFeedSubscriber(scope: TransportScope, params: Record<string, unknown>): Promise<FeedSubscriber | null> {
  const accountId = idOf(params.account_id);
  const userId = idOf(params.user_id);
  const token = params.pubsub_token;
  if (params.channel !== "RoomChannel" || !accountId || !userId || typeof token !== "string" || token === "") return null;
  const { db } = scope;
  const [rows] = await batch(db, [
    db
      .select({ pubsubToken: users.pubsubToken, role: accountUsers.role, availability: accountUsers.availability })
      .from(users)
      .innerJoin(accountUsers, and(eq(accountUsers.userId, users.id), eq(accountUsers.accountId, accountId)))
      // an account being deleted keeps its status until its rows are gone
      .innerJoin(accounts, and(eq(accounts.id, accountUsers.accountId), eq(accounts.status, ACCOUNT_STATUS.active), ne(accounts.shardStatus, SHARD_STATUS.deleting)))
      .where(eq(users.id, userId)),
  ]);
  const row = rows[0];
  if (!row || !sameText(token, row.pubsubToken)) return null;
  return { accountId, userId, role: enumName(ROLES, row.role) ?? "agent", availability: enumName(AVAILABILITIES, row.availability) ?? "online" };
}
