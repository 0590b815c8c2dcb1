/**
 * Typing indicators: the one path for the public toggle_typing and the account API's
 * toggle_typing_status. The state lives in the conversation's room (a Durable Object, in memory, with
 * a time-to-live), reached through the scope's live-room port; nothing is written to D1. The room announces a change to its subscribers and sends
 * conversation_typing_on / _off to the events queue for webhooks.
 */
import { type AccountScope } from "../kernel/scope";
import { forbidden } from "../kernel/errors";
import type { TypingContext } from "../kernel/ports";
import { readConversation } from "./access";
import type { ConversationRow } from "./rows";

export type TypingInput = { on: boolean; isPrivate?: boolean };

function typer(scope: AccountScope): TypingContext["user"] {
  const { actor } = scope;
  if (actor.type === "user") return { type: "user", id: actor.user.id, name: actor.user.name };
  if (actor.type === "contact") return { type: "contact", id: actor.contact.id, name: actor.contact.name };
  throw forbidden("Only agents and contacts type", "typing_not_allowed");
}

/** Sets the caller's typing state in a conversation already read and checked for the caller. */
export async function toggleTypingIn(scope: AccountScope, conversation: ConversationRow, input: TypingInput) {
  const context: TypingContext = {
    accountId: scope.accountId,
    conversationId: conversation.id,
    displayId: conversation.displayId,
    user: typer(scope),
    // a contact never types privately; an agent's private typing (a note) is for agents only
    isPrivate: scope.actor.type === "user" && (input.isPrivate ?? false),
  };
  const { changed } = await scope.ports.rooms.toggleTyping(context, input.on);
  return { typingStatus: input.on ? ("on" as const) : ("off" as const), changed };
}

/** The account API's toggle_typing_status: the conversation by display id, checked like every action. */
export async function toggleTyping(scope: AccountScope, displayId: number, input: TypingInput) {
  const { conversation } = await readConversation(scope, displayId, []);
  return toggleTypingIn(scope, conversation, input);
}
