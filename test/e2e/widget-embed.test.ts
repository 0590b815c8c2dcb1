/**
 * The embed snippet on a customer's page in headless Chromium: the page on a 127.0.0.x address (a node server of the
 * test), edgedesk on localhost, so the widget is a cross-site frame. The bubble appears without touching the
 * page's own styles; a visitor's message reaches the agent's API and the account's live feed; the agent's
 * typing and reply reach the widget; a reload keeps the conversation; the new-message sound is fetched from
 * the host page. No request goes to any other host (browser.ts fails the test otherwise).
 */
import type { Page } from "puppeteer-core";
import { describe, expect, it } from "vitest";
import { serverAndBrowser } from "./browser";
import { RECORD_EVENTS, accountFeed, composer, eventually, historyLoaded, hostSite, openWidget, sendFromWidget, shopPage, waitForText, websiteInbox, widgetFrame } from "./widget-host";

const e2e = serverAndBrowser();
const site = hostSite();

async function shopWithWidget(path: string) {
  const inbox = await websiteInbox(e2e);
  const url = site.serve(path, shopPage(inbox.snippet, RECORD_EVENTS));
  const page = await e2e.newPage({ alsoAllowed: [site.origin] });
  await page.goto(url);
  return { inbox, page };
}

const events = (page: Page) => page.evaluate(() => (window as any).__events.map((e: { name: string }) => e.name) as string[]);

describe("the snippet on a customer's page", () => {
  it("shows the bubble, loads the widget from edgedesk's origin and leaves the page's own styles alone", async () => {
    const { page, inbox } = await shopWithWidget("/bubble");
    const before = await page.$eval("h1", (h) => [getComputedStyle(h).color, getComputedStyle(document.body).fontFamily, getComputedStyle(document.body).margin]);
    const bubble = await page.waitForSelector(".woot-widget-bubble:not(.woot--close)", { visible: true, timeout: 20_000 });
    expect(await bubble!.boundingBox()).toMatchObject({ width: expect.any(Number) });
    const frame = await widgetFrame(page);
    const src = new URL(frame.url());
    expect(src.origin).toBe(e2e.server.base);
    expect(src.pathname).toBe("/widget");
    expect(src.searchParams.get("website_token")).toBe(inbox.websiteToken);
    await page.waitForFunction(() => (window as any).__events.some((e: { name: string }) => e.name === "ready"), { timeout: 20_000 });
    // closed until the visitor opens it
    expect(await page.$eval(".woot-widget-holder", (h) => h.classList.contains("woot--hide"))).toBe(true);
    expect(await page.$eval("h1", (h) => [getComputedStyle(h).color, getComputedStyle(document.body).fontFamily, getComputedStyle(document.body).margin])).toEqual(before);
    // the visitor token is kept on the host page, as Chatwoot's loader keeps it
    const cookies = await page.cookies(site.origin);
    expect(cookies.find((c) => c.name === "cw_conversation")?.value).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);

    await openWidget(page);
    expect(await events(page)).toContain("opened");
    await waitForText(frame, "Hi there"); // the inbox's welcome title on the home screen
    await page.evaluate(() => (window as any).$chatwoot.toggle("close"));
    await page.waitForSelector(".woot-widget-holder.woot--hide");
    expect(await events(page)).toContain("closed");
  });

  it("takes a visitor's message to the agent's API and the account feed, and the agent's typing and reply to the widget", async () => {
    const { page, inbox } = await shopWithWidget("/conversation");
    const feed = await accountFeed(e2e, inbox);
    try {
      const frame = await widgetFrame(page);
      await openWidget(page);
      await sendFromWidget(frame, "Do you have rye bread today?");
      await waitForText(frame, "Do you have rye bread today?");

      const created = await feed.next("message.created", (m) => m.content === "Do you have rye bread today?");
      expect(created.data).toMatchObject({ message_type: 0, inbox_id: inbox.inboxId, private: false });
      const conversationId: number = created.data.conversation_id;
      const messages = await inbox.api("GET", `/conversations/${conversationId}/messages`);
      expect(messages.payload.map((m: any) => [m.content, m.message_type])).toContainEqual(["Do you have rye bread today?", 0]);
      expect(await events(page)).toContain("on-start-conversation");

      // the visitor's typing reaches the agent's feed
      const box = await composer(frame);
      await box.type("Also a bag of rolls", { delay: 60 }); // as a person types
      await feed.next("conversation.typing_on", (d) => d.conversation?.id === conversationId);

      // the agent's typing and reply reach the widget
      await inbox.api("POST", `/conversations/${conversationId}/toggle_typing_status`, { typing_status: "on" });
      await waitForText(frame, "Alex Agent is typing");
      await inbox.api("POST", `/conversations/${conversationId}/toggle_typing_status`, { typing_status: "off" });
      await frame.waitForFunction(() => !document.body.innerText.includes("is typing"), { timeout: 10_000 });
      await inbox.api("POST", `/conversations/${conversationId}/messages`, { content: "Yes, three loaves left." });
      await waitForText(frame, "Yes, three loaves left.");
      await page.waitForFunction(() => (window as any).__events.some((e: any) => e.name === "on-message" && e.detail?.content === "Yes, three loaves left."), { timeout: 10_000 });
      // a private note never reaches the visitor
      await inbox.api("POST", `/conversations/${conversationId}/messages`, { content: "Regular customer", private: true });
      await inbox.api("POST", `/conversations/${conversationId}/messages`, { content: "See you soon!" });
      await waitForText(frame, "See you soon!");
      expect(await frame.evaluate(() => document.body.innerText)).not.toContain("Regular customer");
    } finally {
      feed.close();
    }
  });

  it("keeps the conversation across a reload of the page", async () => {
    const { page, inbox } = await shopWithWidget("/reload");
    let frame = await widgetFrame(page);
    await openWidget(page);
    await sendFromWidget(frame, "First visit here");
    await waitForText(frame, "First visit here");
    const listed = () => inbox.api("GET", "/conversations?status=all").then((l) => l.data.payload);
    const [conversation] = await eventually(listed, (l) => l.length === 1);
    await inbox.api("POST", `/conversations/${conversation.id}/messages`, { content: "Welcome to the shop!" });
    await waitForText(frame, "Welcome to the shop!");

    await page.reload();
    frame = await widgetFrame(page);
    await historyLoaded(frame);
    expect(new URL(frame.url()).searchParams.get("cw_conversation")).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    await openWidget(page);
    await composer(frame);
    await waitForText(frame, "First visit here");
    await waitForText(frame, "Welcome to the shop!");
    await sendFromWidget(frame, "Back again");
    await waitForText(frame, "Back again");
    // the same visitor and the same conversation
    const after = (await inbox.api("GET", "/conversations?status=all")).data.payload;
    expect(after.map((c: any) => c.id)).toEqual([conversation.id]);
    const messages = await inbox.api("GET", `/conversations/${conversation.id}/messages`);
    expect(messages.payload.map((m: any) => m.content)).toEqual(expect.arrayContaining(["First visit here", "Welcome to the shop!", "Back again"]));
  });

  it("serves the new-message sound to the host page (CORS *) as an MP3 the browser decodes", async () => {
    const page = await e2e.newPage({ alsoAllowed: [site.origin] });
    await page.goto(site.serve("/sound", "<!doctype html><title>sound</title>"));
    const decoded = await page.evaluate(async (base) => {
      const res = await fetch(`${base}/audio/widget/ding.mp3`);
      const bytes = await res.arrayBuffer();
      const audio = await new OfflineAudioContext(1, 44_100, 44_100).decodeAudioData(bytes.slice(0));
      const samples = audio.getChannelData(0);
      let peak = 0;
      for (const s of samples) peak = Math.max(peak, Math.abs(s));
      return { type: res.headers.get("content-type"), cors: res.headers.get("access-control-allow-origin"), bytes: bytes.byteLength, seconds: audio.duration, peak, end: Math.abs(samples[samples.length - 1]) };
    }, e2e.server.base);
    expect(decoded.cors).toBe("*");
    expect(decoded.type).toMatch(/^audio\/mpeg/);
    expect(decoded.bytes).toBeLessThan(16 * 1024);
    expect(decoded.seconds).toBeGreaterThan(0.3);
    expect(decoded.seconds).toBeLessThan(1.5);
    expect(decoded.peak).toBeGreaterThan(0.2); // audible, not silence
    expect(decoded.peak).toBeLessThan(1); // and not clipped
    expect(decoded.end).toBeLessThan(0.01); // fades out rather than stopping with a click
  });
});
