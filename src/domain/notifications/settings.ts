/**
 * A user's notification settings in one account (Chatwoot's NotificationSetting): which notification
 * types they want by e-mail and by push, as flag bits. A user with no row has Chatwoot's defaults (the
 * row Chatwoot makes for each new account member: assignments only); the first read or write stores it.
 * A type is notified at all when either of its flags is on (Chatwoot's NotificationBuilder).
 */
import { and, eq } from "drizzle-orm";
import { now, schema } from "../../db/client";
import { batch } from "../kernel/batch";
import { DEFAULT_NOTIFICATION_FLAGS, NOTIFICATION_TYPES, notificationFlagBit } from "../kernel/enums";
import { type AccountScope } from "../kernel/scope";
import { actorUserId } from "../people/agents";
import type { NotificationSettingRow } from "./rows";

const { notificationSettings } = schema;

export type FlagKind = "email" | "push";

/** Chatwoot's flag names of one kind, in flag order: `email_conversation_creation`, ... */
export const allFlags = (kind: FlagKind) => NOTIFICATION_TYPES.map((type) => `${kind}_${type}`);

/** The flag names a bit set holds, in flag order. */
export const selectedFlags = (kind: FlagKind, bits: number) => NOTIFICATION_TYPES.filter((type) => (bits & notificationFlagBit(type)) !== 0).map((type) => `${kind}_${type}`);

/** The bits of a list of flag names (checked by the request schema). */
const bitsOf = (kind: FlagKind, names: readonly string[]) =>
  NOTIFICATION_TYPES.filter((type) => names.includes(`${kind}_${type}`)).reduce((bits, type) => bits | notificationFlagBit(type), 0);

const insertDefaults = (scope: AccountScope, userId: number, at: number) =>
  scope.db
    .insert(notificationSettings)
    .values({ accountId: scope.accountId, userId, emailFlags: DEFAULT_NOTIFICATION_FLAGS, pushFlags: DEFAULT_NOTIFICATION_FLAGS, createdAt: at, updatedAt: at })
    .onConflictDoNothing();

const ownRow = (scope: AccountScope, userId: number) =>
  scope.db.select().from(notificationSettings).where(and(eq(notificationSettings.accountId, scope.accountId), eq(notificationSettings.userId, userId)));

export async function getNotificationSettings(scope: AccountScope): Promise<NotificationSettingRow> {
  const userId = actorUserId(scope);
  const [, rows] = await batch(scope.db, [insertDefaults(scope, userId, now()), ownRow(scope, userId)]);
  return rows[0];
}

/** Replaces the selected flags of each kind given (Chatwoot's PUT); a kind not given is kept. */
export async function updateNotificationSettings(scope: AccountScope, input: { emailFlags?: readonly string[]; pushFlags?: readonly string[] }): Promise<NotificationSettingRow> {
  const userId = actorUserId(scope);
  const at = now();
  const change = {
    ...(input.emailFlags !== undefined && { emailFlags: bitsOf("email", input.emailFlags) }),
    ...(input.pushFlags !== undefined && { pushFlags: bitsOf("push", input.pushFlags) }),
    updatedAt: at,
  };
  const [, , rows] = await batch(scope.db, [
    insertDefaults(scope, userId, at),
    scope.db.update(notificationSettings).set(change).where(and(eq(notificationSettings.accountId, scope.accountId), eq(notificationSettings.userId, userId))),
    ownRow(scope, userId),
  ]);
  return rows[0];
}
