/**
 * Failed sign-ins are limited per e-mail and per client address (RATE_LIMIT_SIGN_IN_FAILURES; this
 * project runs with the TIGHT limits of vitest.config.ts: 3 failures per 3 s). Successful sign-ins do
 * not count.
 */
import { describe, expect, it } from "vitest";
import { call } from "../support/http";
import { createWorld } from "../support/world";
import { directory } from "../support/databases";

const world = await createWorld("Lockout Co");
const PASSWORD = "Passw0rd!long";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const signIn = (address: string, email: string, password: string) =>
  call("POST", "/auth/sign_in", { headers: { "cf-connecting-ip": address }, body: { email, password } });

const sessions = async () => (await directory().prepare("SELECT count(*) AS n FROM auth_sessions").first<{ n: number }>())!.n;

describe("failed sign-ins", () => {
  it("lock one e-mail out, from every address, with 429, Retry-After and the error body, until the window ends", async () => {
    await sleep(3100);
    for (const address of ["10.0.0.1", "10.0.0.2", "10.0.0.3"]) expect((await signIn(address, world.agent.email, "Wrong-passw0rd!")).status).toBe(401);
    const before = await sessions();
    // the right password no longer gets in: the e-mail has spent its failures
    const refused = await signIn("10.0.0.4", world.agent.email.toUpperCase(), PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.body.errors).toEqual([{ field: "", message: expect.stringContaining("sign_in_failures"), code: "rate_limited" }]);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3);
    expect(refused.headers.get("access-token")).toBeNull();
    expect(await sessions()).toBe(before);
    // another user's e-mail from a fresh address is not locked out
    expect((await signIn("10.0.0.5", world.admin.email, PASSWORD)).status).toBe(200);

    await sleep(retryAfter * 1000 + 100);
    expect((await signIn("10.0.0.6", world.agent.email, PASSWORD)).status).toBe(200);
  });

  it("lock one address out, whatever e-mails it tries", async () => {
    await sleep(3100);
    for (const email of ["a@example.com", "b@example.com", "c@example.com"]) expect((await signIn("10.1.0.1", email, "Wrong-passw0rd!")).status).toBe(401);
    const refused = await signIn("10.1.0.1", world.agent.email, PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].code).toBe("rate_limited");
    // the user signs in from elsewhere
    expect((await signIn("10.1.0.2", world.agent.email, PASSWORD)).status).toBe(200);
  });

  it("count only failures: successful sign-ins never lock anyone out", async () => {
    await sleep(3100);
    for (let i = 0; i < 5; i++) expect((await signIn("10.2.0.1", world.admin.email, PASSWORD)).status).toBe(200);
  });
});
