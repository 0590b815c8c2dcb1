/** The rows the settings aggregate owns: an account's labels, canned responses, saved filters, webhooks and dashboard apps. */
import { schema } from "../../db/client";

export type LabelRow = typeof schema.labels.$inferSelect;
export type CannedResponseRow = typeof schema.cannedResponses.$inferSelect;
export type CustomFilterRow = typeof schema.customFilters.$inferSelect;
export type WebhookRow = typeof schema.webhooks.$inferSelect;
export type DashboardAppRow = typeof schema.dashboardApps.$inferSelect;
