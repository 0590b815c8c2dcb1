import { Hono } from "hono";
import type { z } from "zod";
import { deleteUser, findOrCreateUser, issueLoginToken, loadUserRecord, updateUser, type UserRecord } from "../../domain/identity/users";
import type { AppContext, AppEnv } from "../../http/app-env";
import { validate } from "../../http/validate";
import { IdParam } from "../../schemas/common";
import { LoginLink, PlatformUserCreate, PlatformUserUpdate, User, UserToken } from "../../schemas/users";
import { liveAccountsOf, userHmacIdentifier } from "../user-identity";
import { userView } from "../../views/users";
import { ownedUser } from "../../domain/platform/ownership";
import { platformScope } from "../../http/scopes";
import { idempotent } from "../../http/idempotency";
import { doc } from "../../http/openapi";
import { Empty } from "../../schemas/responses";

const toUserInput = (body: z.infer<typeof PlatformUserUpdate>) => ({
  name: body.name,
  displayName: body.display_name,
  email: body.email,
  password: body.password,
  customAttributes: body.custom_attributes,
});

async function render(c: AppContext, record: UserRecord) {
  return c.json(userView(record, await userHmacIdentifier(c.env, record.user.email), await liveAccountsOf(c.env, record)));
}

export const platformUsers = new Hono<AppEnv>()
  .post("/", doc({ summary: "Create a user (answers the user's access token)", response: User }), idempotent(), validate("json", PlatformUserCreate), async (c) => {
    const body = c.req.valid("json");
    const input = { ...toUserInput(body), name: body.name, email: body.email };
    const scope = platformScope(c);
    return render(c, await findOrCreateUser(scope, input));
  })
  .get("/:id", doc({ summary: "Show a user", response: User }), validate("param", IdParam), async (c) => render(c, await ownedUser(platformScope(c), c.req.valid("param").id)))
  .on(["PATCH", "PUT"], "/:id", doc({ summary: "Update a user", response: User }), validate("param", IdParam), validate("json", PlatformUserUpdate), async (c) => {
    const scope = platformScope(c);
    const { user } = await ownedUser(scope, c.req.valid("param").id);
    await updateUser(scope, user, toUserInput(c.req.valid("json")));
    return render(c, (await loadUserRecord(scope, user.id))!);
  })
  .delete("/:id", doc({ summary: "Delete a user", response: Empty }), validate("param", IdParam), async (c) => {
    const scope = platformScope(c);
    const { user } = await ownedUser(scope, c.req.valid("param").id);
    await deleteUser(scope, user.id);
    return c.json({});
  })
  .get("/:id/login", doc({ summary: "Get a one-time login link for a user", response: LoginLink }), validate("param", IdParam), async (c) => {
    const scope = platformScope(c);
    const { user } = await ownedUser(scope, c.req.valid("param").id);
    const token = await issueLoginToken(scope, user.id);
    const url = new URL("/app/login", c.env.FRONTEND_URL);
    url.searchParams.set("email", user.email);
    url.searchParams.set("sso_auth_token", token);
    return c.json({ url: url.toString() });
  })
  .post("/:id/token", doc({ summary: "Show a user's access token", response: UserToken }), validate("param", IdParam), async (c) => {
    const { user, accessToken } = await ownedUser(platformScope(c), c.req.valid("param").id);
    return c.json({
      access_token: accessToken,
      expiry: null,
      user: { id: user.id, name: user.name, display_name: user.displayName, email: user.email, pubsub_token: user.pubsubToken },
    });
  });
