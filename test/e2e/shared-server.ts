/**
 * One `npm start` server and one headless Chromium for every browser test file (browser.ts), started
 * once before the end-to-end run and stopped after it. Starting a server bundles the Worker and boots
 * workerd, the slowest part of each file; the files share it safely because each makes its own
 * account, users and portal through the platform API. The files about starting and restarting the
 * server itself (start.test.ts, idempotency-restart.test.ts) still start their own.
 */
import chromium from "@sparticuz/chromium";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer from "puppeteer-core";
import type { TestProject } from "vitest/node";
import { freePort, start, stop } from "./server";

export type SharedServer = { base: string; token: string; browserEndpoint: string };

declare module "vitest" {
  export interface ProvidedContext {
    sharedServer: SharedServer;
  }
}

export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(join(tmpdir(), "edgedesk-e2e-"));
  const token = randomBytes(24).toString("hex");
  const [server, browser] = await Promise.all([
    start(await freePort(), dataDir, token),
    puppeteer.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: true }),
  ]);
  project.provide("sharedServer", { base: server.base, token, browserEndpoint: browser.wsEndpoint() });
  return async () => {
    await browser.close();
    await stop(server);
    rmSync(dataDir, { recursive: true, force: true });
  };
}
