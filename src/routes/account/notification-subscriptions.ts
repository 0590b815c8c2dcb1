/**
 * /api/v1/notification_subscriptions: the calling user's devices for push (Chatwoot's mobile app registers
 * its FCM token after signing in and removes it when signing out). User keys and sign-ins only.
 */
import { Hono } from "hono";
import { subscribeDevice, unsubscribeDevice } from "../../domain/notifications/subscriptions";
import type { AppEnv } from "../../http/app-env";
import { userAuth } from "../../http/auth";
import { routeBody } from "../../http/body";
import { doc } from "../../http/openapi";
import { rateLimited } from "../../http/rate-limit";
import { userScope } from "../../http/scopes";
import { validate } from "../../http/validate";
import { NotificationSubscription, SubscriptionCreate, SubscriptionDelete } from "../../schemas/notifications";
import { Empty } from "../../schemas/responses";
import { notificationSubscriptionView } from "../../views/notifications";

export const notificationSubscriptionsApi = new Hono<AppEnv>()
  .use("*", userAuth, rateLimited("account_api"), routeBody)
  .post(
    "/",
    doc({ summary: "Register the calling user's device for push (FCM token or browser endpoint)", response: NotificationSubscription }),
    validate("json", SubscriptionCreate),
    async (c) => {
      const body = c.req.valid("json");
      const row = await subscribeDevice(userScope(c), { subscriptionType: body.subscription_type, attributes: body.subscription_attributes });
      return c.json(notificationSubscriptionView(row));
    },
  )
  .delete("/", doc({ summary: "Forget the calling user's device by its push token", response: Empty }), validate("json", SubscriptionDelete), async (c) => {
    await unsubscribeDevice(userScope(c), c.req.valid("json").push_token);
    return c.json({});
  });
