/**
 * /api/v2/accounts/{id}: Chatwoot's reports, administrators only. Every figure comes from the report
 * rollups (src/domain/reports) or the conversation counters; none counts the account's rows.
 */
import { Hono } from "hono";
import type { z } from "zod";
import { accountLiveReport, agentLiveReport } from "../../domain/conversations/live-report";
import { groupReport, type GroupDimension } from "../../domain/reports/groups";
import type { Window } from "../../domain/reports/rollups";
import { conversationTraffic, reportSeries } from "../../domain/reports/series";
import { botSummaryReport, summaryReport } from "../../domain/reports/summary";
import { botMetrics, channelSummary, firstResponseTimeDistribution, inboxLabelMatrix, outgoingMessagesCount } from "../../domain/reports/breakdowns";
import type { ReportTarget } from "../../domain/reports/targets";
import { type AppContext, type AppEnv } from "../../http/app-env";
import { accountScope } from "../../http/scopes";
import { accountAuth, requireAdministrator } from "../../http/auth";
import { validate } from "../../http/validate";
import {
  BotMetricsReport,
  BotSummaryReport,
  ChannelSummaryQuery,
  ChannelSummaryReport,
  FirstResponseTimeDistributionReport,
  GroupSummary,
  InboxLabelMatrixQuery,
  InboxLabelMatrixReport,
  LiveConversationsQuery,
  LiveConversationsReport,
  OutgoingMessagesCountEntry,
  OutgoingMessagesCountQuery,
  SeriesPoint,
  SeriesQuery,
  SummaryQuery,
  SummaryReport,
  WindowQuery,
} from "../../schemas/reports";
import { groupCsv, summaryCsv, trafficCsv } from "../../views/report-csv";
import { agentLiveView, botMetricsView, groupView, outgoingCountView, summaryView } from "../../views/reports";
import { rateLimited } from "../../http/rate-limit";
import { routeBody } from "../../http/body";
import { doc } from "../../http/openapi";

const WEEK_MS = 7 * 86_400_000;

/** The asked window in epoch ms; by default the week up to now. */
function windowOf(query: { since?: number; until?: number }): Window {
  const toMs = query.until !== undefined ? query.until * 1000 : Date.now();
  const fromMs = query.since !== undefined ? query.since * 1000 : toMs - WEEK_MS;
  return { fromMs, toMs };
}

const targetOf = (query: { type?: ReportTarget["type"]; id?: number }): ReportTarget =>
  !query.type || query.type === "account" ? { type: "account", id: 0 } : { type: query.type, id: query.id! };

function csvResponse(c: AppContext, name: string, body: string) {
  return c.body(body, 200, { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${name}.csv"` });
}

const GROUP_DOWNLOADS: Record<string, GroupDimension> = { agents: "agent", inboxes: "inbox", labels: "label", teams: "team" };

const reportsApi = new Hono<AppEnv>()
  .get("/", doc({ summary: "A metric's series over time (administrators)", response: SeriesPoint.array() }), validate("query", SeriesQuery), async (c) => {
    const q = c.req.valid("query");
    const points = await reportSeries(accountScope(c), {
      metric: q.metric!,
      target: targetOf(q),
      window: windowOf(q),
      groupBy: q.group_by ?? "day",
      offsetHours: q.timezone_offset ?? 0,
    });
    return c.json(points);
  })
  .get("/summary", doc({ summary: "Summary report of the account, an agent, inbox, label or team (administrators)", response: SummaryReport }), validate("query", SummaryQuery), async (c) => {
    const q = c.req.valid("query");
    return c.json(summaryView(await summaryReport(accountScope(c), targetOf(q), windowOf(q))));
  })
  .get("/bot_summary", doc({ summary: "Bot resolutions and handoffs of the window and the one before it (administrators)", response: BotSummaryReport }), validate("query", SummaryQuery), async (c) => {
    const q = c.req.valid("query");
    return c.json(summaryView(await botSummaryReport(accountScope(c), targetOf(q), windowOf(q))));
  })
  .get("/bot_metrics", doc({ summary: "Conversations, replies, resolution and handoff rates of the inboxes a bot is active on (administrators)", response: BotMetricsReport }), validate("query", WindowQuery), async (c) => {
    return c.json(botMetricsView(await botMetrics(accountScope(c), windowOf(c.req.valid("query") as z.infer<typeof WindowQuery>))));
  })
  .get("/inbox_label_matrix", doc({ summary: "Conversations per inbox and label (administrators)", response: InboxLabelMatrixReport }), validate("query", InboxLabelMatrixQuery), async (c) => {
    const q = c.req.valid("query");
    return c.json(await inboxLabelMatrix(accountScope(c), windowOf(q), { inboxIds: q["inbox_ids[]"] ?? q.inbox_ids, labelIds: q["label_ids[]"] ?? q.label_ids }));
  })
  .get("/first_response_time_distribution", doc({ summary: "First responses per channel by how long they took (administrators)", response: FirstResponseTimeDistributionReport }), validate("query", WindowQuery), async (c) => {
    return c.json(await firstResponseTimeDistribution(accountScope(c), windowOf(c.req.valid("query") as z.infer<typeof WindowQuery>)));
  })
  .get("/outgoing_messages_count", doc({ summary: "Public replies per agent, team, inbox or label (administrators)", response: OutgoingMessagesCountEntry.array() }), validate("query", OutgoingMessagesCountQuery), async (c) => {
    const q = c.req.valid("query");
    return c.json((await outgoingMessagesCount(accountScope(c), q.group_by!, windowOf(q))).map(outgoingCountView));
  })
  .get("/conversations", doc({ summary: "Live conversation counts, of the account or per agent (administrators)", response: LiveConversationsReport }), validate("query", LiveConversationsQuery), async (c) => {
    const q = c.req.valid("query");
    if (q.type === "account") return c.json(await accountLiveReport(accountScope(c)));
    return c.json((await agentLiveReport(accountScope(c), { userId: q.user_id, page: q.page ?? 1 })).map(agentLiveView));
  })
  .get("/conversations_summary", doc({ summary: "Conversations summary as CSV (administrators)", description: "Answers `text/csv`." }), validate("query", WindowQuery), async (c) => {
    const q = c.req.valid("query");
    const window = windowOf(q);
    const { current } = await summaryReport(accountScope(c), { type: "account", id: 0 }, window);
    return csvResponse(c, "conversations_summary", summaryCsv(current, { sinceMs: window.fromMs, untilMs: window.toMs }));
  })
  .get("/conversation_traffic", doc({ summary: "Conversation traffic by weekday and hour as CSV (administrators)", description: "Answers `text/csv`." }), validate("query", WindowQuery), async (c) => {
    const q = c.req.valid("query");
    const offset = q.timezone_offset ?? 0;
    return csvResponse(c, "conversation_traffic", trafficCsv(await conversationTraffic(accountScope(c), windowOf(q), offset), offset));
  });

for (const [download, dimension] of Object.entries(GROUP_DOWNLOADS)) {
  reportsApi.get(`/${download}`, doc({ summary: `${dimension[0].toUpperCase()}${dimension.slice(1)} report as CSV (administrators)`, description: "Answers `text/csv`." }), validate("query", WindowQuery), async (c) => {
    const window = windowOf(c.req.valid("query"));
    const rows = await groupReport(accountScope(c), dimension, window);
    return csvResponse(c, `${download}_report`, groupCsv(dimension, rows, { sinceMs: window.fromMs, untilMs: window.toMs }));
  });
}

/** summary_reports/{agent,team,inbox,label}: each member of the dimension with the window's figures. */
const summaryReportsApi = new Hono<AppEnv>();
for (const dimension of ["agent", "team", "inbox", "label"] as const) {
  summaryReportsApi.get(`/${dimension}`, doc({ summary: `Summary of each ${dimension} (administrators)`, response: GroupSummary.array() }), validate("query", WindowQuery), async (c) => {
    const rows = await groupReport(accountScope(c), dimension, windowOf(c.req.valid("query") as z.infer<typeof WindowQuery>));
    return c.json(rows.map(groupView));
  });
}

/** summary_reports/channel: conversations created in the window per channel type and status now. */
summaryReportsApi.get("/channel", doc({ summary: "Conversations per channel type and status (administrators)", response: ChannelSummaryReport }), validate("query", ChannelSummaryQuery), async (c) => {
  return c.json(await channelSummary(accountScope(c), windowOf(c.req.valid("query"))));
});

/** /api/v2: Chatwoot's reports, administrators only. */
export const reportsV2Api = new Hono<AppEnv>().route(
  "/accounts/:account_id",
  new Hono<AppEnv>()
    .use("*", accountAuth, rateLimited("account_api"), requireAdministrator, routeBody)
    .route("/reports", reportsApi)
    .route("/summary_reports", summaryReportsApi),
);
