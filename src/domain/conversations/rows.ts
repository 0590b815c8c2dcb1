/** The rows the conversations aggregate owns: conversations and their messages. */
import { schema } from "../../db/client";
import type { ContactRow } from "../contacts/rows";
import type { AgentBotRow, AgentRow } from "../people/rows";

export type ConversationRow = typeof schema.conversations.$inferSelect;
export type MessageRow = typeof schema.messages.$inferSelect;

/** Who wrote a message, as rendered beside it. */
export type Sender =
  | { type: "user"; user: AgentRow }
  | { type: "contact"; contact: ContactRow }
  | { type: "agent_bot"; bot: AgentBotRow };

export type MessageWithSender = { message: MessageRow; sender: Sender | null };
