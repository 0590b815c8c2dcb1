import { Hono } from "hono";
import type { AppEnv } from "../../http/app-env";
import { platformAuth } from "../../http/auth";
import { platformAccounts } from "./accounts";
import { platformAgentBots } from "./agent-bots";
import { platformUsers } from "./users";
import { rateLimited } from "../../http/rate-limit";
import { routeBody } from "../../http/body";

/** /platform/api/v1: provisioning with a platform key. */
export const platformApi = new Hono<AppEnv>()
  .use("*", platformAuth, rateLimited("platform_api"), routeBody)
  .route("/accounts", platformAccounts)
  .route("/users", platformUsers)
  .route("/agent_bots", platformAgentBots);
