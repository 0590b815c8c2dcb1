/**
 * The /widget-demo page in headless Chromium against `npm start`: a host page that embeds the website
 * widget with the snippet, opened on one origin of the server (127.0.0.1) with the snippet pointed at the
 * other (localhost), so the widget is a cross-site frame as on a customer's website; the agent's side beside
 * it. Typing in one side shows in the other, and messages appear live in both, in each direction; a
 * private note stays on the agent's side.
 */
import { randomUUID } from "node:crypto";
import type { Page } from "puppeteer-core";
import { describe, expect, it } from "vitest";
import { serverAndBrowser } from "./browser";
import { call } from "./server";
import { composer, must, openWidget, waitForText, widgetFrame } from "./widget-host";

const e2e = serverAndBrowser();

async function setUp() {
  const base = e2e.server.base;
  const account = await must(call(base, "POST", "/platform/api/v1/accounts", e2e.token, { name: "Demo bakery" }), "account");
  const user = await must(call(base, "POST", "/platform/api/v1/users", e2e.token, { name: "Alex Agent", email: `alex.${randomUUID()}@example.com`, password: "Passw0rd!long" }), "user");
  await must(call(base, "POST", `/platform/api/v1/accounts/${account.id}/account_users`, e2e.token, { user_id: user.id, role: "administrator" }), "member");
  return { accountId: account.id as number, key: user.access_token as string };
}

const text = (page: Page, id: string) => page.$eval(`#${id}`, (e) => e.textContent ?? "");

/** The same server under its other loopback name: the demo page's own origin, the snippet's base another site. */
const otherOrigin = (base: string) => base.replace("//localhost:", "//127.0.0.1:");

describe("/widget-demo", () => {
  it("embeds the widget with the snippet from another origin, with typing and messages live between the widget and the agent", async () => {
    const { accountId, key } = await setUp();
    const demoOrigin = otherOrigin(e2e.server.base);
    expect(demoOrigin).not.toBe(e2e.server.base);
    const page = await e2e.newPage({ alsoAllowed: [demoOrigin] });
    await page.goto(`${demoOrigin}/widget-demo?base=${encodeURIComponent(e2e.server.base)}`);
    await page.type("#account", String(accountId));
    await page.type("#key", key);
    await page.type("#visitor-name", "Vera Visitor");
    await page.click("#start");
    await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 }).catch(async (error) => {
      throw new Error(`the demo did not start: ${await text(page, "status")}`, { cause: error });
    });

    // the page made its website inbox, and the loader came from the snippet's base
    const inboxes = await must(call(e2e.server.base, "GET", `/api/v1/accounts/${accountId}/inboxes`, key), "inboxes");
    const inbox = inboxes.payload.find((i: any) => i.name === "Demo website");
    expect(inbox.website_token).toBe(await page.$eval("body", (b) => b.dataset.websiteToken));
    const frame = await widgetFrame(page);
    expect(new URL(frame.url()).origin).toBe(e2e.server.base);
    expect(await page.$eval("script[src$='/packs/js/sdk.js']", (s) => (s as HTMLScriptElement).src)).toBe(`${e2e.server.base}/packs/js/sdk.js`);

    // visitor -> agent: the first message starts the conversation the agent's side follows
    await openWidget(page);
    const box = await composer(frame);
    await box.type("Hello!");
    await box.press("Enter");
    await waitForText(page, "Vera Visitor: Hello!");
    // then typing, and the next message, on the agent's side
    await box.type("Where is my ord", { delay: 60 }); // as a person types
    await page.waitForFunction(() => (document.getElementById("agent-typing")?.textContent ?? "").includes("is typing"), { timeout: 5000 });
    await box.type("er?");
    await box.press("Enter");
    await waitForText(page, "Vera Visitor: Where is my order?");
    await waitForText(frame, "Where is my order?");
    await page.waitForFunction(() => document.getElementById("agent-typing")?.textContent === "", { timeout: 5000 });

    // agent -> visitor: typing in the widget, then the reply
    await page.type("#agent-input", "It ships tomo");
    await waitForText(frame, "Alex Agent is typing");
    await page.type("#agent-input", "rrow.");
    await page.click("#agent-send");
    await waitForText(frame, "It ships tomorrow.");
    await waitForText(page, "Alex Agent: It ships tomorrow.");

    // a private note stays on the agent's side
    await page.click("#agent-private");
    await page.type("#agent-input", "VIP customer");
    await page.click("#agent-send");
    await waitForText(page, "VIP customer (private)");
    await new Promise((r) => setTimeout(r, 800));
    expect(await frame.evaluate(() => document.body.innerText)).not.toContain("VIP customer");
    expect(await text(page, "agent-log")).toContain("Vera Visitor: Where is my order?");
    await page.close();
  });

  it("points the snippet at this origin unless ?base= names a loopback origin", async () => {
    const policy = async (query: string) => {
      const res = await fetch(`${e2e.server.base}/widget-demo${query}`);
      const html = await res.text();
      return { csp: res.headers.get("content-security-policy") ?? "", base: /data-base="([^"]*)"/.exec(html)?.[1] };
    };
    const own = await policy("");
    expect(own.base).toBe(e2e.server.base);
    expect(own.csp).toContain("script-src 'self';");
    const other = otherOrigin(e2e.server.base);
    const loopback = await policy(`?base=${encodeURIComponent(other)}`);
    expect(loopback.base).toBe(other);
    expect(loopback.csp).toContain(`script-src 'self' ${other};`);
    expect(loopback.csp).toContain(`frame-src 'self' ${other};`);
    for (const hostile of ["https://evil.example", "javascript:alert(1)", "http://127.0.0.1.evil.example", "not a url"]) {
      const answer = await policy(`?base=${encodeURIComponent(hostile)}`);
      expect(answer.base, hostile).toBe(e2e.server.base);
      expect(answer.csp, hostile).toContain("script-src 'self';");
    }
  });
});
