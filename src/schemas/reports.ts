/**
 * Query strings of the reports (/api/v2/accounts/{id}/reports..., summary_reports/...) and of the CSAT
 * survey responses. Times are Unix seconds; `timezone_offset` is in whole hours (the rollups are hourly).
 */
import { z } from "zod";
import { GROUP_BYS } from "../domain/reports/series";
import { DIMENSIONS } from "../domain/reports/facts";
import { REPORT_METRIC_NAMES } from "../domain/reports/rollups";
import { Bool, Id, IdList, Int } from "./common";
import { UnixSeconds } from "./conversations";
import { SUMMARY_METRICS } from "../domain/reports/summary";

const DAY = 86_400;
/** The longest window a report reads (its cost follows its hours). */
export const MAX_REPORT_DAYS = 5 * 366;
/** The longest window grouped by hour (one point per hour). */
export const MAX_HOURLY_DAYS = 31;

const TimezoneOffset = z.preprocess(
  (v) => (typeof v === "string" && /^[-+]?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : v),
  z
    .number({ error: "must be a number of hours" })
    .min(-12)
    .max(14)
    .refine((v) => Number.isInteger(v), { error: "must be a whole number of hours (reports are kept per hour)", params: { code: "not_whole_hours" } }),
);

/** Chatwoot's business-hours figures are not kept: `business_hours=true` is refused rather than ignored. */
const BusinessHours = Bool.refine((v) => v === false, {
  error: "is not supported: reports count calendar time",
  params: { code: "unsupported" },
});

const windowFields = {
  since: UnixSeconds.optional(),
  until: UnixSeconds.optional(),
  business_hours: BusinessHours.optional(),
};

type WindowInput = { since?: number; until?: number };

function checkWindow(q: WindowInput, ctx: z.RefinementCtx, maxDays = MAX_REPORT_DAYS) {
  if (q.since === undefined || q.until === undefined) return;
  if (q.since >= q.until) ctx.addIssue({ code: "custom", path: ["until"], message: "must be after since", params: { code: "invalid_range" } });
  else if (q.until - q.since > maxDays * DAY) {
    ctx.addIssue({ code: "custom", path: ["until"], message: `must be at most ${maxDays} days after since`, params: { code: "range_too_long" } });
  }
}

const Type = z.enum(DIMENSIONS);

function checkTarget(q: { type?: string; id?: number }, ctx: z.RefinementCtx) {
  if (q.type !== undefined && q.type !== "account" && q.id === undefined) {
    ctx.addIssue({ code: "custom", path: ["id"], message: `is required with type ${q.type}`, params: { code: "required" } });
  }
}

/** GET .../reports/summary */
export const SummaryQuery = z
  .object({ ...windowFields, type: Type.optional(), id: Id.optional(), timezone_offset: TimezoneOffset.optional() })
  .superRefine((q, ctx) => {
    checkWindow(q, ctx);
    checkTarget(q, ctx);
  });

/** GET .../reports: one metric's time series. */
export const SeriesQuery = z
  .object({
    ...windowFields,
    metric: z.enum(REPORT_METRIC_NAMES).optional(),
    type: Type.optional(),
    id: Id.optional(),
    group_by: z.enum(GROUP_BYS).optional(),
    timezone_offset: TimezoneOffset.optional(),
  })
  .superRefine((q, ctx) => {
    if (q.metric === undefined) ctx.addIssue({ code: "custom", path: ["metric"], message: "is required", params: { code: "required" } });
    checkWindow(q, ctx, q.group_by === "hour" ? MAX_HOURLY_DAYS : MAX_REPORT_DAYS);
    checkTarget(q, ctx);
  });

/** summary_reports/* and the CSV downloads. */
export const WindowQuery = z.object({ ...windowFields, timezone_offset: TimezoneOffset.optional() }).superRefine((q, ctx) => checkWindow(q, ctx));

/** summary_reports/channel: Chatwoot refuses a window longer than six months. */
export const MAX_CHANNEL_REPORT_DAYS = 182;
export const ChannelSummaryQuery = z
  .object({ ...windowFields })
  .superRefine((q, ctx) => checkWindow(q, ctx, MAX_CHANNEL_REPORT_DAYS));

/** reports/inbox_label_matrix: the window, and optionally some inboxes and labels (ids of others are left out). */
export const InboxLabelMatrixQuery = z
  .object({
    ...windowFields,
    inbox_ids: IdList.optional(),
    "inbox_ids[]": IdList.optional(),
    label_ids: IdList.optional(),
    "label_ids[]": IdList.optional(),
  })
  .superRefine((q, ctx) => checkWindow(q, ctx));

/** reports/outgoing_messages_count: `group_by` is required (Chatwoot answers an empty 422 without it). */
export const OutgoingMessagesCountQuery = z
  .object({ ...windowFields, group_by: z.enum(["agent", "team", "inbox", "label"]).optional() })
  .superRefine((q, ctx) => {
    if (q.group_by === undefined) ctx.addIssue({ code: "custom", path: ["group_by"], message: "is required", params: { code: "required" } });
    checkWindow(q, ctx);
  });

/** GET .../reports/conversations: `type` is required (Chatwoot answers an empty 422 without it). */
export const LiveConversationsQuery = z.object({
  type: z.enum(["account", "agent"]),
  user_id: Id.optional(),
  page: Int.pipe(z.number().min(1).max(10_000)).optional(),
});

const RatingList = z.preprocess(
  (v) => (typeof v === "string" ? v.split(",").map((s) => s.trim()).filter(Boolean) : v),
  z.array(Int.pipe(z.number().min(1).max(5))).max(5),
);

/** GET .../csat_survey_responses (and metrics, download). */
export const CsatQuery = z
  .object({
    since: UnixSeconds.optional(),
    until: UnixSeconds.optional(),
    user_ids: IdList.optional(),
    "user_ids[]": IdList.optional(),
    inbox_id: Id.optional(),
    team_id: Id.optional(),
    rating: RatingList.optional(),
    "rating[]": RatingList.optional(),
    page: Int.pipe(z.number().min(1).max(10_000)).optional(),
    sort: z.enum(["created_at", "-created_at"]).optional(),
  })
  .superRefine((q, ctx) => checkWindow(q, ctx, Number.MAX_SAFE_INTEGER));

// ---------------------------------------------------------------- answers (src/views/reports.ts)

const number = z.number();
const secondsOrNull = z.number().nullable().describe("seconds; null when nothing was measured in the window");
const metrics = Object.fromEntries(SUMMARY_METRICS.map((m) => [m, number])) as Record<(typeof SUMMARY_METRICS)[number], typeof number>;

/** GET reports: one point per period. */
export const SeriesPoint = z.looseObject({
  value: number,
  timestamp: z.number().int().describe("the period's start, Unix seconds"),
  count: z.number().int().optional().describe("for averages: how many values were averaged"),
});

/** GET reports/summary: the window's metrics, and `previous` for the preceding window of the same length. */
export const SummaryReport = z
  .looseObject({ ...metrics, previous: z.looseObject(metrics) })
  .meta({ id: "SummaryReport" });

/** GET reports/conversations: the account's live counts (type=account), or one entry per agent (type=agent). */
export const LiveConversationsReport = z.union([
  z.looseObject({ open: z.number().int(), unattended: z.number().int(), unassigned: z.number().int() }),
  z.array(
    z.looseObject({
      id: z.number().int(),
      name: z.string(),
      email: z.string(),
      thumbnail: z.string(),
      availability: z.enum(["online", "offline", "busy"]),
      metric: z.looseObject({ open: z.number().int(), unattended: z.number().int() }),
    }),
  ),
]);

/** One entry of summary_reports/{agent,team,inbox,label}. */
export const GroupSummary = z.looseObject({
  id: z.number().int(),
  conversations_count: z.number().int(),
  resolved_conversations_count: z.number().int(),
  avg_resolution_time: secondsOrNull,
  avg_first_response_time: secondsOrNull,
  avg_reply_time: secondsOrNull,
});

const person = { id: z.number().int(), name: z.string().nullable(), email: z.string().nullable(), thumbnail: z.string() };

/** A CSAT survey response as Chatwoot's list shows it (conversation_id is the display id). */
export const CsatResponse = z
  .looseObject({
    id: z.number().int(),
    rating: z.number().int(),
    feedback_message: z.string().nullable(),
    csat_review_notes: z.null(),
    review_notes_updated_at: z.null(),
    account_id: z.number().int(),
    message_id: z.number().int(),
    conversation_id: z.number().int(),
    contact: z.looseObject({ ...person, phone_number: z.string().nullable() }).nullable(),
    assigned_agent: z.looseObject(person).nullable(),
    created_at: z.number().int().nullable().describe("when it was answered, Unix seconds"),
  })
  .meta({ id: "CsatResponse" });

export const CsatMetrics = z.looseObject({
  total_count: z.number().int(),
  ratings_count: z.record(z.string(), z.number().int()).describe("responses per rating"),
  total_sent_messages_count: z.number().int(),
});

/** GET reports/bot_summary: the window's bot figures, and `previous` for the preceding window. */
const botSummary = { bot_resolutions_count: z.number().int(), bot_handoffs_count: z.number().int() };
export const BotSummaryReport = z.looseObject({ ...botSummary, previous: z.looseObject(botSummary) });

/** GET reports/bot_metrics. */
export const BotMetricsReport = z.looseObject({
  conversation_count: z.number().int().describe("conversations created in the window in the inboxes a bot is active on"),
  message_count: z.number().int().describe("public replies sent in those inboxes in the window"),
  resolution_rate: z.number().int().describe("bot resolutions of the window, percent of conversation_count (whole)"),
  handoff_rate: z.number().int().describe("bot handoffs of the window, percent of conversation_count (whole)"),
});

/** GET summary_reports/channel: per channel type (`Channel::Api`, ...), conversations created in the window by status now. */
export const ChannelSummaryReport = z.record(
  z.string(),
  z.looseObject({ open: z.number().int(), resolved: z.number().int(), pending: z.number().int(), snoozed: z.number().int(), total: z.number().int() }),
);

/** GET reports/inbox_label_matrix. */
export const InboxLabelMatrixReport = z.looseObject({
  inboxes: z.array(z.looseObject({ id: z.number().int(), name: z.string() })),
  labels: z.array(z.looseObject({ id: z.number().int(), title: z.string() })),
  matrix: z.array(z.array(z.number().int())).describe("one row per inbox, one count per label, in the order of inboxes and labels"),
});

/** GET reports/first_response_time_distribution: per channel type, first responses by how long they took. */
export const FirstResponseTimeDistributionReport = z.record(
  z.string(),
  z.looseObject({ "0-1h": z.number().int(), "1-4h": z.number().int(), "4-8h": z.number().int(), "8-24h": z.number().int(), "24h+": z.number().int() }),
);

/** GET reports/outgoing_messages_count: one entry per agent, team, inbox or label with replies in the window. */
export const OutgoingMessagesCountEntry = z.looseObject({
  id: z.number().int(),
  name: z.string().nullable(),
  outgoing_messages_count: z.number().int(),
});
