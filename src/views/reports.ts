import type { SummaryMetrics } from "../domain/reports/summary";

const metricsView = (m: SummaryMetrics) => ({
  conversations_count: m.conversationsCount,
  incoming_messages_count: m.incomingMessagesCount,
  outgoing_messages_count: m.outgoingMessagesCount,
  avg_first_response_time: m.avgFirstResponseTime,
  avg_resolution_time: m.avgResolutionTime,
  resolutions_count: m.resolutionsCount,
  // reply time between every message pair is not tracked yet
  reply_time: 0,
});

/** Chatwoot's summary: the window's metrics plus `previous`, the same keys for the preceding window. */
export function summaryView(summary: { current: SummaryMetrics; previous: SummaryMetrics }) {
  return { ...metricsView(summary.current), previous: metricsView(summary.previous) };
}
