import { AVAILABILITIES, ROLES, enumName } from "../domain/kernel/enums";
import type { UserRecord } from "../domain/identity/users";
import { iso } from "./time";

/**
 * The user as the Platform API and the profile show it. `account_id` and `role` describe the most
 * recently active account. `hmac_identifier` is the HMAC of the user's email under the installation's
 * DESK_USER_HMAC_KEY (empty without one), for identity validation in clients. `liveAccounts`: the accounts
 * where the user has a live presence now (each account's feed says); elsewhere the user shows offline.
 */
export function userView(record: UserRecord, hmacIdentifier: string, liveAccounts: ReadonlySet<number> = new Set()) {
  const { user, memberships } = record;
  const active = memberships[0];
  return {
    id: user.id,
    access_token: record.accessToken,
    account_id: active?.accountId ?? null,
    available_name: user.displayName || user.name,
    avatar_url: user.avatarUrl ?? "",
    confirmed: user.confirmedAt !== null,
    display_name: user.displayName,
    message_signature: user.messageSignature,
    email: user.email,
    hmac_identifier: hmacIdentifier,
    inviter_id: user.inviterId,
    name: user.name,
    provider: "email",
    pubsub_token: user.pubsubToken,
    role: active ? enumName(ROLES, active.role) : null,
    ui_settings: user.uiSettings,
    uid: user.email,
    type: user.type,
    unconfirmed_email: user.unconfirmedEmail,
    ...(Object.keys(user.customAttributes).length > 0 && { custom_attributes: user.customAttributes }),
    accounts: memberships.map((m) => {
      const role = enumName(ROLES, m.role);
      const availability = enumName(AVAILABILITIES, m.availability);
      return {
        id: m.accountId,
        name: m.accountName,
        status: m.accountStatus === 1 ? "suspended" : "active",
        active_at: iso(m.activeAt),
        role,
        permissions: role ? [role] : [],
        availability,
        availability_status: liveAccounts.has(m.accountId) ? availability : "offline",
        auto_offline: m.autoOffline,
        custom_role_id: null,
        custom_role: null,
      };
    }),
  };
}
