/**
 * The CSAT survey page (/survey/responses/{uuid}) in headless Chromium, against `npm start`: a contact
 * opens the link of a resolved conversation, rates it with a comment, sees the thanks, and the agents'
 * API shows the rating; the link of a rating clicked in an e-mail (#rating-N) preselects it; an unknown
 * link says so.
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

async function setUp() {
  const { base } = e2e.server;
  const account = await ok(call(base, "POST", "/platform/api/v1/accounts", e2e.token, { name: "Survey shop" }));
  const user = await ok(call(base, "POST", "/platform/api/v1/users", e2e.token, { name: "Ada Admin", email: `ada.${randomUUID()}@example.com`, password: "Passw0rd!long" }));
  await ok(call(base, "POST", `/platform/api/v1/accounts/${account.id}/account_users`, e2e.token, { user_id: user.id, role: "administrator" }));
  const key: string = user.access_token;
  const accountPath = `/api/v1/accounts/${account.id}`;
  const inbox = await ok(call(base, "POST", `${accountPath}/inboxes`, key, { name: "Mail-ish", channel: { type: "api" } }));
  await ok(call(base, "PATCH", `${accountPath}/inboxes/${inbox.id}`, key, { csat_survey_enabled: true, csat_config: { message: "How did we do today?" } }));

  /** A resolved conversation of a new visitor: answers its uuid. */
  async function resolvedConversation() {
    const publicInbox = `/public/api/v1/inboxes/${inbox.inbox_identifier}`;
    const visitor = await ok(call(base, "POST", `${publicInbox}/contacts`, undefined, { name: "Carla Customer" }));
    const conversation = await ok(call(base, "POST", `${publicInbox}/contacts/${visitor.source_id}/conversations`, undefined, {}));
    await ok(call(base, "POST", `${accountPath}/conversations/${conversation.id}/toggle_status`, key, { status: "resolved" }));
    return { uuid: conversation.uuid as string, displayId: conversation.id as number };
  }
  return { key, accountPath, resolvedConversation };
}

const text = (page: Page, selector: string) => page.$eval(selector, (e) => e.textContent ?? "");
const pressed = (page: Page) => page.$$eval("#ratings button[aria-pressed=true]", (buttons) => buttons.map((b) => (b as HTMLElement).dataset.rating));

describe("the CSAT survey page", () => {
  it("takes a rating with a comment, thanks the contact and shows the answer to the agents", async () => {
    const { key, accountPath, resolvedConversation } = await setUp();
    const conversation = await resolvedConversation();
    const page = await e2e.newPage();
    const failed: string[] = [];
    page.on("requestfailed", (request) => failed.push(request.url()));
    await page.goto(`${e2e.server.base}/survey/responses/${conversation.uuid}`);
    await page.waitForSelector("body[data-state=ready]", { timeout: 10_000 });
    expect(await text(page, "#question")).toBe("How did we do today?");
    expect(await page.$eval("#send", (b) => (b as HTMLButtonElement).disabled)).toBe(true);

    await page.click("#ratings button[data-rating='4']");
    await page.type("#feedback", "Quick and friendly");
    await page.click("#send");
    await page.waitForFunction(() => document.getElementById("status")?.textContent === "Thank you for your feedback.", { timeout: 5000 });

    const responses = await ok(call(e2e.server.base, "GET", `${accountPath}/csat_survey_responses`, key));
    expect(responses).toMatchObject([{ rating: 4, feedback_message: "Quick and friendly", conversation_id: conversation.displayId }]);

    // opened again, the page shows the answer given
    await page.reload();
    await page.waitForSelector("body[data-state=ready]", { timeout: 10_000 });
    expect(await pressed(page)).toEqual(["4"]);
    expect(await page.$eval("#feedback", (t) => (t as HTMLTextAreaElement).value)).toBe("Quick and friendly");
    expect(failed).toEqual([]);
    await page.close();
  });

  it("preselects the rating a link names, and says when a survey does not exist", async () => {
    const { resolvedConversation } = await setUp();
    const conversation = await resolvedConversation();
    const page = await e2e.newPage();
    await page.goto(`${e2e.server.base}/survey/responses/${conversation.uuid}#rating-2`);
    await page.waitForSelector("body[data-state=ready]", { timeout: 10_000 });
    expect(await pressed(page)).toEqual(["2"]);
    expect(await page.$eval("#send", (b) => (b as HTMLButtonElement).disabled)).toBe(false);

    await page.goto(`${e2e.server.base}/survey/responses/${crypto.randomUUID()}`);
    await page.waitForSelector("body[data-state=error]", { timeout: 10_000 });
    expect(await text(page, "#question")).toBe("This survey does not exist.");
    expect(await page.$("#survey:not([hidden])")).toBeNull();
    await page.close();
  });
});
