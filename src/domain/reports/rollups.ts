/**
 * Reading the report rollups (facts.ts writes them). Every read is an index range over one account, one
 * fact and one dimension, bounded by the window's hours: its cost follows the window and the number of
 * agents, inboxes, labels or teams, never the number of conversations or messages.
 *
 * Windows are counted in whole UTC hours: the hour that contains `since` counts whole, and the window
 * ends at the hour that contains `until`.
 */
import { and, eq, gte, inArray, lt, sql } from "drizzle-orm";
import { rawSql, schema } from "../../db/client";
import { type AccountScope } from "../kernel/scope";
import { type Dimension, type RollupMetric, hourOf } from "./facts";

const { reportRollups } = schema;

/** What a report asks for, in Chatwoot's names, and the fact each one reads. */
export const REPORT_METRICS = {
  conversations_count: { fact: "conversation_created", kind: "count" },
  incoming_messages_count: { fact: "incoming_message", kind: "count" },
  outgoing_messages_count: { fact: "outgoing_message", kind: "count" },
  resolutions_count: { fact: "conversation_resolved", kind: "count" },
  avg_first_response_time: { fact: "first_response", kind: "average" },
  avg_resolution_time: { fact: "conversation_resolved", kind: "average" },
  reply_time: { fact: "reply_time", kind: "average" },
  bot_resolutions_count: { fact: "bot_resolved", kind: "count" },
  bot_handoffs_count: { fact: "bot_handoff", kind: "count" },
} as const satisfies Record<string, { fact: RollupMetric; kind: "count" | "average" }>;

export type ReportMetric = keyof typeof REPORT_METRICS;
export const REPORT_METRIC_NAMES = Object.keys(REPORT_METRICS) as [ReportMetric, ...ReportMetric[]];

/** A window [fromMs, toMs) taken in whole hours (see above). */
export type Window = { fromMs: number; toMs: number };

const inWindow = (w: Window) => and(gte(reportRollups.bucket, hourOf(w.fromMs)), lt(reportRollups.bucket, w.toMs));

/** The rollup rows of `facts` for one value of a dimension within the window. */
const oneValueInWindow = (scope: AccountScope, facts: RollupMetric[], dimension: Dimension, dimensionId: number, window: Window) =>
  and(
    eq(reportRollups.accountId, scope.accountId),
    inArray(reportRollups.metric, facts),
    eq(reportRollups.dimension, dimension),
    eq(reportRollups.dimensionId, dimensionId),
    inWindow(window),
  );

/** The hourly rows of `facts` for one dimension value: a time series' input. */
export function hourlyRowsQuery(scope: AccountScope, facts: RollupMetric[], dimension: Dimension, dimensionId: number, window: Window) {
  return scope.db
    .select({ metric: reportRollups.metric, bucket: reportRollups.bucket, count: reportRollups.count, total: reportRollups.total })
    .from(reportRollups)
    .where(oneValueInWindow(scope, facts, dimension, dimensionId, window));
}

/** The window's sums of `facts` for one dimension value. */
export function totalsQuery(scope: AccountScope, facts: RollupMetric[], dimension: Dimension, dimensionId: number, window: Window) {
  return scope.db
    .select({ metric: reportRollups.metric, count: sql<number>`coalesce(sum(${reportRollups.count}), 0)`, total: sql<number>`coalesce(sum(${reportRollups.total}), 0)` })
    .from(reportRollups)
    .where(oneValueInWindow(scope, facts, dimension, dimensionId, window))
    .groupBy(reportRollups.metric);
}

/**
 * The window's sums of `facts` for every value of a dimension (summary_reports and the CSV downloads).
 * Without statistics SQLite prefers the primary key here (its order serves the GROUP BY), which reads
 * the dimension's whole history; INDEXED BY holds it to the bucket index, which reads the window only.
 */
export function totalsByIdQuery(scope: AccountScope, facts: RollupMetric[], dimension: Dimension, window: Window) {
  return rawSql<{ metric: string; dimensionId: number; count: number; total: number }>(
    scope.db,
    sql`SELECT metric, dimension_id AS dimensionId, sum(count) AS count, sum(total) AS total
      FROM ${reportRollups} INDEXED BY report_rollups_by_bucket
      WHERE account_id = ${scope.accountId} AND metric IN (SELECT value FROM json_each(${JSON.stringify(facts)}))
        AND dimension = ${dimension} AND bucket >= ${hourOf(window.fromMs)} AND bucket < ${window.toMs}
      GROUP BY metric, dimension_id`,
  );
}

export type Sums = { count: number; total: number };
const ZERO: Sums = { count: 0, total: 0 };

/** `{ fact: {count, total} }` from rows of totalsQuery. */
export function sumsByFact(rows: Array<{ metric: string; count: number; total: number }>): Map<string, Sums> {
  const sums = new Map<string, Sums>();
  for (const row of rows) {
    const current = sums.get(row.metric) ?? ZERO;
    sums.set(row.metric, { count: current.count + Number(row.count), total: current.total + Number(row.total) });
  }
  return sums;
}

/** A metric's value from its fact's sums: the count, or the average in seconds (0 without facts). */
export function metricValue(metric: ReportMetric, sums: Map<string, Sums>): number {
  const { fact, kind } = REPORT_METRICS[metric];
  const s = sums.get(fact) ?? ZERO;
  if (kind === "count") return s.count;
  return s.count ? s.total / s.count : 0;
}
