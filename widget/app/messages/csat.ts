/**
 * The satisfaction survey the server posts when a conversation is resolved (`input_csat`): five emoji or
 * five stars (`display_type`), an optional comment, answered with PATCH /messages/:id. A radio group, so
 * arrow keys choose the rating.
 */
import { api, type Message } from "../api";
import { h, icon } from "../dom";
import { t } from "../../i18n";

const FACES = ["😞", "😑", "😐", "😊", "😍"];

export function renderCsat(message: Message): HTMLElement {
  const answered = message.content_attributes?.submitted_values?.csat_survey_response as { rating?: number; feedback_message?: string } | undefined;
  const stars = message.content_attributes?.display_type === "star";
  const mark = (n: number) => (stars ? h("span", { class: "cw-csat__stars" }, ...Array.from({ length: n }, () => icon("star"))) : FACES[n - 1]);
  if (answered?.rating) {
    return h(
      "div",
      { class: "cw-csat cw-csat--done" },
      h("div", { class: "cw-csat__given", "aria-label": t("rating", { n: answered.rating }) }, mark(answered.rating)),
      answered.feedback_message ? h("p", {}, answered.feedback_message) : null,
      h("p", { class: "cw-muted" }, t("csatThanks")),
    );
  }
  let rating = 0;
  const options = [1, 2, 3, 4, 5].map((n) =>
    h(
      "button",
      {
        type: "button",
        role: "radio",
        class: `cw-csat__option${stars ? " cw-csat__option--star" : ""}`,
        "aria-checked": "false",
        "aria-label": t("rating", { n }),
        tabIndex: n === 1 ? 0 : -1,
        onclick: () => choose(n),
        onkeydown: (event: Event) => {
          const key = (event as KeyboardEvent).key;
          const step = key === "ArrowRight" || key === "ArrowDown" ? 1 : key === "ArrowLeft" || key === "ArrowUp" ? -1 : 0;
          if (!step) return;
          event.preventDefault();
          const next = Math.min(5, Math.max(1, (rating || n) + step));
          choose(next);
          options[next - 1].focus();
        },
      },
      stars ? icon("star") : FACES[n - 1],
    ),
  );
  const feedback = h("textarea", { class: "cw-input", rows: 2, placeholder: t("csatFeedback"), "aria-label": t("csatFeedback") });
  const submit = h("button", { type: "submit", class: "cw-button", disabled: true }, t("submit"));
  const error = h("p", { class: "cw-error", role: "alert" });
  function choose(n: number) {
    rating = n;
    options.forEach((option, index) => {
      const checked = stars ? index < n : index === n - 1;
      option.classList.toggle("is-selected", checked);
      option.setAttribute("aria-checked", String(index === n - 1));
      option.tabIndex = index === n - 1 ? 0 : -1;
    });
    submit.disabled = false;
  }
  const form = h(
    "form",
    {
      class: "cw-csat",
      onsubmit: async (event: Event) => {
        event.preventDefault();
        if (!rating) return;
        submit.disabled = true;
        error.textContent = "";
        try {
          await api.updateMessage(message.id, { message: { submitted_values: { csat_survey_response: { rating, feedback_message: feedback.value.trim() } } } });
          // shown answered at once; the server's message.updated confirms it
          message.content_attributes = { ...message.content_attributes, submitted_values: { csat_survey_response: { rating, feedback_message: feedback.value.trim() } } };
          form.replaceWith(renderCsat(message));
        } catch {
          error.textContent = t("error");
          submit.disabled = false;
        }
      },
    },
    h("p", { class: "cw-csat__ask", id: `csat-${message.id}` }, t("csatAsk")),
    h("div", { class: "cw-csat__options", role: "radiogroup", "aria-labelledby": `csat-${message.id}` }, options),
    feedback,
    submit,
    error,
  );
  return form;
}
