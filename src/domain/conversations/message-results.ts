/** What the message functions answer: shapes the views render, kept apart so that views need not import the functions. */
import type { ContactRow } from "../contacts/rows";
import type { AgentRow } from "../people/agents";
import type { MessageWithSender } from "./loader";
import type { ConversationRow } from "./rows";

export type MessageResult = {
  message: MessageWithSender;
  conversation: ConversationRow;
  unreadCount: number;
  sourceId: string | null;
};

export type MessageList = {
  conversation: ConversationRow;
  messages: MessageWithSender[];
  contact: ContactRow | null;
  assignee: AgentRow | null;
  labels: string[];
  unreadCount: number;
  sourceId: string | null;
  /** continues the list past its last message (older ones by default, newer ones after `after`); null at the end */
  nextCursor: string | null;
};
