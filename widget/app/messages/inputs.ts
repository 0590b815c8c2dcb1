/**
 * The server's and bots' questions in a message: the e-mail collect form (`input_email`), options
 * (`input_select`) and cards. Answers go back with PATCH /messages/:id; card buttons open their link or
 * raise chatwoot:postback on the host page.
 */
import { api, type Message } from "../api";
import { h } from "../dom";
import { raise } from "../host";
import { loadContact } from "../actions";
import { t } from "../../i18n";

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function renderEmailCollect(message: Message): HTMLElement {
  const submitted = message.content_attributes?.submitted_email as string | undefined;
  if (submitted) return h("p", { class: "cw-muted" }, t("emailThanks", { email: submitted }));
  const input = h("input", { class: "cw-input", type: "email", required: true, autocomplete: "email", placeholder: t("emailPlaceholder"), "aria-label": t("emailAsk") });
  const error = h("p", { class: "cw-error", role: "alert" });
  const button = h("button", { type: "submit", class: "cw-button" }, t("submit"));
  const form = h(
    "form",
    {
      class: "cw-inline-form",
      noValidate: true,
      onsubmit: async (event: Event) => {
        event.preventDefault();
        const email = input.value.trim();
        if (!EMAIL.test(email)) {
          error.textContent = t("invalidEmail");
          input.setAttribute("aria-invalid", "true");
          input.focus();
          return;
        }
        button.disabled = true;
        try {
          await api.updateMessage(message.id, { contact: { email } });
          message.content_attributes = { ...message.content_attributes, submitted_email: email };
          form.replaceWith(renderEmailCollect(message));
          loadContact();
        } catch {
          error.textContent = t("error");
          button.disabled = false;
        }
      },
    },
    h("div", { class: "cw-inline-form__row" }, input, button),
    error,
  );
  return form;
}

type Item = { title?: string; value?: string; description?: string; media_url?: string; actions?: { type?: string; text?: string; uri?: string; payload?: unknown }[] };

export function renderSelect(message: Message): HTMLElement {
  const items = (message.content_attributes?.items ?? []) as Item[];
  const submitted = message.content_attributes?.submitted_values as Item[] | undefined;
  if (Array.isArray(submitted) && submitted.length) return h("p", { class: "cw-chosen" }, submitted.map((item) => item.title).join(", "));
  return h(
    "div",
    { class: "cw-options", role: "group" },
    items.map((item) =>
      h(
        "button",
        {
          type: "button",
          class: "cw-option",
          onclick: async () => {
            const chosen = [{ title: item.title, value: item.value }];
            await api.updateMessage(message.id, { message: { submitted_values: chosen } }).catch(() => undefined);
            message.content_attributes = { ...message.content_attributes, submitted_values: chosen };
          },
        },
        item.title ?? "",
      ),
    ),
  );
}

const safeLink = (uri?: string) => (uri && /^https?:\/\//.test(uri) ? uri : undefined);

export function renderCards(message: Message): HTMLElement {
  const items = (message.content_attributes?.items ?? []) as Item[];
  return h(
    "div",
    { class: "cw-cards" },
    items.map((item) =>
      h(
        "div",
        { class: "cw-card" },
        safeLink(item.media_url) ? h("img", { src: item.media_url!, alt: "", loading: "lazy" }) : null,
        item.title ? h("strong", {}, item.title) : null,
        item.description ? h("p", {}, item.description) : null,
        (item.actions ?? []).map((action) =>
          action.type === "link" && safeLink(action.uri)
            ? h("a", { class: "cw-button cw-button--ghost", href: action.uri!, target: "_blank", rel: "noopener noreferrer" }, action.text ?? "")
            : h("button", { type: "button", class: "cw-button cw-button--ghost", onclick: () => raise("chatwoot:postback", action) }, action.text ?? ""),
        ),
      ),
    ),
  );
}
