import { Hono } from "hono";
import type { AppEnv } from "../../http/app-env";
import { platformAuth } from "../../http/auth";
import { platformAccounts } from "./accounts";
import { platformAgentBots } from "./agent-bots";
import { platformUsers } from "./users";
import { rateLimited } from "../../http/rate-limit";

/** /platform/api/v1: provisioning with a platform key. */
export const platformApi = new Hono<AppEnv>()
  .use("*", platformAuth, rateLimited("platform_api"))
  .route("/accounts", platformAccounts)
  .route("/users", platformUsers)
  .route("/agent_bots", platformAgentBots);
