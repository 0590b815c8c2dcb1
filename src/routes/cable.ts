/**
 * GET /cable: the live feeds over ActionCable (src/realtime/cable.ts): an account's for its agents, and a
 * visitor's own stream for the website widget. No key: a browser cannot set headers on a WebSocket, and
 * Chatwoot's clients authenticate each RoomChannel subscription with a `pubsub_token` instead: a user's
 * with its `user_id` and `account_id` (src/domain/identity/feed-access.ts), a contact inbox's alone
 * (src/domain/widget/stream-access.ts).
 */
import { Hono } from "hono";
import type { AppEnv } from "../http/app-env";
import { doc } from "../http/openapi";
import { publicScope } from "../http/scopes";
import { findFeedSubscriber } from "../domain/identity/feed-access";
import { findStreamVisitor, isVisitorIdentifier } from "../domain/widget/stream-access";
import { openCable } from "../realtime/cable";
import { rateLimited } from "../http/rate-limit";

export const cableApi = new Hono<AppEnv>().get(
  "/",
  doc({
    summary: "Open the live feeds (ActionCable, subprotocol actioncable-v1-json)",
    description:
      "Subscribe to `RoomChannel` with `{pubsub_token, account_id, user_id}` for an account's feed: the token must be that user's and the user a member of the account. A website widget subscribes with `{pubsub_token}` alone, its contact inbox's token, and hears its own conversations. Anything else is `reject_subscription`. A request that is not a WebSocket upgrade is a 400.",
    status: 101,
  }),
  // each connection is a Worker holding a socket, and each subscription a lookup: counted per address
  rateLimited("public_api"),
  (c) => {
    const scope = publicScope(c);
    return openCable(c.req.raw, c.env, (params) => (isVisitorIdentifier(params) ? findStreamVisitor(scope, params) : findFeedSubscriber(scope, params)));
  },
);
