/**
 * The composer: a text area (Enter sends, Shift+Enter breaks the line; emoji come from the keyboard or
 * the small picker), files by the clip button, paste or drop (type and size checked before upload), and
 * the visitor's typing sent to agents: on at the first key, off after a pause, on send and on leaving.
 */
import { api } from "../api";
import { sendFile, sendText } from "../actions";
import { h, icon } from "../dom";
import type { Channel, GlobalConfig } from "../globals";
import { ACCEPT, acceptedType } from "../messages/attachments";
import { notice } from "../notice";
import { state } from "../state";
import { t } from "../../i18n";

const EMOJI = ["😀", "😂", "😊", "😍", "🤔", "😢", "😮", "😡", "👍", "👎", "👏", "🙏", "🎉", "❤️", "🔥", "✅", "👋", "🙂", "😉", "😎", "🤝", "💡", "⭐", "🚀"];
const TYPING_PAUSE = 3000;

export function renderComposer(channel: Channel, config: GlobalConfig): HTMLElement {
  const uploads = state.settings.enableFileUpload ?? channel.enabledFeatures.includes("attachments");
  const emoji = state.settings.enableEmojiPicker && channel.enabledFeatures.includes("emoji_picker");
  const maxMegabytes = Number(config.MAXIMUM_FILE_UPLOAD_SIZE) || 40;

  const text = h("textarea", { class: "cw-composer__input", rows: 1, placeholder: t("typeMessage"), "aria-label": t("typeMessage") });
  let typing = false;
  let pause: ReturnType<typeof setTimeout> | undefined;
  const setTyping = (on: boolean) => {
    clearTimeout(pause);
    if (on) pause = setTimeout(() => setTyping(false), TYPING_PAUSE);
    if (on === typing || !state.conversation) return;
    typing = on;
    api.typing(on).catch(() => undefined);
  };
  const resize = () => {
    text.style.height = "auto";
    text.style.height = `${Math.min(text.scrollHeight, 120)}px`;
  };
  const send = () => {
    const content = text.value.trim();
    if (!content) return;
    text.value = "";
    resize();
    setTyping(false);
    sendText(content);
  };
  text.addEventListener("input", () => {
    resize();
    setTyping(text.value.length > 0);
  });
  text.addEventListener("blur", () => setTyping(false));
  text.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      send();
    }
  });

  async function upload(file: File) {
    if (!acceptedType(file)) return notice(t("fileType"));
    if (file.size > maxMegabytes * 1024 * 1024) return notice(t("fileTooLarge", { size: maxMegabytes }));
    try {
      await sendFile(file);
    } catch {
      notice(t("error"));
    }
  }

  const tools: HTMLElement[] = [];
  if (uploads) {
    const picker = h("input", { type: "file", accept: ACCEPT, class: "cw-visually-hidden", tabIndex: -1, "aria-hidden": "true" });
    picker.addEventListener("change", () => {
      const file = picker.files?.[0];
      picker.value = "";
      if (file) upload(file);
    });
    tools.push(picker, h("button", { type: "button", class: "cw-icon-button", "aria-label": t("attach"), onclick: () => picker.click() }, icon("attach")));
    text.addEventListener("paste", (event) => {
      const file = event.clipboardData?.files?.[0];
      if (file) {
        event.preventDefault();
        upload(file);
      }
    });
  }
  if (emoji) {
    const panel = h("div", { class: "cw-emoji", role: "dialog", "aria-label": t("emoji"), hidden: true });
    const toggle = h("button", { type: "button", class: "cw-icon-button", "aria-label": t("emoji"), "aria-expanded": "false", onclick: () => show(panel.hidden === true) }, icon("emoji"));
    const show = (open: boolean) => {
      panel.hidden = !open;
      toggle.setAttribute("aria-expanded", String(open));
      if (open) (panel.firstElementChild as HTMLElement | null)?.focus();
    };
    for (const character of EMOJI) {
      panel.append(
        h(
          "button",
          {
            type: "button",
            class: "cw-emoji__item",
            "aria-label": character,
            onclick: () => {
              const at = text.selectionStart ?? text.value.length;
              text.setRangeText(character, at, text.selectionEnd ?? at, "end");
              show(false);
              text.focus();
            },
          },
          character,
        ),
      );
    }
    panel.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        // the picker closes, not the widget (main.ts closes it on an Escape nobody took)
        event.preventDefault();
        show(false);
        toggle.focus();
      }
    });
    tools.push(h("div", { class: "cw-emoji-wrap" }, toggle, panel));
  }

  const form = h(
    "form",
    {
      class: "cw-composer",
      onsubmit: (event: Event) => {
        event.preventDefault();
        send();
      },
    },
    text,
    tools,
    h("button", { type: "submit", class: "cw-icon-button cw-composer__send", "aria-label": t("send") }, icon("send")),
  );
  if (uploads) {
    form.addEventListener("dragover", (event) => {
      event.preventDefault();
      form.classList.add("is-dropping");
    });
    form.addEventListener("dragleave", () => form.classList.remove("is-dropping"));
    form.addEventListener("drop", (event) => {
      event.preventDefault();
      form.classList.remove("is-dropping");
      const file = event.dataTransfer?.files?.[0];
      if (file) upload(file);
    });
  }
  return form;
}
