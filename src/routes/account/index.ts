import { Hono } from "hono";
import type { AppEnv } from "../../http/app-env";
import { accountAuth } from "../../http/auth";
import { accountSelfApi } from "./account";
import { agentBotsApi } from "./agent-bots";
import { agentsApi } from "./agents";
import { inboxMembersApi } from "./inbox-members";
import { inboxesApi } from "./inboxes";
import { profileApi } from "./profile";
import { teamsApi } from "./teams";

/**
 * /api/v1: the profile, and everything under /accounts/:account_id. Each resource group is one
 * sub-app mounted below `accounts`; all of them run behind accountAuth.
 */
const accountScoped = new Hono<AppEnv>()
  .use("*", accountAuth)
  .route("/", accountSelfApi)
  .route("/agents", agentsApi)
  .route("/agent_bots", agentBotsApi)
  .route("/inboxes", inboxesApi)
  .route("/inbox_members", inboxMembersApi)
  .route("/teams", teamsApi);

export const applicationApi = new Hono<AppEnv>()
  .route("/profile", profileApi)
  .route("/accounts/:account_id", accountScoped);
