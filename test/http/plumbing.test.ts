import { Hono } from "hono";
import { requestId } from "hono/request-id";
import { describe, expect, it } from "vitest";
import { renderError } from "../../src/http/errors";
import { call, createPlatformApp, get, post } from "../support/http";

const platformKey = await createPlatformApp();

function serverTiming(headers: Headers) {
  const value = headers.get("server-timing") ?? "";
  const metric = (name: string) => Number(new RegExp(`${name};desc="(\\d+)"`).exec(value)?.[1]);
  return { roundTrips: metric("db-round-trips"), rowsRead: metric("db-rows-read"), rowsWritten: metric("db-rows-written"), raw: value };
}

describe("errors", () => {
  it("answers an unknown route with a JSON 404 that says no such route exists", async () => {
    const res = await get("/api/v1/nothing-here");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      description: "No route GET /api/v1/nothing-here",
      errors: [{ field: "", message: "No route GET /api/v1/nothing-here", code: "route_not_found" }],
    });
  });

  it("answers malformed JSON with 400 and changes nothing", async () => {
    const res = await call("POST", "/platform/api/v1/accounts", {
      key: platformKey,
      rawBody: '{"name": "Broken',
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].code).toBe("malformed_body");
    expect((await get("/platform/api/v1/accounts", platformKey)).body).toEqual([]);
  });

  it("refuses a body of another content type with 415", async () => {
    const res = await call("POST", "/platform/api/v1/accounts", {
      key: platformKey,
      rawBody: "name=Plain",
      headers: { "content-type": "text/plain" },
    });
    expect(res.status).toBe(415);
    expect(res.body.errors[0].code).toBe("unsupported_media_type");
  });

  it("reports each validation problem with the path of the offending value", async () => {
    const res = await post("/platform/api/v1/accounts", platformKey, {
      name: "",
      status: "sleeping",
      support_email: "not-an-email",
      features: { help_center: "maybe" },
    });
    expect(res.status).toBe(422);
    const byField = Object.fromEntries(res.body.errors.map((e: any) => [e.field, e.code]));
    expect(byField).toEqual({
      name: "blank",
      status: "invalid_value",
      support_email: "invalid_format",
      "features.help_center": "invalid_type",
    });
    expect(res.body.description).toBe("Validation failed");
  });

  it("names a missing field as required", async () => {
    const res = await post("/platform/api/v1/accounts", platformKey, {});
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: "name", message: "is required", code: "required" }]);
  });

  it("answers an unexpected failure with 500, the request id and no stack trace", async () => {
    const app = new Hono().use(requestId()).get("/boom", () => {
      throw new Error("database exploded at secret.ts:12");
    });
    app.onError(renderError);
    const res = await app.request("/boom");
    const body = await res.json<any>();
    const id = res.headers.get("x-request-id")!;
    expect(res.status).toBe(500);
    expect(body.description).toBe(`Internal server error (request id ${id})`);
    expect(JSON.stringify(body)).not.toContain("secret.ts");
    expect(body.errors[0].code).toBe("internal_error");
  });
});

describe("request bodies", () => {
  it("refuses a body over 1 MiB with 413 and changes nothing", async () => {
    const before = (await get("/platform/api/v1/accounts", platformKey)).body.length;
    const res = await post("/platform/api/v1/accounts", platformKey, { name: "Huge", custom_attributes: { blob: "x".repeat(1024 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.body.errors[0].code).toBe("body_too_large");
    expect((await get("/platform/api/v1/accounts", platformKey)).body.length).toBe(before);
  });

  it("accepts form-urlencoded bodies with Rails-style nested keys", async () => {
    const res = await call("POST", "/platform/api/v1/accounts", {
      key: platformKey,
      rawBody: "name=Form+Co&custom_attributes[plan]=pro&features[help_center]=false",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe("Form Co");
    expect(res.body.custom_attributes).toEqual({ plan: "pro" });
    expect(res.body.enabled_features.help_center).toBeUndefined();
  });

  it("accepts multipart bodies", async () => {
    const form = new FormData();
    form.set("name", "Multipart Co");
    form.set("locale", "de");
    const res = await call("POST", "/platform/api/v1/accounts", { key: platformKey, rawBody: form });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Multipart Co", locale: "de" });
  });
});

describe("every response", () => {
  it("carries a request id, and keeps a sane one the client sent", async () => {
    const mine = await call("GET", "/api", { headers: { "x-request-id": "trace-abc-123" } });
    expect(mine.headers.get("x-request-id")).toBe("trace-abc-123");
    const generated = await get("/api");
    expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("reports its database cost in Server-Timing to a caller its key proved, errors included", async () => {
    const ok = await get(`/platform/api/v1/accounts`, platformKey);
    const timing = serverTiming(ok.headers);
    expect(timing.roundTrips).toBe(2); // the key, then the list
    expect(timing.rowsRead).toBeGreaterThan(0);
    expect(timing.rowsWritten).toBe(0);
    expect(timing.raw).toMatch(/^db;dur=[\d.]+/);

    const invalid = await post("/platform/api/v1/accounts", platformKey, { name: "" });
    expect(invalid.status).toBe(422);
    expect(serverTiming(invalid.headers).roundTrips).toBe(1);

    // a key that proved nothing learns nothing of the database (test/security/oracles.test.ts)
    const refused = await get("/platform/api/v1/accounts", "not-a-key");
    expect(refused.status).toBe(401);
    expect(refused.headers.get("server-timing")).toBeNull();

    const created = await post("/platform/api/v1/accounts", platformKey, { name: "Metered" });
    expect(serverTiming(created.headers).rowsWritten).toBeGreaterThan(0);
  });

  it("accepts trailing slashes", async () => {
    expect((await get("/api/", null)).status).toBe(200);
    expect((await get("/platform/api/v1/accounts/", platformKey)).status).toBe(200);
  });

  it("answers GET /api without a key with the service version", async () => {
    const res = await get("/api");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ version: expect.stringMatching(/^\d+\.\d+\.\d+$/), queue_services: "ok", data_services: "ok" });
  });
});
