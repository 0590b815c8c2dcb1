/**
 * The loader (sdk.js, widget/loader/) on a customer's page, for what the other widget files leave out: its
 * elements survive a single-page app replacing the body (any SPA, and Turbo's hook), chatwootSettings shape
 * the launcher, calls made before the frame is ready still reach it, toggleBubbleVisibility and
 * popoutChatWindow. The page on 127.0.0.x, edgedesk on localhost; no request to any other host.
 */
import type { Page } from "puppeteer-core";
import { describe, expect, it } from "vitest";
import { serverAndBrowser } from "./browser";
import { RECORD_EVENTS, eventually, hostSite, openWidget, shopPage, waitForText, websiteInbox, widgetFrame } from "./widget-host";

const e2e = serverAndBrowser();
const site = hostSite();

async function shop(path: string, head = "") {
  const inbox = await websiteInbox(e2e);
  const page = await e2e.newPage({ alsoAllowed: [site.origin] });
  await page.goto(site.serve(path, shopPage(inbox.snippet, RECORD_EVENTS + head)));
  return { inbox, page };
}

const ready = (page: Page) => page.waitForFunction(() => (window as any).__events.some((e: { name: string }) => e.name === "ready"), { timeout: 20_000 });
const loaderElements = (page: Page) =>
  page.evaluate(() => [Boolean(document.body.querySelector(":scope > #cw-widget-holder")), Boolean(document.body.querySelector(":scope > .woot--bubble-holder"))]);

describe("the loader on a customer's page", () => {
  it("puts its launcher and frame back when a single-page app replaces the body, and the widget still answers", async () => {
    const { page } = await shop("/spa");
    await ready(page);
    // an SPA that swaps the whole body, then one that rewrites the body's content
    await page.evaluate(() => {
      const next = document.createElement("body");
      next.innerHTML = "<h1>Checkout</h1>";
      document.body.replaceWith(next);
      history.pushState({}, "", "/spa/checkout");
    });
    await page.waitForFunction(() => Boolean(document.body.querySelector("#cw-widget-holder")), { timeout: 5_000 });
    await page.evaluate(() => (document.body.innerHTML = "<h1>Receipt</h1>"));
    await page.waitForFunction(() => Boolean(document.body.querySelector("#cw-widget-holder")), { timeout: 5_000 });
    expect(await loaderElements(page)).toEqual([true, true]);
    expect(await page.$$eval("#cw-widget-holder", (all) => all.length)).toBe(1);
    // Turbo hands over the next body before showing it: the elements move in with it
    await page.evaluate(() => {
      const next = document.createElement("body");
      next.innerHTML = "<h1>Turbo page</h1>";
      document.dispatchEvent(new CustomEvent("turbo:before-render", { detail: { newBody: next, renderMethod: "replace" } }));
      (window as any).__turboHadWidget = Boolean(next.querySelector("#cw-widget-holder"));
      document.body.replaceWith(next);
    });
    expect(await page.evaluate(() => (window as any).__turboHadWidget)).toBe(true);

    // the frame loaded again in its new place, and the page's calls reach it
    const frame = await widgetFrame(page);
    await page.evaluate(() => (window as any).$chatwoot.setLocale("fr"));
    await openWidget(page);
    await waitForText(frame, "Démarrer la conversation");
    expect((await page.evaluate(() => (window as any).__events.map((e: { name: string }) => e.name))).filter((n: string) => n === "ready")).toEqual(["ready"]);
  });

  it("shapes the launcher from chatwootSettings and hides or shows it on toggleBubbleVisibility", async () => {
    const settings = `<script>window.chatwootSettings = { position: "left", type: "expanded_bubble", launcherTitle: "Talk to the baker", widgetStyle: "flat" };</script>`;
    const { page } = await shop("/settings", settings);
    await ready(page);
    const launcher = await page.waitForSelector(".woot-widget-bubble:not(.woot--close)", { visible: true });
    expect(await launcher!.evaluate((b) => [b.textContent?.trim(), b.getAttribute("aria-label"), b.className])).toEqual([
      "Talk to the baker",
      "Talk to the baker",
      expect.stringMatching(/woot-elements--left.*woot--flat.*woot--expanded/),
    ]);
    const box = (await launcher!.boundingBox())!;
    expect(box.x).toBeLessThan(100); // on the left
    expect(await page.$eval(".woot-widget-holder", (h) => h.className)).toContain("woot-elements--left");

    await page.evaluate(() => (window as any).$chatwoot.toggleBubbleVisibility("hide"));
    expect(await page.$eval(".woot--bubble-holder", (h) => getComputedStyle(h).display)).toBe("none");
    expect(await page.evaluate(() => (window as any).$chatwoot.hideMessageBubble)).toBe(true);
    await page.evaluate(() => (window as any).$chatwoot.toggle("open"));
    await page.waitForSelector(".woot-widget-holder:not(.woot--hide)");
    await page.evaluate(() => {
      (window as any).$chatwoot.toggle("close");
      (window as any).$chatwoot.toggleBubbleVisibility("show");
    });
    await page.waitForSelector(".woot-widget-bubble:not(.woot--close)", { visible: true });
  });

  it("keeps calls made before the frame is ready and sends them once it is", async () => {
    // setUser and setLocale right after run(), before the frame has loaded
    const early = `<script>
      (function wait() {
        if (!window.$chatwoot) return setTimeout(wait, 2);
        window.$chatwoot.setUser("early-1", { name: "Early Bird", email: "early@example.com" });
        window.$chatwoot.setLocale("es");
        window.__earlyLoaded = window.$chatwoot.hasLoaded;
      })();
    </script>`;
    const { page, inbox } = await shop("/early", early);
    await ready(page);
    expect(await page.evaluate(() => (window as any).__earlyLoaded)).toBe(false);
    const frame = await widgetFrame(page);
    await openWidget(page);
    await waitForText(frame, "Iniciar conversación");
    const contacts = await eventually(
      () => inbox.api("GET", "/contacts").then((list) => list.payload as any[]),
      (list) => list.some((c) => c.name === "Early Bird"),
    );
    // who the identifier without a hash makes the visitor is widget-identity.test.ts's subject: here, that the call arrived
    expect(contacts.find((c) => c.name === "Early Bird")).toMatchObject({ email: "early@example.com" });
  });

  it("opens the pop-out window on the visitor's conversation", async () => {
    const { page, inbox } = await shop("/popout");
    await ready(page);
    const token = (await page.cookies(site.origin)).find((c) => c.name === "cw_conversation")!.value;
    const opened = new Promise<string>((resolve) => page.browser().once("targetcreated", (target) => resolve(target.url())));
    await page.evaluate(() => (window as any).$chatwoot.popoutChatWindow());
    const url = new URL(await opened);
    expect(url.origin + url.pathname).toBe(`${e2e.server.base}/widget`);
    expect(url.searchParams.get("website_token")).toBe(inbox.websiteToken);
    expect(url.searchParams.get("cw_conversation")).toBe(token);
    const popout = (await page.browser().pages()).find((p) => p.url().startsWith(`${e2e.server.base}/widget`));
    await popout?.close();
  });
});
