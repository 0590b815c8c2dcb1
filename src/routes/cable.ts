/**
 * GET /cable: the live account feed over ActionCable (src/realtime/cable.ts). No key: a browser cannot
 * set headers on a WebSocket, and Chatwoot's clients authenticate each RoomChannel subscription with the
 * user's pubsub_token instead (src/domain/identity/feed-access.ts).
 */
import { Hono } from "hono";
import type { AppEnv } from "../http/app-env";
import { doc } from "../http/openapi";
import { publicScope } from "../http/scopes";
import { findFeedSubscriber } from "../domain/identity/feed-access";
import { openCable } from "../realtime/cable";
import { rateLimited } from "../http/rate-limit";

export const cableApi = new Hono<AppEnv>().get(
  "/",
  doc({
    summary: "Open the live account feed (ActionCable, subprotocol actioncable-v1-json)",
    description:
      "Subscribe to `RoomChannel` with `{pubsub_token, account_id, user_id}`: the token must be that user's and the user a member of the account, else `reject_subscription`. A request that is not a WebSocket upgrade is a 400.",
    status: 101,
  }),
  // each connection is a Worker holding a socket, and each subscription a lookup: counted per address
  rateLimited("public_api"),
  (c) => {
    const scope = publicScope(c);
    return openCable(c.req.raw, c.env, (params) => findFeedSubscriber(scope, params));
  },
);
