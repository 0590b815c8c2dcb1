/**
 * Who a platform app's user create may hand back. Two reported attacks: a second platform app taking over
 * another app's user by its e-mail, and an agent squatting the e-mail a platform app provisions later.
 */
import { describe, expect, it } from "vitest";
import { get, post, put } from "../support/http";
import { addToAccount, createWorld, uniqueEmail } from "../support/world";
import { directory } from "../support/databases";

const acme = await createWorld("Acme");
const globex = await createWorld("Globex");

describe("a second platform app creating a user with another app's e-mail", () => {
  it("gets a 422 on email, no key, and no reach into the user", async () => {
    const res = await post("/platform/api/v1/users", globex.platformKey, { name: "Takeover", email: acme.admin.email });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: "email", message: "has already been taken", code: "taken" }]);
    expect(JSON.stringify(res.body)).not.toContain(acme.admin.key);
    expect((await get(`/platform/api/v1/users/${acme.admin.id}`, globex.platformKey)).status).toBe(403);
    expect((await post(`/platform/api/v1/users/${acme.admin.id}/token`, globex.platformKey)).status).toBe(403);
    expect((await get(`/platform/api/v1/users/${acme.admin.id}/login`, globex.platformKey)).status).toBe(403);
    const grants = await directory().prepare("SELECT count(*) AS n FROM platform_app_permissibles WHERE permissible_type = 'User' AND permissible_id = ?")
      .bind(acme.admin.id)
      .first<{ n: number }>();
    expect(grants!.n).toBe(1);
    expect((await get("/api/v1/profile", acme.admin.key)).body).toMatchObject({ name: "Acme Admin", email: acme.admin.email });
  });
});

describe("an agent squatting the e-mail its platform app provisions next", () => {
  it("leaves the app a NEW user for that address, never the agent", async () => {
    const victimAddress = uniqueEmail("new-admin");
    const squat = await put("/api/v1/profile", acme.agent.key, { email: victimAddress, current_password: "Passw0rd!long" });
    expect(squat.status).toBe(200);
    expect(squat.body).toMatchObject({ email: acme.agent.email, unconfirmed_email: victimAddress });

    const provisioned = await post("/platform/api/v1/users", acme.platformKey, { name: "New Admin", email: victimAddress });
    expect(provisioned.status).toBe(200);
    expect(provisioned.body.id).not.toBe(acme.agent.id);
    expect(provisioned.body.access_token).not.toBe(acme.agent.key);
    expect(provisioned.body.email).toBe(victimAddress);

    const { body: account } = await post("/platform/api/v1/accounts", acme.platformKey, { name: "Acme Two" });
    await addToAccount(acme.platformKey, account.id, provisioned.body.id, "administrator");
    expect((await get(`/api/v1/accounts/${account.id}`, acme.agent.key)).status).toBe(403);

    // the agent's late confirmation (whoever holds the link) cannot take the address over
    const mail = await directory().prepare("SELECT body FROM outgoing_emails WHERE kind = 'email_confirmation' AND recipients = ?")
      .bind(JSON.stringify([victimAddress]))
      .first<{ body: string }>();
    const token = /confirmation_token=([0-9a-f]+)/.exec(mail!.body)![1];
    const late = await get(`/auth/confirmation?confirmation_token=${token}`);
    expect(late.status).toBe(422);
    expect(late.body.errors[0]).toMatchObject({ field: "email", code: "taken" });
    expect((await get("/api/v1/profile", acme.agent.key)).body.email).toBe(acme.agent.email);
    expect((await get("/api/v1/profile", provisioned.body.access_token)).body.email).toBe(victimAddress);
  });
});
