/**
 * GET .../contacts/{source_id}/conversations/{id}/live?pubsub_token=: the visitor's WebSocket to the
 * conversation's room. The chain is checked like every public route (404s), then the contact inbox's
 * pubsub_token (401): the path alone is not enough to listen.
 */
import type { Context } from "hono";
import type { AppEnv } from "../../http/app-env";
import { publicScope } from "../../http/scopes";
import { findConversationChain } from "../../domain/widget/chain";
import { DomainError } from "../../domain/kernel/errors";
import { joinRoom } from "../../realtime/join";

const refused = (message: string) => new DomainError("unauthenticated", message, [{ field: "pubsub_token", message, code: "invalid_pubsub_token" }]);

function sameText(a: string, b: string) {
  const [x, y] = [new TextEncoder().encode(a), new TextEncoder().encode(b)];
  return x.byteLength === y.byteLength && crypto.subtle.timingSafeEqual(x, y);
}

type ChainParams = { inbox_identifier: string; contact_identifier: string; conversation_id: number };

export async function contactSocket(c: Context<AppEnv, string, { out: { param: ChainParams } }>) {
  const p = c.req.valid("param");
  const chain = await findConversationChain(publicScope(c), p.inbox_identifier, p.contact_identifier, p.conversation_id);
  const token = c.req.query("pubsub_token");
  if (!token) throw refused("pubsub_token is required to join the conversation's room");
  if (!sameText(token, chain.contactInbox.pubsubToken)) throw refused("pubsub_token is not this contact's");
  const { contact } = chain;
  return joinRoom(c.req.raw, c.env, chain.conversation, { type: "contact", id: contact.id, name: contact.name, audience: "contact" });
}
