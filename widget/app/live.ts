/**
 * What the live stream brings (docs/realtime.md, the contact's events): messages of the visitor's
 * conversation (new ones raise chatwoot:on-message on the host page and, from an agent, the sound and the
 * unread badge), the conversation's status, agents typing, and which agents are online.
 */
import type { Message } from "./api";
import { loadConversation, markSeen, notifyUnread } from "./actions";
import type { CableEvent } from "./cable";
import { inFrame, raise, toHost } from "./host";
import { changed, mergeMessages, state } from "./state";

const TYPING_TIMEOUT = 30_000;
let typingTimer: ReturnType<typeof setTimeout> | undefined;
let sound: HTMLAudioElement | undefined;

function playSound() {
  if (inFrame) return toHost({ event: "playAudio" });
  sound ??= new Audio("/audio/widget/ding.mp3");
  sound.play().catch(() => undefined);
}

const ours = (conversationId: unknown) => !state.startNew && (!state.conversation || conversationId === state.conversation.id);

function onMessage(data: Message & { conversation_id?: number }, created: boolean) {
  if (data.private || data.message_type === 2 || !ours(data.conversation_id)) return;
  const firstOfConversation = !state.conversation;
  mergeMessages([data]);
  if (firstOfConversation) loadConversation();
  if (!created) return;
  raise("chatwoot:on-message", data);
  if (data.message_type === 0) return;
  state.typing = null;
  changed("typing");
  if (data.sender_type === "User" || data.sender?.type === "user") playSound();
  const seeing = state.open && state.screen === "messages" && document.visibilityState === "visible";
  if (seeing) return markSeen();
  notifyUnread();
  if (inFrame && !state.open && state.settings.showUnreadMessagesDialog && state.screen !== "prechat") {
    state.screen = "unread";
    changed("screen");
    toHost({ event: "setUnreadMode", unreadMessageCount: 1 });
  }
}

export function receive({ event, data }: CableEvent) {
  switch (event) {
    case "message.created":
      return onMessage(data, true);
    case "message.updated": {
      onMessage(data, false);
      const changes = data.previous_changes?.content_attributes;
      if (Array.isArray(changes) && JSON.stringify(changes[1] ?? "").includes("submitted_values")) raise("chatwoot:on-message", data);
      return;
    }
    case "conversation.created":
      return loadConversation();
    case "conversation.status_changed":
      if (state.conversation && data?.id === state.conversation.id) {
        state.conversation.status = data.status;
        changed("conversation");
      }
      return;
    case "conversation.typing_on":
    case "conversation.typing_off": {
      if (data?.is_private || !state.conversation || data?.conversation?.id !== state.conversation.id) return;
      clearTimeout(typingTimer);
      state.typing = event === "conversation.typing_on" ? data.user?.available_name || data.user?.name || "" : null;
      if (state.typing !== null) typingTimer = setTimeout(() => ((state.typing = null), changed("typing")), TYPING_TIMEOUT);
      return changed("typing");
    }
    case "presence.update": {
      const users = (data?.users ?? {}) as Record<string, string>;
      for (const agent of state.agents) agent.availability_status = users[String(agent.id)] ?? "offline";
      return changed("agents");
    }
  }
}
