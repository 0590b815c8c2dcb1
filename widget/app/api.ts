/**
 * The widget's calls to /api/v1/widget/* (docs/api.md has every route): `website_token` in the query, the
 * visitor's token in `X-Auth-Token`, JSON bodies except attachments (multipart). Same origin as the page.
 */
import { currentLocale } from "../i18n";

export type Sender = { id?: number; name?: string; available_name?: string; avatar_url?: string; thumbnail?: string; type?: string };
export type Attachment = { id: number; file_type: string; data_url: string; thumb_url?: string; extension?: string | null; file_size?: number };
export type Message = {
  id: number;
  content: string | null;
  message_type: number;
  content_type: string;
  content_attributes: Record<string, any>;
  created_at: number;
  conversation_id?: number;
  attachments?: Attachment[];
  sender?: Sender;
  sender_type?: string | null;
  private?: boolean;
  /** the widget's own state of a message it sent: on its way, or refused */
  pending?: "sending" | "failed";
  echo?: string;
};
export type Conversation = { id: number; inbox_id?: number; contact_last_seen_at?: number; status: string };
export type Contact = { id: number; has_email?: boolean; has_name?: boolean; has_phone_number?: boolean; identifier?: string | null; widget_auth_token?: string };
export type Agent = { id: number; name: string; avatar_url?: string; availability_status: string };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`widget API ${status}`);
  }
}

let websiteToken = "";
let authToken = "";

export function configureApi(website: string, visitor: string) {
  websiteToken = website;
  authToken = visitor;
}

/** After set_user hands out a new visitor token (another identifier): every later call carries it. */
export const setAuthToken = (token: string) => (authToken = token);

/** How often a read is tried when the network or a busy server fails it, and the first pause (doubled each time). */
const READ_ATTEMPTS = 4;
const FIRST_PAUSE_MS = 500;

const transient = (error: unknown) => !(error instanceof ApiError) || error.status >= 500 || error.status === 429;

/**
 * A call; a read (GET) that fails on the way (the network, a 5xx, a 429) is tried again after a pause, so
 * a returning visitor's history is not lost to one busy moment of the server. Writes are sent once.
 */
async function call<T>(method: string, path: string, body?: unknown, query: Record<string, string | number | undefined> = {}, withLocale = false): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await callOnce<T>(method, path, body, query, withLocale);
    } catch (error) {
      if (method !== "GET" || attempt >= READ_ATTEMPTS || !transient(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, FIRST_PAUSE_MS * 2 ** (attempt - 1)));
    }
  }
}

async function callOnce<T>(method: string, path: string, body: unknown, query: Record<string, string | number | undefined>, withLocale: boolean): Promise<T> {
  const params = new URLSearchParams({ website_token: websiteToken });
  if (withLocale) params.set("locale", currentLocale());
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const headers: Record<string, string> = { "X-Auth-Token": authToken };
  if (body !== undefined && !(body instanceof FormData)) headers["Content-Type"] = "application/json";
  const response = await fetch(`/api/v1/widget/${path}?${params}`, {
    method,
    headers,
    body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data as T;
}

const referer = () => (window as { referrerURL?: string }).referrerURL ?? document.referrer ?? "";
const stamp = () => ({ timestamp: new Date().toString(), referer_url: referer() });

export const api = {
  conversation: () => call<Conversation | Record<string, never>>("GET", "conversations"),
  createConversation: (body: { contact: Record<string, string>; message: { content: string }; custom_attributes: Record<string, unknown> }) =>
    call<Conversation & { messages: Message[] }>("POST", "conversations", { ...body, message: { ...body.message, ...stamp() } }, {}, true),
  messages: (query: { before?: number; after?: number } = {}) => call<{ payload: Message[]; meta: Record<string, unknown> }>("GET", "messages", undefined, query),
  send: (content: string, replyTo: number | null = null) => call<Message>("POST", "messages", { message: { content, reply_to: replyTo, ...stamp() } }, {}, true),
  sendFile(file: File) {
    const form = new FormData();
    form.append("message[attachments][]", file, file.name);
    form.append("message[referer_url]", referer());
    form.append("message[timestamp]", new Date().toString());
    return call<Message>("POST", "messages", form, {}, true);
  },
  updateMessage: (id: number, body: { contact?: { email: string }; message?: { submitted_values: unknown } }) => call<unknown>("PATCH", `messages/${id}`, body),
  typing: (on: boolean) => call<unknown>("POST", "conversations/toggle_typing", { typing_status: on ? "on" : "off" }),
  lastSeen: () => call<unknown>("POST", "conversations/update_last_seen", { contact_last_seen_at: Math.floor(Date.now() / 1000) }),
  end: () => call<unknown>("GET", "conversations/toggle_status"),
  transcript: () => call<unknown>("POST", "conversations/transcript", {}),
  setConversationAttributes: (attributes: Record<string, unknown>) => call<unknown>("POST", "conversations/set_custom_attributes", { custom_attributes: attributes }),
  deleteConversationAttribute: (key: string) => call<unknown>("POST", "conversations/destroy_custom_attributes", { custom_attribute: [key] }),
  contact: () => call<Contact>("GET", "contact"),
  updateContact: (body: Record<string, unknown>) => call<Contact>("PATCH", "contact", body),
  setUser: (body: Record<string, unknown>) => call<Contact>("PATCH", "contact/set_user", body),
  deleteContactAttribute: (key: string) => call<unknown>("POST", "contact/destroy_custom_attributes", { custom_attributes: [key] }),
  event: (name: string) =>
    call<unknown>("POST", "events", { name, event_info: { initiated_at: { timestamp: new Date().toString() }, referer: referer() } }, {}, true),
  addLabel: (label: string) => call<unknown>("POST", "labels", { label }),
  removeLabel: (label: string) => call<unknown>("DELETE", `labels/${encodeURIComponent(label)}`),
  agents: () => call<{ payload: Agent[] }>("GET", "inbox_members"),
  /** The widget's configuration and the visitor's contact, with the pubsub_token of its live stream. */
  config: () => call<{ contact?: { pubsub_token?: string } }>("POST", "config"),
};
