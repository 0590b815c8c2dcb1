import { hmacSha256Hex } from "../domain/identity/keys";
import type { UserRecord } from "../domain/identity/users";
import { onlineUserIds } from "../realtime/account-feed";

/** HMAC of the user's email under DESK_USER_HMAC_KEY, for clients that validate agent identity; "" without a key. */
export async function userHmacIdentifier(env: Env, email: string): Promise<string> {
  return env.DESK_USER_HMAC_KEY ? hmacSha256Hex(env.DESK_USER_HMAC_KEY, email) : "";
}

/** The accounts where the user is live now: one call to each of the user's accounts' feeds. */
export async function liveAccountsOf(env: Env, record: UserRecord): Promise<Set<number>> {
  const live = await Promise.all(record.memberships.map(async (m) => ((await onlineUserIds(env, m.accountId)).has(record.user.id) ? m.accountId : null)));
  return new Set(live.filter((id): id is number => id !== null));
}
