/**
 * The HTML part of a notification e-mail (the row src/domain/conversations/notifications.ts wrote): its
 * text, escaped, paragraph by paragraph, the last paragraph (the link to the conversation the service
 * wrote) as a link. Nothing else becomes a link: the quoted message is a customer's or an agent's text.
 */
import { escapeHtml } from "../views/help-center";

export function notificationMailHtml(text: string): string {
  const paragraphs = text.split("\n\n");
  const link = paragraphs.pop() ?? "";
  const escaped = paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, "<br>")}</p>`);
  return [...escaped, `<p><a href="${escapeHtml(link)}">View the conversation</a></p>`].join("\n");
}
