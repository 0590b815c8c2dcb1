/**
 * A file's `npm start` server and headless Chromium (the binary inside the @sparticuz/chromium package:
 * no download at run time), started before its tests and stopped after them, with a throw-away data
 * directory and platform key of its own.
 *
 * Pages come from `newPage()`: every request a page makes to another origin than the server's is
 * refused and makes the test fail, so a page that would need the internet (a CDN script, a web font)
 * cannot pass.
 */
import chromium from "@sparticuz/chromium";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { type Server, freePort, start, stop } from "./server";

export type ServerAndBrowser = { readonly server: Server; readonly browser: Browser; readonly token: string; newPage(): Promise<Page> };

export function serverAndBrowser(name: string): ServerAndBrowser {
  const dataDir = mkdtempSync(join(tmpdir(), `edgedesk-${name}-`));
  const token = randomBytes(24).toString("hex");
  let server: Server | undefined;
  let browser: Browser | undefined;
  let offOrigin: string[] = [];
  afterEach(() => {
    const seen = offOrigin;
    offOrigin = [];
    expect(seen, "requests that left the server's origin").toEqual([]);
  });
  beforeAll(async () => {
    server = await start(await freePort(), dataDir, token);
    browser = await puppeteer.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: true });
  });
  afterAll(async () => {
    await browser?.close();
    if (server) await stop(server);
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    token,
    async newPage() {
      if (!browser || !server) throw new Error("the server and browser are not started yet");
      const origin = new URL(server.base).origin;
      const page = await browser.newPage();
      await page.setRequestInterception(true);
      page.on("request", (request) => {
        const url = request.url();
        if (url.startsWith("data:") || url.startsWith("blob:") || new URL(url).origin === origin) return request.continue();
        offOrigin.push(url);
        return request.abort();
      });
      return page;
    },
    get server() {
      if (!server) throw new Error("the server is not started yet");
      return server;
    },
    get browser() {
      if (!browser) throw new Error("the browser is not launched yet");
      return browser;
    },
  };
}
