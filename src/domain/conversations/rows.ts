/** The rows the conversations aggregate owns: conversations and their messages. */
import { schema } from "../../db/client";

export type ConversationRow = typeof schema.conversations.$inferSelect;
export type MessageRow = typeof schema.messages.$inferSelect;
