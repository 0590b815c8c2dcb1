/**
 * The public help-center site (/hc/{portal_slug}) in headless Chromium, against `npm start`: a reader
 * opens the portal, searches with the search box, opens an article whose Markdown carries XSS payloads,
 * and nothing from the article runs; no page logs an error or loads anything from another origin.
 */
import { randomUUID } from "node:crypto";
import type { Page } from "puppeteer-core";
import { describe, expect, it } from "vitest";
import { serverAndBrowser } from "./browser";
import { call } from "./server";

const e2e = serverAndBrowser();

async function ok(promise: ReturnType<typeof call>) {
  const res = await promise;
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const PAYLOAD = [
  "# Reset your password",
  "",
  "Open **Settings**, then choose *Password*.",
  "",
  "<script>window.__xss = 'script'</script>",
  '<img src=x onerror="window.__xss = \'img\'">',
  '<svg onload="window.__xss = \'svg\'"></svg>',
  '<a href="/" onmouseover="window.__xss = \'hover\'" id="hover-me">hover</a>',
  "[click me](javascript:window.__xss='link')",
  '<iframe srcdoc="<script>parent.__xss = \'iframe\'</script>"></iframe>',
  '<details open ontoggle="window.__xss = \'details\'">x</details>',
].join("\n");

async function setUp() {
  const { base } = e2e.server;
  const account = await ok(call(base, "POST", "/platform/api/v1/accounts", e2e.token, { name: "Help shop" }));
  const user = await ok(call(base, "POST", "/platform/api/v1/users", e2e.token, { name: "Ada Admin", email: `ada.${randomUUID()}@example.com`, password: "Passw0rd!long" }));
  await ok(call(base, "POST", `/platform/api/v1/accounts/${account.id}/account_users`, e2e.token, { user_id: user.id, role: "administrator" }));
  const key: string = user.access_token;
  const slug = `help-${Date.now()}`;
  const portals = `/api/v1/accounts/${account.id}/portals`;
  await ok(call(base, "POST", portals, key, { name: "Help shop docs", slug, header_text: "How can we help you?", color: "#7c3aed" }));
  const category = await ok(call(base, "POST", `${portals}/${slug}/categories`, key, { name: "Your account", slug: "account" }));
  const article = (body: Record<string, unknown>) => ok(call(base, "POST", `${portals}/${slug}/articles`, key, { category_id: category.payload.id, ...body }));
  await article({ title: "Reset your password", slug: "reset-password", content: PAYLOAD, status: 1 });
  await article({ title: "Change your e-mail", slug: "change-email", content: "Open your profile.", status: 1 });
  await article({ title: "Password policy draft", slug: "password-draft", content: "Not yet.", status: 0 });
  return { slug };
}

/** Errors a page threw or logged while the test used it. */
function watchErrors(page: Page) {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  return errors;
}

const text = (page: Page, selector: string) => page.$eval(selector, (e) => e.textContent?.trim() ?? "");

describe("the help-center site", () => {
  it("shows the portal, finds an article with the search box and shows it without running its scripts", async () => {
    const { slug } = await setUp();
    const page = await e2e.newPage();
    const errors = watchErrors(page);

    await page.goto(`${e2e.server.base}/hc/${slug}`);
    expect(new URL(page.url()).pathname).toBe(`/hc/${slug}/en`);
    expect(await page.title()).toBe("Help shop docs");
    expect(await text(page, "header h1")).toBe("How can we help you?");
    expect(await page.$eval("header", (e) => getComputedStyle(e).backgroundColor)).toBe("rgb(124, 58, 237)");
    expect(await text(page, "section.category h2")).toBe("Your account");
    const listed = await page.$$eval("section.category li a", (links) => links.map((a) => a.textContent));
    expect(listed.sort()).toEqual(["Change your e-mail", "Reset your password"]);

    await page.type("input[name=query]", "password");
    await Promise.all([page.waitForNavigation(), page.click("form.search button")]);
    expect(new URL(page.url()).pathname).toBe(`/hc/${slug}/en/articles`);
    const results = await page.$$eval("section.results li > a", (links) => links.map((a) => a.textContent));
    expect(results).toEqual(["Reset your password"]);
    expect(await page.$eval("input[name=query]", (i) => (i as HTMLInputElement).value)).toBe("password");

    await Promise.all([page.waitForNavigation(), page.click("section.results li > a")]);
    expect(new URL(page.url()).pathname).toBe(`/hc/${slug}/articles/reset-password`);
    expect(await page.title()).toBe("Reset your password | Help shop docs");
    expect(await text(page, "article .content h1")).toBe("Reset your password");
    expect(await text(page, "article .content strong")).toBe("Settings");
    await page.hover("#hover-me").catch(() => undefined);
    await page.click("details").catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
    expect(await page.$$("article script, article iframe, article svg, article [onerror], article [onload], article [onmouseover]")).toHaveLength(0);
    expect(await page.$$eval("article a", (links) => links.map((a) => a.getAttribute("href") ?? "").filter((h) => /script:/i.test(h)))).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("answers the 404 page for a draft", async () => {
    const { slug } = await setUp();
    const page = await e2e.newPage();
    const res = await page.goto(`${e2e.server.base}/hc/${slug}/articles/password-draft`);
    expect(res?.status()).toBe(404);
    expect(await text(page, "h1")).toBe("Page not found");
    await page.close();
  });
});
