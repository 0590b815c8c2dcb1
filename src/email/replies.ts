/**
 * A conversation's message as the mail that carries it (the row src/domain/email/replies.ts wrote): the
 * Markdown rendered to HTML and sanitized as the help center's articles are (src/pages/help-center/
 * markdown.ts), beside the text as written; a CSAT survey's five ratings as links to the survey page
 * (which preselects the rating it is opened with); the message's files attached, from R2, while the mail
 * stays under the size Cloudflare's Email Service sends, and linked beyond (signed URLs that outlive the
 * mail's reading).
 */
import type { OutgoingMailParts } from "../../drizzle/schema";
import type { MailToSend } from "../domain/kernel/ports";
import { renderArticleMarkdown } from "../pages/help-center/markdown";
import { fileUrlUntil } from "../views/attachments";
import { escapeHtml } from "../views/help-center";

/**
 * The bytes of files sent in one mail. Cloudflare sends at most 5 MiB a message, base64 makes files a
 * third larger, and the text, HTML and headers need room too.
 */
export const MAX_ATTACHED_BYTES = 3.5 * 1024 * 1024;
/** How long the link of a file too large to attach works. */
export const MAIL_LINK_SECONDS = 30 * 24 * 60 * 60;

/** Chatwoot's survey ratings, worst to best, as its mail shows them. */
const RATINGS = ["😞", "😑", "😐", "😀", "😍"];

type Row = { accountId: number | null; recipients: string[]; subject: string; body: string; id: number; createdAt: number };

export async function replyMail(row: Row, parts: OutgoingMailParts, files: R2Bucket, nowMs = Date.now()): Promise<MailToSend> {
  const attached: NonNullable<MailToSend["attachments"]> = [];
  const linked: Array<{ fileName: string; url: string }> = [];
  let bytes = 0;
  for (const file of parts.files) {
    const object = bytes + file.size <= MAX_ATTACHED_BYTES ? await files.get(file.storageKey) : null;
    if (object) {
      attached.push({ fileName: file.fileName, contentType: file.contentType, content: new Uint8Array(await object.arrayBuffer()) });
      bytes += file.size;
    } else {
      const expires = Math.floor(nowMs / 1000) + MAIL_LINK_SECONDS;
      linked.push({ fileName: file.fileName, url: fileUrlUntil({ collection: "attachments", accountId: row.accountId ?? 0, fileId: file.id }, file.fileName, expires) });
    }
  }
  const html = [renderArticleMarkdown(parts.markdown)];
  const text = [row.body];
  if (parts.surveyUrl) {
    const survey = escapeHtml(parts.surveyUrl);
    html.push(`<p>${RATINGS.map((face, i) => `<a href="${survey}#rating-${i + 1}">${face}</a>`).join(" ")}</p>`, `<p>Complete the survey at <a href="${survey}">${survey}</a></p>`);
  }
  for (const link of linked) {
    html.push(`<p>attachment [<a href="${escapeHtml(link.url)}">${escapeHtml(link.fileName)}</a>]</p>`);
    text.push(`${link.fileName}: ${link.url}`);
  }
  return {
    from: parts.from,
    to: row.recipients,
    cc: parts.cc,
    bcc: parts.bcc,
    replyTo: parts.replyTo,
    subject: row.subject,
    text: text.join("\n\n"),
    html: html.join("\n"),
    headers: parts.headers,
    attachments: attached,
    messageId: parts.messageId,
    // a retried message's mail is a new mail to the provider, not a repeat of the failed one
    idempotencyKey: `outgoing-email-${row.accountId ?? "directory"}-${row.id}-${row.createdAt}`,
  };
}
