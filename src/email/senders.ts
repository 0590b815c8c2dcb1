/**
 * The mail port (src/domain/kernel/ports.ts), filled from MAIL_TRANSPORT:
 * - "send_email": Cloudflare's Email Service through the SEND_EMAIL binding, one raw MIME message per
 *   envelope recipient (the binding's EmailMessage takes one); under `npm start` wrangler's local binding
 *   writes each as an .eml file and logs its path, sending nothing;
 * - "resend": the Resend HTTP API (a plain JSON body, the key from the secret RESEND_API_KEY);
 * - "sink": each mail kept as an .eml object under `outgoing-mail/` in the FILES bucket, never sent (tests).
 * Every failure becomes an outcome: "refused" when trying again cannot help, "retry" otherwise.
 */
import { EmailMessage } from "cloudflare:email";
import { Mailbox, createMimeMessage } from "mimetext/browser";
import type { MailOutcome, MailToSend, Mailer } from "../domain/kernel/ports";

export const RESEND_API_URL = "https://api.resend.com/emails";
/** Where the sink keeps mail in the FILES bucket. */
export const SINK_PREFIX = "outgoing-mail/";

/** The Email Service's error codes that another attempt cannot cure (its limits and delivery failures can pass). */
const PERMANENT_BINDING_ERRORS = /^E_(SENDER_NOT_VERIFIED|RECIPIENT_NOT_ALLOWED|RECIPIENT_SUPPRESSED|CONTENT_TOO_LARGE|HEADER_)/;

const stripBrackets = (id: string) => id.trim().replace(/^<|>$/g, "");

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** base64 in lines of 76 characters, as MIME wants them */
function base64Lines(content: string | Uint8Array): string {
  return (base64(typeof content === "string" ? new TextEncoder().encode(content) : content).match(/.{1,76}/g) ?? []).join("\r\n");
}

/** Everyone the mail goes to: its To, Cc and Bcc (the envelope; Bcc is never a header). */
export const envelopeRecipients = (mail: MailToSend) => [...new Set([...mail.to, ...(mail.cc ?? []), ...(mail.bcc ?? [])])];

/** The raw RFC 5322 message and its Message-ID (ours, on the sender's domain, brackets stripped). */
export function mimeMessage(mail: MailToSend): { raw: string; messageId: string } {
  const message = createMimeMessage();
  const messageId = mail.messageId ?? `${crypto.randomUUID()}@${mail.from.email.split("@")[1] ?? "localhost"}`;
  message.setSender(mail.from.name ? { name: mail.from.name, addr: mail.from.email } : mail.from.email);
  message.setTo(mail.to);
  if (mail.cc && mail.cc.length > 0) message.setCc(mail.cc);
  message.setSubject(mail.subject);
  message.setHeader("Message-ID", `<${messageId}>`);
  // mimetext validates Reply-To as a mailbox; its type only names the header for display
  if (mail.replyTo) message.setHeader("Reply-To", new Mailbox(mail.replyTo));
  for (const [name, value] of Object.entries(mail.headers)) message.setHeader(name, value);
  // base64 parts: the bodies are UTF-8 and their lines of any length
  message.addMessage({ contentType: "text/plain", data: base64Lines(mail.text), encoding: "base64" });
  if (mail.html) message.addMessage({ contentType: "text/html", data: base64Lines(mail.html), encoding: "base64" });
  for (const file of mail.attachments ?? []) {
    message.addAttachment({ filename: file.fileName, contentType: file.contentType, data: base64Lines(file.content), encoding: "base64" });
  }
  return { raw: message.asRaw(), messageId };
}

function sendEmailBinding(binding: SendEmail): Mailer {
  return {
    async send(mail) {
      const { raw, messageId } = mimeMessage(mail);
      let sentAs = messageId;
      for (const recipient of envelopeRecipients(mail)) {
        try {
          const result = await binding.send(new EmailMessage(mail.from.email, recipient, raw));
          if (result?.messageId) sentAs = stripBrackets(result.messageId);
        } catch (error) {
          const code = String((error as { code?: unknown }).code ?? "");
          const reason = `${code ? `${code}: ` : ""}${error instanceof Error ? error.message : String(error)}`;
          return { result: PERMANENT_BINDING_ERRORS.test(code) ? "refused" : "retry", error: reason };
        }
      }
      return { result: "sent", messageId: sentAs };
    },
  };
}

/**
 * Resend: JSON with the same fields the mail has, custom headers as an object, and an Idempotency-Key so
 * that an attempt repeated after a lost answer is not a second mail. 429 and 5xx are worth a retry; any
 * other refusal is final.
 */
function resendApi(apiKey: string | undefined): Mailer {
  return {
    async send(mail) {
      if (!apiKey) return { result: "refused", error: "no Resend API key is configured (the secret RESEND_API_KEY)" };
      const from = mail.from.name ? `${mail.from.name.replace(/[<>"]/g, "")} <${mail.from.email}>` : mail.from.email;
      const body = {
        from,
        to: mail.to,
        cc: mail.cc,
        bcc: mail.bcc,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        reply_to: mail.replyTo,
        headers: mail.headers,
        attachments: mail.attachments?.map((file) => ({ filename: file.fileName, content: base64(file.content), content_type: file.contentType })),
      };
      let response: Response;
      try {
        response = await fetch(RESEND_API_URL, {
          method: "POST",
          headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", ...(mail.idempotencyKey && { "idempotency-key": mail.idempotencyKey }) },
          body: JSON.stringify(body),
        });
      } catch (error) {
        return { result: "retry", error: `Resend could not be reached: ${String(error)}` };
      }
      const text = (await response.text().catch(() => "")).slice(0, 500);
      if (response.ok) {
        const id = (JSON.parse(text || "{}") as { id?: unknown }).id;
        return { result: "sent", messageId: typeof id === "string" ? id : "" };
      }
      const error = `Resend answered ${response.status}: ${text}`;
      return { result: response.status === 429 || response.status >= 500 ? "retry" : "refused", error };
    },
  };
}

function sink(bucket: R2Bucket): Mailer {
  return {
    async send(mail) {
      const { raw, messageId } = mimeMessage(mail);
      const key = `${SINK_PREFIX}${messageId}.eml`;
      try {
        // the envelope beside the message, whose headers never name a Bcc recipient
        await bucket.put(key, raw, { httpMetadata: { contentType: "message/rfc822" }, customMetadata: { envelope: envelopeRecipients(mail).join(",") } });
      } catch (error) {
        return { result: "retry", error: `the mail sink could not be written: ${String(error)}` };
      }
      return { result: "sent", messageId };
    },
  };
}

/** The sender MAIL_TRANSPORT names; an unknown name refuses every mail, saying so, rather than guess. */
export function mailer(env: Env): Mailer {
  const transport = env.MAIL_TRANSPORT || "send_email";
  if (transport === "send_email") return sendEmailBinding(env.SEND_EMAIL);
  if (transport === "resend") return resendApi(env.RESEND_API_KEY);
  if (transport === "sink") return sink(env.FILES);
  return { send: async (): Promise<MailOutcome> => ({ result: "refused", error: `MAIL_TRANSPORT "${transport}" is not a mail transport` }) };
}
