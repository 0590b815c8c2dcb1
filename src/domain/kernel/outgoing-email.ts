/**
 * Mail the service asks for. edgedesk sends no mail itself: it writes a row to `outgoing_emails`, in the
 * batch of the change that wants the mail, and a mail integration sends the pending rows. Automation
 * rules and e-mail confirmations both write through this one statement.
 */
import { type Database, now, schema } from "../../db/client";

export type OutgoingEmail = {
  /** "team_notification" | "transcript" | "email_confirmation" */
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
