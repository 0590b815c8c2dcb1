/**
 * The /widget-demo page in headless Chromium (the binary inside the @sparticuz/chromium package: no
 * download at run time), against `npm start`: typing in one pane shows "typing…" in the other, and
 * messages appear live in both, in each direction.
 */
import { randomUUID } from "node:crypto";
import type { Page } from "puppeteer-core";
import { describe, expect, it } from "vitest";
import { serverAndBrowser } from "./browser";
import { call } from "./server";

const e2e = serverAndBrowser();

async function setUp() {
  const account = await call(e2e.server.base, "POST", "/platform/api/v1/accounts", e2e.token, { name: "Demo shop" });
  const user = await call(e2e.server.base, "POST", "/platform/api/v1/users", e2e.token, { name: "Alex Agent", email: `alex.${randomUUID()}@example.com`, password: "Passw0rd!long" });
  await call(e2e.server.base, "POST", `/platform/api/v1/accounts/${account.body.id}/account_users`, e2e.token, { user_id: user.body.id, role: "administrator" });
  const key: string = user.body.access_token;
  const inbox = await call(e2e.server.base, "POST", `/api/v1/accounts/${account.body.id}/inboxes`, key, { name: "Website chat", channel: { type: "api" } });
  expect(inbox.status).toBe(200);
  return { accountId: account.body.id as number, key, inboxId: inbox.body.id as number };
}

const text = (page: Page, id: string) => page.$eval(`#${id}`, (e) => e.textContent ?? "");

/** Waits until the element's text contains `expected`; answers how long that took. */
async function waitForText(page: Page, id: string, expected: string, timeout = 3000) {
  const started = Date.now();
  await page.waitForFunction((i, t) => (document.getElementById(i)?.textContent ?? "").includes(t), { timeout, polling: 25 }, id, expected);
  return Date.now() - started;
}

describe("/widget-demo", () => {
  it("shows typing and messages live between the visitor pane and the agent pane", async () => {
    const { accountId, key, inboxId } = await setUp();
    const page = await e2e.newPage();
    await page.goto(`${e2e.server.base}/widget-demo`);
    await page.type("#account", String(accountId));
    await page.type("#key", key);
    await page.type("#inbox", String(inboxId));
    await page.$eval("#visitor-name", (e) => ((e as HTMLInputElement).value = "Vera Visitor"));
    await page.click("#start");
    await page.waitForSelector("body[data-ready=true]", { timeout: 15_000 });

    // visitor -> agent
    await page.type("#visitor-input", "Where is my ord");
    const typingShown = await waitForText(page, "agent-typing", "Vera Visitor is typing");
    expect(typingShown).toBeLessThan(3000);
    expect(await text(page, "visitor-typing")).toBe(""); // nobody sees their own typing
    await page.type("#visitor-input", "er?");
    await page.click("#visitor-send");
    await waitForText(page, "agent-log", "Vera Visitor: Where is my order?");
    await waitForText(page, "visitor-log", "Vera Visitor: Where is my order?");
    await page.waitForFunction(() => document.getElementById("agent-typing")?.textContent === "", { timeout: 3000 });

    // agent -> visitor
    await page.type("#agent-input", "It ships tomo");
    await waitForText(page, "visitor-typing", "Alex Agent is typing");
    await page.type("#agent-input", "rrow.");
    await page.click("#agent-send");
    await waitForText(page, "visitor-log", "Alex Agent: It ships tomorrow.");
    await waitForText(page, "agent-log", "Alex Agent: It ships tomorrow.");

    // a private note stays in the agent pane
    await page.click("#agent-private");
    await page.type("#agent-input", "VIP customer");
    await page.click("#agent-send");
    await waitForText(page, "agent-log", "VIP customer (private)");
    await new Promise((r) => setTimeout(r, 500));
    expect(await text(page, "visitor-log")).not.toContain("VIP customer");
    await page.close();
  });
});
