/**
 * One message in the list: the visitor's on the right; agents', bots' and the server's on the left with
 * the sender's avatar (a bot's, else the inbox's). Content by `content_type`: text, the e-mail question,
 * options, cards, the satisfaction survey; files below.
 */
import type { Message } from "../api";
import { avatar, h } from "../dom";
import { retry } from "../actions";
import { renderAttachment } from "./attachments";
import { renderCsat } from "./csat";
import { formatText } from "./format";
import { renderCards, renderEmailCollect, renderSelect } from "./inputs";
import { currentLocale, t } from "../../i18n";

const time = (seconds: number) => new Date(seconds * 1000).toLocaleTimeString(currentLocale().replace("_", "-"), { hour: "2-digit", minute: "2-digit" });

function senderOf(message: Message): { name: string; picture?: string } {
  const channel = window.chatwootWebChannel;
  const sender = message.sender;
  if (sender && sender.type !== "contact") {
    const name = sender.available_name || sender.name || (sender.type === "agent_bot" ? t("bot") : t("someone"));
    return { name, picture: sender.avatar_url || sender.thumbnail || (sender.type === "agent_bot" ? channel?.avatarUrl : undefined) };
  }
  return { name: channel?.websiteName ?? "", picture: channel?.avatarUrl };
}

function content(message: Message): (HTMLElement | null)[] {
  const text = message.content ? h("div", { class: "cw-bubble" }, formatText(message.content)) : null;
  switch (message.content_type) {
    case "input_email":
      return [text, renderEmailCollect(message)];
    case "input_select":
      return [text, renderSelect(message)];
    case "cards":
      return [text, renderCards(message)];
    case "input_csat":
      return [text, renderCsat(message)];
    default:
      return [text];
  }
}

export function renderMessage(message: Message): HTMLElement {
  const mine = message.message_type === 0;
  const deleted = message.content_attributes?.deleted;
  const body = deleted
    ? [h("div", { class: "cw-bubble cw-bubble--deleted" }, t("deleted"))]
    : [...content(message), ...(message.attachments ?? []).map(renderAttachment)];
  const status =
    message.pending === "failed"
      ? h("button", { type: "button", class: "cw-msg__failed", onclick: () => retry(message) }, t("sendFailed"))
      : h("span", { class: "cw-msg__time" }, message.pending ? t("sending") : time(message.created_at));
  if (mine) {
    return h("div", { class: `cw-msg cw-msg--mine${message.pending ? " is-pending" : ""}`, "data-id": message.id }, h("div", { class: "cw-msg__body" }, body, status));
  }
  const sender = senderOf(message);
  return h(
    "div",
    { class: "cw-msg cw-msg--theirs", "data-id": message.id },
    avatar(sender.name, sender.picture),
    h("div", { class: "cw-msg__body" }, h("span", { class: "cw-msg__sender" }, sender.name), body, status),
  );
}
