/** /conversations/{id}/participants: the agents following a conversation (Chatwoot's ParticipantsController). */
import { Hono } from "hono";
import { addParticipants, listParticipants, removeParticipants, replaceParticipants } from "../../domain/conversations/participants";
import type { AppEnv } from "../../http/app-env";
import { idempotent } from "../../http/idempotency";
import { doc } from "../../http/openapi";
import { accountScope } from "../../http/scopes";
import { validate } from "../../http/validate";
import { Agent } from "../../schemas/agents";
import { ConversationParam } from "../../schemas/conversations";
import { ParticipantsBody } from "../../schemas/notifications";
import { Empty } from "../../schemas/responses";
import { agentsView } from "../../views/agents";
import { onlineInAccount } from "./online";

export const participantsApi = new Hono<AppEnv>()
  .get("/", doc({ summary: "List a conversation's participants", response: Agent.array() }), validate("param", ConversationParam), async (c) =>
    c.json(agentsView(await listParticipants(accountScope(c), c.req.valid("param").conversation_id), c.var.account.id, await onlineInAccount(c))),
  )
  .post(
    "/",
    doc({ summary: "Add participants to a conversation (answers those added)", response: Agent.array() }),
    idempotent(),
    validate("param", ConversationParam),
    validate("json", ParticipantsBody),
    async (c) => {
      const agents = await addParticipants(accountScope(c), c.req.valid("param").conversation_id, c.req.valid("json").user_ids);
      return c.json(agentsView(agents, c.var.account.id, await onlineInAccount(c)));
    },
  )
  .on(
    ["PATCH", "PUT"],
    "/",
    doc({ summary: "Replace a conversation's participants", response: Agent.array() }),
    validate("param", ConversationParam),
    validate("json", ParticipantsBody),
    async (c) => {
      const agents = await replaceParticipants(accountScope(c), c.req.valid("param").conversation_id, c.req.valid("json").user_ids);
      return c.json(agentsView(agents, c.var.account.id, await onlineInAccount(c)));
    },
  )
  .delete("/", doc({ summary: "Remove participants from a conversation", response: Empty }), validate("param", ConversationParam), validate("json", ParticipantsBody), async (c) => {
    await removeParticipants(accountScope(c), c.req.valid("param").conversation_id, c.req.valid("json").user_ids);
    return c.json({});
  });
