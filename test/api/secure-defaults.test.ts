import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, createPlatformApp, get } from "../support/http";

const platformKey = await createPlatformApp();

describe("secure defaults", () => {
  it("sends the secure headers on a JSON answer, an error and an unknown route", async () => {
    for (const res of [await get("/api"), await get("/platform/api/v1/accounts", null), await get("/no/such/route")]) {
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("x-frame-options")).toBe("SAMEORIGIN");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(res.headers.get("strict-transport-security")).toContain("max-age=");
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      // a JSON answer opened as a document can run and load nothing
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    }
  });

  it("gives every HTML page a content security policy: scripts only from this origin, none inline, no framing", async () => {
    const directives = (policy: string | null) => new Map((policy ?? "").split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values] as const));
    for (const path of ["/", "/agent-demo", "/widget-demo", "/survey/responses/00000000-0000-4000-8000-000000000000"]) {
      const res = await call("GET", path, { headers: { accept: "text/html" } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type"), path).toMatch(/^text\/html/);
      const policy = directives(res.headers.get("content-security-policy"));
      expect(policy.get("default-src"), path).toEqual(["'none'"]);
      expect(policy.get("frame-ancestors"), path).toEqual(["'none'"]);
      expect(policy.get("base-uri"), path).toEqual(["'none'"]);
      for (const source of policy.get("script-src") ?? []) expect(source, path).toBe("'self'");
    }
  });

  it("builds every page on the page kit: its stylesheet from this origin, which each page's policy lets load", async () => {
    const directives = (policy: string | null) => new Map((policy ?? "").split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values] as const));
    for (const path of ["/", "/agent-demo", "/widget-demo", "/survey/responses/00000000-0000-4000-8000-000000000000", "/hc/no-such-portal/en"]) {
      const res = await call("GET", path, { headers: { accept: "text/html" } });
      expect(res.headers.get("content-type"), path).toMatch(/^text\/html/);
      const page = res.body as string;
      expect(page, path).toContain('<link rel="stylesheet" href="/kit/page.css">');
      // one skeleton: the kit's head, once
      expect(page.match(/<meta name="viewport"/g), path).toHaveLength(1);
      expect(directives(res.headers.get("content-security-policy")).get("style-src"), path).toContain("'self'");
    }
  });

  it("lets the widget demo load the widget from another loopback origin only when the page itself is opened on a loopback address", async () => {
    const demo = async (origin: string) => {
      const res = await exports.default.fetch(new Request(`${origin}/widget-demo?base=${encodeURIComponent("http://127.0.0.1:8787")}`, { headers: { accept: "text/html" } }));
      return { html: await res.text(), scripts: res.headers.get("content-security-policy")!.split(";").find((d) => d.trim().startsWith("script-src"))!.trim() };
    };
    // a deployed page, where an administrator types their key: its scripts come from its own origin only
    const deployed = await demo("https://desk.test");
    expect(deployed.scripts).toBe("script-src 'self'");
    expect(deployed.html).toContain('data-base="https://desk.test"');
    const local = await demo("http://localhost:8787");
    expect(local.scripts).toBe("script-src 'self' http://127.0.0.1:8787");
    expect(local.html).toContain('data-base="http://127.0.0.1:8787"');
  });

  it("answers markup in a stored value as JSON that no browser treats as HTML", async () => {
    const created = await call("POST", "/platform/api/v1/accounts", { key: platformKey, body: { name: "<script>alert(1)</script>" } });
    expect(created.status).toBe(200);
    const res = await get(`/platform/api/v1/accounts/${created.body.id}`, platformKey);
    expect(res.body.name).toBe("<script>alert(1)</script>");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("keeps a well-formed caller X-Request-Id and echoes it", async () => {
    const res = await call("GET", "/api", { headers: { "x-request-id": "client-req_42=abc" } });
    expect(res.headers.get("x-request-id")).toBe("client-req_42=abc");
  });

  it("replaces a malformed or oversized X-Request-Id with its own", async () => {
    for (const sent of ["has spaces", "<script>", "x".repeat(129), "newline\tid"]) {
      const res = await call("GET", "/api", { headers: { "x-request-id": sent } });
      const echoed = res.headers.get("x-request-id")!;
      expect(echoed).not.toBe(sent);
      expect(echoed).toMatch(/^[0-9a-f-]{36}$/);
    }
    const longest = "y".repeat(128);
    expect((await call("GET", "/api", { headers: { "x-request-id": longest } })).headers.get("x-request-id")).toBe(longest);
  });
});
