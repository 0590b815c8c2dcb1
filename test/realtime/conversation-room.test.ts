import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type ConversationRoom, TYPING_TTL_MS, conversationRoom } from "../../src/realtime/conversation-room";

afterEach(() => vi.useRealTimers());

describe("ConversationRoom typing state", () => {
  it("reports who is typing and whether a toggle changed anything", async () => {
    const room = conversationRoom(env, 1, 42);
    const contact = { type: "contact", id: 7 } as const;
    const agent = { type: "user", id: 3 } as const;
    expect(await room.setTyping(contact, true)).toBe(true);
    expect(await room.setTyping(contact, true)).toBe(false); // already on
    expect(await room.setTyping(agent, true)).toBe(true);
    expect(await room.typing()).toEqual([contact, agent]);
    expect(await room.setTyping(contact, false)).toBe(true);
    expect(await room.setTyping(contact, false)).toBe(false);
    expect(await room.typing()).toEqual([agent]);
  });

  it("keeps each conversation's state apart", async () => {
    await conversationRoom(env, 1, 100).setTyping({ type: "contact", id: 1 }, true);
    expect(await conversationRoom(env, 1, 101).typing()).toEqual([]);
    expect(await conversationRoom(env, 2, 100).typing()).toEqual([]);
  });

  it("forgets a typing indicator that was not refreshed within the time-to-live, without touching storage", async () => {
    const room = conversationRoom(env, 9, 9);
    await runInDurableObject(room, async (instance: ConversationRoom, state) => {
      vi.useFakeTimers({ toFake: ["Date"] });
      instance.setTyping({ type: "user", id: 5 }, true);
      vi.setSystemTime(Date.now() + TYPING_TTL_MS - 1);
      expect(instance.typing()).toHaveLength(1);
      vi.setSystemTime(Date.now() + 2);
      expect(instance.typing()).toEqual([]);
      expect(await state.storage.list()).toEqual(new Map());
    });
  });
});
