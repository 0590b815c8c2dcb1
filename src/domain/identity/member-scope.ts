/**
 * The scope of a user acting in an account, rebuilt from ids for work that runs after their request (a
 * queued slice of their bulk action): their membership and role are read again when it runs, so a user
 * removed from the account, or an account suspended since, acts no more.
 */
import { and, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { batchNamed } from "../kernel/batch";
import { ACCOUNT_STATUS, ROLES, enumName } from "../kernel/enums";
import { type AccountScope, type TransportScope, transportOf } from "../kernel/scope";

const { users, accounts, accountUsers } = schema;

export async function memberScope(transport: TransportScope, accountId: number, userId: number): Promise<AccountScope | null> {
  const { db } = transport;
  const read = await batchNamed(db, {
    user: db.select().from(users).where(eq(users.id, userId)),
    account: db.select({ status: accounts.status }).from(accounts).where(eq(accounts.id, accountId)),
    membership: db.select({ role: accountUsers.role }).from(accountUsers).where(and(eq(accountUsers.accountId, accountId), eq(accountUsers.userId, userId))),
  });
  const [user, account, membership] = [read.user[0], read.account[0], read.membership[0]];
  if (!user || !membership || account?.status !== ACCOUNT_STATUS.active) return null;
  return { ...transportOf(transport), accountId, actor: { type: "user", user }, role: enumName(ROLES, membership.role) };
}
