import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../src/http/app-env";
import { acceptFiles, routeBody } from "../../src/http/body";
import { renderError } from "../../src/http/errors";

/** A small app with the service's body plumbing: one route that takes files, one that does not. */
const app = new Hono<AppEnv>()
  .use("*", routeBody)
  .post("/with-files", acceptFiles({ maxBodyBytes: 1024 * 1024 }), async (c) =>
    c.json({
      body: await c.req.json(),
      uploads: await Promise.all(c.var.uploads.map(async (u) => ({ field: u.field, name: u.file.name, text: await u.file.text() }))),
    }),
  )
  .post("/without-files", async (c) => c.json({ body: await c.req.json(), uploads: c.var.uploads.length }))
  .onError(renderError);

function multipart() {
  const form = new FormData();
  form.append("content", "hello");
  form.append("attachments[]", new File(["first file"], "a.txt", { type: "text/plain" }));
  form.append("attachments[]", new File(["second file"], "b.txt", { type: "text/plain" }));
  return form;
}

describe("multipart bodies", () => {
  it("hand a route that declares acceptFiles() its files, outside the JSON body", async () => {
    const res = await app.request("/with-files", { method: "POST", body: multipart() });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      body: { content: "hello" },
      uploads: [
        { field: "attachments[]", name: "a.txt", text: "first file" },
        { field: "attachments[]", name: "b.txt", text: "second file" },
      ],
    });
  });

  it("drop the files for every other route and keep the fields", async () => {
    const res = await app.request("/without-files", { method: "POST", body: multipart() });
    expect(await res.json()).toEqual({ body: { content: "hello" }, uploads: 0 });
  });
});
