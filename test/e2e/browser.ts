/**
 * A file's `npm start` server and headless Chromium (the binary inside the @sparticuz/chromium package:
 * no download at run time), started before its tests and stopped after them, with a throw-away data
 * directory and platform key of its own.
 */
import chromium from "@sparticuz/chromium";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser } from "puppeteer-core";
import { afterAll, beforeAll } from "vitest";
import { type Server, freePort, start, stop } from "./server";

export type ServerAndBrowser = { readonly server: Server; readonly browser: Browser; readonly token: string };

export function serverAndBrowser(name: string): ServerAndBrowser {
  const dataDir = mkdtempSync(join(tmpdir(), `edgedesk-${name}-`));
  const token = randomBytes(24).toString("hex");
  let server: Server | undefined;
  let browser: Browser | undefined;
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
