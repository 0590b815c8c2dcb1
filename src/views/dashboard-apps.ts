import type { DashboardAppRow } from "../domain/settings/rows";
import { iso } from "./time";

/** Chatwoot's fields; its jbuilder passes the Time through, so created_at is an ISO string. */
export function dashboardAppView(row: DashboardAppRow) {
  return { id: row.id, title: row.title, content: row.content, created_at: iso(row.createdAt) };
}
