/** The rows the inboxes aggregate owns: the inbox and its channel. */
import { schema } from "../../db/client";

export type InboxRow = typeof schema.inboxes.$inferSelect;
export type ApiChannelRow = typeof schema.apiChannels.$inferSelect;
export type WidgetChannelRow = typeof schema.webWidgetChannels.$inferSelect;
export type EmailChannelRow = typeof schema.emailChannels.$inferSelect;
