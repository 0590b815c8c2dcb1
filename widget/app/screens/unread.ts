/**
 * While the widget is closed, new agent messages show as a small preview above the launcher (the
 * loader's showUnreadMessagesDialog, default on): the latest unread messages, "See new messages" to
 * open the conversation, and a dismiss button. The frame's height follows the preview.
 */
import { h } from "../dom";
import { toHost } from "../host";
import { changed, state } from "../state";
import { t } from "../../i18n";
import { renderMessage } from "../messages/message";

export function leaveUnread(open: boolean) {
  toHost({ event: "resetUnreadMode" });
  state.screen = open ? "messages" : "home";
  changed("screen");
  if (open) toHost({ event: "toggleBubble" });
}

export function renderUnread(): HTMLElement {
  const unread = state.messages.filter((message) => message.message_type !== 0 && message.created_at > state.lastSeen).slice(-3);
  return h(
    "section",
    { class: "cw-unread", "aria-label": t("newMessages") },
    h("div", { class: "cw-unread__actions" }, h("button", { type: "button", class: "cw-link-button", onclick: () => leaveUnread(false) }, t("dismiss"))),
    unread.map((message) => h("div", { class: "cw-unread__message", onclick: () => leaveUnread(true) }, renderMessage(message))),
    h("button", { type: "button", class: "cw-button", onclick: () => leaveUnread(true) }, t("seeMessages")),
  );
}

/** The preview's height, for the loader to size the frame to it. */
export function unreadHeight(element: HTMLElement) {
  toHost({ event: "updateIframeHeight", isFixedHeight: true, extraHeight: Math.ceil(element.scrollHeight) + 8 });
}
