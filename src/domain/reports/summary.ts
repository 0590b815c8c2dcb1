/**
 * The summary report (Chatwoot's v2 reports/summary) of the account or of one agent, inbox, label or
 * team: the window's metrics and those of the preceding window of the same length, from the report
 * rollups (rollups.ts) in one round trip.
 */
import { batchNamed } from "../kernel/batch";
import { type AccountScope } from "../kernel/scope";
import { HOUR_MS, type RollupMetric, hourOf } from "./facts";
import { type ReportMetric, type Sums, type Window, REPORT_METRICS, metricValue, sumsByFact, totalsQuery } from "./rollups";
import { type ReportTarget, dimensionIdOf, ensureTarget, targetQuery } from "./targets";

export const SUMMARY_METRICS = [
  "conversations_count",
  "incoming_messages_count",
  "outgoing_messages_count",
  "avg_first_response_time",
  "avg_resolution_time",
  "resolutions_count",
  "reply_time",
] as const satisfies readonly ReportMetric[];

export type SummaryMetrics = Record<(typeof SUMMARY_METRICS)[number], number>;

const factsOf = (metrics: readonly ReportMetric[]): RollupMetric[] => [...new Set(metrics.map((m) => REPORT_METRICS[m].fact))];

export function summaryMetrics(sums: Map<string, Sums>): SummaryMetrics {
  return Object.fromEntries(SUMMARY_METRICS.map((m) => [m, metricValue(m, sums)])) as SummaryMetrics;
}

/** The window and the one before it, of the same length in whole hours. */
export async function summaryReport(scope: AccountScope, target: ReportTarget, window: Window) {
  const start = hourOf(window.fromMs);
  const hours = Math.max(1, Math.ceil((window.toMs - start) / HOUR_MS));
  const previous: Window = { fromMs: start - hours * HOUR_MS, toMs: start };
  const facts = factsOf(SUMMARY_METRICS);
  const id = dimensionIdOf(target);
  const read = await batchNamed(scope.db, {
    target: targetQuery(scope, target),
    current: totalsQuery(scope, facts, target.type, id, window),
    previous: totalsQuery(scope, facts, target.type, id, previous),
  });
  ensureTarget(target, read.target);
  return { current: summaryMetrics(sumsByFact(read.current)), previous: summaryMetrics(sumsByFact(read.previous)) };
}
