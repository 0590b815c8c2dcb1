/**
 * `npm start` as a newcomer meets it: migrations applied, the platform key printed and working,
 * the API served on the chosen port, and local data kept across a restart.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { call, freePort, start as startServer, stop } from "./server";

const dataDir = mkdtempSync(join(tmpdir(), "edgedesk-e2e-"));
const token = randomBytes(24).toString("hex");

const start = (port: number) => startServer(port, dataDir, token);

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("npm start", () => {
  it("serves the API with the given platform key, and keeps data across a restart", async () => {
    const port = await freePort();
    let server = await start(port);
    let accountId: number;
    try {
      // the banner (with the key) comes once the server answers, and only once
      await expect.poll(() => server.output(), { timeout: 10_000 }).toContain("edgedesk is serving");
      expect(server.output()).toContain(token);
      expect(server.output().split("edgedesk is serving").length - 1).toBe(1);

      const account = await call(server.base, "POST", "/platform/api/v1/accounts", token, { name: "E2E Inc" });
      expect(account.status).toBe(200);
      accountId = account.body.id;
      const user = await call(server.base, "POST", "/platform/api/v1/users", token, {
        name: "Eve",
        email: `eve.${Date.now()}@example.com`,
        password: "Passw0rd!long",
      });
      expect(user.status).toBe(200);
      const member = await call(server.base, "POST", `/platform/api/v1/accounts/${accountId}/account_users`, token, {
        user_id: user.body.id,
        role: "administrator",
      });
      expect(member.body).toEqual({ account_id: accountId, user_id: user.body.id, role: "administrator" });

      const profile = await call(server.base, "GET", "/api/v1/profile", user.body.access_token);
      expect(profile.status).toBe(200);
      expect(profile.body.accounts).toMatchObject([{ id: accountId, role: "administrator" }]);
      expect(profile.headers.get("server-timing")).toMatch(/db-round-trips/);

      expect((await call(server.base, "GET", "/api/v1/profile")).status).toBe(401);

      // files go to the local R2 with no setup, and come back from their signed URL
      const key = user.body.access_token;
      const base = `/api/v1/accounts/${accountId}`;
      const inbox = await call(server.base, "POST", `${base}/inboxes`, key, { name: "Support", channel: { type: "api" } });
      const contact = await call(server.base, "POST", `${base}/contacts`, key, { name: "Casey", email: "casey@example.com" });
      const conversation = await call(server.base, "POST", `${base}/conversations`, key, { inbox_id: inbox.body.id, contact_id: contact.body.payload.contact.id });
      const form = new FormData();
      form.append("attachments[]", new File([new TextEncoder().encode("%PDF-1.7\nhello")], "hello.pdf"));
      const upload = await fetch(`${server.base}${base}/conversations/${conversation.body.id}/messages`, { method: "POST", headers: { api_access_token: key }, body: form });
      expect(upload.status).toBe(200);
      const dataUrl: string = (await upload.json()).attachments[0].data_url;
      expect(dataUrl.startsWith(server.base)).toBe(true);
      const file = await fetch(dataUrl);
      expect(file.status).toBe(200);
      expect(await file.text()).toBe("%PDF-1.7\nhello");
    } finally {
      await stop(server);
    }

    server = await start(port);
    try {
      const again = await call(server.base, "GET", `/platform/api/v1/accounts/${accountId!}`, token);
      expect(again.status).toBe(200);
      expect(again.body.name).toBe("E2E Inc");
    } finally {
      await stop(server);
    }
  });
});
