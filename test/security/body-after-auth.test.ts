import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, get, post } from "../support/http";
import { createWorld } from "../support/world";
import { shardOf } from "../support/databases";
import { publicInbox, visitorConversation } from "../public/widget-support";

// A request body is read only once the caller, the route and (on the public API) the inbox are known:
// a request without a valid key, to no route, or to an inbox that does not exist is answered without
// its body being parsed. "Not parsed" shows as the refusal that comes before parsing (401, 403, 404)
// where a parsed body would have answered 400 (malformed), 413 (too large) or 415 (content type).
const world = await createWorld("Body Order");
const inbox = await publicInbox(world.accountId);

const MALFORMED_JSON = { rawBody: '{"name": "Broken', headers: { "content-type": "application/json" } };
const PLAIN_TEXT = { rawBody: "name=Plain", headers: { "content-type": "text/plain" } };
const OVER_1_MIB = { rawBody: JSON.stringify({ name: "x".repeat(2 * 1024 * 1024) }), headers: { "content-type": "application/json" } };
const MALFORMED_MULTIPART = { rawBody: "--oops\r\nnot a part", headers: { "content-type": "multipart/form-data; boundary=elsewhere" } };
const BAD_BODIES = { "malformed JSON": MALFORMED_JSON, "text/plain": PLAIN_TEXT, "a body over 1 MiB": OVER_1_MIB, "malformed multipart": MALFORMED_MULTIPART };

function expectRefusal(reply: { status: number; body: any }, status: number, code: string) {
  expect(reply.status).toBe(status);
  expect(reply.body).toEqual({ description: expect.any(String), errors: [expect.objectContaining({ code })] });
}

/**
 * A multipart body of `megabytes` MB that the test produces as it is pulled, counting how much the
 * Worker read of it before answering.
 */
function countedMultipart(megabytes: number) {
  const boundary = "counted-boundary";
  const head = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="attachments[]"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const chunk = new Uint8Array(64 * 1024).fill(120);
  const tail = new TextEncoder().encode(`\r\n--${boundary}--\r\n`);
  const total = megabytes * 1024 * 1024;
  const pulled = { bytes: 0 };
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === 0) controller.enqueue(head);
      if (sent >= total) {
        controller.enqueue(tail);
        controller.close();
        return;
      }
      controller.enqueue(chunk);
      sent += chunk.length;
      pulled.bytes = sent;
    },
  });
  return { body, pulled, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function send(method: string, path: string, init: { body: BodyInit; headers: Record<string, string> }) {
  const res = await exports.default.fetch(new Request(`https://desk.test${path}`, { method, headers: init.headers, body: init.body }));
  return { status: res.status, body: await res.json<any>() };
}

async function contactCount() {
  const row = await (await shardOf(world.accountId)).prepare("SELECT count(*) AS n FROM contacts WHERE account_id = ?").bind(world.accountId).first<{ n: number }>();
  return row!.n;
}

describe("a body is read only after authentication", () => {
  for (const [name, body] of Object.entries(BAD_BODIES)) {
    it(`answers an account route without a key 401, not parsing ${name}`, async () => {
      const before = await contactCount();
      expectRefusal(await call("POST", `${world.base}/contacts`, body), 401, "missing_key");
      expectRefusal(await call("POST", `${world.base}/contacts`, { ...body, key: "not-a-key" }), 401, "invalid_key");
      expect(await contactCount()).toBe(before);
    });
  }

  it("answers the platform API and the profile without a key 401 before reading the body", async () => {
    expectRefusal(await call("POST", "/platform/api/v1/accounts", OVER_1_MIB), 401, "missing_key");
    expectRefusal(await call("POST", "/platform/api/v1/accounts", MALFORMED_JSON), 401, "missing_key");
    expectRefusal(await call("PUT", "/api/v1/profile", MALFORMED_JSON), 401, "missing_key");
    expectRefusal(await call("PUT", "/api/v1/profile", { ...PLAIN_TEXT, key: world.platformKey }), 403, "wrong_key_type");
    expect((await get("/platform/api/v1/accounts", world.platformKey)).body).toHaveLength(1);
  });

  it("answers a huge multipart upload without a key 401, having read next to nothing of it", async () => {
    const upload = countedMultipart(24);
    const reply = await send("POST", `${world.base}/conversations/1/messages`, { body: upload.body, headers: { "content-type": upload.contentType } });
    expectRefusal(reply, 401, "missing_key");
    // the runtime may buffer a little ahead of the Worker; parsing would have pulled all 24 MB
    expect(upload.pulled.bytes).toBeLessThan(2 * 1024 * 1024);
  });

  it("answers a route that does not exist 404 without reading its body", async () => {
    expectRefusal(await call("POST", `${world.base}/no_such_thing`, { ...MALFORMED_JSON, key: world.admin.key }), 404, "route_not_found");
    expectRefusal(await call("POST", "/nowhere", OVER_1_MIB), 404, "route_not_found");
  });

  it("still reads the body of an authenticated request: 400, 415 and 413 as before", async () => {
    const before = await contactCount();
    const key = world.admin.key;
    expectRefusal(await call("POST", `${world.base}/contacts`, { ...MALFORMED_JSON, key }), 400, "malformed_body");
    expectRefusal(await call("POST", `${world.base}/contacts`, { ...PLAIN_TEXT, key }), 415, "unsupported_media_type");
    expectRefusal(await call("POST", `${world.base}/contacts`, { ...OVER_1_MIB, key }), 413, "body_too_large");
    expectRefusal(await call("POST", `${world.base}/contacts`, { ...MALFORMED_MULTIPART, key }), 400, "malformed_body");
    expect(await contactCount()).toBe(before);
  });
});

describe("a public body is read only after the inbox is known", () => {
  const unknown = "/public/api/v1/inboxes/no-such-inbox";

  for (const [name, body] of Object.entries(BAD_BODIES)) {
    it(`answers an unknown inbox 404, not parsing ${name}`, async () => {
      const before = await contactCount();
      expectRefusal(await call("POST", `${unknown}/contacts`, body), 404, "not_found");
      expectRefusal(await call("PATCH", `${unknown}/contacts/someone`, body), 404, "not_found");
      expectRefusal(await call("POST", `${unknown}/contacts/someone/conversations/1/messages`, body), 404, "not_found");
      expect(await contactCount()).toBe(before);
    });
  }

  it("answers a huge multipart message to an unknown inbox 404, having read next to nothing of it", async () => {
    const upload = countedMultipart(24);
    const reply = await send("POST", `${unknown}/contacts/someone/conversations/1/messages`, { body: upload.body, headers: { "content-type": upload.contentType } });
    expectRefusal(reply, 404, "not_found");
    expect(upload.pulled.bytes).toBeLessThan(2 * 1024 * 1024);
  });

  it("looks a known inbox up once: a widget's next writes cost the round trips they did before the check", async () => {
    const roundTrips = (headers: Headers) => Number(/db-round-trips;desc="(\d+)"/.exec(headers.get("server-timing") ?? "")![1]);
    const fresh = await publicInbox(world.accountId);
    const conversation = await visitorConversation(fresh);
    // a platform key shows a keyless route's cost (docs/api.md "Errors"); the route itself ignores it
    const typing = await post(`${conversation.path}/toggle_typing`, world.platformKey, { typing_status: "on" });
    expect(typing.status).toBe(200);
    // the chain (inbox, contact inbox, conversation) in one batch, and no separate inbox check
    expect(roundTrips(typing.headers)).toBe(1);
  });

  it("still reads the body for a known inbox: 400, 415 and 413 as before", async () => {
    const before = await contactCount();
    expectRefusal(await call("POST", `${inbox.base}/contacts`, MALFORMED_JSON), 400, "malformed_body");
    expectRefusal(await call("POST", `${inbox.base}/contacts`, PLAIN_TEXT), 415, "unsupported_media_type");
    expectRefusal(await call("POST", `${inbox.base}/contacts`, OVER_1_MIB), 413, "body_too_large");
    expect(await contactCount()).toBe(before);
  });
});
