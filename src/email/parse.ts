/**
 * Reads a raw RFC 822 message into the domain's `InboundMail` (src/domain/email/inbound.ts),
 * with postal-mime: a maintained MIME parser without dependencies that runs on Workers (miniflare's own
 * local e-mail endpoint uses it), decoding charsets, encoded words, nested multiparts and attachments.
 * Chatwoot's shapes are kept: ids without angle brackets, addresses lower-cased, `text_content` and
 * `html_content` as `{full, reply, quoted}` (`reply` the whole text, `quoted` the text without the quoted
 * history, the HTML's `reply` its plain text).
 */
import PostalMime, { type Address, type Email, addressParser } from "postal-mime";
import type { InboundMail, MailAddress, MailFile } from "../domain/email/inbound";
import { sniffFile } from "../domain/attachments/kinds";

/** The raw message's own facts, from the handler. */
export type RawMailEnvelope = { storageKey: string; envelopeFrom: string; envelopeTo: string };

const stripBrackets = (id: string) => id.trim().replace(/^<|>$/g, "");
const idList = (value: string | undefined) => (value ? (value.match(/<[^<>\s]+>/g) ?? value.split(/\s+/).filter(Boolean)).map(stripBrackets) : []);

function mailboxes(list: Address[] | Address | undefined): MailAddress[] {
  const all = Array.isArray(list) ? list : list ? [list] : [];
  return all
    .flatMap((a) => (a.group ? a.group : [a]))
    .filter((m) => m.address)
    .map((m) => ({ address: m.address.trim().toLowerCase(), name: m.name ?? "" }));
}

const headerOf = (email: Email, key: string) => email.headers.find((h) => h.key === key)?.value.trim();

/** RFC 3834 and the common bulk markers: no automatic answer may go to such mail. */
function isAutoReply(email: Email): boolean {
  const submitted = headerOf(email, "auto-submitted")?.toLowerCase();
  const precedence = headerOf(email, "precedence")?.toLowerCase();
  return (
    (submitted !== undefined && submitted !== "no") ||
    headerOf(email, "x-autoreply")?.toLowerCase() === "yes" ||
    (precedence !== undefined && ["bulk", "list", "junk", "auto_reply"].includes(precedence))
  );
}

const decoder = new TextDecoder();
const asText = (content: ArrayBuffer | Uint8Array | string) => (typeof content === "string" ? content : decoder.decode(content));

/** A delivery report (RFC 3464), or a mailer daemon's note: the Message-ID of the mail that bounced, and why. */
function bounceOf(email: Email, raw: string): InboundMail["bounce"] {
  const contentType = headerOf(email, "content-type")?.toLowerCase() ?? "";
  const fromDaemon = /^(mailer-daemon|postmaster)@/i.test(mailboxes(email.from)[0]?.address ?? "");
  const report = /multipart\/report/.test(contentType) && /report-type="?delivery-status/.test(contentType);
  const statusPart = email.attachments.find((a) => a.mimeType === "message/delivery-status");
  if (!report && !statusPart && !headerOf(email, "x-failed-recipients") && !fromDaemon) return null;
  const returned = email.attachments.filter((a) => a.mimeType === "message/rfc822" || a.mimeType === "text/rfc822-headers").map((a) => asText(a.content));
  const original = [...returned, raw].map((text) => /^(?:Original-)?Message-ID:\s*(<[^>\s]+>)/im.exec(text)?.[1]).find((id) => id && stripBrackets(id) !== stripBrackets(email.messageId ?? ""));
  const status = statusPart ? asText(statusPart.content) : "";
  const diagnostic = /^Diagnostic-Code:\s*(.+)$/im.exec(status)?.[1] ?? /^Status:\s*(.+)$/im.exec(status)?.[1];
  return { originalMessageId: original ? stripBrackets(original) : null, reason: (diagnostic ?? email.subject ?? "delivery failed").trim().slice(0, 500) };
}

/** The text without its quoted history: from the first "On ... wrote:" line, a forwarded-message rule, or a trailing block of "> " lines. */
export function withoutQuotedHistory(text: string): string {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  let end = lines.findIndex((line) => /^\s*(On .+wrote:|-{2,}\s*Original Message\s*-{2,}|_{5,})\s*$/i.test(line));
  if (end === -1) {
    end = lines.length;
    while (end > 0 && (/^\s*>/.test(lines[end - 1]) || lines[end - 1].trim() === "")) end--;
  }
  return lines.slice(0, end).join("\n").trim();
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** An HTML body as plain text (Chatwoot's `html_content.reply`): blockquotes become "> " lines. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style|head)[^>]*>[\s\S]*?<\/\1>/gi, "")
    .replace(/<blockquote[^>]*>([\s\S]*?)<\/blockquote>/gi, (_, inner: string) => `\n${htmlToText(inner).split("\n").map((l) => `> ${l}`).join("\n")}\n`)
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|div|li|tr|h[1-6])>/gi, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&(#\d+|#x[0-9a-f]+|\w+);/gi, (whole, code: string) => {
      if (code[0] === "#") return String.fromCodePoint(code[1].toLowerCase() === "x" ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10));
      return ENTITIES[code.toLowerCase()] ?? whole;
    })
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** A Message-ID for mail that has none, the same for the same bytes: a mail sent twice is still one. */
async function contentId(raw: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", raw));
  return `${[...digest.slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("")}@missing-message-id.edgedesk`;
}

function mailFiles(email: Email): MailFile[] {
  const hasBody = Boolean(email.html || email.text);
  return email.attachments
    .filter((a) => a.mimeType !== "message/delivery-status")
    .map((a, i) => {
      const content = typeof a.content === "string" ? new TextEncoder().encode(a.content) : new Uint8Array(a.content);
      const fileName = (a.filename ?? `attachment-${i + 1}`).replace(/[\\/\u0000-\u001f]/g, "_").slice(0, 200);
      const extension = fileName.includes(".") ? fileName.split(".").pop()!.toLowerCase() : "";
      // what the bytes are, never what the mail declares; anything unrecognised is served as a plain download
      const kind = sniffFile(content.slice(0, 64 * 1024), extension) ?? { fileType: "file" as const, contentType: "application/octet-stream", extension: extension || "bin", width: null, height: null };
      const contentIdValue = a.contentId ? stripBrackets(a.contentId) : null;
      return {
        fileName,
        mimeType: a.mimeType,
        content,
        contentId: contentIdValue,
        inline: hasBody && a.disposition === "inline" && a.mimeType.startsWith("image/") && contentIdValue !== null,
        file: { body: new Blob([content]), fileName, size: content.byteLength, kind },
      };
    });
}

/** Parses the raw message; throws on what postal-mime cannot read (the caller records why). */
export async function parseMail(raw: Uint8Array, envelope: RawMailEnvelope): Promise<InboundMail> {
  const email = await PostalMime.parse(raw, { attachmentEncoding: "arraybuffer" });
  const rawText = decoder.decode(raw.slice(0, 256 * 1024));
  const text = email.text ?? null;
  const html = email.html ?? null;
  const htmlText = html !== null ? htmlToText(html) : null;
  const contentType = headerOf(email, "content-type") ?? null;
  const headers = Object.fromEntries(
    ["x-original-from", "x-original-sender", "x-forwarded-for"].flatMap((key) => {
      const value = headerOf(email, key);
      return value ? [[key, value]] : [];
    }),
  );
  const from = mailboxes(email.from)[0] ?? null;
  const replyTo = mailboxes(email.replyTo);
  const originalSender = headerOf(email, "x-original-sender")?.toLowerCase();
  return {
    ...envelope,
    messageId: email.messageId ? stripBrackets(email.messageId) : await contentId(raw),
    inReplyTo: idList(email.inReplyTo)[0] ?? null,
    references: idList(email.references),
    from,
    // Chatwoot's original sender: Reply-To, then X-Original-Sender, then From
    replyTo: replyTo.length > 0 ? replyTo : originalSender && /@/.test(originalSender) ? [{ address: originalSender, name: "" }] : [],
    to: mailboxes(email.to).map((a) => a.address),
    cc: mailboxes(email.cc).map((a) => a.address),
    bcc: mailboxes(email.bcc).map((a) => a.address),
    xOriginalTo: mailboxes(email.headers.filter((h) => h.key === "x-original-to").flatMap((h) => addressParser(h.value))).map((a) => a.address),
    subject: email.subject ?? "",
    date: email.date ?? null,
    contentType,
    multipart: /^multipart\//i.test(contentType ?? ""),
    textContent: text !== null ? { full: text, reply: text, quoted: withoutQuotedHistory(text) } : {},
    htmlContent: html !== null && htmlText !== null ? { full: html, reply: htmlText, quoted: withoutQuotedHistory(htmlText) } : {},
    headers: Object.keys(headers).length > 0 ? headers : null,
    autoReply: isAutoReply(email),
    bounce: bounceOf(email, rawText),
    files: mailFiles(email),
  };
}
