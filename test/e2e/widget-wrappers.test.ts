/**
 * The two npm packages that wrap Chatwoot's widget, against edgedesk in headless Chromium:
 * - `@productdevbook/chatwoot` (installed as a dev dependency): a Vue app on a page of another loopback
 *   origin installs its plugin, which injects /packs/js/sdk.js, sets its settings and runs the SDK; its
 *   `useChatWoot()` then drives window.$chatwoot (toggle, setUser, setCustomAttributes, setLabel,
 *   toggleBubbleVisibility, reset) and follows the open state through `.woot-widget-holder`'s class.
 * - `@chatwoot/react-native-widget`'s URL form: the widget page opened on its own (a WebView, not an
 *   iframe) at /widget?website_token=&locale=, which posts `loaded` with its token to
 *   window.ReactNativeWebView, takes `set-user` through window.postMessage, and gives the same visitor
 *   back when the token returns as cw_conversation.
 */
import { describe, expect, it } from "vitest";
import { serverAndBrowser } from "./browser";
import { eventually, hostSite, sendFromWidget, waitForText, websiteInbox, widgetFrame } from "./widget-host";

const e2e = serverAndBrowser();
const site = hostSite();

/** A Vue app with the wrapper's plugin, as its README shows; `window.__chatwoot` is its useChatWoot(). */
const vuePage = (websiteToken: string, baseUrl: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Vue shop</title>
<script type="importmap">{ "imports": { "vue": "/lib/vue.js", "defu": "/lib/defu.js", "@productdevbook/chatwoot/vue": "/lib/chatwoot-vue.js" } }</script>
</head><body><div id="app"></div>
<script type="module">
import { createApp, h } from "vue";
import { createChatWoot, useChatWoot } from "@productdevbook/chatwoot/vue";
const App = {
  setup() {
    const chatwoot = useChatWoot();
    window.__chatwoot = chatwoot;
    return () => h("main", [h("h1", "Vue shop"), h("p", { id: "open-state" }, chatwoot.isModalVisible.value ? "open" : "closed")]);
  },
};
createApp(App).use(createChatWoot({ init: { websiteToken: ${JSON.stringify(websiteToken)}, baseUrl: ${JSON.stringify(baseUrl)} }, settings: { locale: "en" } })).mount("#app");
</script></body></html>`;

describe("the npm wrappers of Chatwoot's widget", () => {
  it("@productdevbook/chatwoot loads the SDK and drives window.$chatwoot", async () => {
    const inbox = await websiteInbox(e2e);
    await inbox.api("POST", "/labels", { title: "vue-shop" });
    const page = await e2e.newPage({ alsoAllowed: [site.origin] });
    await page.goto(site.serve("/vue", vuePage(inbox.websiteToken, e2e.server.base)));
    // the wrapper's defaults reached the loader: an expanded bubble with its launcher title
    const bubble = await page.waitForSelector(".woot-widget-bubble.woot--expanded", { visible: true, timeout: 20_000 });
    expect(await bubble!.evaluate((b) => b.textContent)).toContain("Chat with us");
    expect(await page.$eval("script[src$='/packs/js/sdk.js']", (s) => (s as HTMLScriptElement).src)).toBe(`${e2e.server.base}/packs/js/sdk.js`);
    const frame = await widgetFrame(page);

    await page.evaluate(() => (window as any).__chatwoot.toggle("open"));
    await page.waitForSelector(".woot-widget-holder:not(.woot--hide)", { timeout: 10_000 });
    await page.waitForFunction(() => document.getElementById("open-state")?.textContent === "open", { timeout: 10_000 });

    await page.evaluate(() => (window as any).__chatwoot.setUser("vue-7", { name: "Vue Visitor", email: "vue.visitor@example.com" }));
    await eventually(() => inbox.api("GET", "/contacts").then((l) => l.payload), (l: any[]) => l.some((c) => c.email === "vue.visitor@example.com"));
    await page.evaluate(() => (window as any).__chatwoot.setCustomAttributes({ plan: "gold" }));
    await sendFromWidget(frame, "Hello from the Vue shop");
    const [conversation] = await eventually(() => inbox.api("GET", "/conversations?status=all").then((l) => l.data.payload), (l: any[]) => l.length === 1);
    await page.evaluate(() => (window as any).__chatwoot.setLabel("vue-shop"));
    const contact = await eventually(
      () => inbox.api("GET", "/contacts").then((l) => l.payload.find((c: any) => c.email === "vue.visitor@example.com")),
      (c: any) => c?.custom_attributes?.plan === "gold",
    );
    expect(contact.name).toBe("Vue Visitor");
    await eventually(() => inbox.api("GET", `/conversations/${conversation.id}/labels`), (l: any) => (l.payload ?? []).includes("vue-shop"));

    await page.evaluate(() => (window as any).__chatwoot.toggle("close"));
    await page.waitForFunction(() => document.getElementById("open-state")?.textContent === "closed", { timeout: 10_000 });
    await page.evaluate(() => (window as any).__chatwoot.toggleBubbleVisibility("hide"));
    await page.waitForSelector(".woot-widget-bubble.woot--expanded", { hidden: true, timeout: 10_000 });
    await page.evaluate(() => (window as any).__chatwoot.toggleBubbleVisibility("show"));
    await page.waitForSelector(".woot-widget-bubble.woot--expanded", { visible: true, timeout: 10_000 });

    await page.evaluate(() => (window as any).__chatwoot.reset());
    await eventually(
      () => page.evaluate(() => document.cookie),
      (cookies) => !cookies.includes(`cw_user_${inbox.websiteToken}=`),
      5_000,
    );
  });

  it("the React Native form: /widget?website_token=&locale= loads on its own and posts loaded to window.ReactNativeWebView", async () => {
    const inbox = await websiteInbox(e2e);
    const page = await e2e.newPage();
    // what the WebView gives the page: a postMessage bridge to the app
    await page.evaluateOnNewDocument(() => {
      (window as any).__native = [];
      (window as any).ReactNativeWebView = { postMessage: (data: string) => (window as any).__native.push(data) };
    });
    await page.goto(`${e2e.server.base}/widget?website_token=${inbox.websiteToken}&locale=fr`);
    const loaded = await page.waitForFunction(
      () =>
        ((window as any).__native as string[])
          .filter((d) => d.startsWith("chatwoot-widget:"))
          .map((d) => JSON.parse(d.slice("chatwoot-widget:".length)))
          .find((m) => m.event === "loaded"),
      { timeout: 20_000, polling: 50 },
    );
    const message = await loaded.jsonValue();
    const authToken: string = message.config.authToken;
    expect(authToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(await page.$eval("html", (h) => h.lang)).toBe("fr");

    // the app's injected script speaks the frame protocol through window.postMessage
    await page.evaluate(() => window.postMessage(`chatwoot-widget:${JSON.stringify({ event: "set-user", identifier: "rn-1", user: { name: "Mobile Visitor", email: "mobile@example.com" } })}`, "*"));
    await eventually(() => inbox.api("GET", "/contacts").then((l) => l.payload), (l: any[]) => l.some((c) => c.name === "Mobile Visitor"));
    const frame = page.mainFrame();
    await sendFromWidget(frame, "Bonjour depuis l'app");
    await waitForText(frame, "Bonjour depuis l'app");

    // the app saves the token and opens the page with it next time: the same visitor and conversation
    const next = await e2e.newPage();
    await next.evaluateOnNewDocument(() => {
      (window as any).ReactNativeWebView = { postMessage: () => undefined };
    });
    await next.goto(`${e2e.server.base}/widget?website_token=${inbox.websiteToken}&locale=fr&cw_conversation=${authToken}`);
    await waitForText(next.mainFrame(), "Bonjour depuis l'app", 20_000);
    const conversations = (await inbox.api("GET", "/conversations?status=all")).data.payload;
    expect(conversations).toHaveLength(1);
  });
});
