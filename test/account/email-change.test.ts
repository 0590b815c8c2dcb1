/**
 * A user's own e-mail change (PUT /api/v1/profile): the current password, then a confirmation link to the
 * new address (GET /auth/confirmation); until it is followed, the user keeps the old address.
 */
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/domain/identity/keys";
import { directory } from "../support/databases";
import { call, get, post, put } from "../support/http";
import { createUser, createWorld, uniqueEmail } from "../support/world";

const world = await createWorld("Mailbox Co");
const PASSWORD = "Passw0rd!long";

type UserRow = { email: string; unconfirmed_email: string | null; confirmation_token_digest: string | null; password_hash: string; name: string };

async function userRow(id: number) {
  return (await directory().prepare("SELECT * FROM users WHERE id = ?").bind(id).first<UserRow>())!;
}

/** The confirmation e-mails written for `address`, newest first. */
async function confirmationMails(address: string) {
  const { results } = await directory().prepare(
    "SELECT kind, recipients, subject, body, status, account_id FROM outgoing_emails WHERE kind = 'email_confirmation' AND recipients = ? ORDER BY id DESC",
  )
    .bind(JSON.stringify([address]))
    .all<{ kind: string; recipients: string; subject: string; body: string; status: string; account_id: number | null }>();
  return results;
}

/** The token of the latest confirmation link sent to `address`. */
async function tokenSentTo(address: string) {
  const [mail] = await confirmationMails(address);
  const link = /https?:\/\/\S+\/auth\/confirmation\?confirmation_token=\S+/.exec(mail.body)![0];
  return new URL(link).searchParams.get("confirmation_token")!;
}

const confirm = (token: string) => get(`/auth/confirmation?confirmation_token=${encodeURIComponent(token)}`);

describe("PUT /api/v1/profile with a new email", () => {
  it("keeps the old address, shows the new one as unconfirmed and mails a link to it", async () => {
    const user = await createUser(world.platformKey, "Mover");
    const wanted = uniqueEmail("wanted");
    const res = await put("/api/v1/profile", user.key, { email: wanted.toUpperCase(), current_password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: user.email, uid: user.email, unconfirmed_email: wanted });
    expect((await get("/api/v1/profile", user.key)).body).toMatchObject({ email: user.email, unconfirmed_email: wanted });

    const [mail] = await confirmationMails(wanted);
    expect(mail).toMatchObject({ kind: "email_confirmation", status: "pending", account_id: null, subject: expect.stringContaining("Confirm") });
    const token = await tokenSentTo(wanted);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    // only the digest is kept
    const row = await userRow(user.id);
    expect(row.confirmation_token_digest).toBe(await sha256Hex(token));
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it("takes effect when the link is followed, once", async () => {
    const user = await createUser(world.platformKey, "Confirmer");
    const wanted = uniqueEmail("confirmed");
    await put("/api/v1/profile", user.key, { email: wanted, current_password: PASSWORD });
    const token = await tokenSentTo(wanted);

    const res = await confirm(token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ email: wanted, confirmed: true });
    expect((await get("/api/v1/profile", user.key)).body).toMatchObject({ email: wanted, uid: wanted, unconfirmed_email: null });
    expect((await userRow(user.id)).confirmation_token_digest).toBeNull();

    const again = await confirm(token);
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual([{ field: "confirmation_token", message: "is invalid or has expired", code: "invalid_token" }]);
  });

  it("answers one and the same 422 for an unknown, a used, an expired and a replaced token", async () => {
    const user = await createUser(world.platformKey, "Expiring");
    const first = uniqueEmail("first");
    await put("/api/v1/profile", user.key, { email: first, current_password: PASSWORD });
    const replaced = await tokenSentTo(first);
    const second = uniqueEmail("second");
    await put("/api/v1/profile", user.key, { email: second, current_password: PASSWORD });
    const expiring = await tokenSentTo(second);
    await directory().prepare("UPDATE users SET confirmation_expires_at = ? WHERE id = ?").bind(Date.now() - 1000, user.id).run();

    const answers = await Promise.all([confirm("0".repeat(64)), confirm(replaced), confirm(expiring), confirm("short")]);
    for (const res of answers) {
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        description: "confirmation_token is invalid or has expired",
        errors: [{ field: "confirmation_token", message: "is invalid or has expired", code: "invalid_token" }],
      });
    }
    expect((await get("/api/v1/profile", user.key)).body).toMatchObject({ email: user.email, unconfirmed_email: second });
    const missing = await get("/auth/confirmation");
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0]).toMatchObject({ field: "confirmation_token", code: "required" });
  });

  it("needs the current password: missing or wrong is a 422 and changes nothing", async () => {
    const user = await createUser(world.platformKey, "Guarded");
    const wanted = uniqueEmail("guarded");
    const missing = await put("/api/v1/profile", user.key, { name: "Renamed", email: wanted });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([{ field: "current_password", message: "is required to change the email", code: "required" }]);
    const wrong = await put("/api/v1/profile", user.key, { name: "Renamed", email: wanted, current_password: "not it" });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual([{ field: "current_password", message: "is not correct", code: "invalid_current_password" }]);
    expect(await confirmationMails(wanted)).toEqual([]);
    expect(await userRow(user.id)).toMatchObject({ name: "Guarded", email: user.email, unconfirmed_email: null, confirmation_token_digest: null });
  });

  it("accepts the unchanged email without a password (clients send the whole form)", async () => {
    const user = await createUser(world.platformKey, "Former");
    const res = await put("/api/v1/profile", user.key, { name: "Formed", email: user.email.toUpperCase() });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Formed", email: user.email, unconfirmed_email: null });
  });

  it("refuses an address another user has or is waiting to confirm, and writes nothing", async () => {
    const holder = await createUser(world.platformKey, "Holder");
    const waiter = await createUser(world.platformKey, "Waiter");
    const pending = uniqueEmail("pending");
    await put("/api/v1/profile", waiter.key, { email: pending, current_password: PASSWORD });

    const user = await createUser(world.platformKey, "Wanter");
    const before = await userRow(user.id);
    for (const address of [holder.email, pending.toUpperCase()]) {
      const res = await put("/api/v1/profile", user.key, {
        name: "Renamed",
        email: address,
        current_password: PASSWORD,
        password: "N3w!Password",
        password_confirmation: "N3w!Password",
      });
      expect(res.status, address).toBe(422);
      expect(res.body.errors).toEqual([{ field: "email", message: "has already been taken", code: "taken" }]);
    }
    // the password change in the same request did not happen either
    expect(await userRow(user.id)).toEqual(before);
    expect(await confirmationMails(holder.email)).toEqual([]);
    expect(await confirmationMails(pending)).toHaveLength(1);
  });

  it("changes the password and asks for the new address in one write", async () => {
    const user = await createUser(world.platformKey, "Both");
    const wanted = uniqueEmail("both");
    const res = await put("/api/v1/profile", user.key, {
      email: wanted,
      current_password: PASSWORD,
      password: "N3w!Password",
      password_confirmation: "N3w!Password",
    });
    expect(res.status).toBe(200);
    expect(res.body.unconfirmed_email).toBe(wanted);
    const old = await put("/api/v1/profile", user.key, { email: uniqueEmail(), current_password: PASSWORD });
    expect(old.body.errors[0].code).toBe("invalid_current_password");
  });

  it("an address taken while it waited cannot be confirmed: 422 taken, nothing changes", async () => {
    const user = await createUser(world.platformKey, "Late");
    const wanted = uniqueEmail("late");
    await put("/api/v1/profile", user.key, { email: wanted, current_password: PASSWORD });
    const token = await tokenSentTo(wanted);
    // nobody finds the user by the address it waits for: an invitation makes a new user
    const invited = await post(`${world.base}/agents`, world.admin.key, { name: "Newcomer", email: wanted });
    expect(invited.status).toBe(200);
    expect(invited.body.id).not.toBe(user.id);

    const res = await confirm(token);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: "email", message: "has already been taken", code: "taken" }]);
    expect((await get("/api/v1/profile", user.key)).body).toMatchObject({ email: user.email });
  });

  it("the confirmation route takes no key and answers JSON errors for odd input", async () => {
    const withKey = await call("GET", "/auth/confirmation?confirmation_token=abc", { key: world.admin.key });
    expect(withKey.status).toBe(422);
    const listed = await get("/auth/confirmation?confirmation_token=a&confirmation_token=b");
    expect(listed.status).toBe(422);
    expect((await post("/auth/confirmation", null, { confirmation_token: "x" })).status).toBe(404);
  });
});
