/**
 * The API document and its reference page against `npm start`: the document is valid OpenAPI 3.1 (by an
 * OpenAPI validator, here in Node because it compiles schemas), its introduction is the README's tour
 * and docs/api.md's surfaces and keys,
 * and /docs, opened without a key in headless Chromium, lists the create-message operation with
 * everything it loads coming from the server itself (browser.ts fails a test on any other request) and
 * nothing refused by its content security policy.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { API_SURFACES, README_TOUR } from "../../src/docs/introduction";
import { serverAndBrowser } from "./browser";
import { root } from "./server";

const e2e = serverAndBrowser();

/** A section's body in a Markdown file of the project, between its heading and the next one. */
function section(file: string, heading: string): string {
  const text = readFileSync(join(root, file), "utf8");
  const start = text.indexOf(`\n## ${heading}\n`);
  expect(start, `${file} has a section "${heading}"`).toBeGreaterThan(-1);
  const next = text.indexOf("\n## ", start + 1);
  return text.slice(start, next === -1 ? undefined : next).split("\n").slice(2).join("\n").trim();
}

describe("the API document and /docs", () => {
  it("is valid OpenAPI 3.1 according to an OpenAPI validator", async () => {
    const res = await fetch(`${e2e.server.base}/openapi.json`);
    expect(res.status).toBe(200);
    const document = await res.json();
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe("3.1.0");
  });

  it("introduces the API with the README's tour and docs/api.md's surfaces and keys, word for word", async () => {
    expect(README_TOUR).toBe(section("README.md", "A first tour"));
    expect(API_SURFACES).toBe(section("docs/api.md", "Surfaces and keys"));
    const document = await (await fetch(`${e2e.server.base}/openapi.json`)).json();
    expect(document.info.description).toContain(README_TOUR);
  });

  it("serves /docs without a key, and the page lists the create-message operation", async () => {
    const page = await e2e.newPage();
    const failures: string[] = [];
    page.on("pageerror", (error) => failures.push(String(error)));
    // a script, style or font the content security policy refused shows as a console error
    page.on("console", (message) => {
      if (message.type() === "error" && /Content Security Policy/i.test(message.text())) failures.push(message.text());
    });
    const res = await page.goto(`${e2e.server.base}/docs`);

    expect(res?.status()).toBe(200);
    // the sidebar lists the tags, each folded: open the conversations tag (messages live under it)
    const sidebar = () => page.evaluate(() => document.querySelector("aside")?.innerText ?? "");
    await page.waitForFunction(() => (document.querySelector("aside")?.innerText ?? "").includes("Account: conversations"), { timeout: 60_000, polling: 250 });
    await page.evaluate(() => {
      const controls = [...document.querySelectorAll<HTMLElement>("aside button, aside [role=button], aside a")];
      const toggle = controls.find((e) => `${e.getAttribute("aria-label") ?? ""} ${e.textContent ?? ""}`.includes("Account: conversations"));
      toggle?.click();
    });
    await page.waitForFunction(() => (document.querySelector("aside")?.innerText ?? "").includes("Create a message"), { timeout: 30_000, polling: 250 });
    expect(await sidebar()).toContain("Create a message");
    expect(await page.evaluate(() => document.body.innerText)).toContain("edgedesk API");
    expect(failures).toEqual([]);
    await page.close();
  });

  it("answers / with a page whose links to the docs and demos all work", async () => {
    const page = await e2e.newPage();
    const res = await page.goto(`${e2e.server.base}/`);
    expect(res?.status()).toBe(200);
    const links = await page.$$eval("a", (anchors) => anchors.map((a) => (a as HTMLAnchorElement).href));
    expect(links.map((l) => new URL(l).pathname)).toEqual(["/docs", "/openapi.json", "/widget-demo", "/agent-demo"]);
    for (const link of links) expect((await fetch(link)).status, link).toBe(200);
    // the page kit's stylesheet came from the server (a static asset), and the page's policy let it in
    const kit = await page.evaluate(() => [...document.styleSheets].filter((s) => s.href?.endsWith("/kit/page.css")).map((s) => s.cssRules.length));
    expect(kit).toHaveLength(1);
    expect(kit[0]).toBeGreaterThan(0);
    const stylesheet = await fetch(`${e2e.server.base}/kit/page.css`);
    expect(stylesheet.headers.get("content-type")).toMatch(/^text\/css/);
    expect(stylesheet.headers.get("x-content-type-options")).toBe("nosniff");
    expect(stylesheet.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    await page.close();
  });
});

