/**
 * Reports per agent, inbox, label or team (Chatwoot's summary_reports/* and the CSV downloads): the
 * window's figures of every member of the dimension, from one grouped read of the rollups plus the list
 * of the account's agents, inboxes, labels or teams.
 */
import { asc, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { agentsQuery } from "../people/agents";
import { batchNamed } from "../kernel/batch";
import { type AccountScope } from "../kernel/scope";
import { type Dimension, type RollupMetric } from "./facts";
import { type Sums, type Window, totalsByIdQuery } from "./rollups";

const { inboxes, labels, teams } = schema;

export type GroupDimension = Exclude<Dimension, "account">;

export type GroupRow = {
  id: number;
  name: string;
  /** the inbox's channel type; null for the others */
  channelType: string | null;
  conversationsCount: number;
  resolvedConversationsCount: number;
  /** seconds; null when nothing was measured in the window */
  avgResolutionTime: number | null;
  avgFirstResponseTime: number | null;
  avgReplyTime: number | null;
};

const GROUP_FACTS: RollupMetric[] = ["conversation_created", "conversation_resolved", "first_response", "reply_time"];

export function membersQuery(scope: AccountScope, dimension: GroupDimension) {
  const { db, accountId } = scope;
  switch (dimension) {
    case "agent":
      return agentsQuery(db, accountId);
    case "inbox":
      return db.select({ id: inboxes.id, name: inboxes.name, channelType: inboxes.channelType }).from(inboxes).where(eq(inboxes.accountId, accountId)).orderBy(asc(inboxes.id));
    case "label":
      return db.select({ id: labels.id, name: labels.title }).from(labels).where(eq(labels.accountId, accountId)).orderBy(asc(labels.title));
    case "team":
      return db.select({ id: teams.id, name: teams.name }).from(teams).where(eq(teams.accountId, accountId)).orderBy(asc(teams.id));
  }
}

export type Member = { id: number; name: string; channelType: string | null };

export function asMembers(rows: unknown[]): Member[] {
  return rows.map((r) => {
    const row = r as { id?: number; userId?: number; name: string; channelType?: string };
    return { id: (row.userId ?? row.id)!, name: row.name, channelType: row.channelType ?? null };
  });
}

export async function groupReport(scope: AccountScope, dimension: GroupDimension, window: Window): Promise<GroupRow[]> {
  const read = await batchNamed(scope.db, {
    members: membersQuery(scope, dimension),
    sums: totalsByIdQuery(scope, GROUP_FACTS, dimension, window),
  });
  const sums = new Map<string, Sums>();
  for (const row of read.sums) sums.set(`${row.metric}:${row.dimensionId}`, { count: Number(row.count), total: Number(row.total) });
  const of = (fact: RollupMetric, id: number) => sums.get(`${fact}:${id}`) ?? { count: 0, total: 0 };
  const average = (s: Sums) => (s.count ? s.total / s.count : null);
  return asMembers(read.members).map((m) => ({
    ...m,
    conversationsCount: of("conversation_created", m.id).count,
    resolvedConversationsCount: of("conversation_resolved", m.id).count,
    avgResolutionTime: average(of("conversation_resolved", m.id)),
    avgFirstResponseTime: average(of("first_response", m.id)),
    avgReplyTime: average(of("reply_time", m.id)),
  }));
}
