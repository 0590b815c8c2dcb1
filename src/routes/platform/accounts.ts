import { Hono } from "hono";
import { z } from "zod";
import { createAccount, deleteAccount, updateAccount } from "../../domain/identity/accounts";
import { listAccountUsers, removeAccountUser, upsertAccountUser } from "../../domain/identity/account-users";
import { ROLES, enumName } from "../../domain/kernel/enums";
import { assertOwnsAccountAndUser, listOwnedAccounts, ownedAccount } from "../../domain/platform/ownership";
import type { AppEnv } from "../../http/app-env";
import { validate } from "../../http/validate";
import { PlatformAccountCreate, PlatformAccountUpdate } from "../../schemas/accounts";
import { IdParam } from "../../schemas/common";
import { AccountIdParam, AccountUser, AccountUserCreate, AccountUserDelete } from "../../schemas/platform";
import { platformAccountView } from "../../views/accounts";
import { platformScope } from "../../http/scopes";
import { idempotent } from "../../http/idempotency";
import { doc } from "../../http/openapi";
import { Empty, PlatformAccount } from "../../schemas/responses";

const accountUserView = (r: { accountId: number; userId: number; role: number }) => ({
  account_id: r.accountId,
  user_id: r.userId,
  role: enumName(ROLES, r.role),
});

const toAccountInput = (body: z.infer<typeof PlatformAccountUpdate>) => ({
  name: body.name,
  locale: body.locale,
  domain: body.domain,
  supportEmail: body.support_email,
  status: body.status,
  limits: body.limits,
  customAttributes: body.custom_attributes,
  features: body.features,
});

export const platformAccounts = new Hono<AppEnv>()
  .get("/", doc({ summary: "List the accounts this platform app created", response: z.array(PlatformAccount) }), async (c) => c.json((await listOwnedAccounts(platformScope(c))).map(platformAccountView)))
  .post("/", doc({ summary: "Create an account", response: PlatformAccount }), idempotent(), validate("json", PlatformAccountCreate), async (c) => {
    const body = c.req.valid("json");
    const scope = platformScope(c);
    const account = await createAccount(scope, { ...toAccountInput(body), name: body.name });
    return c.json(platformAccountView(account));
  })
  .get("/:id", doc({ summary: "Show an account", response: PlatformAccount }), validate("param", IdParam), async (c) => {
    return c.json(platformAccountView(await ownedAccount(platformScope(c), c.req.valid("param").id)));
  })
  .on(["PATCH", "PUT"], "/:id", doc({ summary: "Update an account", response: PlatformAccount }), validate("param", IdParam), validate("json", PlatformAccountUpdate), async (c) => {
    const scope = platformScope(c);
    const account = await ownedAccount(scope, c.req.valid("param").id);
    return c.json(platformAccountView(await updateAccount(scope, account, toAccountInput(c.req.valid("json")))));
  })
  .delete("/:id", doc({ summary: "Delete an account and everything in it", response: Empty }), validate("param", IdParam), async (c) => {
    const scope = platformScope(c);
    const account = await ownedAccount(scope, c.req.valid("param").id);
    await deleteAccount(scope, account.id);
    return c.json({});
  })
  .get("/:account_id/account_users", doc({ summary: "List an account's users", response: AccountUser.array() }), validate("param", AccountIdParam), async (c) => {
    const scope = platformScope(c);
    const account = await ownedAccount(scope, c.req.valid("param").account_id);
    return c.json((await listAccountUsers(scope, account.id)).map(accountUserView));
  })
  .post("/:account_id/account_users", doc({ summary: "Add a user to an account", response: AccountUser }), idempotent(), validate("param", AccountIdParam), validate("json", AccountUserCreate), async (c) => {
    const scope = platformScope(c);
    const accountId = c.req.valid("param").account_id;
    const { user_id: userId, role } = c.req.valid("json");
    await assertOwnsAccountAndUser(scope, accountId, userId);
    return c.json(accountUserView(await upsertAccountUser(scope, accountId, userId, role)));
  })
  .delete("/:account_id/account_users", doc({ summary: "Remove a user from an account", response: Empty }), validate("param", AccountIdParam), validate("json", AccountUserDelete), async (c) => {
    const scope = platformScope(c);
    const account = await ownedAccount(scope, c.req.valid("param").account_id);
    await removeAccountUser(scope, account.id, c.req.valid("json").user_id);
    return c.json({});
  });
