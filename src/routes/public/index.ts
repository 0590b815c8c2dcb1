import { Hono } from "hono";
import type { AppEnv } from "../../http/app-env";
import { publicCsatSurveyApi } from "./csat-survey";
import { publicPortalsApi } from "./help-center";
import { publicInboxesApi } from "./widget";

/**
 * /public/api/v1: no key; resources are addressed by public identifiers (inbox identifier, portal slug,
 * a CSAT survey's conversation uuid).
 * Each sub-API counts `public_api` on its identifier's path, where the router has decoded it.
 */
export const publicApi = new Hono<AppEnv>()
  .route("/portals", publicPortalsApi)
  .route("/inboxes", publicInboxesApi)
  .route("/csat_survey", publicCsatSurveyApi);
