/** Setup shared by the public widget API and live room tests. */
import { call, post } from "../support/http";
import { createWorld } from "../support/world";
import { shardOf } from "../support/databases";
import { addInboxMember, createInbox } from "../support/fixtures";

export type PublicInbox = { id: number; identifier: string; hmacToken: string; base: string };

export async function publicInbox(accountId: number, channel: "Channel::Api" | "Channel::WebWidget" = "Channel::Api"): Promise<PublicInbox> {
  const id = await createInbox(accountId, { channel });
  const row = await (await shardOf(accountId)).prepare("SELECT identifier, hmac_token FROM inboxes WHERE id = ?").bind(id).first<{ identifier: string; hmac_token: string }>();
  return { id, identifier: row!.identifier, hmacToken: row!.hmac_token, base: `/public/api/v1/inboxes/${row!.identifier}` };
}

/** An account with an API inbox whose member is the agent. */
export async function widgetWorld(name = "Shop") {
  const world = await createWorld(name);
  const inbox = await publicInbox(world.accountId);
  await addInboxMember(world.accountId, inbox.id, world.agent.id);
  return { ...world, inbox };
}

export type Visitor = { sourceId: string; pubsubToken: string; contactId: number; base: string };

export async function visitor(inbox: PublicInbox, body: Record<string, unknown> = {}): Promise<Visitor> {
  const res = await post(`${inbox.base}/contacts`, null, body);
  if (res.status !== 200) throw new Error(`contact create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { sourceId: res.body.source_id, pubsubToken: res.body.pubsub_token, contactId: res.body.id, base: `${inbox.base}/contacts/${res.body.source_id}` };
}

/** A visitor with a conversation; answers the conversation's public path. */
export async function visitorConversation(inbox: PublicInbox, body: Record<string, unknown> = {}) {
  const v = await visitor(inbox, body);
  const res = await post(`${v.base}/conversations`, null, {});
  if (res.status !== 200) throw new Error(`conversation create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...v, displayId: res.body.id as number, path: `${v.base}/conversations/${res.body.id}` };
}

export async function hmacHex(key: string, message: string) {
  const k = await crypto.subtle.importKey("raw", new TextEncoder().encode(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", k, new TextEncoder().encode(message)));
  return [...sig].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export const options = (path: string, origin: string) =>
  call("OPTIONS", path, { headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" } });
