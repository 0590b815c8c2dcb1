import { beforeAll, describe, expect, it } from "vitest";
import { call, del, get, patch, post, put } from "../support/http";
import { createWorld } from "../support/world";

type World = Awaited<ReturnType<typeof createWorld>>;
let world: World;
let other: World;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

beforeAll(async () => {
  world = await createWorld("Attributes");
  other = await createWorld("Elsewhere");
});

const errorsOf = (res: { body: { errors: { field: string; code: string }[] } }) =>
  res.body.errors.map((e) => `${e.field}:${e.code}`);

describe("custom attribute definitions", () => {
  it("lets an agent create one with integers and answers with names and ISO times", async () => {
    const { base, agent } = world;
    const created = await post(`${base}/custom_attribute_definitions`, agent.key, {
      attribute_display_name: "Plan",
      attribute_key: "plan",
      attribute_display_type: 6,
      attribute_model: 1,
      attribute_description: "Subscription plan",
      attribute_values: ["free", "pro"],
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(Number),
      attribute_display_name: "Plan",
      attribute_display_type: "list",
      attribute_description: "Subscription plan",
      attribute_key: "plan",
      regex_pattern: null,
      regex_cue: null,
      attribute_values: ["free", "pro"],
      attribute_model: "contact_attribute",
      default_value: null,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    const id = created.body.id;

    const byName = await post(`${base}/custom_attribute_definitions`, agent.key, {
      custom_attribute_definition: {
        attribute_display_name: "Order number",
        attribute_key: "order_number",
        attribute_display_type: "text",
        attribute_model: "conversation_attribute",
        regex_pattern: "/^ORD-\\d+$/i",
        regex_cue: "Use ORD-123",
      },
    });
    expect(byName.status).toBe(200);
    expect(byName.body).toMatchObject({ attribute_display_type: "text", attribute_model: "conversation_attribute", regex_pattern: "/^ORD-\\d+$/i" });

    // Defaults: text, conversation.
    const plain = await post(`${base}/custom_attribute_definitions`, agent.key, { attribute_display_name: "Note", attribute_key: "note" });
    expect(plain.body).toMatchObject({ attribute_display_type: "text", attribute_model: "conversation_attribute", attribute_values: [] });

    const keys = async (query: string) =>
      (await get(`${base}/custom_attribute_definitions${query}`, agent.key)).body.map((d: { attribute_key: string }) => d.attribute_key);
    expect(await keys("")).toEqual(["plan", "order_number", "note"]);
    expect(await keys("?attribute_model=contact_attribute")).toEqual(["plan"]);
    expect(await keys("?attribute_model=1")).toEqual(["plan"]);
    expect(await keys("?attribute_model=0")).toEqual(["order_number", "note"]);
    const badModel = await get(`${base}/custom_attribute_definitions?attribute_model=user`, agent.key);
    expect(badModel.status).toBe(422);
    expect(errorsOf(badModel)).toEqual(["attribute_model:invalid_value"]);

    expect((await get(`${base}/custom_attribute_definitions/${id}`, agent.key)).body).toEqual(created.body);

    const updated = await patch(`${base}/custom_attribute_definitions/${id}`, agent.key, {
      attribute_display_name: "Plan tier",
      attribute_values: ["free", "pro", "enterprise"],
    });
    expect(updated.body).toMatchObject({ id, attribute_display_name: "Plan tier", attribute_key: "plan", attribute_values: ["free", "pro", "enterprise"] });
    expect((await put(`${base}/custom_attribute_definitions/${id}`, agent.key, { attribute_display_type: "number" })).body.attribute_display_type).toBe(
      "number",
    );

    const removed = await del(`${base}/custom_attribute_definitions/${id}`, agent.key);
    expect(removed.status).toBe(204);
    expect(removed.body).toBeNull();
    expect((await get(`${base}/custom_attribute_definitions/${id}`, agent.key)).status).toBe(404);
    expect((await del(`${base}/custom_attribute_definitions/${id}`, agent.key)).status).toBe(404);
  });

  it("validates the definition", async () => {
    const { base, admin } = world;
    const url = `${base}/custom_attribute_definitions`;
    expect(errorsOf(await post(url, admin.key, {})).sort()).toEqual(["attribute_display_name:required", "attribute_key:required"]);
    expect(errorsOf(await post(url, admin.key, { attribute_display_name: "X", attribute_key: "Has Space" }))).toEqual([
      "attribute_key:invalid_format",
    ]);
    expect(errorsOf(await post(url, admin.key, { attribute_display_name: "X", attribute_key: "x", attribute_display_type: 8 }))).toEqual([
      "attribute_display_type:out_of_range",
    ]);
    expect(errorsOf(await post(url, admin.key, { attribute_display_name: "X", attribute_key: "x", attribute_display_type: "colour" }))).toEqual([
      "attribute_display_type:invalid_value",
    ]);
    expect(errorsOf(await post(url, admin.key, { attribute_display_name: "X", attribute_key: "x", regex_pattern: "/([a-z/" }))).toEqual([
      "regex_pattern:invalid_regex",
    ]);
    expect(errorsOf(await post(url, admin.key, { attribute_display_name: "X", attribute_key: "x", attribute_display_type: "list" }))).toEqual([
      "attribute_values:blank",
    ]);

    // Reserved keys depend on the model.
    const reserved = await post(url, admin.key, { attribute_display_name: "S", attribute_key: "status", attribute_model: 0 });
    expect(errorsOf(reserved)).toEqual(["attribute_key:reserved"]);
    expect(errorsOf(await post(url, admin.key, { attribute_display_name: "E", attribute_key: "email", attribute_model: 1 }))).toEqual([
      "attribute_key:reserved",
    ]);
    expect((await post(url, admin.key, { attribute_display_name: "E", attribute_key: "email", attribute_model: 0 })).status).toBe(200);

    // Unique per (account, model).
    await post(url, admin.key, { attribute_display_name: "Tier", attribute_key: "tier", attribute_model: 0 });
    expect(errorsOf(await post(url, admin.key, { attribute_display_name: "Tier", attribute_key: "tier", attribute_model: 0 }))).toEqual([
      "attribute_key:taken",
    ]);
    const contactTier = await post(url, admin.key, { attribute_display_name: "Tier", attribute_key: "tier", attribute_model: 1 });
    expect(contactTier.status).toBe(200);
    expect(errorsOf(await patch(`${url}/${contactTier.body.id}`, admin.key, { attribute_model: 0 }))).toEqual(["attribute_key:taken"]);
    expect(errorsOf(await patch(`${url}/${contactTier.body.id}`, admin.key, { attribute_key: "blocked" }))).toEqual(["attribute_key:reserved"]);
    expect(errorsOf(await patch(`${url}/${contactTier.body.id}`, admin.key, { attribute_display_type: 6 }))).toEqual(["attribute_values:blank"]);
    expect((await post(`${other.base}/custom_attribute_definitions`, other.admin.key, { attribute_display_name: "Tier", attribute_key: "tier" })).status).toBe(
      200,
    );
  });

  it("keeps accounts apart and requires a key", async () => {
    const { base, admin } = world;
    const mine = await post(`${base}/custom_attribute_definitions`, admin.key, { attribute_display_name: "Mine", attribute_key: "mine" });
    const id = mine.body.id;
    expect((await get(`${base}/custom_attribute_definitions`, other.admin.key)).status).toBe(403);
    expect((await get(`${other.base}/custom_attribute_definitions/${id}`, other.admin.key)).status).toBe(404);
    expect((await patch(`${other.base}/custom_attribute_definitions/${id}`, other.admin.key, { attribute_display_name: "x" })).status).toBe(404);
    expect((await del(`${other.base}/custom_attribute_definitions/${id}`, other.admin.key)).status).toBe(404);
    expect((await call("GET", `${base}/custom_attribute_definitions`)).status).toBe(401);
    expect((await get(`${base}/custom_attribute_definitions/${id}`, admin.key)).status).toBe(200);
  });
});
