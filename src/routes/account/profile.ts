import { Hono } from "hono";
import { changeOwnPassword, loadUserRecord, updateUser } from "../../domain/identity/users";
import type { AppContext, AppEnv } from "../../http/app-env";
import { userAuth } from "../../http/auth";
import { routeBody } from "../../http/body";
import { validate } from "../../http/validate";
import { ProfileUpdate } from "../../schemas/users";
import { userView } from "../../views/users";
import { userHmacIdentifier } from "../user-identity";
import { rateLimited } from "../../http/rate-limit";
import { doc } from "../../http/openapi";
import { User } from "../../schemas/users";

function currentUser(c: AppContext) {
  if (c.var.actor.type !== "user") throw new Error("profile routes run behind userAuth");
  return c.var.actor.user;
}

async function renderProfile(c: AppContext) {
  const record = await loadUserRecord(c.var.db, currentUser(c).id);
  return c.json(userView(record!, await userHmacIdentifier(c.env, record!.user.email)));
}

/** /api/v1/profile: the calling user's own record. */
export const profileApi = new Hono<AppEnv>()
  .use("*", userAuth, rateLimited("account_api"), routeBody)
  .get("/", doc({ summary: "Show the calling user's profile", response: User }), (c) => renderProfile(c))
  .on(["PUT", "PATCH"], "/", doc({ summary: "Update the calling user's profile or password", response: User }), validate("json", ProfileUpdate), async (c) => {
    const user = currentUser(c);
    const body = c.req.valid("json");
    if (body.password !== undefined) await changeOwnPassword(c.var.db, user, body.current_password, body.password);
    await updateUser(c.var.db, user, {
      name: body.name,
      displayName: body.display_name,
      email: body.email,
      messageSignature: body.message_signature,
      uiSettings: body.ui_settings,
      ...(body.phone_number !== undefined && { customAttributes: { phone_number: body.phone_number } }),
    });
    return renderProfile(c);
  });
