/**
 * The live conversation report (Chatwoot's v2 reports/conversations): how many conversations are open,
 * unattended (nobody replied yet, or the contact waits) and unassigned now, for the account or per agent.
 * Read from the conversation counters (counters.ts), never by counting conversations.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import { type AgentRow, agentsQuery } from "../people/agents";
import { batch, batchNamed } from "../kernel/batch";
import { CONVERSATION_STATUS } from "../kernel/enums";
import { notFound } from "../kernel/errors";
import { type AccountScope } from "../kernel/scope";
import { accountCounterKey } from "./counters";

const { counters, accountUsers } = schema;

/** Chatwoot's page of agents in this report. */
export const AGENT_METRICS_PAGE_SIZE = 25;

const OPEN = CONVERSATION_STATUS.open;

const countersQuery = (scope: AccountScope, keys: string[]) =>
  scope.db
    .select({ key: counters.key, value: counters.value })
    .from(counters)
    .where(and(eq(counters.accountId, scope.accountId), inArray(counters.key, sql`(SELECT value FROM json_each(${JSON.stringify(keys)}))`)));

const valueOf = (rows: Array<{ key: string; value: number }>, key: string) => Number(rows.find((r) => r.key === key)?.value ?? 0);

export async function accountLiveReport(scope: AccountScope) {
  const [rows] = await batch(scope.db, [countersQuery(scope, [accountCounterKey(OPEN, "all"), accountCounterKey(OPEN, "unattended"), accountCounterKey(OPEN, "unassigned")])]);
  return {
    open: valueOf(rows, accountCounterKey(OPEN, "all")),
    unattended: valueOf(rows, accountCounterKey(OPEN, "unattended")),
    unassigned: valueOf(rows, accountCounterKey(OPEN, "unassigned")),
  };
}

export type AgentLiveMetrics = { agent: AgentRow; open: number; unattended: number };

/** A page of the account's agents (or the one `userId`) with their open and unattended conversations, most open first. */
export async function agentLiveReport(scope: AccountScope, input: { userId?: number; page: number }): Promise<AgentLiveMetrics[]> {
  const { agents } = await batchNamed(scope.db, {
    agents: agentsQuery(scope.db, scope.accountId, input.userId !== undefined ? eq(accountUsers.userId, input.userId) : undefined)
      .limit(AGENT_METRICS_PAGE_SIZE)
      .offset((input.page - 1) * AGENT_METRICS_PAGE_SIZE),
  });
  if (input.userId !== undefined && agents.length === 0) throw notFound("Agent", input.userId, "user_id");
  if (agents.length === 0) return [];
  const keys = agents.flatMap((a) => [accountCounterKey(OPEN, `assignee:${a.userId}`), accountCounterKey(OPEN, `unattended:assignee:${a.userId}`)]);
  const [rows] = await batch(scope.db, [countersQuery(scope, keys)]);
  return agents
    .map((agent) => ({
      agent,
      open: valueOf(rows, accountCounterKey(OPEN, `assignee:${agent.userId}`)),
      unattended: valueOf(rows, accountCounterKey(OPEN, `unattended:assignee:${agent.userId}`)),
    }))
    .sort((a, b) => b.open - a.open);
}
