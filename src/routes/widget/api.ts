/**
 * /api/v1/widget/*: the website widget's API, with Chatwoot's parameters, shapes and status codes
 * (docs/widget.md). The inbox is named by `?website_token=` and the visitor by `X-Auth-Token` (the
 * token the /widget page issued); a token that does not verify, or names a visitor of another inbox, is
 * a 404, like an unknown website token, and a suspended account is a 401. The widget names no
 * conversation: each route acts on the visitor's current one. Every route goes through the domain
 * functions of the public API (src/domain/widget), so the rules, events and webhooks are the same.
 */
import type { Context } from "hono";
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppContext, AppEnv } from "../../http/app-env";
import { acceptFiles, filesNamed, routeBody } from "../../http/body";
import { doc } from "../../http/openapi";
import { shardOfPublicKey } from "../../http/public-route";
import { enforce, rateLimited } from "../../http/rate-limit";
import { routeMarks, routeMatched } from "../../http/route-flags";
import { publicScope } from "../../http/scopes";
import { validate } from "../../http/validate";
import { issueWidgetToken, readWidgetToken } from "../../http/widget-token";
import { MAX_FILES_BODY_BYTES, checkUploads } from "../../domain/attachments/uploads";
import { invalidField } from "../../domain/kernel/errors";
import { Id } from "../../schemas/common";
import { Empty } from "../../schemas/responses";
import { WidgetCampaign } from "../../schemas/campaigns";
import { listWidgetCampaigns, triggerCampaign } from "../../domain/campaigns/widget";
import { updatePublicContact } from "../../domain/widget/contacts";
import {
  createPublicMessage,
  listPublicMessages,
  markPublicConversationSeen,
  submitEmailAnswer,
  submitMessageValues,
  togglePublicTyping,
  triggerWidgetEvent,
} from "../../domain/widget/conversations";
import { setWebsiteUser } from "../../domain/widget/set-user";
import {
  type VisitContext,
  conversationOfVisitorMessage,
  currentConversation,
  currentOrNewConversation,
  endVisit,
  labelVisit,
  mailVisitTranscript,
  openVisit,
  removeVisitAttributes,
  removeVisitorAttributes,
  replaceVisitAttributes,
  requireCurrentConversation,
  websiteAgents,
} from "../../domain/widget/visits";
import { type Website, findWebsite, findWebsiteVisitor, openWebsiteVisitor } from "../../domain/widget/website";
import type { ContactChain } from "../../domain/widget/chain";
import type { PublicContact } from "../../domain/widget/rows";
import { onlineUserIds } from "../../realtime/account-feed";
import {
  WidgetConfig,
  WidgetContact,
  WidgetContactAnswer,
  WidgetContactAttributeKeys,
  WidgetContactUpdate,
  WidgetContactUpdated,
  WidgetConversation,
  WidgetConversationAttributeKeys,
  WidgetConversationAttributes,
  WidgetConversationCreate,
  WidgetConversationRecord,
  WidgetDirectUpload,
  WidgetEventBody,
  WidgetInboxMembers,
  WidgetLabelBody,
  WidgetLabelPath,
  WidgetMessage,
  WidgetMessageCreate,
  WidgetMessagePath,
  WidgetMessageUpdate,
  WidgetMessages,
  WidgetMessagesQuery,
  WidgetQuery,
  WidgetSetUser,
  WidgetTyping,
} from "../../schemas/widget-api";
import { PublicContactRecord } from "../../schemas/widget";
import { widgetCampaignView } from "../../views/campaigns";
import { widgetConfigView } from "../../views/widget-page";
import {
  widgetContactRecordView,
  widgetContactUpdatedView,
  widgetContactView,
  widgetConversationRecordView,
  widgetConversationView,
  widgetInboxMembersView,
  widgetMessageView,
  widgetMessagesView,
} from "../../views/widget-api";
import { checkingHash, contactInput } from "../public/widget";

const NO_VISITOR = Symbol("widgetNoVisitor");

/** Declares a route that serves the inbox without a visitor (Chatwoot's inbox_members, campaigns, config). */
const withoutVisitor = () => Object.assign(createMiddleware<AppEnv>(async (_c, next) => next()), { [NO_VISITOR]: true });

type Visit = { website: Website; chain: ContactChain };
const visits = new WeakMap<Context, Promise<Visit>>();
const websites = new WeakMap<Context, Promise<Website>>();

const websiteToken = (c: AppContext) => c.req.query("website_token") ?? "";

/** The request's website (read once a request). */
function websiteOf(c: AppContext): Promise<Website> {
  let found = websites.get(c);
  if (!found) websites.set(c, (found = findWebsite(publicScope(c), websiteToken(c))));
  return found;
}

/** The request's visitor: the website and the contact inbox its token proves (read once a request). */
function visitOf(c: AppContext): Promise<Visit> {
  let found = visits.get(c);
  if (!found) {
    found = readWidgetToken(c.env, c.req.header("x-auth-token")).then((claim) => findWebsiteVisitor(publicScope(c), websiteToken(c), claim));
    visits.set(c, found);
  }
  return found;
}

/**
 * The widget's door: the website (and, unless the route serves the inbox alone, the visitor) is found
 * before the body is read, so an unknown token, another inbox's visitor or a suspended account is
 * refused having read nothing.
 */
const widgetDoor = createMiddleware<AppEnv>(async (c, next) => {
  if (routeMatched(c)) {
    if (!websiteToken(c)) throw invalidField("website_token", "is required", "required");
    await (routeMarks(c, NO_VISITOR).length > 0 ? websiteOf(c) : visitOf(c));
  }
  await next();
});

/** What the widget's browser tells of itself when it starts a conversation (Chatwoot's additional attributes). */
function visitContext(c: AppContext, message: { timestamp?: string; referer_url?: string }): VisitContext {
  const language = c.req.header("accept-language")?.split(",")[0]?.split(";")[0]?.trim().slice(0, 35) || null;
  const agent = c.req.header("user-agent")?.slice(0, 512) ?? "";
  return { browserLanguage: language, browser: agent ? { user_agent: agent } : {}, initiatedAt: message.timestamp ?? null, referer: message.referer_url ?? null };
}

/** The contact of a public update, as the visitor's chain. */
const chainOf = (chain: ContactChain, updated: PublicContact): ContactChain => ({ ...chain, contact: updated.contact, contactInbox: { ...chain.contactInbox, hmacVerified: updated.hmacVerified } });

const CAMPAIGN_TRIGGERED = "campaign.triggered";

export const widgetApi = new Hono<AppEnv>()
  .use("*", rateLimited("public_api"), shardOfPublicKey("inbox", "website_token", "query"), widgetDoor, routeBody)

  // ---------------------------------------------------------------- configuration and inbox
  .post("/config", doc({ summary: "The widget's configuration and a new visitor token (for a widget outside the /widget page)", response: WidgetConfig }), withoutVisitor(), validate("query", WidgetQuery), async (c) => {
    const claim = await readWidgetToken(c.env, c.req.header("x-auth-token"));
    // a contact made here (no token, or one that names no visitor of this inbox) counts against the page's allowance
    const { website, chain } = await openWebsiteVisitor(publicScope(c), c.req.valid("query").website_token, claim, () => enforce(c, "widget_page"));
    const authToken = await issueWidgetToken(c.env, { sourceId: chain.contactInbox.sourceId, inboxId: website.inbox.id });
    return c.json(widgetConfigView(website, chain, authToken, new URL(c.req.url).origin, c.env.MAXIMUM_FILE_UPLOAD_SIZE));
  })
  .get("/inbox_members", doc({ summary: "The inbox's agents and whether they are online", response: WidgetInboxMembers }), withoutVisitor(), validate("query", WidgetQuery), async (c) => {
    const website = await websiteOf(c);
    const [agents, online] = await Promise.all([websiteAgents(publicScope(c), website), onlineUserIds(c.env, website.inbox.accountId)]);
    return c.json(widgetInboxMembersView(agents, online));
  })
  .get("/campaigns", doc({ summary: "The inbox's campaigns the widget may show", response: WidgetCampaign.array() }), withoutVisitor(), validate("query", WidgetQuery), async (c) => {
    const website = await websiteOf(c);
    return c.json((await listWidgetCampaigns(publicScope(c), website)).map(widgetCampaignView));
  })

  // ---------------------------------------------------------------- the visitor's contact
  .get("/contact", doc({ summary: "The visitor's contact", response: WidgetContact }), validate("query", WidgetQuery), async (c) => {
    return c.json(widgetContactView((await visitOf(c)).chain));
  })
  .patch("/contact", doc({ summary: "Update the visitor's contact (the public contact rules)", response: WidgetContactUpdated }), rateLimited("public_update"), validate("query", WidgetQuery), validate("json", WidgetContactUpdate), async (c) => {
    const { chain } = await visitOf(c);
    const body = c.req.valid("json");
    const input = contactInput(body);
    const updated = await checkingHash(c, body.identifier_hash, () => updatePublicContact(publicScope(c), chain.inbox.identifier, chain.contactInbox.sourceId, input));
    return c.json(widgetContactUpdatedView(chainOf(chain, updated)));
  })
  .patch("/contact/set_user", doc({ summary: "Tell who the visitor is (setUser); a new widget_auth_token when the visitor became another contact", response: WidgetContactUpdated }), rateLimited("public_update"), validate("query", WidgetQuery), validate("json", WidgetSetUser), async (c) => {
    const { website, chain } = await visitOf(c);
    const body = c.req.valid("json");
    const input = contactInput(body);
    const result = await checkingHash(c, body.identifier_hash, () => setWebsiteUser(publicScope(c), website, chain, input));
    const token = result.renewed ? await issueWidgetToken(c.env, { sourceId: result.chain.contactInbox.sourceId, inboxId: website.inbox.id }) : undefined;
    return c.json(widgetContactUpdatedView(result.chain, token));
  })
  .post("/contact/destroy_custom_attributes", doc({ summary: "Remove custom attributes from the visitor's contact", response: PublicContactRecord }), validate("query", WidgetQuery), validate("json", WidgetContactAttributeKeys), async (c) => {
    const { chain } = await visitOf(c);
    return c.json(widgetContactRecordView(await removeVisitorAttributes(publicScope(c), chain, c.req.valid("json").custom_attributes)));
  })

  // ---------------------------------------------------------------- the current conversation
  .get("/conversations", doc({ summary: "The visitor's current conversation ({} without one)", response: WidgetConversation }), validate("query", WidgetQuery), async (c) => {
    const current = await currentConversation(publicScope(c), (await visitOf(c)).chain);
    return c.json(widgetConversationView(current?.conversation ?? null));
  })
  .post("/conversations", doc({ summary: "Start a new conversation (the pre-chat form) with its first message", response: WidgetConversationRecord }), rateLimited("public_create"), validate("query", WidgetQuery), validate("json", WidgetConversationCreate), async (c) => {
    const { chain } = await visitOf(c);
    const scope = publicScope(c);
    const { contact, message, custom_attributes } = c.req.valid("json");
    let visitor = chain;
    if (contact) {
      // Chatwoot keeps the contact's name once it has an e-mail, a phone or an identifier
      const named = !chain.contact.email && !chain.contact.phoneNumber && !chain.contact.identifier;
      const updated = await updatePublicContact(scope, chain.inbox.identifier, chain.contactInbox.sourceId, {
        email: contact.email,
        phoneNumber: contact.phone_number,
        name: named ? contact.name || contact.email?.split("@")[0] : undefined,
        customAttributes: contact.custom_attributes,
      }, "when_identifying");
      visitor = chainOf(chain, updated);
    }
    const opened = await openVisit(scope, visitor, { context: visitContext(c, message), customAttributes: custom_attributes });
    const first = await createPublicMessage(scope, opened, { content: message.content });
    return c.json(widgetConversationRecordView(opened.conversation, visitor, [first]));
  })
  .post("/conversations/update_last_seen", doc({ summary: "The visitor has read the current conversation", response: Empty }), validate("query", WidgetQuery), async (c) => {
    const current = await currentConversation(publicScope(c), (await visitOf(c)).chain);
    if (current) await markPublicConversationSeen(publicScope(c), current);
    return c.json({});
  })
  .post("/conversations/toggle_typing", doc({ summary: "Show or stop the visitor typing in the current conversation", response: Empty }), validate("query", WidgetQuery), validate("json", WidgetTyping), async (c) => {
    const current = await requireCurrentConversation(publicScope(c), (await visitOf(c)).chain);
    await togglePublicTyping(publicScope(c), current, c.req.valid("json").typing_status === "on");
    return c.json({});
  })
  .post("/conversations/transcript", doc({ summary: "Mail the current conversation's transcript to the visitor's e-mail", response: Empty }), validate("query", WidgetQuery), async (c) => {
    await mailVisitTranscript(publicScope(c), (await visitOf(c)).chain);
    return c.json({});
  })
  .get("/conversations/toggle_status", doc({ summary: "End (resolve) the current conversation, where the inbox allows it", response: Empty }), validate("query", WidgetQuery), async (c) => {
    const { website, chain } = await visitOf(c);
    await endVisit(publicScope(c), website, chain);
    return c.json({});
  })
  .post("/conversations/set_custom_attributes", doc({ summary: "Replace the current conversation's custom attributes", status: 204 }), validate("query", WidgetQuery), validate("json", WidgetConversationAttributes), async (c) => {
    const current = await requireCurrentConversation(publicScope(c), (await visitOf(c)).chain);
    await replaceVisitAttributes(publicScope(c), current, c.req.valid("json").custom_attributes);
    return c.body(null, 204);
  })
  .post("/conversations/destroy_custom_attributes", doc({ summary: "Remove custom attributes from the current conversation", response: WidgetConversationRecord }), validate("query", WidgetQuery), validate("json", WidgetConversationAttributeKeys), async (c) => {
    const current = await requireCurrentConversation(publicScope(c), (await visitOf(c)).chain);
    const conversation = await removeVisitAttributes(publicScope(c), current, c.req.valid("json").custom_attribute);
    return c.json(widgetConversationRecordView(conversation, current, []));
  })

  // ---------------------------------------------------------------- messages
  .get("/messages", doc({ summary: "The current conversation's messages (before / after a message id)", response: WidgetMessages }), validate("query", WidgetMessagesQuery), async (c) => {
    const { before, after } = c.req.valid("query");
    const current = await currentConversation(publicScope(c), (await visitOf(c)).chain);
    const shown = current ? await listPublicMessages(publicScope(c), current, { before, after }) : [];
    return c.json(widgetMessagesView(current?.conversation ?? null, shown));
  })
  .post("/messages", doc({ summary: "Send a message (the current conversation, opened when there is none)", response: WidgetMessage }), acceptFiles({ maxBodyBytes: MAX_FILES_BODY_BYTES }), validate("query", WidgetQuery), validate("json", WidgetMessageCreate), async (c) => {
    const { chain } = await visitOf(c);
    const scope = publicScope(c);
    const files = await checkUploads(scope, filesNamed(c, "message[attachments]"), "message.attachments");
    const { message } = c.req.valid("json");
    if (!message.content && files.length === 0) throw invalidField("message.content", "is required without attachments", "required");
    const current = await currentOrNewConversation(scope, chain, visitContext(c, message));
    const sent = await createPublicMessage(scope, current, { content: message.content, echoId: message.echo_id, files, inReplyTo: message.reply_to });
    return c.json(widgetMessageView(sent, current.conversation));
  })
  .patch("/messages/:id", doc({ summary: "Answer a message: an e-mail (input_email) or submitted values (forms, options, CSAT)", response: WidgetContactAnswer }), validate("param", WidgetMessagePath), validate("query", WidgetQuery), validate("json", WidgetMessageUpdate), async (c) => {
    const { chain } = await visitOf(c);
    const scope = publicScope(c);
    const { contact, message } = c.req.valid("json");
    const conversation = await conversationOfVisitorMessage(scope, chain, c.req.valid("param").id);
    let visitor = chain;
    if (contact?.email) {
      await submitEmailAnswer(scope, conversation, c.req.valid("param").id, contact.email);
      visitor = chainOf(chain, await updatePublicContact(scope, chain.inbox.identifier, chain.contactInbox.sourceId, { email: contact.email }, "when_identifying"));
    } else if (message) {
      await submitMessageValues(scope, conversation, c.req.valid("param").id, message.submitted_values);
    } else {
      throw invalidField("message.submitted_values", "is required (or contact.email for an e-mail message)", "required");
    }
    return c.json({ contact: widgetContactRecordView(visitor) });
  })

  // ---------------------------------------------------------------- events and labels
  .post("/events", doc({ summary: "Report the widget opened (webwidget.triggered) or a campaign shown (campaign.triggered)", status: 204 }), validate("query", WidgetQuery), validate("json", WidgetEventBody), async (c) => {
    const { chain } = await visitOf(c);
    const { name, event_info = {} } = c.req.valid("json");
    const language = c.req.header("accept-language")?.split(",")[0]?.split(";")[0]?.trim().slice(0, 35) || null;
    const eventInfo = { ...event_info, widget_language: c.req.valid("query").locale ?? null, browser_language: language };
    if (name === CAMPAIGN_TRIGGERED) {
      const campaignId = Id.safeParse(event_info.campaign_id);
      if (!campaignId.success) throw invalidField("event_info.campaign_id", "must be the id of one of the inbox's campaigns", "required");
      await triggerCampaign(publicScope(c), chain, { campaignId: campaignId.data, eventInfo });
    } else {
      await triggerWidgetEvent(publicScope(c), chain, { name, eventInfo });
    }
    return c.body(null, 204);
  })
  .post("/labels", doc({ summary: "Label the current conversation with one of the account's labels", status: 204 }), validate("query", WidgetQuery), validate("json", WidgetLabelBody), async (c) => {
    await labelVisit(publicScope(c), (await visitOf(c)).chain, c.req.valid("json").label, true);
    return c.body(null, 204);
  })
  .delete("/labels/:label", doc({ summary: "Take a label off the current conversation", status: 204 }), validate("param", WidgetLabelPath), validate("query", WidgetQuery), async (c) => {
    await labelVisit(publicScope(c), (await visitOf(c)).chain, c.req.valid("param").label, false);
    return c.body(null, 204);
  })

  // ---------------------------------------------------------------- direct uploads
  .post("/direct_uploads", doc({ summary: "Direct uploads are not offered (DIRECT_UPLOADS_ENABLED is false): files go with the message, multipart", response: Empty }), validate("query", WidgetQuery), validate("json", WidgetDirectUpload), async () => {
    throw invalidField("blob", "direct uploads are not offered here (globalConfig.DIRECT_UPLOADS_ENABLED is false): send files as message[attachments][] with the message", "direct_uploads_disabled");
  });
