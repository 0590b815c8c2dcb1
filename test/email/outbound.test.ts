/**
 * Outgoing mail: the rows the service writes are sent by the queue through the mail port. The tests run
 * with MAIL_TRANSPORT "sink" (vitest.config.ts), which keeps each mail in R2 instead of sending it; the
 * HTTP provider is met by an intercepted fetch (test/support/receivers.ts), never the network.
 */
import { env } from "cloudflare:workers";
import PostalMime from "postal-mime";
import { describe, expect, it, vi } from "vitest";
import { createDb } from "../../src/db/client";
import { RESEND_API_URL, SINK_PREFIX, mailer } from "../../src/email/senders";
import { jobScope } from "../../src/jobs/scope";
import { MAX_MAIL_ATTEMPTS, type OutgoingEmailMessage, attemptOutgoingEmail, queuePendingEmails } from "../../src/jobs/outgoing-email";
import { directory } from "../support/databases";
import { post } from "../support/http";
import { receiver } from "../support/receivers";
import { createUser, createWorld } from "../support/world";

type MailRow = { id: number; status: string; attempts: number; last_error: string | null; provider_message_id: string | null; next_attempt_at: number | null; sent_at: number | null };

async function resetMailOf(address: string): Promise<MailRow> {
  const row = await directory()
    .prepare("SELECT * FROM outgoing_emails WHERE kind = 'password_reset' AND recipients = ? ORDER BY id DESC")
    .bind(JSON.stringify([address]))
    .first<MailRow>();
  if (!row) throw new Error(`no reset mail for ${address}`);
  return row;
}

async function askReset(platformKey: string, name: string) {
  const user = await createUser(platformKey, name);
  expect((await post("/auth/password", null, { email: user.email })).status).toBe(200);
  return user;
}

const world = await createWorld("Outbound mail");

describe("sending the mail the service writes", () => {
  it("sends a password reset through the configured sender, with its headers, and logs it as sent", async () => {
    const user = await askReset(world.platformKey, "Forgetful Sender");
    expect((await resetMailOf(user.email)).status).toBe("pending");

    await queuePendingEmails(createDb(env.DIRECTORY), env);
    await vi.waitUntil(async () => (await resetMailOf(user.email)).status !== "pending", { timeout: 10_000, interval: 50 });
    const row = await resetMailOf(user.email);
    expect(row).toMatchObject({ status: "sent", attempts: 1, last_error: null });
    expect(row.sent_at).toBeGreaterThan(0);

    const stored = await env.FILES.get(`${SINK_PREFIX}${row.provider_message_id}.eml`);
    expect(stored).not.toBeNull();
    const mail = await PostalMime.parse(await stored!.text());
    expect(mail.from?.address).toBe(env.MAILER_SENDER_EMAIL);
    expect(mail.to?.map((to) => to.address)).toEqual([user.email]);
    expect(mail.subject).toBe("Reset your password");
    expect(mail.messageId).toBe(`<${row.provider_message_id}>`);
    expect(mail.headers.find((h) => h.key === "auto-submitted")?.value).toBe("auto-generated");
    expect(mail.text).toMatch(/reset_password_token=/);
    expect(mail.text).toContain("Hello Forgetful Sender,");
  });

  it("retries a provider that fails, then marks the mail failed with the reason", async () => {
    const provider = receiver(RESEND_API_URL).answer(500);
    const user = await askReset(world.platformKey, "Unlucky");
    const row = await resetMailOf(user.email);
    const scope = jobScope(createDb(env.DIRECTORY), { ...env, MAIL_TRANSPORT: "resend", RESEND_API_KEY: "re_test" });
    let message: OutgoingEmailMessage = { kind: "outgoing_email", accountId: null, emailId: row.id, attempt: 0 };
    let at = Date.now();

    const first = await attemptOutgoingEmail(scope, message, at);
    expect(first.done).toBe(false);
    expect(await resetMailOf(user.email)).toMatchObject({ status: "pending", attempts: 1, last_error: expect.stringContaining("Resend answered 500") });
    expect((await resetMailOf(user.email)).next_attempt_at).toBeGreaterThan(at);
    // the same message again (a duplicate delivery) makes no second attempt
    expect(await attemptOutgoingEmail(scope, message, at)).toEqual({ done: true });

    let step = first;
    while (!step.done) {
      message = step.next;
      at += step.delaySeconds * 1000;
      step = await attemptOutgoingEmail(scope, message, at);
    }
    expect(provider.received.filter((r) => JSON.parse(r.body).to[0] === user.email)).toHaveLength(MAX_MAIL_ATTEMPTS);
    const sent = provider.received.find((r) => JSON.parse(r.body).to[0] === user.email)!;
    expect(sent.headers.get("authorization")).toBe("Bearer re_test");
    expect(sent.headers.get("idempotency-key")).toBe(`outgoing-email-directory-${row.id}`);
    expect(JSON.parse(sent.body)).toMatchObject({ from: env.MAILER_SENDER_EMAIL, subject: "Reset your password", headers: { "Auto-Submitted": "auto-generated" } });
    expect(await resetMailOf(user.email)).toMatchObject({ status: "failed", attempts: MAX_MAIL_ATTEMPTS, sent_at: null, last_error: expect.stringContaining("Resend answered 500") });
  });

  it("marks a mail the provider refuses failed at once", async () => {
    receiver(RESEND_API_URL).answer(new Response(JSON.stringify({ message: "The to address is invalid" }), { status: 422 }));
    const user = await askReset(world.platformKey, "Refused");
    const row = await resetMailOf(user.email);
    const scope = jobScope(createDb(env.DIRECTORY), { ...env, MAIL_TRANSPORT: "resend", RESEND_API_KEY: "re_test" });
    expect(await attemptOutgoingEmail(scope, { kind: "outgoing_email", accountId: null, emailId: row.id, attempt: 0 })).toEqual({ done: true });
    expect(await resetMailOf(user.email)).toMatchObject({ status: "failed", attempts: 1, last_error: expect.stringContaining("The to address is invalid") });
  });

  it("hands Cloudflare's send_email binding a raw message it accepts", async () => {
    const outcome = await mailer({ ...env, MAIL_TRANSPORT: "send_email" }).send({
      from: { email: env.MAILER_SENDER_EMAIL, name: "edgedesk" },
      to: ["someone@example.com"],
      subject: "Ünïcode subject",
      text: "A line\nanother",
      html: "<p>A line</p>",
      replyTo: "reply@example.com",
      headers: { "Auto-Submitted": "auto-generated" },
    });
    expect(outcome).toMatchObject({ result: "sent", messageId: expect.stringMatching(/@/) });
  });
});
