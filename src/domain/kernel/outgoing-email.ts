/**
 * Mail the service asks for: a row of `outgoing_emails`, in the batch of the change that wants the mail
 * (so a request never waits on a mail provider); the queue sends the pending rows through the mail port
 * (src/jobs/outgoing-email.ts). Every writer of mail (automation rules, transcripts, e-mail confirmations,
 * password resets) goes through this one statement.
 */
import { type Database, now, schema } from "../../db/client";

export type OutgoingEmail = {
  /** "team_notification" | "transcript" | "email_confirmation" | "password_reset" */
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
