/**
 * One accepted mail, from the queue: its raw message is read from R2, parsed (src/email/parse.ts) and
 * threaded into the account (src/domain/email/inbound.ts). A mail that cannot be parsed is
 * recorded as failed with the parser's reason; its raw message stays in R2, so nothing is lost. A failure
 * of our own (R2, the database) is thrown, and the queue retries: the mail is stored once all the same.
 */
import { parseMail } from "../email/parse";
import type { InboundEmailMessage } from "../email/receive";
import { receiveEmail, recordInboundEmail } from "../domain/email/inbound";
import type { TransportScope } from "../domain/kernel/scope";

export async function runInboundEmail(scope: TransportScope, message: InboundEmailMessage) {
  const object = await scope.env.FILES.get(message.storageKey);
  if (!object) {
    await recordInboundEmail(scope, message.accountId, message, { outcome: "failed", reason: "the raw message is not in storage" });
    return;
  }
  const raw = new Uint8Array(await object.arrayBuffer());
  let mail;
  try {
    mail = await parseMail(raw, message);
  } catch (error) {
    await recordInboundEmail(scope, message.accountId, message, { outcome: "failed", reason: `unreadable message: ${String(error).slice(0, 500)}` });
    return;
  }
  const result = await receiveEmail(scope, message.accountId, mail, scope.env.MAILER_SENDER_EMAIL);
  console.log(JSON.stringify({ level: "info", inboundEmail: message.storageKey, accountId: message.accountId, ...result }));
}
