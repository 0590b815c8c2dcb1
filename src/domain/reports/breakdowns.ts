/**
 * Chatwoot's breakdown reports: conversations per channel and status (summary_reports/channel), first
 * responses per channel by how long they took, conversations per inbox × label, outgoing messages per
 * agent, team, inbox or label, and the bot figures. Each reads the report rollups of its window (one
 * grouped index range per fact, facts.ts keeps them) beside the account's inboxes, labels, teams or
 * agents: its cost follows the window and those lists, never the number of conversations or messages.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { inJsonList, rawSql, schema } from "../../db/client";
import { batchNamed } from "../kernel/batch";
import { AGENT_BOT_INBOX_STATUS, CONVERSATION_STATUSES } from "../kernel/enums";
import { type AccountScope } from "../kernel/scope";
import { FIRST_RESPONSE_BUCKETS, STATUS_METRICS, hourOf, inboxLabelMetric } from "./facts";
import { type GroupDimension, asMembers, membersQuery } from "./groups";
import { type Window, sumsByFact, totalsByIdQuery, totalsQuery } from "./rollups";

const { inboxes, labels, agentBotInboxes, reportRollups } = schema;

const channelsQuery = (scope: AccountScope) =>
  scope.db.select({ id: inboxes.id, channelType: inboxes.channelType }).from(inboxes).where(eq(inboxes.accountId, scope.accountId));

/** `{ channel_type: { key: count } }` from per-inbox rollup sums, keeping channels with any count. */
function byChannel<K extends string>(
  channels: Array<{ id: number; channelType: string }>,
  sums: Array<{ metric: string; dimensionId: number; count: number }>,
  keyOf: (metric: string) => K | undefined,
  keys: readonly K[],
) {
  const channelOf = new Map(channels.map((c) => [c.id, c.channelType]));
  const result: Record<string, Record<K, number>> = {};
  for (const row of sums) {
    const channel = channelOf.get(Number(row.dimensionId));
    const key = keyOf(row.metric);
    if (!channel || !key || Number(row.count) === 0) continue;
    result[channel] ??= Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
    result[channel][key] += Number(row.count);
  }
  return result;
}

export type ChannelStatusCounts = { open: number; resolved: number; pending: number; snoozed: number; total: number };

/** Conversations created in the window, per channel type, by their status now. */
export async function channelSummary(scope: AccountScope, window: Window): Promise<Record<string, ChannelStatusCounts>> {
  const read = await batchNamed(scope.db, { channels: channelsQuery(scope), sums: totalsByIdQuery(scope, [...STATUS_METRICS], "inbox", window) });
  const statusOf = (metric: string) => CONVERSATION_STATUSES.find((s) => metric === `status_${s}`);
  const counts = byChannel(read.channels, read.sums, statusOf, CONVERSATION_STATUSES);
  return Object.fromEntries(
    Object.entries(counts).map(([channel, c]) => [channel, { ...c, total: c.open + c.resolved + c.pending + c.snoozed }]),
  );
}

type BucketLabel = (typeof FIRST_RESPONSE_BUCKETS)[number]["label"];
const BUCKET_LABELS = FIRST_RESPONSE_BUCKETS.map((b) => b.label);

/** First responses given in the window, per channel type, by how long they took. */
export async function firstResponseTimeDistribution(scope: AccountScope, window: Window): Promise<Record<string, Record<BucketLabel, number>>> {
  const read = await batchNamed(scope.db, {
    channels: channelsQuery(scope),
    sums: totalsByIdQuery(scope, FIRST_RESPONSE_BUCKETS.map((b) => b.metric), "inbox", window),
  });
  const labelOf = (metric: string) => FIRST_RESPONSE_BUCKETS.find((b) => b.metric === metric)?.label;
  return byChannel(read.channels, read.sums, labelOf, BUCKET_LABELS);
}

export type InboxLabelMatrix = {
  inboxes: Array<{ id: number; name: string }>;
  labels: Array<{ id: number; title: string }>;
  /** one row per inbox, one count per label, in the order of `inboxes` and `labels` */
  matrix: number[][];
};

/**
 * Conversations created in the window, per inbox and current label: the account's inboxes (by name) and
 * labels (by title), or those of `inboxIds` / `labelIds` among them (other ids are left out, as Chatwoot's
 * filters do).
 */
export async function inboxLabelMatrix(scope: AccountScope, window: Window, filters: { inboxIds?: number[]; labelIds?: number[] }): Promise<InboxLabelMatrix> {
  const { db, accountId } = scope;
  const inboxFilter = filters.inboxIds?.length ? inJsonList(inboxes.id, filters.inboxIds) : undefined;
  const labelFilter = filters.labelIds?.length ? inJsonList(labels.id, filters.labelIds) : undefined;
  const inboxIdsSql = inboxFilter ? sql`AND ${inboxFilter}` : sql``;
  const read = await batchNamed(db, {
    inboxes: db.select({ id: inboxes.id, name: inboxes.name }).from(inboxes).where(and(eq(inboxes.accountId, accountId), inboxFilter)).orderBy(asc(inboxes.name), asc(inboxes.id)),
    labels: db.select({ id: labels.id, title: labels.title }).from(labels).where(and(eq(labels.accountId, accountId), labelFilter)).orderBy(asc(labels.title)),
    // one index range per asked inbox: its metric names the inbox (facts.ts inboxLabelMetric)
    sums: rawSql<{ metric: string; labelId: number; count: number }>(
      db,
      sql`SELECT metric, dimension_id AS labelId, sum(count) AS count
        FROM ${reportRollups} INDEXED BY report_rollups_by_bucket
        WHERE account_id = ${accountId}
          AND metric IN (SELECT 'inbox_conversations:' || id FROM ${inboxes} WHERE account_id = ${accountId} ${inboxIdsSql})
          AND dimension = 'label' AND bucket >= ${hourOf(window.fromMs)} AND bucket < ${window.toMs}
        GROUP BY metric, dimension_id`,
    ),
  });
  const counts = new Map(read.sums.map((r) => [`${r.metric}/${r.labelId}`, Number(r.count)]));
  return {
    inboxes: read.inboxes,
    labels: read.labels,
    matrix: read.inboxes.map((inbox) => read.labels.map((label) => counts.get(`${inboxLabelMetric(inbox.id)}/${label.id}`) ?? 0)),
  };
}

export type OutgoingCount = { id: number; name: string | null; count: number };

/**
 * Public replies sent in the window per agent (their sender; bots count for no agent), team, inbox or
 * label (the conversation's at the time), for those with any.
 */
export async function outgoingMessagesCount(scope: AccountScope, dimension: GroupDimension, window: Window): Promise<OutgoingCount[]> {
  const read = await batchNamed(scope.db, { members: membersQuery(scope, dimension), sums: totalsByIdQuery(scope, ["outgoing_message"], dimension, window) });
  const names = new Map(asMembers(read.members).map((m) => [m.id, m.name]));
  return read.sums
    .map((r) => ({ id: Number(r.dimensionId), name: names.get(Number(r.dimensionId)) ?? null, count: Number(r.count) }))
    .filter((r) => r.count > 0)
    .sort((a, b) => a.id - b.id);
}

export type BotMetrics = { conversationCount: number; messageCount: number; resolutionRate: number; handoffRate: number };

/**
 * Chatwoot's bot metrics: conversations created in the window in the inboxes a bot is active on now, the
 * public replies sent in those inboxes, and the bot resolutions and handoffs of the window as a whole
 * percentage of those conversations.
 */
export async function botMetrics(scope: AccountScope, window: Window): Promise<BotMetrics> {
  const { db, accountId } = scope;
  const read = await batchNamed(db, {
    // the bot inboxes through the account's inboxes (agent_bot_inboxes is indexed by inbox), then one
    // primary-key range per bot inbox and fact
    inboxes: rawSql<{ metric: string; count: number }>(
      db,
      sql`SELECT metric, sum(count) AS count
        FROM ${reportRollups}
        WHERE account_id = ${accountId} AND metric IN ('conversation_created', 'outgoing_message') AND dimension = 'inbox'
          AND dimension_id IN (SELECT inbox_id FROM ${agentBotInboxes} WHERE account_id = ${accountId} AND status = ${AGENT_BOT_INBOX_STATUS.active}
            AND inbox_id IN (SELECT id FROM ${inboxes} WHERE account_id = ${accountId}))
          AND bucket >= ${hourOf(window.fromMs)} AND bucket < ${window.toMs}
        GROUP BY metric`,
    ),
    bots: totalsQuery(scope, ["bot_resolved", "bot_handoff"], "account", 0, window),
  });
  const inboxSums = sumsByFact(read.inboxes.map((r) => ({ ...r, total: 0 })));
  const botSums = sumsByFact(read.bots);
  const conversationCount = inboxSums.get("conversation_created")?.count ?? 0;
  const rate = (fact: string) => (conversationCount ? Math.trunc(((botSums.get(fact)?.count ?? 0) / conversationCount) * 100) : 0);
  return {
    conversationCount,
    messageCount: inboxSums.get("outgoing_message")?.count ?? 0,
    resolutionRate: rate("bot_resolved"),
    handoffRate: rate("bot_handoff"),
  };
}
