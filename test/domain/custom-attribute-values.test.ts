import { describe, expect, it } from "vitest";
import { type AttributeDefinition, checkCustomAttributeValues, compileAttributePattern } from "../../src/domain/custom-attributes/values";
import { ATTRIBUTE_DISPLAY_TYPES } from "../../src/domain/kernel/enums";

let nextId = 1;
function definition(key: string, type: (typeof ATTRIBUTE_DISPLAY_TYPES)[number], extra: Partial<AttributeDefinition> = {}): AttributeDefinition {
  return {
    id: nextId++,
    accountId: 1,
    attributeDisplayName: key,
    attributeKey: key,
    attributeDisplayType: ATTRIBUTE_DISPLAY_TYPES.indexOf(type),
    attributeModel: 1,
    attributeDescription: null,
    attributeValues: [],
    defaultValue: null,
    regexPattern: null,
    regexCue: null,
    createdAt: 0,
    updatedAt: 0,
    ...extra,
  };
}

const definitions = [
  definition("seats", "number"),
  definition("budget", "currency"),
  definition("discount", "percent"),
  definition("vip", "checkbox"),
  definition("renewal", "date"),
  definition("site", "link"),
  definition("plan", "list", { attributeValues: ["free", "pro"] }),
  definition("order", "text", { regexPattern: "/^ord-\\d+$/i", regexCue: "Use ORD-123" }),
  definition("nickname", "text"),
];

const codes = (values: Record<string, unknown>) =>
  checkCustomAttributeValues(definitions, values).map((e) => `${e.field}:${e.code}`);

describe("checkCustomAttributeValues", () => {
  it("accepts values that fit their definitions, unknown keys and cleared (null) values", () => {
    expect(
      codes({
        seats: 3,
        budget: "12.50",
        discount: -5,
        vip: true,
        renewal: "2024-02-29",
        site: "https://example.com/a",
        plan: "pro",
        order: "ORD-42",
        nickname: "Ace",
        undefined_key: { anything: true },
        // null clears a value
        plan_b: null,
      }),
    ).toEqual([]);
    expect(codes({ seats: null, vip: false, renewal2: "x" })).toEqual([]);
    expect(codes({ renewal: "2024-02-29T10:00:00.000Z" })).toEqual([]);
  });

  it("returns one entry per wrong value, naming custom_attributes.<key>", () => {
    expect(
      codes({
        seats: "three",
        budget: Number.NaN,
        discount: true,
        vip: "yes",
        renewal: "2023-02-29",
        site: "javascript:alert(1)",
        plan: "gold",
        order: "42",
        nickname: { a: 1 },
      }),
    ).toEqual([
      "custom_attributes.seats:invalid_type",
      "custom_attributes.budget:invalid_type",
      "custom_attributes.discount:invalid_type",
      "custom_attributes.vip:invalid_type",
      "custom_attributes.renewal:invalid_format",
      "custom_attributes.site:invalid_format",
      "custom_attributes.plan:invalid_value",
      "custom_attributes.order:pattern_mismatch",
      "custom_attributes.nickname:invalid_type",
    ]);
  });

  it("uses the regex cue as the message", () => {
    expect(checkCustomAttributeValues(definitions, { order: "nope" })).toEqual([
      { field: "custom_attributes.order", message: "Use ORD-123", code: "pattern_mismatch" },
    ]);
  });

  it("compiles slash-delimited and bare patterns, and refuses broken ones", () => {
    expect(compileAttributePattern("/^a$/i")?.test("A")).toBe(true);
    expect(compileAttributePattern("^a$")?.test("A")).toBe(false);
    expect(compileAttributePattern("/(/")).toBeNull();
    expect(compileAttributePattern("/a/q")).toBeNull();
  });
});
