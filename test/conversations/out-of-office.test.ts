/**
 * The out-of-office reply through HTTP: a contact writing while the inbox is closed gets the inbox's
 * out_of_office_message once that day; not when the inbox is open, has no message, or an agent is
 * answering.
 */
import { describe, expect, it } from "vitest";
import { get, patch, post } from "../support/http";
import { settle } from "../feed/cable-support";
import { visitorConversation, widgetWorld } from "../public/widget-support";

const closedAllWeek = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day_of_week: day, closed_all_day: true }));
const openAllWeek = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day_of_week: day, closed_all_day: false, open_all_day: true }));

async function closedInbox(name: string, message: string | null = "We are closed; we answer from 9 am.") {
  const w = await widgetWorld(name);
  const res = await patch(`${w.base}/inboxes/${w.inbox.id}`, w.admin.key, {
    working_hours_enabled: true,
    working_hours: closedAllWeek,
    timezone: "Asia/Kolkata",
    out_of_office_message: message,
  });
  expect(res.status).toBe(200);
  return w;
}

type Message = { content: string; message_type: number };
const templates = async (path: string) => ((await get(`${path}/messages`)).body as Message[]).filter((m) => m.message_type === 3);

/** Waits for the conversation's template messages to number `count` (the reply is sent from the queue). */
async function templatesReach(path: string, count: number) {
  for (let i = 0; i < 100; i++) {
    const found = await templates(path);
    if (found.length >= count) return found;
    await settle(30);
  }
  return templates(path);
}

describe("the out-of-office reply", () => {
  it("answers a contact who writes while the inbox is closed, once that day", async () => {
    const w = await closedInbox("Closed Co");
    const c = await visitorConversation(w.inbox);
    await post(`${c.path}/messages`, null, { content: "Hello?" });
    const [reply] = await templatesReach(c.path, 1);
    expect(reply.content).toBe("We are closed; we answer from 9 am.");

    await post(`${c.path}/messages`, null, { content: "Anyone there?" });
    await settle(500);
    expect(await templates(c.path)).toHaveLength(1);
    // the agents see it, from nobody
    const messages = (await get(`${w.base}/conversations/${c.displayId}/messages`, w.admin.key)).body.payload as Array<{ message_type: number; sender: unknown }>;
    expect(messages.filter((m) => m.message_type === 3)).toMatchObject([{ sender: null }]);
  });

  it("stays quiet when the inbox is open, has no message, or an agent answered in the last minutes", async () => {
    const open = await closedInbox("Open Co");
    await patch(`${open.base}/inboxes/${open.inbox.id}`, open.admin.key, { working_hours: openAllWeek });
    const silent = await closedInbox("Silent Co", null);
    const answering = await closedInbox("Answering Co");
    const [a, b, c] = [await visitorConversation(open.inbox), await visitorConversation(silent.inbox), await visitorConversation(answering.inbox)];
    await post(`${answering.base}/conversations/${c.displayId}/messages`, answering.admin.key, { content: "I'm here late today." });
    for (const conversation of [a, b, c]) await post(`${conversation.path}/messages`, null, { content: "Hi" });
    await settle(800);
    for (const conversation of [a, b, c]) expect(await templates(conversation.path)).toEqual([]);
  });
});
