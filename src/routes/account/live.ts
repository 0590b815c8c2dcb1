/**
 * Agents and live conversations:
 * - POST /api/v1/accounts/{account_id}/conversations/{id}/toggle_typing_status: the agent types (the
 *   same path as the public toggle_typing; `is_private` keeps the indicator among agents);
 * - POST .../conversations/{id}/live_ticket: a one-minute ticket for the conversation's room;
 * - GET /api/v1/live?ticket=: the agent's WebSocket (browsers cannot send the key header on a socket).
 */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../http/app-env";
import { accountScope, publicScope } from "../../http/scopes";
import { validate } from "../../http/validate";
import { toggleTyping } from "../../domain/conversations/typing";
import { issueLiveTicket, redeemLiveTicket } from "../../domain/conversations/live-tickets";
import { joinRoom } from "../../realtime/join";
import { ConversationParam } from "../../schemas/conversations";
import { Bool } from "../../schemas/common";
import { doc } from "../../http/openapi";
import { LiveTicket, TypingAnswer } from "../../schemas/conversations";

const TypingStatusBody = z.object({ typing_status: z.enum(["on", "off"]), is_private: Bool.optional() });
const TicketQuery = z.object({ ticket: z.string().max(300).optional() });

export const conversationLiveApi = new Hono<AppEnv>()
  .post("/toggle_typing_status", doc({ summary: "Show or stop the agent typing in a conversation", response: TypingAnswer }), validate("param", ConversationParam), validate("json", TypingStatusBody), async (c) => {
    const { conversation_id } = c.req.valid("param");
    const { typing_status, is_private } = c.req.valid("json");
    const result = await toggleTyping(accountScope(c), conversation_id, { on: typing_status === "on", isPrivate: is_private });
    return c.json({ conversation_id, typing_status: result.typingStatus });
  })
  .post("/live_ticket", doc({ summary: "Get a ticket for the conversation's live-room WebSocket", response: LiveTicket }), validate("param", ConversationParam), async (c) => {
    const { conversation_id } = c.req.valid("param");
    const { ticket, expiresAt } = await issueLiveTicket(accountScope(c), conversation_id);
    return c.json({ ticket, expires_at: expiresAt, url: `/api/v1/live?ticket=${ticket}` });
  });

export const agentLiveApi = new Hono<AppEnv>().get("/", doc({ summary: "Open the agent's live-room WebSocket (authenticated by ticket)", status: 101 }), validate("query", TicketQuery), async (c) => {
  // before the check: a change of the user's access that commits during it refuses the socket
  const checkedAt = Date.now();
  const { scope, conversation, user, ticket } = await redeemLiveTicket(publicScope(c), c.req.valid("query").ticket ?? "");
  return joinRoom(c.req.raw, scope.env, conversation, { type: "user", id: user.id, name: user.name, audience: "agent", checkedAt, ticket });
});
