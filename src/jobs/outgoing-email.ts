/**
 * Sending the mail the service writes (`outgoing_emails`, src/domain/kernel/outgoing-email.ts): the rows
 * are written in the batch of the change that wants them, so a request never waits on a mail provider
 * (and a password reset takes as long whether or not the address is a user's). The minute sweep hands
 * each due pending row to the queue; the queue message makes one attempt through the mail port and
 * records it on the row, which is the log of what was sent: `sent` with the Message-ID, or another
 * attempt later (the webhook deliveries' backoff), or `failed` with the reason once refused or out of
 * attempts. As with deliveries, a message names the attempt it is for and claims it by a conditional
 * update, so a message that arrives twice, or one the sweep re-sent, sends one mail.
 * Mail that belongs to no account (password resets, e-mail confirmations) lives in the directory; its
 * messages carry `accountId: null` and run there (src/jobs/queue.ts).
 */
import { and, asc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { type Database, now, schema } from "../db/client";
import { batch } from "../domain/kernel/batch";
import type { MailOutcome, MailToSend } from "../domain/kernel/ports";
import { replyOutcomeStatements } from "../domain/email/replies";
import { replyMail } from "../email/replies";
import { notificationMailHtml } from "../email/notifications";
import { NOTIFICATION_MAIL_KIND } from "../domain/conversations/notifications";
import type { TransportScope } from "../domain/kernel/scope";
import { backoffMs, hopDelaySeconds } from "../webhooks/schedule";

const { outgoingEmails } = schema;

export type OutgoingEmailMessage = { kind: "outgoing_email"; accountId: number | null; emailId: number; attempt: number };
export type OutgoingEmailRow = typeof outgoingEmails.$inferSelect;
export type MailStep = { done: true } | { done: false; next: OutgoingEmailMessage; delaySeconds: number };

/** Attempts before a mail that keeps failing is given up: with the backoff, about a day. */
export const MAX_MAIL_ATTEMPTS = 8;
/** How long the sweep waits before handing a row it queued to the queue again (its message may be lost). */
const SWEEP_LEASE_MS = 10 * 60 * 1000;
/** Rows the sweep hands over per run and database. */
const SWEEP_ROWS = 100;

const ofAccount = (accountId: number | null) => (accountId === null ? isNull(outgoingEmails.accountId) : eq(outgoingEmails.accountId, accountId));

/**
 * The mail of a row: a conversation's message as its mail (src/email/replies.ts); any other mail the
 * service writes is automatic, none a person's own message; a notification e-mail has an HTML part too.
 */
async function mailOf(row: OutgoingEmailRow, env: Env): Promise<MailToSend> {
  if (row.parts) return replyMail(row, row.parts, env.FILES);
  return {
    from: { email: env.MAILER_SENDER_EMAIL },
    to: row.recipients,
    subject: row.subject,
    text: row.body,
    ...(row.kind === NOTIFICATION_MAIL_KIND && { html: notificationMailHtml(row.body) }),
    headers: { "Auto-Submitted": "auto-generated" },
    idempotencyKey: `outgoing-email-${row.accountId ?? "directory"}-${row.id}`,
  };
}

/** The sweep: due pending rows of database `db` go to the queue, each leased until it is due again. */
export async function queuePendingEmails(db: Database, env: Env, at = now()): Promise<number> {
  const due = and(eq(outgoingEmails.status, "pending"), or(isNull(outgoingEmails.nextAttemptAt), lte(outgoingEmails.nextAttemptAt, at)));
  const [rows] = await batch(db, [
    db.select({ id: outgoingEmails.id, accountId: outgoingEmails.accountId, attempts: outgoingEmails.attempts }).from(outgoingEmails).where(due).orderBy(asc(outgoingEmails.id)).limit(SWEEP_ROWS),
  ]);
  if (rows.length === 0) return 0;
  await batch(db, [
    db
      .update(outgoingEmails)
      .set({ nextAttemptAt: at + SWEEP_LEASE_MS })
      .where(and(due, inArray(outgoingEmails.id, rows.map((row) => row.id)))),
  ]);
  const messages: OutgoingEmailMessage[] = rows.map((row) => ({ kind: "outgoing_email", accountId: row.accountId, emailId: row.id, attempt: row.attempts }));
  await env.EVENTS.sendBatch(messages.map((body) => ({ body })));
  return rows.length;
}

/** One queue message: the attempt it names, when no other copy made it; then what comes next. */
export async function attemptOutgoingEmail(scope: TransportScope, message: OutgoingEmailMessage, at = now()): Promise<MailStep> {
  const { db, env } = scope;
  const [claimed] = await batch(db, [
    db
      .update(outgoingEmails)
      .set({ attempts: sql`${outgoingEmails.attempts} + 1`, updatedAt: at })
      .where(and(ofAccount(message.accountId), eq(outgoingEmails.id, message.emailId), eq(outgoingEmails.status, "pending"), eq(outgoingEmails.attempts, message.attempt)))
      .returning(),
  ]);
  const row = claimed[0];
  if (!row) return { done: true };
  const outcome: MailOutcome =
    row.recipients.length === 0
      ? { result: "refused", error: "the mail has no recipient: the contact has no e-mail address and the message names none (to_emails)" }
      : await scope.ports.mail.send(await mailOf(row, env));
  const again = outcome.result === "retry" && row.attempts < MAX_MAIL_ATTEMPTS ? at + backoffMs(row.attempts) : null;
  const changes =
    outcome.result === "sent"
      ? { status: "sent", sentAt: at, providerMessageId: outcome.messageId || null, lastError: null, nextAttemptAt: null }
      : again !== null
        ? { lastError: outcome.error, nextAttemptAt: again }
        : { status: "failed", lastError: outcome.error, nextAttemptAt: null };
  // a conversation's message hears what became of its mail: its Message-ID, or its final failure
  const onMessage =
    outcome.result === "sent"
      ? await replyOutcomeStatements(scope, row, { result: "sent", messageId: outcome.messageId })
      : again === null
        ? await replyOutcomeStatements(scope, row, { result: "failed", error: outcome.error })
        : [];
  await batch(db, [db.update(outgoingEmails).set({ ...changes, updatedAt: at }).where(and(ofAccount(row.accountId), eq(outgoingEmails.id, row.id))), ...onMessage]);
  // a sent mail is on its row (sent_at, provider_message_id), the log of what went out; the console tells
  // only what went wrong (a mail per assignment would otherwise be a line per assignment)
  if (outcome.result !== "sent") console.error(JSON.stringify({ level: "error", outgoingEmail: row.id, kind: row.kind, attempt: row.attempts, outcome }));
  if (again === null) return { done: true };
  return { done: false, next: { ...message, attempt: row.attempts }, delaySeconds: hopDelaySeconds(again, at) };
}
