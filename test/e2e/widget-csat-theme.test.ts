/**
 * The end of a conversation and the widget's colour scheme, in headless Chromium with the snippet on a page
 * of another loopback origin: when the agent resolves, the widget asks for a rating (the inbox's CSAT
 * survey), the visitor answers it and the agent's side has the answer; `darkMode` in chatwootSettings and
 * `$chatwoot.setColorScheme` switch the widget between its light and dark palettes.
 */
import type { Frame } from "puppeteer-core";
import { describe, expect, it } from "vitest";
import { serverAndBrowser } from "./browser";
import { RECORD_EVENTS, eventually, hostSite, openWidget, sendFromWidget, shopPage, waitForText, websiteInbox, widgetFrame } from "./widget-host";

const e2e = serverAndBrowser();
const site = hostSite();

/** Relative luminance (0 black .. 1 white) of the widget's own background. */
const background = (frame: Frame) =>
  frame.evaluate(() => {
    const surface = document.querySelector(".cw-widget") ?? document.body;
    const [r, g, b] = (getComputedStyle(surface).backgroundColor.match(/[\d.]+/g) ?? ["0", "0", "0"]).map(Number);
    return { luminance: (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255, dark: document.documentElement.classList.contains("dark"), scheme: getComputedStyle(document.documentElement).colorScheme };
  });

describe("the widget at the end of a conversation, and in the dark", () => {
  it("asks for a rating when the agent resolves, and the agent's side gets the visitor's answer", async () => {
    const inbox = await websiteInbox(e2e, {}, { csat_survey_enabled: true });
    const page = await e2e.newPage({ alsoAllowed: [site.origin] });
    await page.goto(site.serve("/csat", shopPage(inbox.snippet, RECORD_EVENTS)));
    const frame = await widgetFrame(page);
    await openWidget(page);
    await sendFromWidget(frame, "Thanks, that is all");
    const [conversation] = await eventually(() => inbox.api("GET", "/conversations?status=all").then((l) => l.data.payload), (l: any[]) => l.length === 1);
    await inbox.api("POST", `/conversations/${conversation.id}/messages`, { content: "Glad to help!" });
    await inbox.api("POST", `/conversations/${conversation.id}/toggle_status`, { status: "resolved" });

    await waitForText(frame, "Rate your conversation");
    // a person reads the question first; the frames of the resolve (status, survey) have arrived by then
    await new Promise((r) => setTimeout(r, 1000));
    const five = await frame.waitForSelector('[role="radio"][aria-label="Rating 5 of 5"]', { timeout: 10_000 });
    await five!.click();
    await frame.type('textarea[aria-label="Tell us more (optional)"]', "Quick and friendly");
    await frame.waitForFunction(() => document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Tell us more (optional)"]')?.value === "Quick and friendly", { timeout: 5000 });
    await frame.click(".cw-csat button[type=submit]");
    await waitForText(frame, "Thank you for your feedback");

    const survey = await eventually(
      () => inbox.api("GET", `/conversations/${conversation.id}/messages`).then((l) => l.payload.find((m: any) => m.content_type === "input_csat")),
      (m: any) => Boolean(m?.content_attributes?.submitted_values?.csat_survey_response),
    );
    expect(survey.content_attributes.submitted_values.csat_survey_response).toMatchObject({ rating: 5, feedback_message: "Quick and friendly" });
    const responses = await inbox.api("GET", "/csat_survey_responses");
    const list = Array.isArray(responses) ? responses : responses.payload;
    expect(list.map((r: any) => [r.rating, r.feedback_message])).toContainEqual([5, "Quick and friendly"]);
  });

  it("follows darkMode from chatwootSettings and $chatwoot.setColorScheme", async () => {
    const inbox = await websiteInbox(e2e);
    const page = await e2e.newPage({ alsoAllowed: [site.origin] });
    await page.goto(site.serve("/dark", shopPage(inbox.snippet, `<script>window.chatwootSettings = { darkMode: "dark" };</script>${RECORD_EVENTS}`)));
    const frame = await widgetFrame(page);
    await openWidget(page);
    await frame.waitForSelector(".cw-widget");
    await frame.waitForFunction(() => document.documentElement.classList.contains("dark"), { timeout: 10_000 });
    const dark = await background(frame);
    expect(dark.scheme).toBe("dark");
    expect(dark.luminance).toBeLessThan(0.25);

    await page.evaluate(() => (window as any).$chatwoot.setColorScheme("light"));
    await frame.waitForFunction(() => !document.documentElement.classList.contains("dark"), { timeout: 10_000 });
    const light = await background(frame);
    expect(light.scheme).toBe("light");
    expect(light.luminance).toBeGreaterThan(0.75);

    // auto follows the visitor's system setting
    await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: "dark" }]);
    await page.evaluate(() => (window as any).$chatwoot.setColorScheme("auto"));
    await frame.waitForFunction(() => document.documentElement.classList.contains("dark"), { timeout: 10_000 });
    await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: "light" }]);
    await frame.waitForFunction(() => !document.documentElement.classList.contains("dark"), { timeout: 10_000 });
  });
});
