/**
 * Mail in tests: e-mail inboxes, raw mails handed to the Worker's email() handler as Email Routing hands
 * them, and the mail the sink transport kept (MAIL_TRANSPORT "sink", vitest.config.ts) read back.
 */
import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import PostalMime, { type Email } from "postal-mime";
import worker from "../../src/index";
import { SINK_PREFIX } from "../../src/email/senders";
import { post } from "./http";
import { uniqueEmail } from "./world";

export type EmailInbox = { id: number; email: string; forward_to_email: string };

export async function emailInbox(w: { base: string; admin: { key: string } }, channel: Record<string, unknown> = {}): Promise<EmailInbox> {
  const res = await post(`${w.base}/inboxes`, w.admin.key, { name: "Mail", channel: { type: "email", email: uniqueEmail("intake"), ...channel } });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body as EmailInbox;
}

let runs = 0;

/** A fixture with its {{PLACEHOLDERS}} filled and CRLF line ends; RUN makes each use's Message-ID its own. */
export function fillMail(template: string, values: Record<string, string>) {
  const all: Record<string, string> = { DOMAIN: env.INBOUND_EMAIL_DOMAIN, SENDER: env.MAILER_SENDER_EMAIL, RUN: `${Date.now()}-${++runs}`, ...values };
  return template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => all[key] ?? "").replace(/\r?\n/g, "\r\n");
}

/** Hands a raw mail to the Worker's email() handler for one envelope recipient; answers the rejection, if any. */
export async function deliverMail(raw: string, to: string, from = "sender@example.org", rawSize?: number): Promise<string | null> {
  const bytes = new TextEncoder().encode(raw);
  let rejection: string | null = null;
  const message = {
    from,
    to,
    headers: new Headers(),
    raw: new Response(bytes).body!,
    rawSize: rawSize ?? bytes.byteLength,
    canBeForwarded: true,
    setReject: (reason: string) => void (rejection = reason),
    forward: () => Promise.reject(new Error("not in tests")),
    reply: () => Promise.reject(new Error("not in tests")),
  } as unknown as ForwardableEmailMessage;
  const ctx = createExecutionContext();
  await worker.email!(message, env, ctx);
  await waitOnExecutionContext(ctx);
  return rejection;
}

/** The mail the sink kept under this Message-ID, parsed, with its envelope recipients; null if none. */
export async function sentMail(messageId: string): Promise<(Email & { envelope: string[] }) | null> {
  const object = await env.FILES.get(`${SINK_PREFIX}${messageId}.eml`);
  if (!object) return null;
  const mail = await PostalMime.parse(await object.arrayBuffer());
  return { ...mail, envelope: (object.customMetadata?.envelope ?? "").split(",").filter(Boolean) };
}

export const headerOf = (mail: Email, key: string) => mail.headers.find((h) => h.key === key)?.value;
