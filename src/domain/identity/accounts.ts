import { and, eq, inArray } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { type Statement, lastInsertedId, now, schema } from "../../db/client";
import { batch, write } from "../kernel/batch";
import { ACCOUNT_STATUS } from "../kernel/enums";
import { grantStatement } from "./platform-apps";
import { type AccountRow } from "./rows";
import type { PlatformScope, TransportScope } from "../kernel/scope";

const { accounts, accessTokens, agentBots, platformAppPermissibles } = schema;

export type AccountInput = {
  name?: string;
  locale?: string;
  domain?: string | null;
  supportEmail?: string | null;
  status?: number;
  limits?: Record<string, unknown>;
  customAttributes?: Record<string, unknown>;
  settings?: Record<string, unknown>;
  /** flag name -> on/off, merged into the account's flags */
  features?: Record<string, boolean>;
};

/** Feature flags a new account starts with. */
const DEFAULT_FEATURES: Record<string, boolean> = {
  agent_bots: true,
  automations: true,
  custom_attributes: true,
  help_center: true,
  integrations: true,
  reports: true,
};

/** Creates an account that the platform app behind `scope` owns. */
export async function createAccount(scope: PlatformScope, input: AccountInput & { name: string }): Promise<AccountRow> {
  const { db, actor: createdBy } = scope;
  const at = now();
  const [rows] = await batch(db, [
    db
      .insert(accounts)
      .values({
        name: input.name,
        locale: input.locale ?? "en",
        domain: input.domain ?? null,
        supportEmail: input.supportEmail ?? null,
        status: input.status ?? ACCOUNT_STATUS.active,
        limits: input.limits ?? {},
        customAttributes: input.customAttributes ?? {},
        settings: input.settings ?? {},
        features: { ...DEFAULT_FEATURES, ...input.features },
        createdAt: at,
        updatedAt: at,
      })
      .returning(),
    grantStatement(db, createdBy.platformAppId, "Account", lastInsertedId(accounts)),
  ]);
  return rows[0];
}

/** Applies the given fields; `features` are merged into the current flags, the rest replace. */
export async function updateAccount(scope: TransportScope, account: AccountRow, input: AccountInput): Promise<AccountRow> {
  const { db } = scope;
  const { features, ...fields } = input;
  const [rows] = await batch(db, [
    db
      .update(accounts)
      .set({
        ...fields,
        ...(features && { features: { ...account.features, ...features } }),
        updatedAt: now(),
      })
      .where(eq(accounts.id, account.id))
      .returning(),
  ]);
  return rows[0];
}

type AccountScopedTable = SQLiteTable & { accountId: SQLiteColumn };

/** Every table that holds rows of one account, found by its `account_id` column. */
const ACCOUNT_SCOPED_TABLES = (Object.values(schema) as unknown[]).filter(
  (table): table is AccountScopedTable =>
    typeof table === "object" && table !== null && "accountId" in table && table !== (accounts as unknown),
);

/**
 * Deletes the account and everything in it, in one batch: the account is either wholly there or wholly
 * gone. Users stay, since they may belong to other accounts; their membership goes.
 */
export async function deleteAccount(scope: TransportScope, accountId: number) {
  const { db } = scope;
  const accountBotIds = db.select({ id: agentBots.id }).from(agentBots).where(eq(agentBots.accountId, accountId));
  const statements: Statement[] = [
    db.delete(accessTokens).where(and(eq(accessTokens.ownerType, "AgentBot"), inArray(accessTokens.ownerId, accountBotIds))),
    db
      .delete(platformAppPermissibles)
      .where(
        and(eq(platformAppPermissibles.permissibleType, "AgentBot"), inArray(platformAppPermissibles.permissibleId, accountBotIds)),
      ),
    db
      .delete(platformAppPermissibles)
      .where(and(eq(platformAppPermissibles.permissibleType, "Account"), eq(platformAppPermissibles.permissibleId, accountId))),
    ...ACCOUNT_SCOPED_TABLES.map((table) => db.delete(table).where(eq(table.accountId, accountId))),
    db.delete(accounts).where(eq(accounts.id, accountId)),
  ];
  await write(db, statements);
}
