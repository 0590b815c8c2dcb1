import type { AgentLiveMetrics } from "../domain/conversations/live-report";
import type { CsatResponseRow } from "../domain/reports/csat";
import type { GroupRow } from "../domain/reports/groups";
import type { BotMetrics, OutgoingCount } from "../domain/reports/breakdowns";

/** Chatwoot's summary: the window's metrics plus `previous`, the same keys for the preceding window. */
export function summaryView<M extends Record<string, number>>(summary: { current: M; previous: M }) {
  return { ...summary.current, previous: summary.previous };
}

/** One entry of summary_reports/{agent,team,inbox,label}. */
export const groupView = (row: GroupRow) => ({
  id: row.id,
  conversations_count: row.conversationsCount,
  resolved_conversations_count: row.resolvedConversationsCount,
  avg_resolution_time: row.avgResolutionTime,
  avg_first_response_time: row.avgFirstResponseTime,
  avg_reply_time: row.avgReplyTime,
});

const AVAILABILITY_NAMES = ["online", "offline", "busy"] as const;

/** One agent of reports/conversations?type=agent. */
export const agentLiveView = ({ agent, open, unattended }: AgentLiveMetrics) => ({
  id: agent.userId,
  name: agent.name,
  email: agent.email,
  thumbnail: agent.avatarUrl ?? "",
  availability: AVAILABILITY_NAMES[agent.availability ?? 0] ?? "online",
  metric: { open, unattended },
});

const seconds = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));

/** A CSAT survey response as Chatwoot's list shows it (conversation_id is the display id). */
export const csatResponseView = (row: CsatResponseRow) => ({
  id: row.response.id,
  rating: row.response.rating,
  feedback_message: row.response.feedbackMessage,
  csat_review_notes: null,
  review_notes_updated_at: null,
  account_id: row.response.accountId,
  message_id: row.response.messageId,
  conversation_id: row.displayId,
  contact: row.contact && {
    id: row.contact.id,
    name: row.contact.name,
    email: row.contact.email,
    phone_number: row.contact.phoneNumber,
    thumbnail: row.contact.avatarUrl ?? "",
  },
  assigned_agent: row.agent && { id: row.agent.id, name: row.agent.name, email: row.agent.email, thumbnail: row.agent.avatarUrl ?? "" },
  created_at: seconds(row.response.answeredAt),
});

/** reports/bot_metrics, in Chatwoot's names. */
export const botMetricsView = (m: BotMetrics) => ({
  conversation_count: m.conversationCount,
  message_count: m.messageCount,
  resolution_rate: m.resolutionRate,
  handoff_rate: m.handoffRate,
});

/** One entry of reports/outgoing_messages_count. */
export const outgoingCountView = (row: OutgoingCount) => ({ id: row.id, name: row.name, outgoing_messages_count: row.count });
