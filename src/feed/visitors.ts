/**
 * What a visitor's live stream shows (the website widget's RoomChannel, docs/widget.md "The visitor's
 * live stream"): of the events of the visitor's own conversations, the ones Chatwoot sends to a contact,
 * built from the same read as the agents' frame (src/feed/forward.ts) and cut down to what the visitor
 * may see. Never a private note, an activity message or private typing; never the visitor's own typing
 * echoed back; no agents' labels; no `performer` (an automation rule's or a macro's name is the
 * agents' business); the assignee and team only in the public form Chatwoot pushes to a contact.
 */
import { MESSAGE_TYPE } from "../domain/kernel/enums";
import type { OutboxRow } from "../domain/kernel/outbox";
import type { FeedData } from "./payloads";
import { agentPushForm } from "../views/agents";
import { agentBotPushForm, teamPushForm } from "../views/people";

/** How an event reaches the visitors of its conversation, when it does. */
export type VisitorEntry = {
  /** whether the visitors hear it at all, from the outbox row alone (no read is made for them otherwise) */
  heard?: (row: OutboxRow) => boolean;
  /** what they are shown of the agents' data; null: nothing */
  view: (data: FeedData) => FeedData | null;
};

/** A message a contact may see: neither a private note nor an activity message. */
const isPublic = (message: unknown): boolean => {
  const m = message as { private?: unknown; message_type?: unknown } | null;
  return Boolean(m) && m!.private !== true && m!.message_type !== MESSAGE_TYPE.activity;
};

type Meta = { assignee?: unknown; assignee_type?: unknown; team?: unknown };

/**
 * The conversation's `meta` as a contact is shown it: the assignee in its push form (an agent's e-mail,
 * role and attributes, a bot's URL are the agents' business) and the team as its id and name.
 */
function metaData(meta: Meta | undefined): Meta | undefined {
  if (!meta || typeof meta !== "object") return meta;
  const shown: Meta = { ...meta };
  if (meta.assignee) shown.assignee = meta.assignee_type === "AgentBot" ? agentBotPushForm(meta.assignee as Parameters<typeof agentBotPushForm>[0]) : agentPushForm(meta.assignee as Parameters<typeof agentPushForm>[0]);
  if (meta.team) shown.team = teamPushForm(meta.team as Parameters<typeof teamPushForm>[0]);
  return shown;
}

/** The conversation's push data as its visitor sees it: its last message only when that one is public. */
function conversationData(data: FeedData): FeedData {
  const messages = Array.isArray(data.messages) ? data.messages.filter(isPublic) : [];
  const last = isPublic(data.last_non_activity_message) ? data.last_non_activity_message : null;
  return { ...data, messages, last_non_activity_message: last, labels: [], meta: metaData(data.meta as Meta | undefined) };
}

export const visitorMessage: VisitorEntry = { view: (data) => (isPublic(data) ? data : null) };

export const visitorConversation: VisitorEntry = { view: conversationData };

/** An agent's (or a bot's) public typing; the visitor's own is never echoed to the visitor. */
export const visitorTyping: VisitorEntry = {
  heard: (row) => row.data.is_private !== true && (row.data.user as { type?: unknown } | undefined)?.type !== "contact",
  view: (data) => ({ ...data, conversation: conversationData(data.conversation as FeedData) }),
};
