import { Hono } from "hono";
import type { AppEnv } from "../../http/app-env";
import { publicPortalsApi } from "./help-center";
import { publicInboxesApi } from "./widget";
import { rateLimited } from "../../http/rate-limit";

/** /public/api/v1: no key; resources are addressed by public identifiers (inbox identifier, portal slug). */
export const publicApi = new Hono<AppEnv>()
  .use("*", rateLimited("public_api"))
  .route("/portals", publicPortalsApi)
  .route("/inboxes", publicInboxesApi);
