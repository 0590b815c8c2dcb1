import { describe, expect, it } from "vitest";
import { get, post } from "../support/http";
import { visitorConversation, widgetWorld } from "./widget-support";

describe("smoke", () => {
  it("works", async () => {
    const w = await widgetWorld();
    const conv = await visitorConversation(w.inbox, { name: "Vera" });
    const m = await post(`${conv.path}/messages`, null, { content: "hello" });
    expect(m.status, JSON.stringify(m.body)).toBe(200);
    const list = await get(`${conv.path}/messages`);
    expect(list.body).toHaveLength(1);
    const t = await post(`${conv.path}/toggle_typing`, null, { typing_status: "on" });
    expect(t.status, JSON.stringify(t.body)).toBe(200);
    const s = await post(`${conv.path}/toggle_status`, null);
    expect(s.body.status).toBe("resolved");
  });
});
