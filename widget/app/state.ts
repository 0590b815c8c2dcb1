/**
 * The widget's state, in one object, and who is told when it changes. Screens read it and re-draw on
 * `changed(part)`; only the conversation screen updates in place (a message list keeps its elements).
 */
import type { Agent, Contact, Conversation, Message } from "./api";
import type { ColorScheme } from "../shared/protocol";

export type Screen = "home" | "prechat" | "messages" | "unread";
export type Part = "screen" | "messages" | "conversation" | "agents" | "typing" | "settings" | "contact";

export const state = {
  screen: "home" as Screen,
  /** the visitor's current conversation, or none yet (the first message makes it) */
  conversation: null as Conversation | null,
  /** "Start a new conversation" after a resolved one: the next message opens a new conversation */
  startNew: false,
  messages: [] as Message[],
  /** whether older messages than the first one shown may exist (paged with `before`) */
  hasOlder: false,
  loadingOlder: false,
  contact: null as Contact | null,
  agents: [] as Agent[],
  /** the agent typing in this conversation now, if any */
  typing: null as string | null,
  /** the loader says the widget is open (a standalone page always is) */
  open: false,
  isMobile: false,
  /** when the visitor last saw the conversation (epoch s): later agent messages are unread */
  lastSeen: 0,
  settings: {
    darkMode: "light" as ColorScheme,
    hideMessageBubble: false,
    showPopoutButton: false,
    showUnreadMessagesDialog: true,
    welcomeTitle: "",
    welcomeDescription: "",
    availableMessage: "",
    unavailableMessage: "",
    enableFileUpload: undefined as boolean | undefined,
    enableEmojiPicker: true,
    enableEndConversation: true,
  },
};

type Listener = (part: Part) => void;
const listeners: Listener[] = [];

export const onChange = (listener: Listener) => listeners.push(listener);
export function changed(part: Part) {
  for (const listener of listeners) listener(part);
}

/** Adds or replaces messages by id (a sent copy replaces its pending one), oldest first. */
export function mergeMessages(incoming: Message[]) {
  for (const message of incoming) {
    const at = state.messages.findIndex(
      (known) => known.id === message.id || (known.pending && known.message_type === 0 && message.message_type === 0 && known.content === message.content),
    );
    if (at >= 0) state.messages[at] = message;
    else state.messages.push(message);
  }
  state.messages.sort((a, b) => (a.pending ? 1 : 0) - (b.pending ? 1 : 0) || a.created_at - b.created_at || a.id - b.id);
  changed("messages");
}

/** Agent and bot messages (and server templates) the visitor has not seen. */
export const unreadCount = () => state.messages.filter((m) => m.message_type !== 0 && m.created_at > state.lastSeen && !m.pending).length;
