/**
 * Mail the service asks for: a row of `outgoing_emails`, in the batch of the change that wants the mail
 * (so a request never waits on a mail provider); the queue sends the pending rows through the mail port
 * (src/jobs/outgoing-email.ts). Every writer of mail (automation rules, transcripts, e-mail confirmations,
 * password resets) goes through this one statement.
 */
import { type SQL, sql } from "drizzle-orm";
import { type Database, now, schema } from "../../db/client";

export type OutgoingEmail = {
  /** "team_notification" | "transcript" | "email_confirmation" | "password_reset" | "conversation_notification" */
  kind: string;
  recipients: string[];
  subject: string;
  body: string;
  /** the account, conversation and rule the mail is about, when it is about one */
  accountId?: number | null;
  conversationId?: number | null;
  automationRuleId?: number | null;
};

export function outgoingEmailStatement(db: Database, mail: OutgoingEmail) {
  const at = now();
  return db.insert(schema.outgoingEmails).values({ ...mail, createdAt: at, updatedAt: at });
}

/** The fields of a mail as SQL expressions over the rows of a query (see `outgoingEmailsSelect`). */
export type OutgoingEmailColumns = { accountId: SQL; recipients: SQL; subject: SQL; body: SQL; conversationId: SQL };

/**
 * One mail of `kind` per row of `from` (the rest of a SELECT: FROM, JOIN, WHERE), for mail whose
 * recipients are chosen inside the batch that writes it (a notification's user), so that nothing is read
 * before the batch for them. `recipients` is a JSON array.
 */
export function outgoingEmailsSelect(db: Database, kind: string, columns: OutgoingEmailColumns, from: SQL, at: number) {
  // columns in the order of `outgoing_emails`: a pending row, no attempt yet
  return db.insert(schema.outgoingEmails).select(sql`SELECT NULL, ${columns.accountId}, ${kind}, ${columns.recipients}, ${columns.subject}, ${columns.body},
      ${columns.conversationId}, NULL, 'pending', 0, NULL, NULL, NULL, NULL, NULL, NULL, ${at}, ${at} ${from}`);
}
