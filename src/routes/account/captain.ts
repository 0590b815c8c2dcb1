import { Hono } from "hono";
import type { AppEnv } from "../../http/app-env";
import { doc } from "../../http/openapi";
import { DomainError } from "../../domain/kernel/errors";

const NOT_OFFERED = "Captain (the AI assistant) is not offered by this service";

/**
 * /captain/*: Chatwoot's AI assistant (Copilot tasks, assistants, documents). Chatwoot's agent apps call
 * it from the reply box; edgedesk does not offer it, so every method and path under it answers one clear
 * 404 (`not_offered`) after authentication, rather than the generic "no such route".
 */
export const captainApi = new Hono<AppEnv>().on(
  ["GET", "POST", "PUT", "PATCH", "DELETE"],
  "/:path{.+}",
  doc({ summary: "Captain (AI assistant): not offered", description: "Every method and path under `captain/` answers 404 with the error code `not_offered`: this service has no AI assistant." }),
  () => {
    throw new DomainError("not_found", NOT_OFFERED, [{ field: "", message: NOT_OFFERED, code: "not_offered" }]);
  },
);
