import { beforeAll, describe, expect, it } from "vitest";
import { del, get, patch, post, put } from "../support/http";
import { createWorld } from "../support/world";

type World = Awaited<ReturnType<typeof createWorld>>;
let world: World;
let other: World;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

beforeAll(async () => {
  world = await createWorld("Canned");
  other = await createWorld("Elsewhere");
});

describe("canned responses", () => {
  it("lets an agent create, list, update and delete them with the raw record shape", async () => {
    const { base, agent, accountId } = world;
    const created = await post(`${base}/canned_responses`, agent.key, { short_code: "greet", content: "Hello there!\n" });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(Number),
      account_id: accountId,
      short_code: "greet",
      content: "Hello there!\n",
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    const id = created.body.id;

    const wrappedBody = await patch(`${base}/canned_responses/${id}`, agent.key, { canned_response: { content: "Hi!" } });
    expect(wrappedBody.status).toBe(200);
    expect(wrappedBody.body).toMatchObject({ id, short_code: "greet", content: "Hi!" });

    const viaPut = await put(`${base}/canned_responses/${id}`, agent.key, { short_code: "hi" });
    expect(viaPut.body).toMatchObject({ id, short_code: "hi", content: "Hi!" });

    const list = await get(`${base}/canned_responses`, agent.key);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([expect.objectContaining({ id, short_code: "hi" })]);

    const removed = await del(`${base}/canned_responses/${id}`, agent.key);
    expect(removed).toMatchObject({ status: 200, body: {} });
    expect((await get(`${base}/canned_responses`, agent.key)).body).toEqual([]);
    expect((await del(`${base}/canned_responses/${id}`, agent.key)).status).toBe(404);
  });

  it("ranks search results: short code prefix, then short code contains, then content", async () => {
    const { base, admin } = world;
    for (const [short_code, content] of [
      ["thanks", "mentions Refund in the content"],
      ["xrefund", "contains it in the code"],
      ["Refund-policy", "starts with it"],
      ["unrelated", "nothing to see"],
      ["100%_off", "a code with LIKE wildcards"],
    ]) {
      expect((await post(`${base}/canned_responses`, admin.key, { short_code, content })).status).toBe(200);
    }
    const found = await get(`${base}/canned_responses?search=REFUND`, admin.key);
    expect(found.body.map((r: { short_code: string }) => r.short_code)).toEqual(["Refund-policy", "xrefund", "thanks"]);

    // % and _ are plain characters, not wildcards.
    const literal = await get(`${base}/canned_responses?search=${encodeURIComponent("0%_")}`, admin.key);
    expect(literal.body.map((r: { short_code: string }) => r.short_code)).toEqual(["100%_off"]);
    const noWildcard = await get(`${base}/canned_responses?search=${encodeURIComponent("%")}`, admin.key);
    expect(noWildcard.body.map((r: { short_code: string }) => r.short_code)).toEqual(["100%_off"]);

    const long = "x".repeat(120);
    expect((await get(`${base}/canned_responses?search=${long}`, admin.key)).body).toEqual([]);
  });

  it("refuses a missing or duplicate short code with a 422 naming the field", async () => {
    const { base, admin } = world;
    const missing = await post(`${base}/canned_responses`, admin.key, { content: "no code" });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([expect.objectContaining({ field: "short_code", code: "required" })]);

    const blank = await post(`${base}/canned_responses`, admin.key, { short_code: "  ", content: "" });
    expect(blank.status).toBe(422);
    expect(blank.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["content", "short_code"]);

    await post(`${base}/canned_responses`, admin.key, { short_code: "dup", content: "one" });
    const dup = await post(`${base}/canned_responses`, admin.key, { short_code: "dup", content: "two" });
    expect(dup.status).toBe(422);
    expect(dup.body.errors).toEqual([expect.objectContaining({ field: "short_code", code: "taken" })]);

    const second = await post(`${base}/canned_responses`, admin.key, { short_code: "dup2", content: "two" });
    const rename = await patch(`${base}/canned_responses/${second.body.id}`, admin.key, { short_code: "dup" });
    expect(rename.status).toBe(422);
    expect(rename.body.errors[0]).toMatchObject({ field: "short_code", code: "taken" });

    // The same short code in another account is fine.
    expect((await post(`${other.base}/canned_responses`, other.admin.key, { short_code: "dup", content: "x" })).status).toBe(200);
  });

  it("keeps accounts apart and requires a key", async () => {
    const { base, admin } = world;
    const mine = await post(`${base}/canned_responses`, admin.key, { short_code: "mine", content: "mine" });
    expect((await get(`${base}/canned_responses`, other.admin.key)).status).toBe(403);
    expect((await get(`${base}/canned_responses`)).status).toBe(401);
    // Another account's id through one's own account is unknown.
    expect((await patch(`${other.base}/canned_responses/${mine.body.id}`, other.admin.key, { content: "x" })).status).toBe(404);
    expect((await del(`${other.base}/canned_responses/${mine.body.id}`, other.admin.key)).status).toBe(404);
    expect((await patch(`${base}/canned_responses/999999`, admin.key, { content: "x" })).status).toBe(404);
  });
});
