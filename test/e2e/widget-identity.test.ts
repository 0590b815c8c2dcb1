/**
 * Who the visitor is, through the host page's `window.$chatwoot` in headless Chromium (the page on
 * 127.0.0.x, edgedesk on localhost): setUser with the inbox's identity hash selects the customer's contact
 * and its conversations; a wrong hash is refused with `chatwoot:error` and changes nothing; setUser without
 * a hash names the visitor but never reaches another contact that holds the identifier; reset starts a new
 * visitor with the old one's cookies gone.
 */
import { describe, expect, it } from "vitest";
import { serverAndBrowser } from "./browser";
import { RECORD_EVENTS, type WebsiteInbox, composer, eventually, hostSite, identifierHash, openWidget, sendFromWidget, shopPage, waitForText, websiteInbox, widgetFrame } from "./widget-host";

const e2e = serverAndBrowser();
const site = hostSite();

async function openShop(inbox: WebsiteInbox, path: string) {
  const page = await e2e.newPage({ alsoAllowed: [site.origin] });
  await page.goto(site.serve(path, shopPage(inbox.snippet, RECORD_EVENTS)));
  await page.waitForFunction(() => (window as any).__events.some((e: { name: string }) => e.name === "ready"), { timeout: 20_000 });
  return { page, frame: await widgetFrame(page) };
}

const contacts = (inbox: WebsiteInbox) => inbox.api("GET", "/contacts").then((l) => l.payload as any[]);

/** A customer the desk already knows, with a conversation in the website inbox (made through the account API). */
async function knownCustomer(inbox: WebsiteInbox, identifier: string, name: string, said: string) {
  const made = await inbox.api("POST", "/contacts", { name, email: `${identifier}@example.com`, identifier, inbox_id: inbox.inboxId });
  const contact = made.payload.contact;
  const conversation = await inbox.api("POST", "/conversations", { inbox_id: inbox.inboxId, contact_id: contact.id });
  await inbox.api("POST", `/conversations/${conversation.id}/messages`, { content: said });
  return { contact, conversation };
}

describe("window.$chatwoot and the visitor's identity", () => {
  it("setUser with the identity hash makes the visitor the known customer, and the customer's conversation follows a sign-in after reset", async () => {
    const inbox = await websiteInbox(e2e);
    const casey = (await inbox.api("POST", "/contacts", { name: "Casey Customer", email: "cust-42@example.com", identifier: "cust-42", inbox_id: inbox.inboxId })).payload.contact;
    const { page, frame } = await openShop(inbox, "/hash");
    const hash = identifierHash(inbox.hmacToken, "cust-42");
    const signIn = () => page.evaluate((h) => (window as any).$chatwoot.setUser("cust-42", { name: "Casey Customer", email: "cust-42@example.com", identifier_hash: h }), hash);
    const before = (await page.cookies(site.origin)).find((c) => c.name === "cw_conversation")?.value;
    await signIn();
    // the widget's token changed hands to the customer's contact, and the host page keeps the new one
    await page.waitForFunction((old) => !document.cookie.includes(`cw_conversation=${old}`), { timeout: 10_000 }, before);
    expect((await page.cookies(site.origin)).some((c) => c.name === `cw_user_${inbox.websiteToken}`)).toBe(true);
    await openWidget(page);
    await sendFromWidget(frame, "When will my order arrive?");
    const [conversation] = await eventually(() => inbox.api("GET", "/conversations?status=all").then((l) => l.data.payload), (l: any[]) => l.length === 1);
    expect(conversation.meta.sender.id).toBe(casey.id);
    await inbox.api("POST", `/conversations/${conversation.id}/messages`, { content: "It ships tomorrow, Casey." });
    await waitForText(frame, "It ships tomorrow, Casey.");

    // signed out (reset), then signed in again: a new visitor at first, then the customer with the conversation
    await page.evaluate(() => (window as any).$chatwoot.reset());
    const fresh = await widgetFrame(page);
    await page.waitForFunction(() => /cw_conversation=/.test(document.cookie), { timeout: 20_000 });
    // the customer's token comes back with set_user, and the widget loads its history again
    let renewed = false;
    const history = page.waitForResponse(
      (r) => {
        const path = new URL(r.url()).pathname;
        if (path === "/api/v1/widget/contact/set_user") renewed = true;
        return renewed && path === "/api/v1/widget/messages" && r.request().method() === "GET";
      },
      { timeout: 20_000 },
    );
    await signIn();
    await history;
    await openWidget(page);
    await composer(fresh);
    await waitForText(fresh, "It ships tomorrow, Casey.");
    expect((await inbox.api("GET", "/conversations?status=all")).data.payload.map((c: any) => c.id)).toEqual([conversation.id]);
  });

  it("refuses setUser with a wrong hash: chatwoot:error, and the visitor stays who it was", async () => {
    const inbox = await websiteInbox(e2e);
    const casey = await knownCustomer(inbox, "cust-7", "Casey Customer", "Private order details");
    const { page, frame } = await openShop(inbox, "/wrong-hash");
    await page.evaluate(() => (window as any).$chatwoot.setUser("cust-7", { name: "Mallory", identifier_hash: "0".repeat(64) }));
    await page.waitForFunction(() => (window as any).__events.some((e: { name: string }) => e.name === "error"), { timeout: 10_000 });
    await openWidget(page);
    await sendFromWidget(frame, "Show me the order");
    await eventually(() => inbox.api("GET", "/conversations?status=all").then((l) => l.data.payload), (l: any[]) => l.length === 2);
    expect(await frame.evaluate(() => document.body.innerText)).not.toContain("Private order details");
    const all = await contacts(inbox);
    expect(all.find((c) => c.id === casey.contact.id)).toMatchObject({ name: "Casey Customer", identifier: "cust-7" });
    expect(all.filter((c) => c.name === "Mallory")).toEqual([]);
  });

  it("setUser without a hash names the visitor, and never reaches the contact that holds the identifier", async () => {
    const inbox = await websiteInbox(e2e);
    const vip = await knownCustomer(inbox, "vip-1", "Vivian VIP", "Your VIP discount code is SECRET");
    const { page, frame } = await openShop(inbox, "/no-hash");
    await page.evaluate(() => (window as any).$chatwoot.setUser("visitor-9", { name: "Nina Newcomer", email: "nina@example.com" }));
    await eventually(() => contacts(inbox), (all) => all.some((c) => c.name === "Nina Newcomer" && c.email === "nina@example.com"));

    // the same without a hash, claiming the VIP's identifier: the visitor becomes a new contact of its own
    await page.evaluate(() => (window as any).$chatwoot.setUser("vip-1", { name: "Impostor", email: "impostor@example.com" }));
    await eventually(() => contacts(inbox), (all) => all.some((c) => c.name === "Impostor"));
    await openWidget(page);
    await sendFromWidget(frame, "Any discounts for me?");
    await waitForText(frame, "Any discounts for me?");
    await new Promise((r) => setTimeout(r, 500));
    expect(await frame.evaluate(() => document.body.innerText)).not.toContain("SECRET");
    const all = await contacts(inbox);
    expect(all.find((c) => c.id === vip.contact.id)).toMatchObject({ name: "Vivian VIP", email: "vip-1@example.com", identifier: "vip-1" });
    const impostor = all.find((c) => c.name === "Impostor");
    expect(impostor.id).not.toBe(vip.contact.id);
    expect(impostor.identifier).not.toBe("vip-1");
    const vipMessages = await inbox.api("GET", `/conversations/${vip.conversation.id}/messages`);
    expect(vipMessages.payload.map((m: any) => m.content)).not.toContain("Any discounts for me?");
  });

  it("reset forgets the visitor: its cookies go, the widget loads as a new visitor with an empty conversation", async () => {
    const inbox = await websiteInbox(e2e);
    const { page, frame } = await openShop(inbox, "/reset");
    await page.evaluate(() => (window as any).$chatwoot.setUser("shared-pc-1", { name: "First Person" }));
    await openWidget(page);
    await sendFromWidget(frame, "My home address is 1 Elm Street");
    await eventually(() => inbox.api("GET", "/conversations?status=all").then((l) => l.data.payload), (l: any[]) => l.length === 1);
    const before = (await page.cookies(site.origin)).find((c) => c.name === "cw_conversation")?.value;

    await page.evaluate(() => (window as any).$chatwoot.reset());
    expect((await page.cookies(site.origin)).some((c) => c.name === `cw_user_${inbox.websiteToken}`)).toBe(false);
    const fresh = await widgetFrame(page);
    await page.waitForFunction((old) => /cw_conversation=/.test(document.cookie) && !document.cookie.includes(`cw_conversation=${old}`), { timeout: 20_000 }, before);
    await openWidget(page);
    await sendFromWidget(fresh, "Hello, second person here");
    await waitForText(fresh, "Hello, second person here");
    expect(await fresh.evaluate(() => document.body.innerText)).not.toContain("1 Elm Street");
    const conversations = await eventually(() => inbox.api("GET", "/conversations?status=all").then((l) => l.data.payload), (l: any[]) => l.length === 2);
    expect(new Set(conversations.map((c: any) => c.meta.sender.id)).size).toBe(2);
  });
});
