/**
 * Signing in as Chatwoot's agent apps do (POST /auth/sign_in, then access-token, client and uid on every
 * request), signing out, and the password reset by mail.
 */
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/domain/identity/keys";
import { allShards, directory } from "../support/databases";
import { call, get, post, put } from "../support/http";
import { createUser, createWorld, uniqueEmail } from "../support/world";

const world = await createWorld("Signin Co");
const PASSWORD = "Passw0rd!long";

type Session = { "access-token": string; client: string; uid: string };

async function signIn(email: string, password = PASSWORD) {
  const res = await post("/auth/sign_in", null, { email, password });
  expect(res.status).toBe(200);
  const session: Session = { "access-token": res.headers.get("access-token")!, client: res.headers.get("client")!, uid: res.headers.get("uid")! };
  return { res, session };
}

const as = (session: Session, method: string, path: string, body?: unknown) => call(method, path, { headers: session, body });

async function sessionRows(userId: number) {
  const { results } = await directory().prepare("SELECT * FROM auth_sessions WHERE user_id = ? ORDER BY id").bind(userId).all<Record<string, unknown>>();
  return results;
}

/** The rows of `table` in every database (directory and shards), so a stray write anywhere shows. */
async function countRows(table: string) {
  let total = 0;
  for (const db of [directory(), ...allShards()]) total += (await db.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())!.n;
  return total;
}

describe("POST /auth/sign_in", () => {
  it("answers the user as the profile shows it, and the devise_token_auth headers", async () => {
    const before = Math.floor(Date.now() / 1000);
    const { res, session } = await signIn(world.agent.email.toUpperCase());
    const profile = await get("/api/v1/profile", world.agent.key);
    expect(res.body.data).toEqual(profile.body);
    expect(session.uid).toBe(world.agent.email);
    expect(session["access-token"]).toMatch(/^[\w-]{32}$/);
    expect(session.client).toMatch(/^\w{24}$/);
    expect(res.headers.get("token-type")).toBe("Bearer");
    const expiry = Number(res.headers.get("expiry"));
    // 60 days (wrangler.toml SIGN_IN_LIFESPAN_DAYS)
    expect(expiry).toBeGreaterThanOrEqual(before + 60 * 86400);
    expect(expiry).toBeLessThanOrEqual(before + 60 * 86400 + 60);
    // only the digest is kept
    const rows = await sessionRows(world.agent.id);
    const row = rows.find((r) => r.client_id === session.client)!;
    expect(row.token_digest).toBe(await sha256Hex(session["access-token"]));
    expect(JSON.stringify(rows)).not.toContain(session["access-token"]);
  });

  it("gives every sign-in its own client, and its headers reach what the user's key reaches", async () => {
    const first = await signIn(world.admin.email);
    const second = await signIn(world.admin.email);
    expect(second.session.client).not.toBe(first.session.client);
    for (const { session } of [first, second]) {
      const profile = await as(session, "GET", "/api/v1/profile");
      expect(profile.status).toBe(200);
      expect(profile.body.id).toBe(world.admin.id);
      const account = await as(session, "GET", world.base);
      expect(account.status).toBe(200);
      expect(account.body.id).toBe(world.accountId);
      // an administrator's route, as the administrator
      expect((await as(session, "GET", `${world.base}/webhooks`)).status).toBe(200);
    }
    // the agent's sign-in is the agent: no administrator route, no other account
    const agent = await signIn(world.agent.email);
    expect((await as(agent.session, "GET", `${world.base}/webhooks`)).status).toBe(403);
    const other = await createWorld("Elsewhere");
    expect((await as(agent.session, "GET", other.base)).status).toBe(403);
    // nor the platform API
    expect((await as(agent.session, "GET", "/platform/api/v1/accounts")).status).toBe(403);
  });

  it("refuses a wrong password and an unknown e-mail with one and the same 401, and writes nothing", async () => {
    const sessions = await countRows("auth_sessions");
    const wrong = await post("/auth/sign_in", null, { email: world.agent.email, password: "Wrong-passw0rd!" });
    const unknown = await post("/auth/sign_in", null, { email: uniqueEmail("nobody"), password: "Wrong-passw0rd!" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.errors[0].code).toBe("invalid_credentials");
    expect(wrong.headers.get("access-token")).toBeNull();
    expect(await countRows("auth_sessions")).toBe(sessions);
  });

  it("refuses a user without a password the same way", async () => {
    const email = uniqueEmail("passwordless");
    await post("/platform/api/v1/users", world.platformKey, { name: "No Password", email });
    const res = await post("/auth/sign_in", null, { email, password: "Anything-1!" });
    expect(res.status).toBe(401);
    expect(res.body.errors[0].code).toBe("invalid_credentials");
  });

  it.each([
    [{ mfa_token: "t", otp_code: "123456" }, "mfa_token"],
    [{ mfa_token: "t", backup_code: "abc" }, "mfa_token"],
    [{ email: "a@example.com", sso_auth_token: "t" }, "sso_auth_token"],
  ])("answers 422 not_offered to two-factor and single sign-on (%j)", async (body, field) => {
    const sessions = await countRows("auth_sessions");
    const res = await post("/auth/sign_in", null, body);
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ field, code: "not_offered" });
    expect(await countRows("auth_sessions")).toBe(sessions);
  });

  it.each([
    [{}, 422],
    [{ email: world.agent.email }, 422],
    [{ email: 42, password: PASSWORD }, 422],
    [{ email: world.agent.email, password: ["x"] }, 422],
  ])("refuses a bad body %j with the error body and writes nothing", async (body, status) => {
    const sessions = await countRows("auth_sessions");
    const res = await post("/auth/sign_in", null, body);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ description: expect.any(String), errors: [expect.objectContaining({ code: expect.any(String) })] });
    expect(await countRows("auth_sessions")).toBe(sessions);
  });

  it("refuses malformed JSON with a 400", async () => {
    const res = await call("POST", "/auth/sign_in", { rawBody: "{not json", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].code).toBe("malformed_body");
  });
});

describe("many sign-ins of one user", () => {
  it("keep the ten newest clients: the eleventh ends the oldest", async () => {
    const user = await createUser(world.platformKey, "Many Devices");
    const sessions: Session[] = [];
    for (let i = 0; i < 11; i++) sessions.push((await signIn(user.email)).session);
    expect(await sessionRows(user.id)).toHaveLength(10);
    expect((await as(sessions[0], "GET", "/api/v1/profile")).status).toBe(401);
    expect((await as(sessions[10], "GET", "/api/v1/profile")).status).toBe(200);
    expect((await as(sessions[1], "GET", "/api/v1/profile")).status).toBe(200);
  });
});

describe("the sign-in headers", () => {
  it("are refused when any of them is wrong, missing, or the uid is not the user's e-mail", async () => {
    const { session } = await signIn(world.agent.email);
    const cases: Array<Record<string, string>> = [
      { ...session, "access-token": "wrong" },
      { ...session, client: "wrong" },
      { ...session, uid: world.admin.email },
      { "access-token": session["access-token"], client: session.client },
      { "access-token": session["access-token"], uid: session.uid },
    ];
    for (const headers of cases) {
      const res = await call("GET", "/api/v1/profile", { headers });
      expect(res.status).toBe(401);
      expect(res.body.errors[0].field).toBe("api_access_token");
    }
    // another user's client with this user's token: nobody
    const admin = await signIn(world.admin.email);
    expect((await as({ ...session, client: admin.session.client }, "GET", "/api/v1/profile")).status).toBe(401);
    expect((await as(session, "GET", "/api/v1/profile")).status).toBe(200);
  });

  it("stop working when the session expires", async () => {
    const { session } = await signIn(world.agent.email);
    expect((await as(session, "GET", "/auth/validate_token")).status).toBe(200);
    await directory().prepare("UPDATE auth_sessions SET expires_at = ? WHERE client_id = ?").bind(Date.now() - 1, session.client).run();
    const res = await as(session, "GET", "/auth/validate_token");
    expect(res.status).toBe(401);
    expect(res.body.errors[0].code).toBe("invalid_session");
  });
});

describe("GET /auth/validate_token", () => {
  it("answers the user for valid headers and 401 otherwise", async () => {
    const { session } = await signIn(world.agent.email);
    const res = await as(session, "GET", "/auth/validate_token");
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toEqual((await get("/api/v1/profile", world.agent.key)).body);
    expect((await as({ ...session, "access-token": "nope" }, "GET", "/auth/validate_token")).status).toBe(401);
    expect((await get("/auth/validate_token")).status).toBe(401);
  });
});

describe("DELETE /auth/sign_out", () => {
  it("ends only the calling client", async () => {
    const user = await createUser(world.platformKey, "Two Phones");
    const phone = await signIn(user.email);
    const tablet = await signIn(user.email);
    const res = await as(phone.session, "DELETE", "/auth/sign_out");
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect((await as(phone.session, "GET", "/api/v1/profile")).status).toBe(401);
    expect((await as(phone.session, "DELETE", "/auth/sign_out")).status).toBe(401);
    expect((await as(tablet.session, "GET", "/api/v1/profile")).status).toBe(200);
    expect((await get("/api/v1/profile", user.key)).status).toBe(200);
    expect((await sessionRows(user.id)).map((r) => r.client_id)).toEqual([tablet.session.client]);
  });

  it("refuses an API key (it has no session to end)", async () => {
    const res = await call("DELETE", "/auth/sign_out", { key: world.agent.key });
    expect(res.status).toBe(403);
  });
});

describe("a new password", () => {
  it("changed in the profile ends every sign-in of the user; the key keeps working", async () => {
    const user = await createUser(world.platformKey, "Changer");
    const one = await signIn(user.email);
    const two = await signIn(user.email);
    const res = await as(one.session, "PUT", "/api/v1/profile", { current_password: PASSWORD, password: "N3w-Passw0rd!", password_confirmation: "N3w-Passw0rd!" });
    expect(res.status).toBe(200);
    expect((await as(one.session, "GET", "/api/v1/profile")).status).toBe(401);
    expect((await as(two.session, "GET", "/api/v1/profile")).status).toBe(401);
    expect(await sessionRows(user.id)).toEqual([]);
    expect((await get("/api/v1/profile", user.key)).status).toBe(200);
    await signIn(user.email, "N3w-Passw0rd!");
  });

  it("set by the platform app ends every sign-in too", async () => {
    const user = await createUser(world.platformKey, "Managed");
    const { session } = await signIn(user.email);
    expect((await call("PATCH", `/platform/api/v1/users/${user.id}`, { key: world.platformKey, body: { password: "Pl4tform-Passw0rd!" } })).status).toBe(200);
    expect((await as(session, "GET", "/api/v1/profile")).status).toBe(401);
  });

  it("a profile change without a new password leaves the sign-ins alone", async () => {
    const { session } = await signIn(world.agent.email);
    expect((await as(session, "PUT", "/api/v1/profile", { name: "Renamed Agent" })).status).toBe(200);
    expect((await as(session, "GET", "/api/v1/profile")).status).toBe(200);
  });
});

describe("password reset", () => {
  async function resetMails(address: string) {
    const { results } = await directory().prepare("SELECT * FROM outgoing_emails WHERE kind = 'password_reset' AND recipients = ? ORDER BY id DESC")
      .bind(JSON.stringify([address]))
      .all<{ body: string; subject: string; status: string }>();
    return results;
  }
  const tokenIn = (body: string) => new URL(/https?:\/\/\S+reset_password_token=\S+/.exec(body)![0]).searchParams.get("reset_password_token")!;

  it("answers the same for a user's e-mail and an unknown one, and mails only the user", async () => {
    const user = await createUser(world.platformKey, "Forgetful");
    const mails = await countRows("outgoing_emails");
    const known = await post("/auth/password", null, { email: user.email.toUpperCase() });
    const unknown = await post("/auth/password", null, { email: uniqueEmail("ghost") });
    expect(known.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    expect(known.body).toMatchObject({ success: true, message: expect.any(String) });
    expect(await countRows("outgoing_emails")).toBe(mails + 1);
    const [mail] = await resetMails(user.email);
    expect(mail.status).toBe("pending");
    const token = tokenIn(mail.body);
    const row = (await directory().prepare("SELECT * FROM users WHERE id = ?").bind(user.id).first<Record<string, unknown>>())!;
    expect(row.reset_password_token_digest).toBe(await sha256Hex(token));
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it("sets the new password with the token, once, and ends every sign-in", async () => {
    const user = await createUser(world.platformKey, "Resetter");
    const { session } = await signIn(user.email);
    await post("/auth/password", null, { email: user.email });
    const token = tokenIn((await resetMails(user.email))[0].body);
    const body = { reset_password_token: token, password: "Fresh-Passw0rd!", password_confirmation: "Fresh-Passw0rd!" };
    const res = await put("/auth/password", null, body);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect((await as(session, "GET", "/api/v1/profile")).status).toBe(401);
    expect((await post("/auth/sign_in", null, { email: user.email, password: PASSWORD })).status).toBe(401);
    await signIn(user.email, "Fresh-Passw0rd!");
    // single use
    const again = await put("/auth/password", null, { ...body, password: "Other-Passw0rd!", password_confirmation: "Other-Passw0rd!" });
    expect(again.status).toBe(422);
    expect(again.body.errors[0]).toMatchObject({ field: "reset_password_token", code: "invalid_token" });
    await signIn(user.email, "Fresh-Passw0rd!");
  });

  it("refuses a bad token, an expired one, a weak or unconfirmed password, and changes nothing", async () => {
    const user = await createUser(world.platformKey, "Careful");
    await post("/auth/password", null, { email: user.email });
    const token = tokenIn((await resetMails(user.email))[0].body);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ reset_password_token: "no-such-token", password: "Fresh-Passw0rd!", password_confirmation: "Fresh-Passw0rd!" }, "reset_password_token"],
      [{ reset_password_token: token, password: "weak", password_confirmation: "weak" }, "password"],
      [{ reset_password_token: token, password: "Fresh-Passw0rd!", password_confirmation: "Other-Passw0rd!" }, "password_confirmation"],
      [{ password: "Fresh-Passw0rd!", password_confirmation: "Fresh-Passw0rd!" }, "reset_password_token"],
    ];
    for (const [body, field] of cases) {
      const res = await put("/auth/password", null, body);
      expect(res.status).toBe(422);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    await directory().prepare("UPDATE users SET reset_password_expires_at = ? WHERE id = ?").bind(Date.now() - 1, user.id).run();
    const expired = await put("/auth/password", null, { reset_password_token: token, password: "Fresh-Passw0rd!", password_confirmation: "Fresh-Passw0rd!" });
    expect(expired.status).toBe(422);
    expect(expired.body.errors[0].code).toBe("invalid_token");
    await signIn(user.email);
  });

  it("refuses a request without a valid e-mail and mails nobody", async () => {
    const mails = await countRows("outgoing_emails");
    for (const body of [{}, { email: "not-an-address" }, { email: 7 }]) {
      const res = await post("/auth/password", null, body);
      expect(res.status).toBe(422);
      expect(res.body.errors[0].field).toBe("email");
    }
    expect(await countRows("outgoing_emails")).toBe(mails);
  });
});

describe("GET /api", () => {
  it("reports the Chatwoot API level the apps check, and edgedesk's own version", async () => {
    const res = await get("/api");
    expect(res.body.version).toBe("4.1.0");
    expect(res.body.edgedesk_version).toMatch(/^\d+\.\d+\.\d+/);
  });
});
