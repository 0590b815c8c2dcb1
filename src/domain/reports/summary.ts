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

/** Chatwoot's reports/bot_summary: the same windows, the bot metrics. */
export const BOT_SUMMARY_METRICS = ["bot_resolutions_count", "bot_handoffs_count"] as const satisfies readonly ReportMetric[];
export type BotSummaryMetrics = Record<(typeof BOT_SUMMARY_METRICS)[number], number>;

const factsOf = (metrics: readonly ReportMetric[]): RollupMetric[] => [...new Set(metrics.map((m) => REPORT_METRICS[m].fact))];

export function summaryMetrics<M extends ReportMetric>(sums: Map<string, Sums>, metrics: readonly M[]): Record<M, number> {
  return Object.fromEntries(metrics.map((m) => [m, metricValue(m, sums)])) as Record<M, number>;
}

/** The window and the one before it, of the same length in whole hours. */
export function summaryReport(scope: AccountScope, target: ReportTarget, window: Window): Promise<{ current: SummaryMetrics; previous: SummaryMetrics }> {
  return windowsReport(scope, target, window, SUMMARY_METRICS);
}

/** The bot summary of the window and the one before it. */
export function botSummaryReport(scope: AccountScope, target: ReportTarget, window: Window): Promise<{ current: BotSummaryMetrics; previous: BotSummaryMetrics }> {
  return windowsReport(scope, target, window, BOT_SUMMARY_METRICS);
}

async function windowsReport<M extends ReportMetric>(scope: AccountScope, target: ReportTarget, window: Window, metrics: readonly M[]) {
  const start = hourOf(window.fromMs);
  const hours = Math.max(1, Math.ceil((window.toMs - start) / HOUR_MS));
  const previous: Window = { fromMs: start - hours * HOUR_MS, toMs: start };
  const facts = factsOf(metrics);
  const id = dimensionIdOf(target);
  const read = await batchNamed(scope.db, {
    target: targetQuery(scope, target),
    current: totalsQuery(scope, facts, target.type, id, window),
    previous: totalsQuery(scope, facts, target.type, id, previous),
  });
  ensureTarget(target, read.target);
  return { current: summaryMetrics(sumsByFact(read.current), metrics), previous: summaryMetrics(sumsByFact(read.previous), metrics) };
}
