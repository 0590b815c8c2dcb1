import { Hono } from "hono";
import type { z } from "zod";
import { listAssignableAgents } from "../../domain/inboxes/members";
import { type ChannelInput, type InboxInput, type InboxRecord, createInbox, deleteInbox, getInbox, getInboxAgentBot, listInboxes, setInboxAgentBot, updateInbox } from "../../domain/inboxes/inboxes";
import { type AppContext, type AppEnv } from "../../http/app-env";
import { accountScope } from "../../http/scopes";
import { requireAdministrator } from "../../http/auth";
import { validate } from "../../http/validate";
import { IdParam } from "../../schemas/common";
import { Inbox, InboxAgentBot, InboxCreate, InboxDeleted, InboxUpdate, SetAgentBot } from "../../schemas/inboxes";
import { Agent } from "../../schemas/agents";
import { agentsView } from "../../views/agents";
import { accountAgentBotView } from "../../views/agent-bots";
import { inboxView } from "../../views/inboxes";
import { idempotent } from "../../http/idempotency";
import { doc } from "../../http/openapi";
import { Empty, payloadOf } from "../../schemas/responses";
import { deliveryLogApi } from "./delivery-log";
import { onlineInAccount } from "./online";

type InboxBody = z.infer<typeof InboxUpdate>;
type ChannelBody = NonNullable<InboxBody["channel"]>;

const toInboxInput = (body: InboxBody): InboxInput => ({
  name: body.name,
  greetingEnabled: body.greeting_enabled,
  greetingMessage: body.greeting_message,
  enableEmailCollect: body.enable_email_collect,
  csatSurveyEnabled: body.csat_survey_enabled,
  csatConfig: body.csat_config,
  enableAutoAssignment: body.enable_auto_assignment,
  autoAssignmentConfig: body.auto_assignment_config,
  workingHoursEnabled: body.working_hours_enabled,
  outOfOfficeMessage: body.out_of_office_message,
  timezone: body.timezone,
  allowMessagesAfterResolved: body.allow_messages_after_resolved,
  lockToSingleConversation: body.lock_to_single_conversation,
  senderNameType: body.sender_name_type,
  businessName: body.business_name,
  avatarUrl: body.avatar_url,
  workingHours: body.working_hours,
});

const toChannelInput = (channel: Partial<ChannelBody> = {}): ChannelInput => ({
  webhookUrl: channel.webhook_url,
  hmacMandatory: channel.hmac_mandatory,
  additionalAttributes: channel.additional_attributes,
  websiteUrl: channel.website_url,
  widgetColor: channel.widget_color,
  welcomeTitle: channel.welcome_title,
  welcomeTagline: channel.welcome_tagline,
  replyTime: channel.reply_time,
  preChatFormEnabled: channel.pre_chat_form_enabled,
  preChatFormOptions: channel.pre_chat_form_options,
  continuityViaEmail: channel.continuity_via_email,
  featureFlags: channel.selected_feature_flags,
  allowedDomains: channel.allowed_domains,
  email: channel.email,
  imapEnabled: channel.imap_enabled,
  imapLogin: channel.imap_login,
  imapPassword: channel.imap_password,
  imapAddress: channel.imap_address,
  imapPort: channel.imap_port,
  imapEnableSsl: channel.imap_enable_ssl,
  smtpEnabled: channel.smtp_enabled,
  smtpLogin: channel.smtp_login,
  smtpPassword: channel.smtp_password,
  smtpAddress: channel.smtp_address,
  smtpPort: channel.smtp_port,
  smtpDomain: channel.smtp_domain,
  smtpEnableStarttlsAuto: channel.smtp_enable_starttls_auto,
  smtpEnableSslTls: channel.smtp_enable_ssl_tls,
  smtpOpensslVerifyMode: channel.smtp_openssl_verify_mode,
  smtpAuthentication: channel.smtp_authentication,
  provider: channel.provider,
  verifiedForSending: channel.verified_for_sending,
});

export const inboxAnswer = (c: AppContext, record: InboxRecord) =>
  inboxView(record, { isAdministrator: c.var.role === "administrator", widgetBaseUrl: c.env.FRONTEND_URL, inboundEmailDomain: c.env.INBOUND_EMAIL_DOMAIN });

/** /api/v1/accounts/:account_id/inboxes */
export const inboxesApi = new Hono<AppEnv>()
  .get("/", doc({ summary: "List inboxes", response: payloadOf(Inbox.array()) }), async (c) => c.json({ payload: (await listInboxes(accountScope(c))).map((r) => inboxAnswer(c, r)) }))
  .post("/", doc({ summary: "Create an inbox (administrators)", response: Inbox }), requireAdministrator, idempotent(), validate("json", InboxCreate), async (c) => {
    const body = c.req.valid("json");
    const channel = { ...toChannelInput(body.channel), type: body.channel.type };
    const record = await createInbox(accountScope(c), { ...toInboxInput(body), name: body.name }, channel);
    return c.json(inboxAnswer(c, record));
  })
  .get("/:id/assignable_agents", doc({ summary: "List the agents who may be assigned in an inbox", response: payloadOf(Agent.array()) }), validate("param", IdParam), async (c) => {
    const agents = await listAssignableAgents(accountScope(c), [c.req.valid("param").id]);
    return c.json({ payload: agentsView(agents, c.var.account.id, await onlineInAccount(c)) });
  })
  .get("/:id/agent_bot", doc({ summary: "Show an inbox's agent bot", response: InboxAgentBot }), validate("param", IdParam), async (c) => {
    const record = await getInboxAgentBot(accountScope(c), c.req.valid("param").id);
    const isAdministrator = c.var.role === "administrator";
    return c.json({ agent_bot: record && accountAgentBotView(record, { accountId: c.var.account.id, isAdministrator }) });
  })
  .post("/:id/set_agent_bot", doc({ summary: "Connect or disconnect an inbox's agent bot", response: Empty }), requireAdministrator, validate("param", IdParam), validate("json", SetAgentBot), async (c) => {
    await setInboxAgentBot(accountScope(c), c.req.valid("param").id, c.req.valid("json").agent_bot ?? null);
    return c.json({});
  })
  .get("/:id", doc({ summary: "Show an inbox", response: Inbox }), validate("param", IdParam), async (c) => c.json(inboxAnswer(c, await getInbox(accountScope(c), c.req.valid("param").id))))
  .on(["PATCH", "PUT"], "/:id", doc({ summary: "Update an inbox", response: Inbox }), requireAdministrator, validate("param", IdParam), validate("json", InboxUpdate), async (c) => {
    const body = c.req.valid("json");
    const record = await updateInbox(accountScope(c), c.req.valid("param").id, toInboxInput(body), toChannelInput(body.channel));
    return c.json(inboxAnswer(c, record));
  })
  .delete("/:id", doc({ summary: "Delete an inbox", response: InboxDeleted }), requireAdministrator, validate("param", IdParam), async (c) => {
    await deleteInbox(accountScope(c), c.req.valid("param").id);
    return c.json({ message: "The inbox has been deleted." });
  })
  // what the API channel's webhook_url was sent (administrators)
  .route("/", deliveryLogApi("api_inbox"));
