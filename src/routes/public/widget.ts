/**
 * /public/api/v1/inboxes/{inbox_identifier}: the public client API a chat widget (or any client of an
 * API inbox) uses without a key. The visitor is addressed by the inbox identifier and the source id
 * of its contact inbox; every id in the path is checked along that chain (src/domain/widget/chain.ts).
 */
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppContext, AppEnv } from "../../http/app-env";
import { publicScope } from "../../http/scopes";
import { validate } from "../../http/validate";
import { acceptFiles, filesNamed, routeBody } from "../../http/body";
import { MAX_FILES_BODY_BYTES, checkUploads } from "../../domain/attachments/uploads";
import { invalidField } from "../../domain/kernel/errors";
import { findContactChain, findConversationChain, findPublicInbox } from "../../domain/widget/chain";
import { createPublicContact, showPublicContact, updatePublicContact, type PublicContactInput } from "../../domain/widget/contacts";
import {
  createPublicConversation,
  createPublicMessage,
  listPublicConversations,
  listPublicMessages,
  markPublicConversationSeen,
  resolvePublicConversation,
  showPublicConversation,
  submitMessageValues,
  togglePublicTyping,
  triggerWidgetEvent,
} from "../../domain/widget/conversations";
import {
  ContactPath,
  ConversationPath,
  InboxPath,
  MessagePath,
  PublicContactCreate,
  PublicContactShowQuery,
  PublicContactUpdate,
  PublicConversationCreate,
  PublicMessageCreate,
  PublicMessageListQuery,
  PublicMessageUpdate,
  TypingStatus,
  WidgetEvent,
  PublicContact,
  PublicContactRecord,
  PublicConversation,
  PublicEventAnswer,
  PublicInbox,
  PublicMessage,
  PublicTypingAnswer,
} from "../../schemas/widget";
import { publicContactRecordView, publicContactView, publicConversationView, publicInboxView, publicMessageView } from "../../views/widget";
import { widgetCors } from "./cors";
import { listWidgetCampaigns, triggerCampaign } from "../../domain/campaigns/widget";
import { WidgetCampaign, WidgetCampaignsQuery } from "../../schemas/campaigns";
import { widgetCampaignView } from "../../views/campaigns";
import { Id } from "../../schemas/common";
import { contactSocket } from "./live";
import { idempotent } from "../../http/idempotency";
import { clientAddress, failedWith, limitFailures, rateLimited } from "../../http/rate-limit";
import { shardOfPublicKey } from "../../http/public-route";
import { doc } from "../../http/openapi";
import { Empty } from "../../schemas/responses";

type ContactBody = {
  name?: string;
  email?: string | null;
  phone_number?: string | null;
  identifier?: string | null;
  identifier_hash?: string;
  avatar_url?: string | null;
  additional_attributes?: Record<string, unknown>;
  custom_attributes?: Record<string, unknown>;
  source_id?: string;
};

/** A contact body (the public API's, the website widget's) as the domain's input. */
export const contactInput = (body: ContactBody): PublicContactInput => ({
  name: body.name,
  email: body.email,
  phoneNumber: body.phone_number,
  identifier: body.identifier,
  identifierHash: body.identifier_hash,
  avatarUrl: body.avatar_url,
  additionalAttributes: body.additional_attributes,
  customAttributes: body.custom_attributes,
  sourceId: body.source_id,
});

const isBadHash = failedWith("invalid_identifier_hash");

/**
 * An identifier_hash is a secret a site computes: a request that sends one has it checked only as one
 * of the failures its address may spend on the inbox (`secret_failures`, taken before the check). The
 * inbox is the path's, or the website widget's `?website_token=`.
 */
export const checkingHash = <T>(c: AppContext, hash: string | undefined, attempt: () => Promise<T>): Promise<T> =>
  hash === undefined
    ? attempt()
    : limitFailures(c, "secret_failures", [`address:${clientAddress(c)}|inbox:${c.req.param("inbox_identifier") ?? c.req.query("website_token")}`], isBadHash, attempt);

/** The widget event Chatwoot's widget sends when it shows a campaign (`event_info.campaign_id`). */
const CAMPAIGN_TRIGGERED = "campaign.triggered";

const CONVERSATION = "/:inbox_identifier/contacts/:contact_identifier/conversations/:conversation_id";

/**
 * Inbox identifiers this isolate has recently found, so that the check below costs no round trip for a
 * widget that keeps writing to its inbox (the route reads the inbox again with its chain anyway, so a
 * stale entry for an inbox deleted since only lets a body be parsed before that route's 404).
 */
const KNOWN_INBOX_TTL_MS = 60_000;
const KNOWN_INBOXES_MAX = 10_000;
const knownInboxes = new Map<string, number>();

function rememberInbox(identifier: string) {
  if (knownInboxes.size >= KNOWN_INBOXES_MAX) knownInboxes.clear();
  knownInboxes.set(identifier, Date.now() + KNOWN_INBOX_TTL_MS);
}

const recentlyFound = (identifier: string) => (knownInboxes.get(identifier) ?? 0) > Date.now();

/**
 * A request that carries a body is answered 404 for an unknown inbox before `routeBody` reads the body
 * (src/http/body.ts): without this, an anonymous caller could make the Worker parse a large body for an
 * inbox that does not exist. The route looks the inbox up again with the rest of its chain.
 */
const inboxFoundBeforeBody = createMiddleware<AppEnv>(async (c, next) => {
  const identifier = c.req.param("inbox_identifier") ?? "";
  if (c.req.raw.body !== null && !recentlyFound(identifier)) {
    await findPublicInbox(publicScope(c), identifier);
    rememberInbox(identifier);
  }
  await next();
});

export const publicInboxesApi = new Hono<AppEnv>()
  // "/:inbox_identifier/*" also matches "/:inbox_identifier" itself: each of these runs once per request.
  // The limiter counts the route's own policy too (public_create), so both come before the body.
  .use("/:inbox_identifier/*", rateLimited("public_api"), shardOfPublicKey("inbox", "inbox_identifier"), widgetCors, inboxFoundBeforeBody, routeBody)
  .get("/:inbox_identifier", doc({ summary: "Show the inbox as a widget sees it", response: PublicInbox }), validate("param", InboxPath), async (c) => {
    const { inbox, widget } = await findPublicInbox(publicScope(c), c.req.valid("param").inbox_identifier);
    return c.json(publicInboxView(inbox, widget));
  })

  // ---------------------------------------------------------------- contacts
  .post("/:inbox_identifier/contacts", doc({ summary: "Create a visitor (a contact of the inbox)", response: PublicContact }), rateLimited("public_create"), idempotent(), validate("param", InboxPath), validate("json", PublicContactCreate), async (c) => {
    const body = c.req.valid("json");
    const contact = await checkingHash(c, body.identifier_hash, () => createPublicContact(publicScope(c), c.req.valid("param").inbox_identifier, contactInput(body)));
    return c.json(publicContactView(contact));
  })
  .get("/:inbox_identifier/contacts/:contact_identifier", doc({ summary: "Show the visitor", response: PublicContact }), validate("param", ContactPath), validate("query", PublicContactShowQuery), async (c) => {
    const { inbox_identifier, contact_identifier } = c.req.valid("param");
    const hash = c.req.valid("query").identifier_hash;
    return c.json(publicContactView(await checkingHash(c, hash, () => showPublicContact(publicScope(c), inbox_identifier, contact_identifier, hash))));
  })
  .patch("/:inbox_identifier/contacts/:contact_identifier", doc({ summary: "Update the visitor", response: PublicContactRecord }), rateLimited("public_update"), validate("param", ContactPath), validate("json", PublicContactUpdate), async (c) => {
    const { inbox_identifier, contact_identifier } = c.req.valid("param");
    const body = c.req.valid("json");
    const contact = await checkingHash(c, body.identifier_hash, () => updatePublicContact(publicScope(c), inbox_identifier, contact_identifier, contactInput(body)));
    return c.json(publicContactRecordView(contact));
  })
  .post("/:inbox_identifier/contacts/:contact_identifier/events", doc({ summary: "Report a widget event (webwidget_triggered; campaign.triggered opens the campaign's conversation)", response: PublicEventAnswer }), validate("param", ContactPath), validate("json", WidgetEvent), async (c) => {
    const { inbox_identifier, contact_identifier } = c.req.valid("param");
    const chain = await findContactChain(publicScope(c), inbox_identifier, contact_identifier);
    const { name, event_info = {} } = c.req.valid("json");
    if (name === CAMPAIGN_TRIGGERED) {
      // Chatwoot's widget reports a campaign it showed: the campaign becomes the visitor's first conversation
      const campaignId = Id.safeParse(event_info.campaign_id);
      if (!campaignId.success) throw invalidField("event_info.campaign_id", "must be the id of one of the inbox's campaigns", "required");
      const record = await triggerCampaign(publicScope(c), chain, { campaignId: campaignId.data, eventInfo: event_info });
      return c.json({ event: CAMPAIGN_TRIGGERED, name, conversation_id: record?.conversation.displayId ?? null });
    }
    await triggerWidgetEvent(publicScope(c), chain, { name, eventInfo: event_info });
    return c.json({ event: "webwidget_triggered", name });
  })

  // ---------------------------------------------------------------- campaigns
  .get("/:inbox_identifier/campaigns", doc({ summary: "List the campaigns the widget may show (on the page `url`)", response: WidgetCampaign.array() }), validate("param", InboxPath), validate("query", WidgetCampaignsQuery), async (c) => {
    const found = await findPublicInbox(publicScope(c), c.req.valid("param").inbox_identifier);
    return c.json((await listWidgetCampaigns(publicScope(c), found, c.req.valid("query").url)).map(widgetCampaignView));
  })

  // ---------------------------------------------------------------- conversations
  .get("/:inbox_identifier/contacts/:contact_identifier/conversations", doc({ summary: "List the visitor's conversations", response: PublicConversation.array() }), validate("param", ContactPath), async (c) => {
    const { inbox_identifier, contact_identifier } = c.req.valid("param");
    const chain = await findContactChain(publicScope(c), inbox_identifier, contact_identifier);
    return c.json((await listPublicConversations(publicScope(c), chain)).map(publicConversationView));
  })
  .post("/:inbox_identifier/contacts/:contact_identifier/conversations", doc({ summary: "Start a conversation as the visitor", response: PublicConversation }), rateLimited("public_create"), idempotent(), validate("param", ContactPath), validate("json", PublicConversationCreate), async (c) => {
    const { inbox_identifier, contact_identifier } = c.req.valid("param");
    const chain = await findContactChain(publicScope(c), inbox_identifier, contact_identifier);
    const created = await createPublicConversation(publicScope(c), chain, { customAttributes: c.req.valid("json").custom_attributes });
    return c.json(publicConversationView(created));
  })
  .get(CONVERSATION, doc({ summary: "Show the visitor's conversation", response: PublicConversation }), validate("param", ConversationPath), async (c) => {
    const chain = await conversationChain(publicScope(c), c.req.valid("param"));
    return c.json(publicConversationView(await showPublicConversation(publicScope(c), chain)));
  })
  .post(`${CONVERSATION}/toggle_status`, doc({ summary: "Resolve the visitor's conversation", response: PublicConversation }), validate("param", ConversationPath), async (c) => {
    const chain = await conversationChain(publicScope(c), c.req.valid("param"));
    return c.json(publicConversationView(await resolvePublicConversation(publicScope(c), chain)));
  })
  .post(`${CONVERSATION}/toggle_typing`, doc({ summary: "Show or stop the visitor typing", response: PublicTypingAnswer }), validate("param", ConversationPath), validate("query", TypingStatus), validate("json", TypingStatus), async (c) => {
    const status = c.req.valid("json").typing_status ?? c.req.valid("query").typing_status;
    if (!status) throw invalidField("typing_status", "is required (on or off, in the body or the query string)", "required");
    const chain = await conversationChain(publicScope(c), c.req.valid("param"));
    const result = await togglePublicTyping(publicScope(c), chain, status === "on");
    return c.json({ conversation_id: chain.conversation.displayId, typing_status: result.typingStatus });
  })
  .post(`${CONVERSATION}/update_last_seen`, doc({ summary: "Mark the conversation seen by the visitor", response: Empty }), validate("param", ConversationPath), async (c) => {
    const chain = await conversationChain(publicScope(c), c.req.valid("param"));
    await markPublicConversationSeen(publicScope(c), chain);
    return c.json({});
  })
  .get(`${CONVERSATION}/live`, doc({ summary: "Open the visitor's live-room WebSocket", status: 101 }), validate("param", ConversationPath), contactSocket)

  // ---------------------------------------------------------------- messages
  .get(`${CONVERSATION}/messages`, doc({ summary: "List the conversation's messages the visitor may see", response: PublicMessage.array() }), validate("param", ConversationPath), validate("query", PublicMessageListQuery), async (c) => {
    const chain = await conversationChain(publicScope(c), c.req.valid("param"));
    const shown = await listPublicMessages(publicScope(c), chain, { before: c.req.valid("query").before });
    return c.json(shown.map((m) => publicMessageView(m, chain.conversation.displayId)));
  })
  .post(`${CONVERSATION}/messages`, doc({ summary: "Send a message as the visitor", response: PublicMessage }), idempotent(), acceptFiles({ maxBodyBytes: MAX_FILES_BODY_BYTES }), validate("param", ConversationPath), validate("json", PublicMessageCreate), async (c) => {
    const files = await checkUploads(publicScope(c), filesNamed(c, "attachments"));
    const chain = await conversationChain(publicScope(c), c.req.valid("param"));
    const { content, echo_id } = c.req.valid("json");
    const message = await createPublicMessage(publicScope(c), chain, { content, echoId: echo_id, files });
    return c.json(publicMessageView(message, chain.conversation.displayId));
  })
  .patch(`${CONVERSATION}/messages/:message_id`, doc({ summary: "Answer a form or card message (submitted values)", response: PublicMessage }), validate("param", MessagePath), validate("json", PublicMessageUpdate), async (c) => {
    const params = c.req.valid("param");
    const chain = await conversationChain(publicScope(c), params);
    const message = await submitMessageValues(publicScope(c), chain, params.message_id, c.req.valid("json").submitted_values);
    return c.json(publicMessageView(message, chain.conversation.displayId));
  });

function conversationChain(scope: Parameters<typeof findConversationChain>[0], p: { inbox_identifier: string; contact_identifier: string; conversation_id: number }) {
  return findConversationChain(scope, p.inbox_identifier, p.contact_identifier, p.conversation_id);
}
