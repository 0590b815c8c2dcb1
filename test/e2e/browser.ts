/**
 * The run's shared `npm start` server and headless Chromium (shared-server.ts; the binary inside the
 * @sparticuz/chromium package: no download at run time), connected to before a file's tests and let go
 * after them, and the platform key that server prints.
 *
 * Pages come from `newPage()`: every request a page makes to another origin than the server's is
 * refused and makes the test fail, so a page that would need the internet (a CDN script, a web font)
 * cannot pass. A test that serves a page of its own on another loopback origin (a customer's website
 * embedding the widget, test/e2e/widget-host.ts) names that origin in `newPage({ alsoAllowed })`.
 */
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { afterAll, afterEach, beforeAll, expect, inject } from "vitest";

export type ServerAndBrowser = {
  readonly server: { base: string };
  readonly token: string;
  newPage(options?: { alsoAllowed?: readonly string[] }): Promise<Page>;
};

export function serverAndBrowser(): ServerAndBrowser {
  const { base, token, browserEndpoint } = inject("sharedServer");
  const origin = new URL(base).origin;
  let browser: Browser | undefined;
  const pages: Page[] = [];
  let offOrigin: string[] = [];
  afterEach(() => {
    const seen = offOrigin;
    offOrigin = [];
    expect(seen, "requests that left the server's origin").toEqual([]);
  });
  beforeAll(async () => {
    browser = await puppeteer.connect({ browserWSEndpoint: browserEndpoint });
  });
  afterAll(async () => {
    // the browser outlives this file: close what it opened, then let go
    await Promise.all(pages.map((page) => page.close().catch(() => undefined)));
    await browser?.disconnect();
  });
  return {
    server: { base },
    token,
    async newPage({ alsoAllowed = [] } = {}) {
      if (!browser) throw new Error("the browser is not connected yet");
      const page = await browser.newPage();
      pages.push(page);
      const allowed = new Set([origin, ...alsoAllowed.map((o) => new URL(o).origin)]);
      await page.setRequestInterception(true);
      page.on("request", (request) => {
        const url = request.url();
        if (url.startsWith("data:") || url.startsWith("blob:") || allowed.has(new URL(url).origin)) return request.continue();
        offOrigin.push(url);
        return request.abort();
      });
      return page;
    },
  };
}
