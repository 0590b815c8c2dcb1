/**
 * What the visitor and the host page make the widget do, against the API, keeping `state` in step.
 * Screens call these; none of them touches the DOM.
 */
import { api, ApiError, type Conversation, type Message, setAuthToken } from "./api";
import { raise, toHost, inFrame } from "./host";
import { changed, mergeMessages, state, unreadCount } from "./state";

const PAGE = 20;

/** The conversation and its latest messages (a returning visitor's history), the agents and the contact. */
export async function loadAll() {
  await Promise.all([loadConversation(), loadAgents(), loadContact()]);
}

let loading: Promise<void> | null = null;

/** The visitor's current conversation and its latest page of messages; calls while one is on its way share it. */
export function loadConversation(): Promise<void> {
  loading ??= fetchConversation().finally(() => (loading = null));
  return loading;
}

async function fetchConversation() {
  const conversation = await api.conversation().catch(() => ({}));
  const before = state.conversation?.id;
  state.conversation = "id" in conversation ? (conversation as Conversation) : null;
  state.lastSeen = state.conversation?.contact_last_seen_at ?? state.lastSeen;
  // another conversation than the one on screen: its messages replace the old ones
  if (before !== undefined && before !== state.conversation?.id) state.messages = [];
  changed("conversation");
  if (!state.conversation) return;
  const { payload, meta } = await api.messages();
  if (typeof meta?.contact_last_seen_at === "number") state.lastSeen = meta.contact_last_seen_at;
  // merged, not replaced: messages the live stream brought while this page was on its way stay
  state.hasOlder = payload.length >= PAGE;
  mergeMessages(payload);
  notifyUnread();
}

export async function loadAgents() {
  state.agents = (await api.agents().catch(() => ({ payload: [] }))).payload ?? [];
  changed("agents");
}

export async function loadContact() {
  state.contact = await api.contact().catch(() => null);
  changed("contact");
}

/** One page of older messages, before the oldest shown. */
export async function loadOlder() {
  const oldest = state.messages.find((message) => !message.pending);
  if (!oldest || state.loadingOlder) return;
  state.loadingOlder = true;
  try {
    const { payload } = await api.messages({ before: oldest.id });
    state.hasOlder = payload.length >= PAGE;
    mergeMessages(payload);
  } finally {
    state.loadingOlder = false;
    changed("messages");
  }
}

/** After the live stream reconnected: what arrived meanwhile. */
export async function catchUp() {
  const newest = [...state.messages].reverse().find((message) => !message.pending);
  if (!newest) return loadConversation();
  const { payload } = await api.messages({ after: newest.id });
  mergeMessages(payload);
}

let echo = 0;

/** Sends the visitor's text: shown at once as pending, replaced by the server's copy (or marked failed). */
export async function sendText(content: string) {
  const pending: Message = {
    id: -++echo,
    content,
    message_type: 0,
    content_type: "text",
    content_attributes: {},
    created_at: Math.floor(Date.now() / 1000),
    pending: "sending",
  };
  mergeMessages([pending]);
  try {
    if (state.startNew) {
      // the first message after "Start a new conversation": an explicit new conversation, as Chatwoot's
      // widget asks for one (the resolved conversation would otherwise take the message)
      const created = await api.createConversation({ contact: {}, message: { content }, custom_attributes: {} });
      state.startNew = false;
      state.conversation = { id: created.id, status: created.status, contact_last_seen_at: created.contact_last_seen_at };
      state.messages = state.messages.filter((message) => message !== pending);
      mergeMessages(created.messages ?? []);
      changed("conversation");
      return;
    }
    const sent = await api.send(content);
    state.messages = state.messages.filter((message) => message !== pending);
    mergeMessages([sent]);
    if (!state.conversation) await loadConversation();
  } catch {
    pending.pending = "failed";
    changed("messages");
  }
}

export async function retry(message: Message) {
  state.messages = state.messages.filter((known) => known !== message);
  await sendText(message.content ?? "");
}

export async function sendFile(file: File) {
  const sent = await api.sendFile(file);
  mergeMessages([sent]);
  if (!state.conversation) await loadConversation();
}

/** A new conversation from the pre-chat form: contact fields, conversation attributes and the first message. */
export async function startFromForm(contact: Record<string, string>, conversationAttributes: Record<string, unknown>, contactAttributes: Record<string, unknown>, content: string) {
  const created = await api.createConversation({ contact, message: { content }, custom_attributes: conversationAttributes });
  if (Object.keys(contactAttributes).length) await api.updateContact({ custom_attributes: contactAttributes }).catch(() => undefined);
  state.startNew = false;
  state.conversation = { id: created.id, status: created.status, contact_last_seen_at: created.contact_last_seen_at };
  state.messages = [];
  mergeMessages(created.messages ?? []);
  changed("conversation");
  loadContact();
}

/** The visitor saw the conversation: agents see it read, and the badge clears. */
export function markSeen() {
  if (!state.conversation) return;
  state.lastSeen = Math.floor(Date.now() / 1000);
  api.lastSeen().catch(() => undefined);
  notifyUnread();
}

/** The launcher's badge, and the unread preview while the widget is closed. */
export function notifyUnread() {
  const count = unreadCount();
  toHost({ event: "handleNotificationDot", unreadMessageCount: count });
}

export async function endConversation() {
  await api.end();
  if (state.conversation) state.conversation.status = "resolved";
  changed("conversation");
}

/** "Start a new conversation": the next message opens one; history of the old one leaves the screen. */
export function startNewConversation() {
  state.startNew = true;
  state.conversation = null;
  state.messages = [];
  state.hasOlder = false;
  raise("chatwoot:on-start-conversation", { hasConversation: false });
  changed("conversation");
  changed("messages");
}

export const canReply = () =>
  !state.conversation || state.conversation.status !== "resolved" || (window.chatwootWebChannel?.allowMessagesAfterResolved ?? false);

/** setUser from the host page: a new visitor token when the identifier changed; failures become chatwoot:error. */
export async function setUser(identifier: unknown, user: Record<string, unknown> = {}, renewed: () => Promise<void> = async () => undefined) {
  const { additional_attributes, custom_attributes, ...fields } = user;
  try {
    const contact = await api.setUser({
      ...fields,
      identifier: identifier ?? fields.identifier,
      additional_attributes,
      custom_attributes,
    });
    if (contact.widget_auth_token) {
      setAuthToken(contact.widget_auth_token);
      toHost({ event: "setAuthCookie", data: { widgetAuthToken: contact.widget_auth_token } });
      state.messages = [];
      // a load still running began with the old token (setUser on chatwoot:ready meets the frame's first
      // load): wait for it, then load the new visitor's conversation rather than reuse the old one's
      await loading?.catch(() => undefined);
      await Promise.all([loadConversation(), renewed()]);
    }
    state.contact = contact;
    changed("contact");
  } catch (error) {
    const data = error instanceof ApiError ? error.body : { error: String(error) };
    toHost({ event: "error", errorType: "SET_USER_ERROR", data });
  }
}

export const isStandalone = () => !inFrame;

declare global {
  interface Window {
    chatwootWebChannel?: import("./globals").Channel;
  }
}
