import { Hono } from "hono";
import { accountSummary } from "../../domain/reports/summary";
import { type AppEnv, accountScope } from "../../http/app-env";
import { accountAuth, requireAdministrator } from "../../http/auth";
import { validate } from "../../http/validate";
import { SummaryQuery } from "../../schemas/reports";
import { summaryView } from "../../views/reports";
import { rateLimited } from "../../http/rate-limit";
import { doc } from "../../http/openapi";
import { AnyObject } from "../../schemas/responses";

const WEEK_MS = 7 * 86_400_000;

const reportsApi = new Hono<AppEnv>().get("/summary", doc({ summary: "Account summary report (administrators)", response: AnyObject }), validate("query", SummaryQuery), async (c) => {
  const query = c.req.valid("query");
  const until = query.until !== undefined ? query.until * 1000 : Date.now();
  const since = query.since !== undefined ? query.since * 1000 : until - WEEK_MS;
  return c.json(summaryView(await accountSummary(accountScope(c), since, until)));
});

/** /api/v2: Chatwoot's reports, administrators only. */
export const reportsV2Api = new Hono<AppEnv>().route(
  "/accounts/:account_id/reports",
  new Hono<AppEnv>().use("*", accountAuth, rateLimited("account_api"), requireAdministrator).route("/", reportsApi),
);
