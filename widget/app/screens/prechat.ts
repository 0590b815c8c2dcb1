/**
 * The pre-chat form, from the inbox's preChatFormOptions: standard fields (emailAddress, fullName,
 * phoneNumber: the contact's), contact attributes and conversation attributes, each with its input type,
 * required flag and optional pattern (`regex_pattern`, its message in `regex_cue`), then the first message.
 * Standard fields the contact already has are not asked again. Errors sit under their field and are
 * announced; the first wrong field takes the focus.
 */
import { startFromForm } from "../actions";
import { h } from "../dom";
import type { Channel, PreChatField } from "../globals";
import { EMAIL } from "../messages/inputs";
import { changed, state } from "../state";
import { t } from "../../i18n";

const STANDARD: Record<string, "email" | "name" | "phone_number"> = { emailAddress: "email", fullName: "name", phoneNumber: "phone_number" };
const PHONE = /^\+[1-9]\d{1,14}$/;

const known = (field: PreChatField) =>
  field.field_type === "standard" &&
  ((field.name === "emailAddress" && state.contact?.has_email) || (field.name === "fullName" && state.contact?.has_name) || (field.name === "phoneNumber" && state.contact?.has_phone_number));

function inputType(field: PreChatField): string {
  if (field.name === "emailAddress" || field.type === "email") return "email";
  if (field.name === "phoneNumber" || field.type === "phone" || field.type === "phone_number") return "tel";
  return ({ number: "number", date: "date", link: "url", url: "url" } as Record<string, string>)[field.type ?? ""] ?? "text";
}

/** A pattern as the agent typed it, with or without /slashes/; an invalid one checks nothing. */
function pattern(source?: string | null): RegExp | null {
  if (!source) return null;
  const slashed = /^\/(.*)\/([a-z]*)$/.exec(source);
  try {
    return slashed ? new RegExp(slashed[1], slashed[2].replace(/g/g, "")) : new RegExp(source);
  } catch {
    return null;
  }
}

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

function check(field: PreChatField, control: Control): string {
  const value = control instanceof HTMLInputElement && control.type === "checkbox" ? (control.checked ? "true" : "") : control.value.trim();
  if (!value) return field.required ? t("required") : "";
  const type = control instanceof HTMLInputElement ? control.type : "";
  if (type === "email" && !EMAIL.test(value)) return t("invalidEmail");
  if (type === "tel" && !PHONE.test(value.replace(/[\s()-]/g, ""))) return t("invalidPhone");
  if (type === "url" && !/^https?:\/\/\S+$/.test(value)) return t("invalid");
  const regex = pattern(field.regex_pattern);
  if (regex && !regex.test(value)) return field.regex_cue || t("invalid");
  return "";
}

function control(field: PreChatField, id: string): Control {
  const common = { id, name: field.name, required: Boolean(field.required), "aria-describedby": `${id}-error` };
  if (field.type === "list") {
    return h("select", { ...common, class: "cw-input" }, h("option", { value: "" }, field.placeholder || ""), (field.values ?? []).map((value) => h("option", { value }, value)));
  }
  if (field.type === "checkbox") return h("input", { ...common, type: "checkbox", class: "cw-checkbox" });
  const type = inputType(field);
  const autocomplete = ({ email: "email", tel: "tel" } as Record<string, string>)[type] ?? (field.name === "fullName" ? "name" : undefined);
  return h("input", { ...common, class: "cw-input", type, placeholder: field.placeholder || "", autocomplete });
}

export function renderPreChat(channel: Channel): HTMLElement {
  const options = channel.preChatFormOptions ?? {};
  const fields = (options.pre_chat_fields ?? []).filter((field) => field.enabled && !known(field));
  const rows: { field: PreChatField; control: Control; error: HTMLElement }[] = [];
  const form = h("form", { class: "cw-prechat", noValidate: true, "aria-labelledby": "cw-prechat-intro" });
  form.append(h("p", { id: "cw-prechat-intro", class: "cw-prechat__intro" }, options.pre_chat_message || t("preChatIntro")));
  fields.forEach((field, index) => {
    const id = `cw-field-${index}`;
    const input = control(field, id);
    const error = h("p", { id: `${id}-error`, class: "cw-error", role: "alert" });
    const label = h("label", { for: id, class: "cw-label" }, field.label || field.name, field.required ? h("span", { "aria-hidden": "true" }, " *") : null);
    form.append(h("div", { class: `cw-field${field.type === "checkbox" ? " cw-field--checkbox" : ""}` }, field.type === "checkbox" ? [input, label] : [label, input], error));
    rows.push({ field, control: input, error });
  });
  const message = h("textarea", { id: "cw-prechat-message", class: "cw-input", rows: 3, required: true, "aria-describedby": "cw-prechat-message-error" });
  const messageError = h("p", { id: "cw-prechat-message-error", class: "cw-error", role: "alert" });
  form.append(h("div", { class: "cw-field" }, h("label", { for: "cw-prechat-message", class: "cw-label" }, t("message"), h("span", { "aria-hidden": "true" }, " *")), message, messageError));
  const submit = h("button", { type: "submit", class: "cw-button cw-button--block" }, t("startConversation"));
  const failure = h("p", { class: "cw-error", role: "alert" });
  form.append(submit, failure);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    let firstWrong: Control | null = null;
    for (const row of rows) {
      const problem = check(row.field, row.control);
      row.error.textContent = problem;
      row.control.setAttribute("aria-invalid", String(Boolean(problem)));
      if (problem && !firstWrong) firstWrong = row.control;
    }
    messageError.textContent = message.value.trim() ? "" : t("required");
    message.setAttribute("aria-invalid", String(!message.value.trim()));
    if (!message.value.trim() && !firstWrong) firstWrong = message;
    if (firstWrong) return firstWrong.focus();

    const contact: Record<string, string> = {};
    const conversationAttributes: Record<string, unknown> = {};
    const contactAttributes: Record<string, unknown> = {};
    for (const { field, control } of rows) {
      const value = control instanceof HTMLInputElement && control.type === "checkbox" ? control.checked : control.value.trim();
      if (value === "") continue;
      if (field.field_type === "standard" && STANDARD[field.name]) contact[STANDARD[field.name]] = field.name === "phoneNumber" ? String(value).replace(/[\s()-]/g, "") : String(value);
      else if (field.field_type === "conversation_attribute") conversationAttributes[field.name] = value;
      else contactAttributes[field.name] = value;
    }
    submit.disabled = true;
    failure.textContent = "";
    try {
      await startFromForm(contact, conversationAttributes, contactAttributes, message.value.trim());
      state.screen = "messages";
      changed("screen");
    } catch {
      failure.textContent = t("error");
      submit.disabled = false;
    }
  });
  return form;
}
