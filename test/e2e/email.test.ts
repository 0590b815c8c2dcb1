/**
 * The e-mail channel against `npm start`, as docs/email.md says to try it: a customer's mail posted to
 * wrangler's local e-mail endpoint becomes a conversation the API lists and the account feed announces;
 * the agent's answer is mailed through the local send_email binding, which sends nothing and writes the
 * mail as an .eml file under the project's .wrangler/tmp (or the system's temporary folder), where this
 * test reads it. It uses the end-to-end run's shared server (test/e2e/shared-server.ts).
 */
import { randomUUID } from "node:crypto";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import PostalMime from "postal-mime";
import { describe, expect, inject, it } from "vitest";
import { call, root } from "./server";

const { base, token } = inject("sharedServer");

/** The .eml files under `dir` written since `since` (ms), a few levels down. */
function emlFiles(dir: string, since: number, depth = 6): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    let info;
    try {
      info = statSync(path);
    } catch {
      return [];
    }
    if (info.isDirectory()) return depth > 0 ? emlFiles(path, since, depth - 1) : [];
    return name.endsWith(".eml") && info.mtimeMs >= since ? [path] : [];
  });
}

async function ok(promise: ReturnType<typeof call>) {
  const res = await promise;
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

type Frame = { type?: string; message?: { event: string; data: any } };

/** The account feed as Chatwoot's apps open it; answers the frames seen so far once subscribed. */
function subscribe(base: string, user: { id: number; pubsubToken: string }, accountId: number): Promise<{ frames: Frame[]; close: () => void }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace(/^http/, "ws")}/cable`, "actioncable-v1-json");
    const identifier = JSON.stringify({ channel: "RoomChannel", pubsub_token: user.pubsubToken, account_id: accountId, user_id: user.id });
    const frames: Frame[] = [];
    ws.addEventListener("error", () => reject(new Error("the feed's socket was refused")));
    ws.addEventListener("message", (e) => {
      const frame = JSON.parse(String(e.data)) as Frame;
      frames.push(frame);
      if (frame.type === "welcome") ws.send(JSON.stringify({ command: "subscribe", identifier }));
      if (frame.type === "reject_subscription") reject(new Error("subscription rejected"));
      if (frame.type === "confirm_subscription") resolve({ frames, close: () => ws.close(1000, "done") });
    });
  });
}

describe("e-mail under npm start", () => {
  it("takes a posted mail into a conversation (API and feed), and writes the agent's answer as a local .eml", async () => {
    const startedAt = Date.now() - 1000;
    {
      const account = await ok(call(base, "POST", "/platform/api/v1/accounts", token, { name: "Mail shop" }));
      const user = await ok(call(base, "POST", "/platform/api/v1/users", token, { name: "Ada Agent", email: `ada.${randomUUID()}@example.com`, password: "Passw0rd!long" }));
      await ok(call(base, "POST", `/platform/api/v1/accounts/${account.id}/account_users`, token, { user_id: user.id, role: "administrator" }));
      const key: string = user.access_token;
      const accountPath = `/api/v1/accounts/${account.id}`;
      const address = `support.${randomUUID()}@example.com`;
      const inbox = await ok(call(base, "POST", `${accountPath}/inboxes`, key, { name: "Support mail", channel: { type: "email", email: address } }));
      const profile = await ok(call(base, "GET", "/api/v1/profile", key));
      const feed = await subscribe(base, { id: user.id, pubsubToken: profile.pubsub_token }, account.id);

      const customerMessageId = `${randomUUID()}@customer.example.org`;
      const raw = [
        "From: Carla Customer <carla@customer.example.org>",
        `To: ${address}`,
        "Subject: Where is my parcel?",
        `Message-ID: <${customerMessageId}>`,
        "Date: Sat, 28 Nov 2026 09:00:00 +0000",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=utf-8",
        "",
        "Hello, parcel 42 has not arrived.",
        "",
      ].join("\r\n");
      const posted = await fetch(`${base}/cdn-cgi/local/email?from=${encodeURIComponent("carla@customer.example.org")}&to=${encodeURIComponent(address)}`, { method: "POST", body: raw });
      expect(posted.status, await posted.text()).toBe(200);

      // the conversation, through the API
      let conversation: any;
      await expect
        .poll(async () => {
          const list = await ok(call(base, "GET", `${accountPath}/conversations?inbox_id=${inbox.id}&status=all`, key));
          conversation = list.data.payload[0];
          return conversation?.id;
        }, { timeout: 30_000, interval: 250 })
        .toBeTruthy();
      const messages = await ok(call(base, "GET", `${accountPath}/conversations/${conversation.id}/messages`, key));
      const incoming = messages.payload.find((m: any) => m.source_id === customerMessageId);
      expect(incoming).toMatchObject({ content_type: "incoming_email", message_type: 0 });
      expect(incoming.content).toContain("parcel 42 has not arrived");
      // ... and on the account feed
      await expect.poll(() => feed.frames.some((f) => f.message?.event === "conversation.created" && f.message.data.id === conversation.id), { timeout: 10_000 }).toBe(true);
      expect(feed.frames.some((f) => f.message?.event === "message.created" && f.message.data.id === incoming.id)).toBe(true);

      // the agent answers; the local binding writes the mail and logs where
      const answer = await ok(call(base, "POST", `${accountPath}/conversations/${conversation.id}/messages`, key, { content: "It leaves the **warehouse** today." }));
      let sourceId: string | null = null;
      await expect
        .poll(async () => {
          const list = await ok(call(base, "GET", `${accountPath}/conversations/${conversation.id}/messages`, key));
          sourceId = list.payload.find((m: any) => m.id === answer.id)?.source_id ?? null;
          return sourceId;
        }, { timeout: 30_000, interval: 250 })
        .toBeTruthy();
      const files = [...emlFiles(join(root, ".wrangler", "tmp"), startedAt), ...emlFiles(join(tmpdir(), "email"), startedAt, 2)];
      const mails = await Promise.all(files.map((path) => PostalMime.parse(readFileSync(path))));
      const sent = mails.find((mail) => mail.inReplyTo === `<${customerMessageId}>`);
      expect(sent, `no .eml of the answer among ${files.length} new .eml files`).toBeDefined();
      expect(sent!.subject).toBe("Re: Where is my parcel?");
      expect(sent!.to?.map((a) => a.address)).toEqual(["carla@customer.example.org"]);
      expect(sent!.inReplyTo).toBe(`<${customerMessageId}>`);
      expect(sent!.replyTo?.[0].address).toBe(`reply+${conversation.uuid}@inbound.edgedesk.localhost`);
      expect(sent!.html).toContain("<strong>warehouse</strong>");
      feed.close();
    }
  }, 240_000);
});
