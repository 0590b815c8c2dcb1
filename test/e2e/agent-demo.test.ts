/**
 * The /agent-demo page in headless Chromium against `npm start`: two agents signed in on two pages (with
 * their e-mail and password, as Chatwoot's apps sign in), each page following the account over /cable.
 * One agent's change shows live on the other's page, the other's presence dot turns green, and an
 * assignment brings the assignee a notification and an unread badge.
 */
import { randomUUID } from "node:crypto";
import type { Page } from "puppeteer-core";
import { describe, expect, it } from "vitest";
import { serverAndBrowser } from "./browser";
import { call } from "./server";

const PASSWORD = "Passw0rd!long";
const e2e = serverAndBrowser();

async function must(reply: Promise<{ status: number; body: any }>, what: string) {
  const { status, body } = await reply;
  if (status !== 200) throw new Error(`${what}: ${status} ${JSON.stringify(body)}`);
  return body;
}

/** An account with an administrator and an agent, both members of one inbox (assigned by hand) with one open conversation. */
async function setUp() {
  const platform = (method: string, path: string, body?: unknown) => must(call(e2e.server.base, method, `/platform/api/v1${path}`, e2e.token, body), path);
  const account = await platform("POST", "/accounts", { name: "Demo shop" });
  const person = async (name: string, role: string) => {
    const email = `${name.split(" ")[0].toLowerCase()}.${randomUUID()}@example.com`;
    const user = await platform("POST", "/users", { name, email, password: PASSWORD });
    await platform("POST", `/accounts/${account.id}/account_users`, { user_id: user.id, role });
    return { id: user.id as number, email, key: user.access_token as string };
  };
  const alex = await person("Alex Admin", "administrator");
  const blair = await person("Blair Agent", "agent");
  const base = `/api/v1/accounts/${account.id}`;
  const asAlex = (method: string, path: string, body?: unknown) => must(call(e2e.server.base, method, base + path, alex.key, body), path);
  // assignment by hand: auto-assignment would hand the waiting conversation to whoever signs in first
  const inbox = await asAlex("POST", "/inboxes", { name: "Support", channel: { type: "api" }, enable_auto_assignment: false });
  await asAlex("POST", "/inbox_members", { inbox_id: inbox.id, user_ids: [alex.id, blair.id] });
  const contact = await asAlex("POST", "/contacts", { name: "Casey Customer", inbox_id: inbox.id });
  const conversation = await asAlex("POST", "/conversations", { inbox_id: inbox.id, contact_id: contact.payload.contact.id });
  return { alex, blair, conversationId: conversation.id as number };
}

async function signIn(email: string) {
  const page = await e2e.newPage();
  await page.goto(`${e2e.server.base}/agent-demo`);
  await page.type("#email", email);
  await page.type("#password", PASSWORD);
  await page.click("#go");
  await page.waitForSelector("body[data-ready=true]", { timeout: 15_000 });
  return page;
}

const waitFor = (page: Page, selector: string) => page.waitForSelector(selector, { timeout: 5_000 });

describe("/agent-demo", () => {
  it("shows one agent's changes live on another agent's page, with presence and a notification on assignment", async () => {
    const { alex, blair, conversationId } = await setUp();
    const alexPage = await signIn(alex.email);
    const blairPage = await signIn(blair.email);

    // both see the conversation, unassigned; Blair signing in turns her dot green on Alex's page
    await waitFor(alexPage, `#conversation-${conversationId}[data-status=open][data-assignee=""]`);
    await waitFor(blairPage, `#conversation-${conversationId}[data-status=open]`);
    await waitFor(alexPage, `#agent-${blair.id}[data-status=online]`);
    expect(await blairPage.$eval("#unread", (e) => e.textContent)).toBe("0");

    // Alex assigns it to Blair: Blair's page shows the assignee and a notification, live
    await alexPage.select(`#conversation-${conversationId} select.assign`, String(blair.id));
    await waitFor(blairPage, `#conversation-${conversationId}[data-assignee="${blair.id}"]`);
    await waitFor(blairPage, "#notifications li.notification.unread");
    await blairPage.waitForFunction(() => document.getElementById("unread")?.textContent === "1", { timeout: 5_000 });
    // the one who assigned gets no notification of their own act
    expect(await alexPage.$eval("#unread", (e) => e.textContent)).toBe("0");

    // Blair resolves it: Alex's page follows
    await blairPage.click(`#conversation-${conversationId} button.toggle`);
    await waitFor(alexPage, `#conversation-${conversationId}[data-status=resolved]`);
    await alexPage.close();
    await blairPage.close();
  });
});
