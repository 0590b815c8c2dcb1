/**
 * Attachments as Chatwoot shows them, with their signed URLs.
 *
 * A URL is signed where its message is rendered, and messages are rendered by plain synchronous views
 * from many places (account and public routes, webhook payloads, live frames). Rather than thread a
 * signer through all of them, the links are configured once per request (src/app.ts: the secret and the
 * request's origin) or per queue batch (FILES_BASE_URL), and read here. Every request of an isolate has
 * the same secret; the origin can only differ between host names of this same Worker, where the URL
 * works alike.
 */
import type { AttachmentRow, StoredAttachment } from "../domain/attachments/rows";
import { type FileAddress, fileSignature, urlExpiry } from "../domain/attachments/signing";

let links: { secret: string | undefined; origin: string } = { secret: undefined, origin: "" };

export function configureFileLinks(secret: string | undefined, origin: string) {
  links = { secret, origin: origin.replace(/\/+$/, "") };
}

/** The signed URL of a file; "" when the server has no signing secret (no file can be uploaded then). */
export function fileUrl(address: FileAddress, fileName: string, nowMs = Date.now()): string {
  return fileUrlUntil(address, fileName, urlExpiry(nowMs));
}

/** A signed URL that works until `expires` (unix seconds): a link that must outlive a page, as in a mail. */
export function fileUrlUntil(address: FileAddress, fileName: string, expires: number): string {
  if (!links.secret) return "";
  const signature = fileSignature(links.secret, address, expires);
  const path = `/files/${address.collection}/${address.accountId}/${address.fileId}/${encodeURIComponent(fileName)}`;
  return `${links.origin}${path}?expires=${expires}&signature=${signature}`;
}

/**
 * Chatwoot's Attachment. `thumb_url` is the image itself: files are stored as sent, without resized
 * copies, so a client shows the image scaled (width and height tell it the size).
 */
export function attachmentView(a: StoredAttachment, message: { id: number; accountId: number }) {
  const dataUrl = fileUrl({ collection: "attachments", accountId: message.accountId, fileId: a.id }, a.file_name);
  return {
    id: a.id,
    message_id: message.id,
    file_type: a.file_type,
    account_id: message.accountId,
    extension: a.extension,
    data_url: dataUrl,
    thumb_url: a.file_type === "image" ? dataUrl : "",
    file_size: a.file_size,
    width: a.width,
    height: a.height,
  };
}

/** Chatwoot's Attachment for a row of the attachments table (what a message keeps of it is the same file). */
export function attachmentRowView(row: AttachmentRow) {
  const stored: StoredAttachment = {
    id: row.id,
    file_type: row.fileType,
    extension: row.extension,
    content_type: row.contentType,
    file_name: row.fileName,
    file_size: row.fileSize,
    width: row.width,
    height: row.height,
  };
  return attachmentView(stored, { id: row.messageId, accountId: row.accountId });
}

/** `attachments` (Chatwoot: only when there are any) for a message record. */
export function messageAttachmentsView(message: { id: number; accountId: number; attachments: StoredAttachment[] }) {
  return message.attachments.length > 0 ? { attachments: message.attachments.map((a) => attachmentView(a, message)) } : {};
}


type ShownMessage = { id: number; accountId: number; attachments: StoredAttachment[]; contentAttributes: Record<string, unknown> };

const decoded = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/**
 * A message's content attributes as shown: a mail's HTML (`email.html_content.full`) with each `cid:` the
 * channel matched to one of the message's files (`email.inline_images`, src/domain/email/inbound.ts)
 * replaced by that file's signed URL, as Chatwoot shows inline images; plain and URL-encoded cids alike.
 */
export function contentAttributesView(message: ShownMessage): Record<string, unknown> {
  const email = message.contentAttributes.email as { html_content?: { full?: unknown }; inline_images?: unknown } | undefined;
  const full = email?.html_content?.full;
  const inline = email?.inline_images;
  if (typeof full !== "string" || !inline || typeof inline !== "object" || !/cid:/i.test(full)) return message.contentAttributes;
  const urls = new Map<string, string>();
  for (const [contentId, position] of Object.entries(inline)) {
    const file = typeof position === "number" ? message.attachments[position] : undefined;
    if (file) urls.set(contentId, attachmentView(file, message).data_url.replace(/&/g, "&amp;"));
  }
  const html = full.replace(/cid:([^"'\s<>)]+)/gi, (whole, id: string) => urls.get(decoded(id).toLowerCase()) ?? whole);
  return { ...message.contentAttributes, email: { ...email, html_content: { ...email!.html_content, full: html } } };
}
