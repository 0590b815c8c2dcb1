/**
 * The widget's header: back (off the home screen), the inbox's avatar and name, online or away with the
 * reply time, and the actions: pop-out window, a menu (end the conversation, e-mail the transcript) and
 * close (on phones, in a React Native app and in the pop-out, where no launcher closes the widget).
 */
import { api } from "../api";
import { endConversation } from "../actions";
import { isOnline } from "../availability";
import { avatar, h, icon } from "../dom";
import type { Channel } from "../globals";
import { inFrame, inReactNative, toHost } from "../host";
import { notice } from "../notice";
import { changed, state } from "../state";
import { currentLocale, t, type TextKey } from "../../i18n";

const REPLY_TIMES: Record<string, TextKey> = {
  in_a_few_minutes: "replyTime_in_a_few_minutes",
  in_a_few_hours: "replyTime_in_a_few_hours",
  in_a_day: "replyTime_in_a_day",
};

/** "Typically replies in …" for the inbox's reply time (an unknown value reads as minutes). */
export const replyTimeText = (channel: Channel) => t(REPLY_TIMES[channel.replyTime] ?? "replyTime_in_a_few_minutes");

export function closeWidget() {
  if (inReactNative()) toHost({ type: "close-widget" });
  else if (inFrame) toHost({ event: "closeWindow" });
  else window.close();
}

const endAllowed = (channel: Channel) =>
  channel.enabledFeatures.includes("end_conversation") && state.settings.enableEndConversation && state.conversation?.status !== "resolved" && Boolean(state.conversation);

function menu(channel: Channel): HTMLElement | null {
  const items: [string, () => Promise<unknown>][] = [];
  if (endAllowed(channel)) {
    items.push([t("endConversation"), endConversation]);
  }
  if (state.conversation && state.contact?.has_email) items.push([t("transcript"), () => api.transcript().then(() => notice(t("transcriptSent")))]);
  if (!items.length) return null;
  const list = h("ul", { class: "cw-menu__list", role: "menu", hidden: true });
  const toggle = h(
    "button",
    { type: "button", class: "cw-icon-button", "aria-label": t("menu"), "aria-haspopup": "menu", "aria-expanded": "false", onclick: () => show(list.hidden === true) },
    icon("menu"),
  );
  function show(open: boolean) {
    list.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    if (open) (list.querySelector("button") as HTMLButtonElement | null)?.focus();
  }
  for (const [label, run] of items) {
    list.append(
      h(
        "li",
        { role: "none" },
        h(
          "button",
          {
            type: "button",
            role: "menuitem",
            class: "cw-menu__item",
            onclick: () => {
              show(false);
              run().catch(() => notice(t("error")));
            },
          },
          label,
        ),
      ),
    );
  }
  list.addEventListener("keydown", (event) => {
    const buttons = [...list.querySelectorAll("button")];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === "Escape") {
      event.preventDefault();
      show(false);
      toggle.focus();
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      buttons[(at + (event.key === "ArrowDown" ? 1 : buttons.length - 1)) % buttons.length]?.focus();
    }
  });
  return h("div", { class: "cw-menu" }, toggle, list);
}

export function renderHeader(channel: Channel): HTMLElement {
  const online = isOnline(channel);
  const status = online ? state.settings.availableMessage || t("online") : state.settings.unavailableMessage || t("away");
  const showClose = inReactNative() || !inFrame || state.isMobile;
  return h(
    "header",
    { class: "cw-header" },
    state.screen !== "home"
      ? h(
          "button",
          {
            type: "button",
            class: "cw-icon-button",
            "aria-label": t("back"),
            onclick: () => {
              state.screen = "home";
              changed("screen");
            },
          },
          icon("back"),
        )
      : null,
    avatar(channel.websiteName ?? "", channel.avatarUrl, "cw-avatar cw-avatar--inbox"),
    h(
      "div",
      { class: "cw-header__title" },
      h("h1", {}, channel.websiteName ?? ""),
      h("p", { class: "cw-header__status" }, h("span", { class: `cw-dot${online ? " is-online" : ""}`, "aria-hidden": "true" }), online ? replyTimeText(channel) : status),
    ),
    h(
      "div",
      { class: "cw-header__actions" },
      state.screen === "messages" ? menu(channel) : null,
      state.settings.showPopoutButton && inFrame
        ? h(
            "button",
            {
              type: "button",
              class: "cw-icon-button",
              "aria-label": t("popout"),
              onclick: () => toHost({ event: "popoutChatWindow", baseUrl: location.origin, websiteToken: channel.websiteToken, locale: currentLocale() }),
            },
            icon("popout"),
          )
        : null,
      showClose ? h("button", { type: "button", class: "cw-icon-button", "aria-label": t("close"), onclick: closeWidget }, icon("close")) : null,
    ),
  );
}
