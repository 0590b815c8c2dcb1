/**
 * The reports' CSV downloads (Chatwoot's reports/agents, inboxes, labels, teams, conversations_summary,
 * conversation_traffic and csat_survey_responses/download), written field by field as every CSV of the
 * desk is (src/domain/kernel/csv-fields.ts: quoted when needed, formulas made inert, as Chatwoot's
 * CSVSafe does).
 */
import { type CsvValue, csvLine } from "../domain/kernel/csv-fields";
import type { CsatResponseRow } from "../domain/reports/csat";
import type { GroupDimension, GroupRow } from "../domain/reports/groups";
import type { SummaryMetrics } from "../domain/reports/summary";

type Cell = CsvValue;

/** Chatwoot's report CSVs end their lines with a line feed alone. */
export const csv = (rows: Cell[][]) => rows.map((cells) => csvLine(cells, "\n")).join("");

const UNITS: Array<[number, string]> = [
  [86_400, "day"],
  [3_600, "hour"],
  [60, "minute"],
  [1, "second"],
];

/** A duration in seconds as Chatwoot's CSVs write it ("1 day 2 hours 5 seconds"), "--" when nothing was measured. */
export function duration(secondsValue: number | null): string {
  if (secondsValue === null || secondsValue <= 0) return "--";
  let rest = Math.round(secondsValue);
  const parts: string[] = [];
  for (const [size, name] of UNITS) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) parts.push(`${n} ${name}${n === 1 ? "" : "s"}`);
  }
  return parts.join(" ");
}

const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const period = (sinceMs: number, untilMs: number) => [`Reporting period ${date(sinceMs)} to ${date(untilMs)}`];

const GROUP_HEADERS: Record<GroupDimension, string[]> = {
  agent: ["Agent name", "Assigned conversations", "Avg first response time", "Avg resolution time", "Resolution Count", "Avg customer waiting time"],
  inbox: ["Inbox name", "Inbox type", "No. of conversations", "Avg first response time", "Avg resolution time", "Resolution Count", "Avg customer waiting time"],
  label: ["Label", "No. of conversations", "Avg first response time", "Avg resolution time", "Resolution Count", "Avg customer waiting time"],
  team: ["Team name", "Conversations count", "Avg first response time", "Avg resolution time", "Resolution Count", "Avg customer waiting time"],
};

/** reports/agents, inboxes, labels, teams. "Avg customer waiting time" is the average reply time. */
export function groupCsv(dimension: GroupDimension, rows: GroupRow[], window: { sinceMs: number; untilMs: number }) {
  const body = rows.map((r) => [
    r.name,
    ...(dimension === "inbox" ? [r.channelType] : []),
    r.conversationsCount,
    duration(r.avgFirstResponseTime),
    duration(r.avgResolutionTime),
    r.resolvedConversationsCount,
    duration(r.avgReplyTime),
  ]);
  return csv([GROUP_HEADERS[dimension], ...body, period(window.sinceMs, window.untilMs)]);
}

/** reports/conversations_summary: the account summary of the window, one metric a line. */
export function summaryCsv(m: SummaryMetrics, window: { sinceMs: number; untilMs: number }) {
  return csv([
    ["Metric", "Value"],
    ["Conversations", m.conversations_count],
    ["Incoming messages", m.incoming_messages_count],
    ["Outgoing messages", m.outgoing_messages_count],
    ["Avg first response time", duration(m.avg_first_response_time)],
    ["Avg resolution time", duration(m.avg_resolution_time)],
    ["Resolution count", m.resolutions_count],
    ["Avg reply time", duration(m.reply_time)],
    period(window.sinceMs, window.untilMs),
  ]);
}

const two = (n: number) => String(n).padStart(2, "0");
const HOUR_HEADERS = Array.from({ length: 24 }, (_, h) => `${two(h)}:00 - ${two((h + 1) % 24)}:00`);

/** reports/conversation_traffic: conversations opened per hour of each day, in the report's time zone. */
export function trafficCsv(days: Array<{ localDate: string; hours: number[] }>, offsetHours: number) {
  const zone = `UTC${offsetHours >= 0 ? "+" : "-"}${two(Math.abs(offsetHours))}:00`;
  return csv([["Start of the day", ...HOUR_HEADERS], ...days.map((d) => [d.localDate, ...d.hours]), [`Timezone: ${zone}`]]);
}

/** csat_survey_responses/download */
export function csatCsv(rows: CsatResponseRow[], conversationUrl: (displayId: number) => string) {
  return csv([
    ["Agent name", "Rating", "Feedback", "Contact name", "Contact email", "Contact phone", "Link to the conversation", "Answered at"],
    ...rows.map((r) => [
      r.agent?.name,
      r.response.rating,
      r.response.feedbackMessage,
      r.contact?.name,
      r.contact?.email,
      r.contact?.phoneNumber,
      r.displayId === null ? null : conversationUrl(r.displayId),
      r.response.answeredAt === null ? null : new Date(r.response.answeredAt).toISOString(),
    ]),
  ]);
}
