/**
 * The API document and its reference page against `npm start`: the document is valid OpenAPI 3.1 (by an
 * OpenAPI validator, here in Node because it compiles schemas), its introduction is the README's tour,
 * and /docs, opened without a key in headless Chromium, lists the create-message operation.
 *
 * The page loads Scalar's script from its CDN; tests never reach the network, so the browser is served
 * the same script from the @scalar/api-reference package instead.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { README_SURFACES, README_TOUR } from "../../src/docs/introduction";
import { serverAndBrowser } from "./browser";
import { root } from "./server";

const scalarBuild = join(root, "node_modules/@scalar/api-reference/dist/browser");
/** The package file a CDN path of @scalar/api-reference stands for (esm.js is the module build). */
const scalarFile = (path: string) => {
  const rest = path.replace(/^\/npm\/@scalar\/api-reference(@[^/]*)?\/?/, "");
  if (rest === "" ) return join(scalarBuild, "standalone.js");
  if (rest === "esm.js") return join(scalarBuild, "standalone.esm.js");
  return join(scalarBuild, rest);
};
const e2e = serverAndBrowser("docs");

/** A README section's body, between its heading and the next one. */
function readmeSection(heading: string): string {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const start = readme.indexOf(`\n## ${heading}\n`);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end).split("\n").slice(2).join("\n").trim();
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

  it("introduces the API with the README's tour and its surfaces and keys, word for word", async () => {
    expect(README_TOUR).toBe(readmeSection("A first tour"));
    expect(README_SURFACES).toBe(readmeSection("Surfaces and keys"));
    const document = await (await fetch(`${e2e.server.base}/openapi.json`)).json();
    expect(document.info.description).toContain(README_TOUR);
  });

  it("serves /docs without a key, and the page lists the create-message operation", async () => {
    const page = await e2e.browser.newPage();
    await page.setRequestInterception(true);
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.hostname === "localhost") return request.continue();
      if (url.hostname === "cdn.jsdelivr.net" && url.pathname.startsWith("/npm/@scalar/api-reference")) {
        return request.respond({ status: 200, contentType: "text/javascript", body: readFileSync(scalarFile(url.pathname)) });
      }
      return request.abort(); // fonts and anything else from outside: the test stays offline
    });
    const failures: string[] = [];
    page.on("pageerror", (error) => failures.push(String(error)));
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
});
