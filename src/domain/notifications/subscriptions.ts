/**
 * Devices registered for push (Chatwoot's NotificationSubscriptionsController and its builder): the mobile
 * app registers its FCM token, a browser its push endpoint. A token belongs to the user who registered it
 * last, as in Chatwoot (another user signing in on the same device takes it over). Pushes reach the devices
 * through the configured push relay (push.ts says who gets one; the queue delivers them).
 */
import { and, eq } from "drizzle-orm";
import { now, schema } from "../../db/client";
import { batch } from "../kernel/batch";
import { type UserScope } from "../kernel/scope";
import type { NotificationSubscriptionRow } from "./rows";
import { invalid, invalidField } from "../kernel/errors";
import { MAX_ATTRIBUTES_BYTES, browserPushProblems } from "./push-endpoints";

const { notificationSubscriptions } = schema;

export type SubscriptionInput = { subscriptionType: "fcm" | "browser_push"; attributes: Record<string, unknown> & { push_token?: string; endpoint?: string } };

/** What identifies the device: the FCM token, or the browser's endpoint (checked present by the request schema). */
export const deviceIdentifier = (input: SubscriptionInput) => (input.subscriptionType === "fcm" ? input.attributes.push_token : input.attributes.endpoint) ?? "";

/**
 * A browser's endpoint must be a push service's, with its keys (push-endpoints.ts); every registration's
 * attributes are bounded, since they travel in each push the relay receives. Nothing is stored otherwise.
 */
function checkRegistration(input: SubscriptionInput) {
  if (new TextEncoder().encode(JSON.stringify(input.attributes)).byteLength > MAX_ATTRIBUTES_BYTES) {
    throw invalidField("subscription_attributes", `must be at most ${MAX_ATTRIBUTES_BYTES / 1024} KiB of JSON`, "too_large");
  }
  if (input.subscriptionType !== "browser_push") return;
  const problems = browserPushProblems(input.attributes);
  if (problems.length > 0) throw invalid(problems);
}

/** Registers (or refreshes) the device for the calling user. */
export async function subscribeDevice(scope: UserScope, input: SubscriptionInput): Promise<NotificationSubscriptionRow> {
  const { db } = scope;
  checkRegistration(input);
  const at = now();
  const token = deviceIdentifier(input);
  const [rows] = await batch(db, [
    db
      .insert(notificationSubscriptions)
      .values({ userId: scope.actor.user.id, subscriptionType: input.subscriptionType, pushToken: token, subscriptionAttributes: input.attributes, createdAt: at, updatedAt: at })
      .onConflictDoUpdate({
        target: notificationSubscriptions.pushToken,
        set: { userId: scope.actor.user.id, subscriptionType: input.subscriptionType, subscriptionAttributes: input.attributes, updatedAt: at },
      })
      .returning(),
  ]);
  return rows[0];
}

/** Forgets the calling user's device with this token; another user's, or an unknown token, is left alone. */
export async function unsubscribeDevice(scope: UserScope, pushToken: string): Promise<void> {
  const { db } = scope;
  await batch(db, [db.delete(notificationSubscriptions).where(and(eq(notificationSubscriptions.pushToken, pushToken), eq(notificationSubscriptions.userId, scope.actor.user.id)))]);
}
