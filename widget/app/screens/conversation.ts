/**
 * The conversation: the message history (older pages on demand, with `before`), the agent typing line,
 * then the composer, or, once the conversation is resolved and the inbox takes no more messages on it,
 * the button to start a new one. The list keeps each message's element while the message is unchanged,
 * so a half-written survey comment or e-mail survives new messages arriving.
 */
import type { Message } from "../api";
import { canReply, loadOlder, markSeen, startNewConversation } from "../actions";
import { h } from "../dom";
import type { Channel, GlobalConfig } from "../globals";
import { renderMessage } from "../messages/message";
import { state, unreadCount } from "../state";
import { renderComposer } from "./composer";
import { currentLocale, t } from "../../i18n";

export type ConversationView = { element: HTMLElement; update(): void; focus(): void };

const day = (seconds: number) =>
  new Date(seconds * 1000).toLocaleDateString(currentLocale().replace("_", "-"), { weekday: "short", day: "numeric", month: "short" });

/**
 * What a message's element shows: a copy of the same message from the live stream (other timestamps,
 * status, push fields) keeps its element, so a visitor's rating or half-typed e-mail is not thrown away.
 */
const drawnKey = (m: Message) =>
  JSON.stringify([m.content, m.content_type, m.content_attributes, m.attachments, m.pending, m.message_type, m.created_at, m.sender?.name, m.sender?.available_name, m.sender?.avatar_url]);

export function createConversationView(channel: Channel, config: GlobalConfig): ConversationView {
  const drawn = new Map<number, { key: string; element: HTMLElement }>();
  const older = h("button", { type: "button", class: "cw-link-button cw-older", onclick: () => loadOlder() }, t("loadOlder"));
  const list = h("div", { class: "cw-messages", role: "log", "aria-live": "polite", "aria-label": t("conversation"), tabIndex: 0 });
  const typing = h("p", { class: "cw-typing", "aria-live": "polite" });
  const composer = renderComposer(channel, config);
  const ended = h(
    "div",
    { class: "cw-resolved" },
    h("p", {}, t("resolved")),
    h("button", { type: "button", class: "cw-button", onclick: () => startNewConversation() }, t("newConversation")),
  );
  const scroller = h("div", { class: "cw-scroller" }, older, list, typing);
  const element = h("section", { class: "cw-conversation" }, scroller, composer, ended);

  function drawMessage(message: Message): HTMLElement {
    const key = drawnKey(message);
    const known = drawn.get(message.id);
    if (known && known.key === key) return known.element;
    const fresh = renderMessage(message);
    drawn.set(message.id, { key, element: fresh });
    return fresh;
  }

  function update() {
    const atBottom = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 80;
    const fromBottom = scroller.scrollHeight - scroller.scrollTop;
    const wasOlder = state.loadingOlder;
    older.hidden = !state.hasOlder;
    older.disabled = state.loadingOlder;
    const children: HTMLElement[] = [];
    let lastDay = "";
    for (const message of state.messages) {
      const thisDay = day(message.created_at);
      if (thisDay !== lastDay) children.push(h("p", { class: "cw-day", role: "separator" }, thisDay));
      lastDay = thisDay;
      children.push(drawMessage(message));
    }
    list.replaceChildren(...children);
    const ids = new Set(state.messages.map((message) => message.id));
    for (const id of drawn.keys()) if (!ids.has(id)) drawn.delete(id);
    typing.textContent = state.typing !== null ? t("typing", { name: state.typing || t("someone") }) : "";
    const replying = canReply();
    composer.hidden = !replying;
    ended.hidden = replying;
    // new messages keep the view at the bottom; an older page keeps the visitor's place
    if (wasOlder || !atBottom) scroller.scrollTop = scroller.scrollHeight - fromBottom;
    else scroller.scrollTop = scroller.scrollHeight;
    if (state.open && document.visibilityState === "visible" && unreadCount() > 0) markSeen();
  }

  scroller.addEventListener("scroll", () => {
    if (scroller.scrollTop < 40 && state.hasOlder && !state.loadingOlder) loadOlder();
  });
  return {
    element,
    update,
    focus: () => (composer.querySelector("textarea") as HTMLTextAreaElement | null)?.focus(),
  };
}
