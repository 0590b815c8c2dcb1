/**
 * Reporting facts: one `reporting_events` row per thing reports measure (a conversation created, its first
 * response, a reply, its resolution, a bot handoff), and beside it the upsert of the report rollups
 * (`report_rollups`: per account, fact, dimension and UTC hour), both written in the same batch as the
 * change they record. Reports read the rollups of their window, never the account's history.
 *
 * Where a fact is counted (its dimensions), fixed when it happens:
 * - account: always; inbox: the conversation's inbox; team: the conversation's team at that moment;
 *   label: the conversation's labels at that moment;
 * - agent: for a first response or a reply, the user who wrote it; for a resolution, the conversation's
 *   assignee (as Chatwoot); for an outgoing message its sender; for an incoming message the assignee.
 * - conversations_count is the exception, as in Chatwoot: a conversation counts in the hour it was
 *   created, for its current assignee, team and labels, so assigning, moving or labelling it moves its
 *   count (changeStatements does it in the batch of the change).
 */
import { type SQL, sql } from "drizzle-orm";
import { rawSql, schema } from "../../db/client";
import type { ConversationRow } from "../conversations/rows";
import { CONVERSATION_STATUSES, MESSAGE_TYPE } from "../kernel/enums";
import { type AccountScope, actingUserId } from "../kernel/scope";

const { reportingEvents, reportRollups, taggings, labels } = schema;

export const REPORTING_FACTS = ["conversation_created", "first_response", "reply_time", "conversation_resolved", "bot_resolved", "bot_handoff"] as const;
export type ReportingFact = (typeof REPORTING_FACTS)[number];

/**
 * First responses by how long they took (Chatwoot's first_response_time_distribution buckets), counted
 * for the inbox only, in the hour of the response. Each bucket holds values from its lower bound (seconds)
 * up to the next bucket's.
 */
export const FIRST_RESPONSE_BUCKETS = [
  { metric: "first_response_0_1h", label: "0-1h", from: 0 },
  { metric: "first_response_1_4h", label: "1-4h", from: 3_600 },
  { metric: "first_response_4_8h", label: "4-8h", from: 14_400 },
  { metric: "first_response_8_24h", label: "8-24h", from: 28_800 },
  { metric: "first_response_24h_plus", label: "24h+", from: 86_400 },
] as const;

/** The bucket metric of a first response of `seconds`. */
export const firstResponseBucket = (seconds: number) => [...FIRST_RESPONSE_BUCKETS].reverse().find((b) => seconds >= b.from)!.metric;

/**
 * Conversations by their current status (summary_reports/channel), counted for the inbox only in the hour
 * the conversation was created, and moved from one status to the other in the write that changes it.
 */
export const STATUS_METRICS = CONVERSATION_STATUSES.map((s) => `status_${s}` as const);
export const statusMetric = (status: number) => STATUS_METRICS[status];

/** What the rollups count: the reporting facts and the messages (which have no reporting_events row). */
export const ROLLUP_METRICS = [
  ...REPORTING_FACTS,
  "incoming_message",
  "outgoing_message",
  ...FIRST_RESPONSE_BUCKETS.map((b) => b.metric),
  ...STATUS_METRICS,
] as const;

/**
 * Conversations of one inbox by their current labels (inbox_label_matrix): dimension `label`, in the hour
 * the conversation was created, moved with its labels. The inbox is part of the metric's name, so one
 * rollup row holds one inbox × label × hour and the matrix reads the rows of the asked inboxes only.
 */
export type InboxLabelMetric = `inbox_conversations:${number}`;
export const inboxLabelMetric = (inboxId: number): InboxLabelMetric => `inbox_conversations:${inboxId}`;

export type RollupMetric = (typeof ROLLUP_METRICS)[number] | InboxLabelMetric;

export const DIMENSIONS = ["account", "agent", "inbox", "label", "team"] as const;
export type Dimension = (typeof DIMENSIONS)[number];

export const HOUR_MS = 3_600_000;
/** The UTC hour `at` (epoch ms) falls in: the rollups' bucket. */
export const hourOf = (at: number) => Math.floor(at / HOUR_MS) * HOUR_MS;

type Ref = number | SQL<number>;

/**
 * Where one fact is counted. `labelsOf` counts it for the current labels of that conversation (read in
 * the batch, so it sees labels written earlier in it); `labelTitles` for the labels of those titles.
 */
export type Attribution = {
  account?: boolean;
  inboxId?: Ref | null;
  teamId?: Ref | null;
  agentId?: Ref | null;
  labelsOf?: Ref;
  labelTitles?: string[];
};

/**
 * The upsert adding `delta` to the rollups of `metric` in the hour of `at`, for every dimension of
 * `where`, as one INSERT ... SELECT (null when it counts nowhere). Any of them may be SQL evaluated in
 * the batch (a column of a row the batch is about to change): a dimension whose id is null counts
 * nowhere, and `when`, if given, decides in the batch whether the fact counts at all.
 */
export function rollupStatement(
  scope: AccountScope,
  metric: RollupMetric | SQL<string>,
  at: Ref,
  delta: { count: number; total: Ref },
  where: Attribution,
  when?: SQL,
) {
  const rows: SQL[] = [];
  const row = (dimension: Dimension, id: Ref) => sql`SELECT ${dimension} AS dimension, ${id} AS dimension_id`;
  if (where.account) rows.push(row("account", 0));
  if (where.inboxId != null) rows.push(row("inbox", where.inboxId));
  if (where.teamId != null) rows.push(row("team", where.teamId));
  if (where.agentId != null) rows.push(row("agent", where.agentId));
  if (where.labelsOf !== undefined) {
    rows.push(
      sql`SELECT 'label' AS dimension, ${labels.id} AS dimension_id FROM ${taggings} JOIN ${labels} ON ${labels.accountId} = ${taggings.accountId} AND ${labels.title} = lower(${taggings.tag}) WHERE ${taggings.accountId} = ${scope.accountId} AND ${taggings.taggableType} = 'Conversation' AND ${taggings.taggableId} = ${where.labelsOf}`,
    );
  }
  if (where.labelTitles?.length) {
    rows.push(
      sql`SELECT 'label' AS dimension, ${labels.id} AS dimension_id FROM ${labels} WHERE ${labels.accountId} = ${scope.accountId} AND ${labels.title} IN (SELECT lower(value) FROM json_each(${JSON.stringify(where.labelTitles)}))`,
    );
  }
  if (rows.length === 0) return null;
  const bucket = typeof at === "number" ? sql`${hourOf(at)}` : sql`(CAST(${at} AS INTEGER) / ${sql.raw(String(HOUR_MS))}) * ${sql.raw(String(HOUR_MS))}`;
  // the WHERE clause also keeps SQLite from reading ON CONFLICT as a join constraint of the SELECT
  return rawSql(
    scope.db,
    sql`INSERT INTO ${reportRollups} (account_id, metric, dimension, dimension_id, bucket, count, total)
      SELECT ${scope.accountId}, ${metric}, d.dimension, d.dimension_id, ${bucket}, ${delta.count}, ${delta.total}
      FROM (${sql.join(rows, sql` UNION ALL `)}) AS d WHERE d.dimension_id IS NOT NULL AND ${when ?? sql`1`}
      ON CONFLICT (account_id, metric, dimension, dimension_id, bucket)
      DO UPDATE SET count = count + excluded.count, total = total + excluded.total`,
  );
}

/**
 * Deleted conversations leave the rollups that count conversations as they are now: their status
 * (summary_reports/channel) and their current labels in their inbox (inbox_label_matrix), in the hours
 * they were created. `which` picks them among the account's conversations (as `c`); the statements run
 * before their taggings are deleted. The other rollups keep them: the work was done.
 */
export function conversationsLeaveStatements(scope: AccountScope, which: SQL) {
  const status = sql.join(
    STATUS_METRICS.map((metric, code) => sql`WHEN ${code} THEN ${metric}`),
    sql` `,
  );
  const hour = sql`(c.created_at / 3600000) * 3600000`;
  const upsert = sql`ON CONFLICT (account_id, metric, dimension, dimension_id, bucket) DO UPDATE SET count = count + excluded.count`;
  return [
    rawSql(
      scope.db,
      sql`INSERT INTO ${reportRollups} (account_id, metric, dimension, dimension_id, bucket, count, total)
        SELECT c.account_id, CASE c.status ${status} END, 'inbox', c.inbox_id, ${hour}, -count(*), 0
        FROM conversations c WHERE c.account_id = ${scope.accountId} AND ${which}
        GROUP BY 2, 4, 5 ${upsert}`,
    ),
    rawSql(
      scope.db,
      sql`INSERT INTO ${reportRollups} (account_id, metric, dimension, dimension_id, bucket, count, total)
        SELECT c.account_id, 'inbox_conversations:' || c.inbox_id, 'label', l.id, ${hour}, -count(*), 0
        FROM conversations c
        JOIN taggings t ON t.account_id = c.account_id AND t.taggable_type = 'Conversation' AND t.taggable_id = c.id
        JOIN labels l ON l.account_id = t.account_id AND l.title = lower(t.tag)
        WHERE c.account_id = ${scope.accountId} AND ${which}
        GROUP BY 2, 4, 5 ${upsert}`,
    ),
  ];
}

/**
 * The conversation fields that decide where its facts count: values, or columns read in the batch (of a
 * row inserted earlier in it, or of the row a change is about to update).
 */
export type FactConversation = { id: Ref; inboxId: Ref; teamId: Ref | null; assigneeId: Ref | null };

/**
 * The fact `name` about `conversation` (whose id may be `lastInsertedId(...)` of the same batch), with
 * its value in seconds: its reporting_events row and its rollups. `agentId` is whom the agent dimension
 * credits (by default the acting user).
 */
export function reportingFactStatements(
  scope: AccountScope,
  conversation: FactConversation,
  name: ReportingFact,
  valueSeconds: Ref,
  at: number,
  agentId: Ref | null = actingUserId(scope),
  when?: SQL,
) {
  // columns in the order of `reporting_events`; `when` decides in the batch whether the fact happened
  const event = scope.db.insert(reportingEvents).select(
    sql`SELECT NULL, ${scope.accountId}, ${name}, ${valueSeconds}, ${conversation.id}, ${conversation.inboxId}, ${agentId}, ${at} WHERE ${when ?? sql`1`}`,
  );
  // a new conversation has no labels yet, and its conversations_count moves with them later
  const labelsOf = name === "conversation_created" ? undefined : conversation.id;
  const total = { count: 1, total: valueSeconds };
  const rollup = rollupStatement(
    scope,
    name,
    at,
    total,
    { account: true, inboxId: conversation.inboxId, teamId: conversation.teamId, agentId: name === "conversation_created" ? conversation.assigneeId : agentId, labelsOf },
    when,
  );
  const statements = rollup ? [event, rollup] : [event];
  if (name === "first_response") statements.push(rollupStatement(scope, firstResponseBucketOf(valueSeconds), at, total, { inboxId: conversation.inboxId }, when)!);
  return statements;
}

/** `firstResponseBucket` of a value known now or only in the batch. */
function firstResponseBucketOf(seconds: Ref): RollupMetric | SQL<string> {
  if (typeof seconds === "number") return firstResponseBucket(seconds);
  const buckets = [...FIRST_RESPONSE_BUCKETS].reverse().map((b) => sql`WHEN ${seconds} >= ${b.from} THEN ${b.metric}`);
  return sql<string>`(CASE ${sql.join(buckets, sql` `)} END)`;
}

/** `statusMetric` of a status known now or only in the batch. */
const statusMetricOf = (status: Ref): RollupMetric | SQL<string> =>
  typeof status === "number" ? statusMetric(status) : sql<string>`(CASE ${status} ${sql.join(STATUS_METRICS.map((metric, code) => sql`WHEN ${code} THEN ${metric}`), sql` `)} END)`;

/**
 * A conversation's place among the statuses of its inbox (summary_reports/channel), in the hour it was
 * created: `from` null for a new conversation, otherwise the status it leaves. Statuses may be read in
 * the batch, with `when` deciding there whether the status moves.
 */
export function statusMoveStatements(scope: AccountScope, conversation: { inboxId: Ref; createdAt: Ref }, from: Ref | null, to: Ref, when?: SQL) {
  const where = { inboxId: conversation.inboxId };
  const joined = rollupStatement(scope, statusMetricOf(to), conversation.createdAt, { count: 1, total: 0 }, where, when)!;
  if (from === null) return [joined];
  return [rollupStatement(scope, statusMetricOf(from), conversation.createdAt, { count: -1, total: 0 }, where, when)!, joined];
}

/** Seconds from `fromMs` to `toMs`, as facts store durations. */
export const secondsBetween = (fromMs: number, toMs: number) => Math.round((toMs - fromMs) / 1000);

/** `secondsBetween` a time known now or only in the batch, and `toMs`. */
const secondsSince = (fromMs: Ref, toMs: number): Ref =>
  typeof fromMs === "number" ? secondsBetween(fromMs, toMs) : sql<number>`CAST(round((${toMs} - ${fromMs}) / 1000.0) AS INTEGER)`;

/**
 * The facts of a new message in `conversation` (as it was before the message): its count, and for a
 * person's public reply either the first response (when the message is the conversation's first reply,
 * `isFirstReply`) or the reply time since the contact started waiting (Chatwoot's reply_time). Private
 * notes, activity lines and templates count nowhere. For a conversation read in the batch (its fields
 * columns of its row as it was), `isFirstReply` is that condition in SQL, and `waitingSince` its column.
 */
export function messageFactStatements(
  scope: AccountScope,
  conversation: FactConversation & { createdAt: Ref; waitingSince: Ref | null },
  message: { messageType: number; private: boolean; senderUserId: number | null },
  isFirstReply: boolean | SQL,
  at: number,
) {
  const { messageType } = message;
  const statements = [];
  if (messageType === MESSAGE_TYPE.incoming || (messageType === MESSAGE_TYPE.outgoing && !message.private)) {
    const incoming = messageType === MESSAGE_TYPE.incoming;
    const rollup = rollupStatement(scope, incoming ? "incoming_message" : "outgoing_message", at, { count: 1, total: 0 }, {
      account: true,
      inboxId: conversation.inboxId,
      teamId: conversation.teamId,
      agentId: incoming ? conversation.assigneeId : message.senderUserId,
      labelsOf: conversation.id,
    });
    if (rollup) statements.push(rollup);
  }
  const { waitingSince } = conversation;
  const replied = messageType === MESSAGE_TYPE.outgoing && !message.private && message.senderUserId !== null && waitingSince !== null;
  if (isFirstReply !== false) {
    const when = isFirstReply === true ? undefined : isFirstReply;
    statements.push(...reportingFactStatements(scope, conversation, "first_response", secondsSince(conversation.createdAt, at), at, message.senderUserId, when));
  }
  if (replied && isFirstReply !== true) {
    // otherwise decided in the batch: not the first reply, and the contact was waiting
    const conditions = [...(isFirstReply === false ? [] : [sql`NOT (${isFirstReply})`]), ...(typeof waitingSince === "number" ? [] : [sql`${waitingSince} IS NOT NULL`])];
    const when = conditions.length > 0 ? sql.join(conditions, sql` AND `) : undefined;
    statements.push(...reportingFactStatements(scope, conversation, "reply_time", secondsSince(waitingSince, at), at, message.senderUserId, when));
  }
  return statements;
}

/**
 * How a change of assignee, team or labels moves the conversation's place in conversations_count (in
 * the hour it was created): out of what it leaves, into what it joins.
 */
export function conversationCountMoves(
  scope: AccountScope,
  before: Pick<ConversationRow, "id" | "createdAt" | "assigneeId" | "teamId" | "inboxId">,
  after: Pick<ConversationRow, "assigneeId" | "teamId">,
  labelsChange: { previous: string[]; current: string[] } | null,
) {
  const left: Attribution = {};
  const joined: Attribution = {};
  if (before.assigneeId !== after.assigneeId) {
    left.agentId = before.assigneeId;
    joined.agentId = after.assigneeId;
  }
  if (before.teamId !== after.teamId) {
    left.teamId = before.teamId;
    joined.teamId = after.teamId;
  }
  if (labelsChange) {
    const previous = labelsChange.previous.map((l) => l.toLowerCase());
    const current = labelsChange.current.map((l) => l.toLowerCase());
    left.labelTitles = previous.filter((l) => !current.includes(l));
    joined.labelTitles = current.filter((l) => !previous.includes(l));
  }
  const inboxLabels = inboxLabelMetric(before.inboxId);
  return [
    rollupStatement(scope, "conversation_created", before.createdAt, { count: -1, total: 0 }, left),
    rollupStatement(scope, "conversation_created", before.createdAt, { count: 1, total: 0 }, joined),
    // the inbox × label matrix moves with the labels only
    rollupStatement(scope, inboxLabels, before.createdAt, { count: -1, total: 0 }, { labelTitles: left.labelTitles }),
    rollupStatement(scope, inboxLabels, before.createdAt, { count: 1, total: 0 }, { labelTitles: joined.labelTitles }),
  ].filter((s) => s !== null);
}
