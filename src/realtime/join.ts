/**
 * Hands an authenticated WebSocket upgrade to the conversation's room. The Worker has checked the
 * credentials; the room receives the member in a header it sets itself (any client copy is replaced).
 */
import { DomainError, forbidden, unavailable } from "../domain/kernel/errors";
import { ROOM_MEMBER_HEADER, ROOM_REFUSALS, type RoomMember, conversationRoom } from "./conversation-room";

export const isWebSocketUpgrade = (request: Request) => request.headers.get("upgrade")?.toLowerCase() === "websocket";

/** 426 is not among the domain's codes: a plain request where a socket was expected is malformed. */
export const upgradeRequired = () =>
  new DomainError("malformed_request", "This endpoint opens a WebSocket: send an Upgrade: websocket request", [
    { field: "", message: "expected a WebSocket upgrade", code: "upgrade_required" },
  ]);

const ticketSpent = () =>
  new DomainError("unauthenticated", "The ticket has been used: ask for a new one", [{ field: "ticket", message: "has been used", code: "invalid_ticket" }]);

/** The room's refusals of a socket, as the error a client is answered. */
const refusals: Record<number, () => DomainError> = {
  [ROOM_REFUSALS.ticketSpent]: ticketSpent,
  [ROOM_REFUSALS.accessChanged]: () => forbidden("Your access to the conversation changed: ask for a new ticket", "conversation_not_accessible"),
  [ROOM_REFUSALS.feedUnreachable]: () => unavailable("The conversation's live room cannot be opened now: try again", "live_room_unavailable"),
};

export async function joinRoom(
  request: Request,
  env: Env,
  conversation: { accountId: number; id: number },
  member: Omit<RoomMember, "accountId" | "conversationId">,
): Promise<Response> {
  if (!isWebSocketUpgrade(request)) throw upgradeRequired();
  const headers = new Headers(request.headers);
  headers.set(ROOM_MEMBER_HEADER, JSON.stringify({ ...member, accountId: conversation.accountId, conversationId: conversation.id } satisfies RoomMember));
  const answer = await conversationRoom(env, conversation.accountId, conversation.id).fetch(new Request(request.url, { method: "GET", headers }));
  const refusal = refusals[answer.status];
  if (refusal) throw refusal();
  if (!answer.webSocket) return answer;
  // a fresh response: the room's answer has immutable headers, and the app's middleware adds some
  return new Response(null, { status: 101, webSocket: answer.webSocket });
}
