import { hmacSha256Hex } from "../domain/identity/keys";

/** HMAC of the user's email under DESK_USER_HMAC_KEY, for clients that validate agent identity; "" without a key. */
export async function userHmacIdentifier(env: Env, email: string): Promise<string> {
  return env.DESK_USER_HMAC_KEY ? hmacSha256Hex(env.DESK_USER_HMAC_KEY, email) : "";
}
