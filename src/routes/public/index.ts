import { Hono } from "hono";
import type { AppEnv } from "../../http/app-env";
import { publicPortalsApi } from "./help-center";
import { publicInboxesApi } from "./widget";

/** /public/api/v1: no key; resources are addressed by public identifiers (inbox identifier, portal slug). */
export const publicApi = new Hono<AppEnv>().route("/portals", publicPortalsApi).route("/inboxes", publicInboxesApi);
