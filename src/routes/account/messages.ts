import { Hono } from "hono";
import { createMessage, deleteMessage, listMessages, type MessageResult, retryMessage, translateMessage, updateMessageStatus } from "../../domain/conversations/messages";
import { type AppEnv } from "../../http/app-env";
import { accountScope } from "../../http/scopes";
import { allowBots } from "../../http/auth";
import { linkNext, nextCursorMeta } from "../../http/paging";
import { acceptFiles, filesNamed } from "../../http/body";
import { MAX_FILES_BODY_BYTES, checkUploads } from "../../domain/attachments/uploads";
import { validate } from "../../http/validate";
import { ConversationParam } from "../../schemas/conversations";
import { MessageCreate, MessageListQuery, MessageParam, MessageUpdate } from "../../schemas/messages";
import { messageListView, messageResultView } from "../../views/messages";
import { idempotent } from "../../http/idempotency";
import { doc } from "../../http/openapi";
import { Message } from "../../schemas/responses";
import { z } from "zod";

/** The message's content attributes with the addresses given beside them (Chatwoot keeps them there). */
function withAddresses(body: z.infer<typeof MessageCreate>) {
  const { to_emails, cc_emails, bcc_emails } = body;
  const addresses = { ...(to_emails ? { to_emails } : {}), ...(cc_emails ? { cc_emails } : {}), ...(bcc_emails ? { bcc_emails } : {}) };
  return Object.keys(addresses).length > 0 ? { ...body.content_attributes, ...addresses } : body.content_attributes;
}

/** /api/v1/accounts/:account_id/conversations/:conversation_id/messages */
export const messagesApi = new Hono<AppEnv>()
  .get("/", doc({ summary: "List a conversation's messages (20 at a time, before or after an id)", response: z.looseObject({ payload: z.array(Message) }) }), validate("param", ConversationParam), validate("query", MessageListQuery), async (c) => {
    const list = await listMessages(accountScope(c), c.req.valid("param").conversation_id, c.req.valid("query"));
    const view = messageListView(list);
    linkNext(c, list.nextCursor);
    return c.json({ ...view, meta: { ...view.meta, ...nextCursorMeta(list.nextCursor) } });
  })
  .post("/", doc({ summary: "Create a message", response: Message }), allowBots(), idempotent(), acceptFiles({ maxBodyBytes: MAX_FILES_BODY_BYTES }), validate("param", ConversationParam), validate("json", MessageCreate), async (c) => {
    const body = c.req.valid("json");
    const files = await checkUploads(accountScope(c), filesNamed(c, "attachments"));
    const result: MessageResult = await createMessage(accountScope(c), c.req.valid("param").conversation_id, {
      content: body.content,
      files,
      messageType: body.message_type,
      private: body.private,
      contentType: body.content_type,
      contentAttributes: withAddresses(body),
      campaignId: body.campaign_id,
      templateParams: body.template_params,
      echoId: body.echo_id,
      sourceId: body.source_id,
      senderType: body.sender_type,
      senderId: body.sender_id,
    });
    return c.json(messageResultView(result));
  })
  .on(["PATCH", "PUT"], "/:message_id", doc({ summary: "Update a message's delivery status", response: Message }), validate("param", MessageParam), validate("json", MessageUpdate), async (c) => {
    const { conversation_id, message_id } = c.req.valid("param");
    const body = c.req.valid("json");
    const result = await updateMessageStatus(accountScope(c), conversation_id, message_id, { status: body.status, externalError: body.external_error });
    return c.json(messageResultView(result));
  })
  .delete("/:message_id", doc({ summary: "Delete a message (keeps it, blanked)", response: Message }), validate("param", MessageParam), async (c) => {
    const { conversation_id, message_id } = c.req.valid("param");
    return c.json(messageResultView(await deleteMessage(accountScope(c), conversation_id, message_id)));
  })
  .post("/:message_id/retry", doc({ summary: "Send a failed message again (422 not_failed for any other status)", response: Message }), validate("param", MessageParam), async (c) => {
    const { conversation_id, message_id } = c.req.valid("param");
    return c.json(messageResultView(await retryMessage(accountScope(c), conversation_id, message_id)));
  })
  .post("/:message_id/translate", doc({ summary: "Translate a message: not offered", description: "Answers 422 `no_translation_provider` for a message that exists: this service has no translation provider." }), validate("param", MessageParam), async (c) => {
    const { conversation_id, message_id } = c.req.valid("param");
    return await translateMessage(accountScope(c), conversation_id, message_id);
  });
