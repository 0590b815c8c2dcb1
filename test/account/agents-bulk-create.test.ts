/**
 * POST /agents/bulk_create {emails} (Chatwoot's agents#bulk_create): each e-mail invited as creating an
 * agent does, members skipped; every e-mail checked before anyone is invited; administrators only.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call, get, post } from "../support/http";
import { directory } from "../support/databases";
import { createUser, createWorld, uniqueEmail } from "../support/world";

let world: Awaited<ReturnType<typeof createWorld>>;
let other: Awaited<ReturnType<typeof createWorld>>;

beforeAll(async () => {
  world = await createWorld("Bulk agents");
  other = await createWorld("Bulk agents elsewhere");
});

const members = async (accountId = world.accountId) =>
  (
    await directory().prepare("SELECT u.email AS email, au.role AS role, au.inviter_id AS inviter FROM account_users au JOIN users u ON u.id = au.user_id WHERE au.account_id = ? ORDER BY au.id")
      .bind(accountId)
      .all<{ email: string; role: number; inviter: number | null }>()
  ).results;

describe("agents bulk_create", () => {
  it("invites each new e-mail as an agent, takes in users of other accounts, skips members", async () => {
    const fresh = uniqueEmail("fresh");
    const elsewhere = await createUser(other.platformKey, "Elsewhere Person");
    const res = await post(`${world.base}/agents/bulk_create`, world.admin.key, { emails: [fresh.toUpperCase(), elsewhere.email, world.agent.email, fresh] });
    expect(res.status).toBe(200);
    expect(res.body.payload.created).toEqual([
      expect.objectContaining({ email: fresh, name: fresh.split("@")[0], role: "agent", account_id: world.accountId, confirmed: false }),
      expect.objectContaining({ email: elsewhere.email, name: "Elsewhere Person", role: "agent", confirmed: true }),
    ]);
    expect(res.body.payload.skipped).toEqual([{ email: world.agent.email, reason: "already_a_member" }]);

    // as POST /agents makes them: members of the account, invited by the administrator
    const after = await members();
    expect(after.filter((m) => m.email === fresh)).toEqual([{ email: fresh, role: 0, inviter: world.admin.id }]);
    expect(after.filter((m) => m.email === elsewhere.email)).toEqual([{ email: elsewhere.email, role: 0, inviter: world.admin.id }]);
    const listed = (await get(`${world.base}/agents`, world.admin.key)).body.map((a: { email: string }) => a.email);
    expect(listed).toEqual(expect.arrayContaining([fresh, elsewhere.email]));

    // sent again: everyone is a member now
    const again = await post(`${world.base}/agents/bulk_create`, world.admin.key, { emails: [fresh] });
    expect(again.body.payload).toEqual({ created: [], skipped: [{ email: fresh, reason: "already_a_member" }] });
  });

  it("checks every e-mail first: one bad address is a 422 naming it, and nobody is invited", async () => {
    const before = await members();
    const good = uniqueEmail("good");
    for (const body of [
      { emails: [good, "not-an-email"] },
      { emails: [good, ""] },
      { emails: [] },
      { emails: good },
      {},
      { emails: [good, 42] },
      { emails: Array.from({ length: 101 }, (_, i) => `many.${i}@example.com`) },
    ]) {
      const res = await post(`${world.base}/agents/bulk_create`, world.admin.key, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(res.body).toMatchObject({ description: expect.any(String), errors: [expect.objectContaining({ field: expect.stringMatching(/^emails/), code: expect.any(String) })] });
    }
    const bad = await post(`${world.base}/agents/bulk_create`, world.admin.key, { emails: [good, "not-an-email"] });
    expect(bad.body.errors).toEqual([expect.objectContaining({ field: "emails[1]" })]);
    expect(await members()).toEqual(before);
  });

  it("is an administrator's: agents 403, another account's administrator 403, no key 401; nobody is invited", async () => {
    const before = await members();
    const body = { emails: [uniqueEmail("refused")] };
    const agent = await post(`${world.base}/agents/bulk_create`, world.agent.key, body);
    expect(agent.status).toBe(403);
    expect(agent.body.errors[0].code).toBe("administrator_required");
    expect((await post(`${world.base}/agents/bulk_create`, other.admin.key, body)).status).toBe(403);
    expect((await call("POST", `${world.base}/agents/bulk_create`, { body })).status).toBe(401);
    expect(await members()).toEqual(before);
  });
});
