/**
 * Every limit that guards a secret holds under a burst of parallel attempts (issue 31, finding 3): the
 * attempt is taken from the allowance before the secret is checked, so 40 attempts sent at once check
 * at most the limit (this project's TIGHT limits: 3 failures per 3 s), the rest answer 429, and the
 * right secret sent after them is refused too while the window lasts. Nothing is written by a refusal.
 */
import { describe, expect, it } from "vitest";
import { call } from "../support/http";
import { createWorld, uniqueEmail } from "../support/world";
import { directory, shardOf } from "../support/databases";
import { hmacHex, publicInbox } from "../public/widget-support";

const LIMIT = 3;
const BURST = 40;
const PASSWORD = "Passw0rd!long";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const world = await createWorld("Burst Co");

async function sha256Hex(value: string) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value)));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The statuses of a burst, counted. */
async function burst(send: (i: number) => Promise<{ status: number }>) {
  const replies = await Promise.all(Array.from({ length: BURST }, (_, i) => send(i)));
  const counts: Record<number, number> = {};
  for (const { status } of replies) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

const userRow = (id: number) => directory().prepare("SELECT email, password_hash, reset_password_token_digest, confirmation_token_digest FROM users WHERE id = ?").bind(id).first();
const sessions = async () => (await directory().prepare("SELECT count(*) AS n FROM auth_sessions").first<{ n: number }>())!.n;

describe("a burst of wrong secrets checks at most the limit", () => {
  it("sign-in, one e-mail from 40 addresses: at most 3 checked (401), the rest 429, then the right password is a 429", async () => {
    await sleep(3100);
    const before = await sessions();
    const counts = await burst((i) =>
      call("POST", "/auth/sign_in", { headers: { "cf-connecting-ip": `10.9.0.${i + 1}` }, body: { email: world.agent.email, password: `Wrong-passw0rd-${i}` } }),
    );
    expect(counts[401] ?? 0).toBeLessThanOrEqual(LIMIT);
    expect((counts[401] ?? 0) + (counts[429] ?? 0)).toBe(BURST);
    const right = await call("POST", "/auth/sign_in", { headers: { "cf-connecting-ip": "10.9.1.1" }, body: { email: world.agent.email, password: PASSWORD } });
    expect(right.status).toBe(429);
    expect(right.body.errors[0].code).toBe("rate_limited");
    expect(right.headers.get("access-token")).toBeNull();
    expect(await sessions()).toBe(before);
  });

  it("sign-in, 40 e-mails from one address: at most 3 checked, then the address is refused", async () => {
    await sleep(3100);
    const counts = await burst((i) => call("POST", "/auth/sign_in", { headers: { "cf-connecting-ip": "10.9.2.1" }, body: { email: `nobody${i}@example.com`, password: "Wrong-passw0rd!" } }));
    expect(counts[401] ?? 0).toBeLessThanOrEqual(LIMIT);
    expect((counts[401] ?? 0) + (counts[429] ?? 0)).toBe(BURST);
    expect((await call("POST", "/auth/sign_in", { headers: { "cf-connecting-ip": "10.9.2.1" }, body: { email: world.admin.email, password: PASSWORD } })).status).toBe(429);
  });

  it("password reset tokens: at most 3 wrong ones checked, then the right one is a 429 and the password stays", async () => {
    await sleep(3100);
    const token = `reset-${crypto.randomUUID()}`;
    await directory()
      .prepare("UPDATE users SET reset_password_token_digest = ?, reset_password_expires_at = ? WHERE id = ?")
      .bind(await sha256Hex(token), Date.now() + 3_600_000, world.agent.id)
      .run();
    const before = await userRow(world.agent.id);
    const reset = (address: string, resetToken: string) =>
      call("PUT", "/auth/password", {
        headers: { "cf-connecting-ip": address },
        body: { reset_password_token: resetToken, password: "Fresh-Passw0rd!", password_confirmation: "Fresh-Passw0rd!" },
      });
    // one address: the public API's own limit (8 per 2 s here) is looser than the failures' (3)
    const counts = await burst((i) => reset("10.9.3.1", `wrong-${i}`));
    expect(counts[422] ?? 0).toBeLessThanOrEqual(LIMIT);
    expect((counts[422] ?? 0) + (counts[429] ?? 0)).toBe(BURST);
    expect((await reset("10.9.3.1", token)).status).toBe(429);
    expect(await userRow(world.agent.id)).toEqual(before);
  });

  it("e-mail confirmation tokens: at most 3 wrong ones checked, then the right one is a 429 and the e-mail stays", async () => {
    await sleep(3100);
    const token = `confirm-${crypto.randomUUID()}`;
    await directory()
      .prepare("UPDATE users SET unconfirmed_email = ?, confirmation_token_digest = ?, confirmation_expires_at = ? WHERE id = ?")
      .bind(uniqueEmail("pending"), await sha256Hex(token), Date.now() + 3_600_000, world.admin.id)
      .run();
    const before = await userRow(world.admin.id);
    const confirm = (address: string, confirmation: string) =>
      call("GET", `/auth/confirmation?confirmation_token=${encodeURIComponent(confirmation)}`, { headers: { "cf-connecting-ip": address } });
    const counts = await burst((i) => confirm("10.9.4.1", `wrong-${i}`));
    expect(counts[422] ?? 0).toBeLessThanOrEqual(LIMIT);
    expect((counts[422] ?? 0) + (counts[429] ?? 0)).toBe(BURST);
    expect((await confirm("10.9.4.1", token)).status).toBe(429);
    expect(await userRow(world.admin.id)).toEqual(before);
  });

  it("public identity hashes: at most 3 wrong ones checked per address and inbox, then the right one is a 429", async () => {
    const inbox = await publicInbox(world.accountId);
    const created = await call("POST", `${inbox.base}/contacts`, { headers: { "cf-connecting-ip": "10.9.5.9" }, body: { identifier: "customer-7", identifier_hash: await hmacHex(inbox.hmacToken, "customer-7") } });
    expect(created.status).toBe(200);
    const shard = await shardOf(world.accountId);
    const verified = () => shard.prepare("SELECT count(*) AS n FROM contact_inboxes WHERE inbox_id = ? AND hmac_verified = 1").bind(inbox.id).first<number>("n");
    const before = await verified();
    await sleep(3100);
    const show = (hash: string) =>
      call("GET", `${inbox.base}/contacts/${created.body.source_id}?identifier_hash=${hash}`, { headers: { "cf-connecting-ip": "10.9.5.1" } });
    const counts = await burst((i) => show(`${i}`.padStart(64, "0")));
    expect(counts[401] ?? 0).toBeLessThanOrEqual(LIMIT);
    expect((counts[401] ?? 0) + (counts[429] ?? 0)).toBe(BURST);
    expect((await show(await hmacHex(inbox.hmacToken, "customer-7"))).status).toBe(429);
    expect(await verified()).toBe(before);
    // another address on the same inbox is not locked out by this one
    const elsewhere = await call("GET", `${inbox.base}/contacts/${created.body.source_id}?identifier_hash=${await hmacHex(inbox.hmacToken, "customer-7")}`, {
      headers: { "cf-connecting-ip": "10.9.5.2" },
    });
    expect(elsewhere.status).toBe(200);
  });
});
