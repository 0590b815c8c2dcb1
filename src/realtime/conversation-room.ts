import { DurableObject } from "cloudflare:workers";

/** Someone who can type in a conversation. */
export type Participant = { type: "contact" | "user" | "agent_bot"; id: number };

/** A typing indicator left on expires after this long without a new "on" (clients re-send while typing). */
export const TYPING_TTL_MS = 30_000;

const keyOf = (p: Participant) => `${p.type}:${p.id}`;

/**
 * Live state of one conversation, addressed by name `${accountId}:${conversationId}`.
 * Typing state lives in memory only, with a time-to-live: toggles are frequent and worthless after a
 * few seconds, so writing them to storage would cost a billed write each time for nothing.
 */
export class ConversationRoom extends DurableObject<Env> {
  private typingUntil = new Map<string, { participant: Participant; until: number }>();

  /** Sets the participant's typing state; answers whether it changed (only a change is worth an event). */
  setTyping(participant: Participant, on: boolean): boolean {
    this.prune();
    const key = keyOf(participant);
    const wasOn = this.typingUntil.has(key);
    if (on) this.typingUntil.set(key, { participant, until: Date.now() + TYPING_TTL_MS });
    else this.typingUntil.delete(key);
    return wasOn !== on;
  }

  /** Who is typing now. */
  typing(): Participant[] {
    this.prune();
    return [...this.typingUntil.values()].map((entry) => entry.participant);
  }

  private prune() {
    const now = Date.now();
    for (const [key, entry] of this.typingUntil) if (entry.until <= now) this.typingUntil.delete(key);
  }
}

export function conversationRoom(env: Env, accountId: number, conversationId: number) {
  return env.CONVERSATION_ROOM.getByName(`${accountId}:${conversationId}`);
}
