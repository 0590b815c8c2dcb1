import { and, eq, inArray } from "drizzle-orm";
import { Hono } from "hono";
import type { z } from "zod";
import { schema } from "../../db/client";
import { createAccount, deleteAccount, updateAccount } from "../../domain/identity/accounts";
import { listAccountUsers, removeAccountUser, upsertAccountUser } from "../../domain/identity/account-users";
import { ROLES, enumName } from "../../domain/kernel/enums";
import { assertOwned, grantQuery } from "../../domain/identity/platform-apps";
import type { AppEnv } from "../../http/app-env";
import { validate } from "../../http/validate";
import { PlatformAccountCreate, PlatformAccountUpdate } from "../../schemas/accounts";
import { IdParam } from "../../schemas/common";
import { AccountIdParam, AccountUserCreate, AccountUserDelete } from "../../schemas/platform";
import { platformAccountView } from "../../views/accounts";
import { ownedAccount, platformAppId } from "./owned";

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
  .get("/", async (c) => {
    const db = c.var.db;
    const { accounts, platformAppPermissibles: grants } = schema;
    const owned = db
      .select({ id: grants.permissibleId })
      .from(grants)
      .where(and(eq(grants.platformAppId, platformAppId(c)), eq(grants.permissibleType, "Account")));
    const [rows] = await db.batch([db.select().from(accounts).where(inArray(accounts.id, owned)).orderBy(accounts.id)]);
    return c.json(rows.map(platformAccountView));
  })
  .post("/", validate("json", PlatformAccountCreate), async (c) => {
    const body = c.req.valid("json");
    const account = await createAccount(c.var.db, { ...toAccountInput(body), name: body.name }, { platformAppId: platformAppId(c) });
    return c.json(platformAccountView(account));
  })
  .get("/:id", validate("param", IdParam), async (c) => {
    return c.json(platformAccountView(await ownedAccount(c, c.req.valid("param").id)));
  })
  .on(["PATCH", "PUT"], "/:id", validate("param", IdParam), validate("json", PlatformAccountUpdate), async (c) => {
    const account = await ownedAccount(c, c.req.valid("param").id);
    return c.json(platformAccountView(await updateAccount(c.var.db, account, toAccountInput(c.req.valid("json")))));
  })
  .delete("/:id", validate("param", IdParam), async (c) => {
    const account = await ownedAccount(c, c.req.valid("param").id);
    await deleteAccount(c.var.db, account.id);
    return c.json({});
  })
  .get("/:account_id/account_users", validate("param", AccountIdParam), async (c) => {
    const account = await ownedAccount(c, c.req.valid("param").account_id);
    return c.json((await listAccountUsers(c.var.db, account.id)).map(accountUserView));
  })
  .post("/:account_id/account_users", validate("param", AccountIdParam), validate("json", AccountUserCreate), async (c) => {
    const db = c.var.db;
    const accountId = c.req.valid("param").account_id;
    const { user_id: userId, role } = c.req.valid("json");
    const [accountRows, accountGrant, userRows, userGrant] = await db.batch([
      db.select({ id: schema.accounts.id }).from(schema.accounts).where(eq(schema.accounts.id, accountId)),
      grantQuery(db, platformAppId(c), "Account", accountId),
      db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.id, userId)),
      grantQuery(db, platformAppId(c), "User", userId),
    ]);
    assertOwned(accountRows[0], accountGrant, "Account", accountId);
    assertOwned(userRows[0], userGrant, "User", userId);
    return c.json(accountUserView(await upsertAccountUser(db, accountId, userId, role ?? 0)));
  })
  .delete("/:account_id/account_users", validate("param", AccountIdParam), validate("json", AccountUserDelete), async (c) => {
    const account = await ownedAccount(c, c.req.valid("param").account_id);
    await removeAccountUser(c.var.db, account.id, c.req.valid("json").user_id);
    return c.json({});
  });
