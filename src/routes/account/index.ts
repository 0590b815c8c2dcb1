import { Hono } from "hono";
import type { AppEnv } from "../../http/app-env";
import { accountAuth } from "../../http/auth";
import { accountSelfApi } from "./account";
import { contactMergeApi, contactsApi } from "./contacts";
import { profileApi } from "./profile";

/**
 * /api/v1: the profile, and everything under /accounts/:account_id. Each resource group is one
 * sub-app mounted below `accounts`; all of them run behind accountAuth.
 */
const accountScoped = new Hono<AppEnv>()
  .use("*", accountAuth)
  .route("/", accountSelfApi)
  .route("/contacts", contactsApi)
  .route("/actions/contact_merge", contactMergeApi);

export const applicationApi = new Hono<AppEnv>()
  .route("/profile", profileApi)
  .route("/accounts/:account_id", accountScoped);
