import { Hono } from "hono";
import type { z } from "zod";
import { type CsatFilters, csatMetrics, csatResponsesForDownload, listCsatResponses } from "../../domain/reports/csat";
import { type AppEnv } from "../../http/app-env";
import { accountScope } from "../../http/scopes";
import { requireAdministrator } from "../../http/auth";
import { doc } from "../../http/openapi";
import { validate } from "../../http/validate";
import { CsatMetrics, CsatQuery, CsatResponse } from "../../schemas/reports";
import { csatCsv } from "../../views/report-csv";
import { csatResponseView } from "../../views/reports";

const filtersOf = (q: z.infer<typeof CsatQuery>): CsatFilters => ({
  sinceMs: q.since !== undefined ? q.since * 1000 : undefined,
  untilMs: q.until !== undefined ? q.until * 1000 : undefined,
  userIds: q["user_ids[]"] ?? q.user_ids,
  inboxId: q.inbox_id,
  teamId: q.team_id,
  ratings: q["rating[]"] ?? q.rating,
});

/** /csat_survey_responses: administrators only, as Chatwoot's reports. */
export const csatSurveyResponsesApi = new Hono<AppEnv>()
  .use("*", requireAdministrator)
  .get("/", doc({ summary: "List CSAT survey responses (administrators)", response: CsatResponse.array() }), validate("query", CsatQuery), async (c) => {
    const q = c.req.valid("query");
    const rows = await listCsatResponses(accountScope(c), filtersOf(q), q.page ?? 1, q.sort === "created_at" ? "asc" : "desc");
    return c.json(rows.map(csatResponseView));
  })
  .get("/metrics", doc({ summary: "CSAT metrics: responses, ratings, surveys sent (administrators)", response: CsatMetrics }), validate("query", CsatQuery), async (c) => {
    const m = await csatMetrics(accountScope(c), filtersOf(c.req.valid("query")));
    return c.json({ total_count: m.totalCount, ratings_count: m.ratingsCount, total_sent_messages_count: m.totalSentMessagesCount });
  })
  .get("/download", doc({ summary: "CSAT survey responses as CSV (administrators)", description: "Answers `text/csv`." }), validate("query", CsatQuery), async (c) => {
    const scope = accountScope(c);
    const rows = await csatResponsesForDownload(scope, filtersOf(c.req.valid("query")));
    const url = (displayId: number) => new URL(`/app/accounts/${scope.accountId}/conversations/${displayId}`, c.env.FRONTEND_URL).toString();
    return c.body(csatCsv(rows, url), 200, { "content-type": "text/csv; charset=utf-8", "content-disposition": 'attachment; filename="csat_report.csv"' });
  });
