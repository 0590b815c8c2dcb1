/**
 * Notification e-mails (Chatwoot's AgentNotifications::ConversationNotificationsMailer): every notification
 * a user gets writes, in the same batch, an `outgoing_emails` row to the user when their settings select
 * that type's e-mail flag; the outgoing-mail queue sends it (here through the sink transport). A user who
 * did not opt in gets no mail, and the user who acted is never notified, so never mailed.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { attemptOutgoingEmail } from "../../src/jobs/outgoing-email";
import { jobScope } from "../../src/jobs/scope";
import { shardOf } from "../support/databases";
import { addInboxMember, createContact, createInbox } from "../support/fixtures";
import { post, put } from "../support/http";
import { headerOf, sentMail } from "../support/mail";
import { addToAccount, createUser, createWorld, type Person } from "../support/world";

const world = await createWorld("Mail Notify");
const shard = await shardOf(world.accountId);
const { base, admin, agent } = world;
const inbox = await createInbox(world.accountId, { name: "Front desk" });
await addInboxMember(world.accountId, inbox, agent.id);
/** an inbox member who turned every e-mail off (push on: still notified, never mailed) */
const pushOnly = await createUser(world.platformKey, "Push Only");
await addToAccount(world.platformKey, world.accountId, pushOnly.id, "agent");
await addInboxMember(world.accountId, inbox, pushOnly.id);
const contactId = await createContact(world.accountId, { name: "Carla" });

const ALL = ["conversation_creation", "conversation_assignment", "conversation_mention", "assigned_conversation_new_message", "participating_conversation_new_message"];
async function settings(person: Person, email: string[], push: string[]) {
  const res = await put(`${base}/notification_settings`, person.key, {
    notification_settings: { selected_email_flags: email.map((t) => `email_${t}`), selected_push_flags: push.map((t) => `push_${t}`) },
  });
  expect(res.status).toBe(200);
}
await settings(agent, ALL, []);
await settings(admin, ALL, []);
await settings(pushOnly, [], ALL);

type MailRow = { id: number; kind: string; recipients: string; subject: string; body: string; status: string; conversation_id: number };
const mailsTo = async (person: Person) =>
  (await shard.prepare("SELECT * FROM outgoing_emails WHERE account_id = ? AND recipients = ? ORDER BY id").bind(world.accountId, JSON.stringify([person.email])).all<MailRow>()).results;

async function openConversation(key: string) {
  const res = await post(`${base}/conversations`, key, { inbox_id: inbox, contact_id: contactId });
  expect(res.status).toBe(200);
  return res.body.id as number;
}

/** Sends one row through the outgoing-mail attempt (as the queue does) and reads the mail the sink kept. */
async function send(row: MailRow) {
  const scope = jobScope(createDb(shard), env);
  await attemptOutgoingEmail(scope, { kind: "outgoing_email", accountId: world.accountId, emailId: row.id, attempt: 0 });
  const sent = await shard.prepare("SELECT status, provider_message_id FROM outgoing_emails WHERE id = ?").bind(row.id).first<{ status: string; provider_message_id: string }>();
  expect(sent?.status).toBe("sent");
  return (await sentMail(sent!.provider_message_id))!;
}

const link = (displayId: number) => `${env.FRONTEND_URL.replace(/\/$/, "")}/app/accounts/${world.accountId}/conversations/${displayId}`;

describe("notification e-mails", () => {
  it("a new conversation mails the inbox members who opted in, never the creator nor a member without the e-mail flag", async () => {
    const id = await openConversation(admin.key);
    const rows = (await mailsTo(agent)).filter((r) => r.body.includes(link(id)));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: "conversation_notification", status: "pending" });
    expect(rows[0].subject).toBe(`Mail Notify Agent, A new conversation [ID - ${id}] has been created in Front desk.`);
    expect((await mailsTo(pushOnly)).filter((r) => r.body.includes(link(id)))).toEqual([]);
    expect((await mailsTo(admin)).filter((r) => r.body.includes(link(id)))).toEqual([]);

    const mail = await send(rows[0]);
    expect(mail.to?.map((a) => a.address)).toEqual([agent.email]);
    expect(mail.from?.address).toBe(env.MAILER_SENDER_EMAIL);
    expect(mail.subject).toBe(rows[0].subject);
    expect(headerOf(mail, "auto-submitted")).toBe("auto-generated");
    expect(mail.text).toContain(`#${id}`);
    expect(mail.text).toContain("Front desk");
    expect(mail.text).toContain(link(id));
    expect(mail.html).toContain(`<a href="${link(id)}">`);
  });

  it("an assignment mails the assignee who opted in, not one who assigned themselves", async () => {
    const id = await openConversation(admin.key);
    expect((await post(`${base}/conversations/${id}/assignments`, admin.key, { assignee_id: agent.id })).status).toBe(200);
    const rows = (await mailsTo(agent)).filter((r) => r.subject.includes("assigned to you"));
    const row = rows.find((r) => r.body.includes(link(id)));
    expect(row?.subject).toBe(`Mail Notify Agent, A new conversation [ID - ${id}] has been assigned to you.`);
    const mail = await send(row!);
    expect(mail.html).toContain(`<a href="${link(id)}">`);

    const own = await openConversation(admin.key);
    expect((await post(`${base}/conversations/${own}/assignments`, admin.key, { assignee_id: admin.id })).status).toBe(200);
    expect((await mailsTo(admin)).filter((r) => r.body.includes(link(own)))).toEqual([]);
  });

  it("a mention mails the named user with the note's text; a new message mails the assignee", async () => {
    const id = await openConversation(admin.key);
    const note = await post(`${base}/conversations/${id}/messages`, admin.key, {
      content: `[@Mail Notify Agent](mention://user/${agent.id}/Mail%20Notify%20Agent) please look at the refund`,
      private: true,
    });
    expect(note.status).toBe(200);
    const mention = (await mailsTo(agent)).find((r) => r.body.includes(link(id)) && r.subject.includes("mentioned"));
    expect(mention?.subject).toBe(`Mail Notify Agent, You have been mentioned in conversation [ID - ${id}]`);
    const mail = await send(mention!);
    expect(mail.text).toContain("please look at the refund");
    expect(mail.html).toContain("please look at the refund");

    expect((await post(`${base}/conversations/${id}/assignments`, agent.key, { assignee_id: agent.id })).status).toBe(200);
    expect((await post(`${base}/conversations/${id}/messages`, admin.key, { content: "Customer <b>writes</b> again", message_type: "incoming" })).status).toBe(200);
    const message = (await mailsTo(agent)).find((r) => r.body.includes(link(id)) && r.subject.includes("assigned conversation"));
    expect(message?.subject).toBe(`Mail Notify Agent, New message in your assigned conversation [ID - ${id}].`);
    const sent = await send(message!);
    expect(sent.text).toContain("Customer <b>writes</b> again");
    expect(sent.html).toContain("Customer &lt;b&gt;writes&lt;/b&gt; again");
  });
});
