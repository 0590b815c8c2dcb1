/**
 * Time series (Chatwoot's GET /api/v2/accounts/{id}/reports): one point per day, week, month, year or
 * hour of the window, in the time zone of `timezone_offset` (whole hours), each the sum of the hourly
 * rollups inside it. Weeks start on Sunday, as Chatwoot's (groupdate's) do. Periods without facts are
 * zeros, so a chart has every period.
 */
import { batchNamed } from "../kernel/batch";
import { type AccountScope } from "../kernel/scope";
import { HOUR_MS } from "./facts";
import { type ReportMetric, type Sums, type Window, REPORT_METRICS, hourlyRowsQuery } from "./rollups";
import { type ReportTarget, dimensionIdOf, ensureTarget, targetQuery } from "./targets";

export const GROUP_BYS = ["hour", "day", "week", "month", "year"] as const;
export type GroupBy = (typeof GROUP_BYS)[number];

const DAY_MS = 24 * HOUR_MS;

/** The start (epoch ms) of the period of `groupBy` that contains `at`, in a zone `offsetHours` from UTC. */
export function periodStart(at: number, groupBy: GroupBy, offsetHours: number): number {
  const shift = offsetHours * HOUR_MS;
  const local = new Date(at + shift);
  let start: number;
  switch (groupBy) {
    case "hour":
      start = Math.floor((at + shift) / HOUR_MS) * HOUR_MS;
      break;
    case "day":
      start = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
      break;
    case "week":
      start = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) - local.getUTCDay() * DAY_MS;
      break;
    case "month":
      start = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1);
      break;
    case "year":
      start = Date.UTC(local.getUTCFullYear(), 0, 1);
      break;
  }
  return start - shift;
}

/** The start of the period after the one starting at `start`. */
export function nextPeriod(start: number, groupBy: GroupBy, offsetHours: number): number {
  const shift = offsetHours * HOUR_MS;
  const local = new Date(start + shift);
  switch (groupBy) {
    case "hour":
      return start + HOUR_MS;
    case "day":
      return start + DAY_MS;
    case "week":
      return start + 7 * DAY_MS;
    case "month":
      return Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 1) - shift;
    case "year":
      return Date.UTC(local.getUTCFullYear() + 1, 0, 1) - shift;
  }
}

/** The starts of the periods that meet the window [fromMs, toMs). */
export function periodsOf(window: Window, groupBy: GroupBy, offsetHours: number): number[] {
  const starts: number[] = [];
  for (let at = periodStart(window.fromMs, groupBy, offsetHours); at < window.toMs; at = nextPeriod(at, groupBy, offsetHours)) starts.push(at);
  return starts;
}

export type SeriesPoint = { value: number; timestamp: number; count?: number };
export type SeriesQuery = { metric: ReportMetric; target: ReportTarget; window: Window; groupBy: GroupBy; offsetHours: number };

/** Hourly sums of one fact, per period start. */
export function sumsByPeriod(rows: Array<{ bucket: number; count: number; total: number }>, periods: number[], groupBy: GroupBy, offsetHours: number) {
  const sums = new Map<number, Sums>(periods.map((p) => [p, { count: 0, total: 0 }]));
  for (const row of rows) {
    const sum = sums.get(periodStart(row.bucket, groupBy, offsetHours));
    if (!sum) continue;
    sum.count += Number(row.count);
    sum.total += Number(row.total);
  }
  return sums;
}

export async function reportSeries(scope: AccountScope, query: SeriesQuery): Promise<SeriesPoint[]> {
  const { fact, kind } = REPORT_METRICS[query.metric];
  const read = await batchNamed(scope.db, {
    target: targetQuery(scope, query.target),
    rows: hourlyRowsQuery(scope, [fact], query.target.type, dimensionIdOf(query.target), query.window),
  });
  ensureTarget(query.target, read.target);
  const periods = periodsOf(query.window, query.groupBy, query.offsetHours);
  const sums = sumsByPeriod(read.rows, periods, query.groupBy, query.offsetHours);
  return periods.map((start) => {
    const { count, total } = sums.get(start)!;
    const timestamp = Math.floor(start / 1000);
    if (kind === "count") return { value: count, timestamp };
    return { value: count ? total / count : 0, timestamp, count };
  });
}

/**
 * Conversations opened per hour of each day of the window, days and hours in the zone `offsetHours`
 * from UTC (the conversation_traffic download).
 */
export async function conversationTraffic(scope: AccountScope, window: Window, offsetHours: number) {
  const { rows } = await batchNamed(scope.db, { rows: hourlyRowsQuery(scope, ["conversation_created"], "account", 0, window) });
  const days = periodsOf(window, "day", offsetHours);
  const hours = new Map<number, number[]>(days.map((d) => [d, Array.from({ length: 24 }, () => 0)]));
  for (const row of rows) {
    const day = periodStart(row.bucket, "day", offsetHours);
    const slots = hours.get(day);
    if (slots) slots[Math.floor((row.bucket - day) / HOUR_MS)] += Number(row.count);
  }
  return days.map((day) => ({ localDate: new Date(day + offsetHours * HOUR_MS).toISOString().slice(0, 10), hours: hours.get(day)! }));
}
