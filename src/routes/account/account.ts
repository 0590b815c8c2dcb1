import { Hono } from "hono";
import pkg from "../../../package.json";
import { updateAccount } from "../../domain/identity/accounts";
import type { AppEnv } from "../../http/app-env";
import { accountScope } from "../../http/scopes";
import { requireAdministrator } from "../../http/auth";
import { validate } from "../../http/validate";
import { Account, AccountUpdate, COMPANY_FIELDS, SETTINGS_FIELDS } from "../../schemas/accounts";
import { accountView } from "../../views/accounts";
import { doc } from "../../http/openapi";

const pick = (body: Record<string, unknown>, keys: readonly string[]) =>
  Object.fromEntries(keys.filter((k) => body[k] !== undefined).map((k) => [k, body[k]]));

/** GET/PATCH /api/v1/accounts/:account_id: the account itself. */
export const accountSelfApi = new Hono<AppEnv>()
  .get("/", doc({ summary: "Show the account", response: Account }), (c) => c.json(accountView(c.var.account, pkg.version)))
  .on(["PATCH", "PUT"], "/", doc({ summary: "Update the account (administrators)", response: Account }), requireAdministrator, validate("json", AccountUpdate), async (c) => {
    const account = c.var.account;
    const body = c.req.valid("json");
    const updated = await updateAccount(accountScope(c), account, {
      name: body.name,
      locale: body.locale,
      domain: body.domain,
      supportEmail: body.support_email,
      customAttributes: { ...account.customAttributes, ...pick(body, COMPANY_FIELDS) },
      settings: { ...account.settings, ...pick(body, SETTINGS_FIELDS) },
    });
    return c.json(accountView(updated, pkg.version));
  });
