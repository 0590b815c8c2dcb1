/**
 * The home screen: the inbox's welcome title and tagline (the loader's welcomeTitle and
 * welcomeDescription override them), whether the team is online or away (with the out-of-office text),
 * the reply time, the agents online, and the button to the conversation or the pre-chat form.
 */
import { isOnline } from "../availability";
import { avatar, h } from "../dom";
import type { Channel } from "../globals";
import { raise } from "../host";
import { changed, state } from "../state";
import { replyTimeText } from "./header";
import { t } from "../../i18n";

/** The pre-chat form applies to a visitor without a conversation, when the inbox enabled at least one field. */
export function needsPreChat(channel: Channel): boolean {
  if (!channel.preChatFormEnabled || state.conversation) return false;
  return (channel.preChatFormOptions?.pre_chat_fields ?? []).some((field) => field.enabled) || Boolean(channel.preChatFormOptions?.pre_chat_message);
}

export function startConversation(channel: Channel) {
  raise("chatwoot:on-start-conversation", { hasConversation: Boolean(state.conversation) });
  state.screen = needsPreChat(channel) ? "prechat" : "messages";
  changed("screen");
}

export function renderHome(channel: Channel): HTMLElement {
  const online = isOnline(channel);
  const title = state.settings.welcomeTitle || channel.welcomeTitle || "";
  const tagline = state.settings.welcomeDescription || channel.welcomeTagline || "";
  const onlineAgents = state.agents.filter((agent) => agent.availability_status === "online");
  const away = state.settings.unavailableMessage || channel.outOfOfficeMessage || t("away");
  return h(
    "section",
    { class: "cw-home", "aria-labelledby": "cw-home-title" },
    h("h2", { id: "cw-home-title", class: "cw-home__title" }, title || channel.websiteName || t("chatTitle")),
    tagline ? h("p", { class: "cw-home__tagline" }, tagline) : null,
    h(
      "div",
      { class: "cw-card cw-availability" },
      h("p", { class: "cw-availability__state" }, h("span", { class: `cw-dot${online ? " is-online" : ""}`, "aria-hidden": "true" }), online ? state.settings.availableMessage || t("online") : away),
      h("p", { class: "cw-muted" }, replyTimeText(channel)),
      onlineAgents.length
        ? h("div", { class: "cw-agents", "aria-label": t("agentsOnline"), role: "group" }, onlineAgents.slice(0, 5).map((agent) => avatar(agent.name, agent.avatar_url)))
        : null,
      h(
        "button",
        { type: "button", class: "cw-button cw-button--block", onclick: () => startConversation(channel) },
        state.conversation && state.messages.length ? t("continueConversation") : t("startConversation"),
      ),
    ),
  );
}
