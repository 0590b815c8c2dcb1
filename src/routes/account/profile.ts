import { Hono } from "hono";
import { loadUserRecord } from "../../domain/identity/users";
import { resetOwnKey, setActiveAccount, setOwnAvailability, updateOwnProfile } from "../../domain/identity/profile";
import { confirmationLink } from "../auth";
import type { AppContext, AppEnv } from "../../http/app-env";
import { userAuth } from "../../http/auth";
import { userScope } from "../../http/scopes";
import { routeBody } from "../../http/body";
import { validate } from "../../http/validate";
import { ProfileUpdate, SetActiveAccount, SetAvailability } from "../../schemas/users";
import { userView } from "../../views/users";
import { liveAccountsOf, userHmacIdentifier } from "../user-identity";
import { rateLimited } from "../../http/rate-limit";
import { doc } from "../../http/openapi";
import { User } from "../../schemas/users";

async function renderProfile(c: AppContext) {
  const scope = userScope(c);
  const record = await loadUserRecord(scope, scope.actor.user.id);
  return c.json(userView(record!, await userHmacIdentifier(c.env, record!.user.email), await liveAccountsOf(c.env, record!)));
}

/** /api/v1/profile: the calling user's own record. */
export const profileApi = new Hono<AppEnv>()
  .use("*", userAuth, rateLimited("account_api"), routeBody)
  .get("/", doc({ summary: "Show the calling user's profile", response: User }), (c) => renderProfile(c))
  .on(["PUT", "PATCH"], "/", doc({ summary: "Update the calling user's profile or password; a new email waits for its confirmation link", response: User }), validate("json", ProfileUpdate), async (c) => {
    const body = c.req.valid("json");
    await updateOwnProfile(
      userScope(c),
      {
        name: body.name,
        displayName: body.display_name,
        email: body.email,
        password: body.password,
        currentPassword: body.current_password,
        messageSignature: body.message_signature,
        uiSettings: body.ui_settings,
        ...(body.phone_number !== undefined && { customAttributes: { phone_number: body.phone_number } }),
      },
      (token) => confirmationLink(c.env, token),
    );
    return renderProfile(c);
  })
  .post(
    "/availability",
    doc({
      summary: "Choose the user's availability (online, busy, offline) in one of their accounts",
      description:
        "Answers the profile. Others see it as `availability_status` while the user is live on the account's feed (`/cable`), offline otherwise. An account the user is not a member of is a 404 and changes nothing.",
      response: User,
    }),
    validate("json", SetAvailability),
    async (c) => {
      const { account_id, availability } = c.req.valid("json");
      await setOwnAvailability(userScope(c), account_id, availability);
      return renderProfile(c);
    },
  )
  .post(
    "/reset_access_token",
    doc({
      summary: "Replace the calling user's API key with a new one",
      description:
        "Answers the profile with the new `access_token`; the old key is refused from then on. The `pubsub_token` is renewed too, and the user's live sockets close (ActionCable's `disconnect` `access_changed`, a room's close 4003), so what opens again is checked with the new credentials. Sign-ins keep working.",
      response: User,
    }),
    async (c) => {
      await resetOwnKey(userScope(c));
      return renderProfile(c);
    },
  )
  .put("/set_active_account", doc({ summary: "Make one of the user's accounts the active one", description: "The profile then shows it as `account_id`. Answers an empty body; an account the user is not a member of is a 404 and changes nothing." }), validate("json", SetActiveAccount), async (c) => {
    await setActiveAccount(userScope(c), c.req.valid("json").account_id);
    return c.body(null, 200);
  });
