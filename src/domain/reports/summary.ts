/**
 * The account summary report (Chatwoot's v2 reports/summary), from the reporting facts written in the
 * same batch as each change (reporting_events, see facts.ts) and from the messages index. Rows read grow
 * with the activity inside the asked window, not with the account's history.
 */
import { and, eq, gte, lt, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import { type BatchResults, batchGroups } from "../kernel/batch";
import { MESSAGE_TYPE } from "../kernel/enums";
import { type AccountScope } from "../kernel/scope";
import { type ReportingFact } from "./facts";

const { reportingEvents, messages } = schema;

export type SummaryMetrics = {
  conversationsCount: number;
  incomingMessagesCount: number;
  outgoingMessagesCount: number;
  avgFirstResponseTime: number;
  avgResolutionTime: number;
  resolutionsCount: number;
};

function windowQueries(scope: AccountScope, fromMs: number, toMs: number) {
  const fact = (name: ReportingFact) =>
    scope.db
      .select({ count: sql<number>`count(*)`, total: sql<number>`coalesce(sum(${reportingEvents.value}), 0)` })
      .from(reportingEvents)
      .where(and(eq(reportingEvents.accountId, scope.accountId), eq(reportingEvents.name, name), gte(reportingEvents.createdAt, fromMs), lt(reportingEvents.createdAt, toMs)));
  return [
    fact("conversation_created"),
    fact("first_response"),
    fact("conversation_resolved"),
    scope.db
      .select({
        incoming: sql<number>`coalesce(sum(${messages.messageType} = ${MESSAGE_TYPE.incoming}), 0)`,
        outgoing: sql<number>`coalesce(sum(${messages.messageType} = ${MESSAGE_TYPE.outgoing} AND ${messages.private} = 0), 0)`,
      })
      .from(messages)
      .where(and(eq(messages.accountId, scope.accountId), gte(messages.createdAt, fromMs), lt(messages.createdAt, toMs))),
  ] as const;
}

type Fact = Array<{ count: number; total: number }>;
const average = (rows: Fact) => (Number(rows[0]?.count) ? Number(rows[0].total) / Number(rows[0].count) : 0);

function metrics([created, firstResponses, resolutions, messageCounts]: BatchResults<ReturnType<typeof windowQueries>>): SummaryMetrics {
  return {
    conversationsCount: Number(created[0]?.count ?? 0),
    incomingMessagesCount: Number(messageCounts[0]?.incoming ?? 0),
    outgoingMessagesCount: Number(messageCounts[0]?.outgoing ?? 0),
    avgFirstResponseTime: average(firstResponses),
    avgResolutionTime: average(resolutions),
    resolutionsCount: Number(resolutions[0]?.count ?? 0),
  };
}

/** The window [since, until) (epoch ms) and the preceding window of the same length, in one batch. */
export async function accountSummary(scope: AccountScope, sinceMs: number, untilMs: number) {
  const length = untilMs - sinceMs;
  const { current, previous } = await batchGroups(scope.db, {
    current: windowQueries(scope, sinceMs, untilMs),
    previous: windowQueries(scope, sinceMs - length, sinceMs),
  });
  return { current: metrics(current), previous: metrics(previous) };
}
