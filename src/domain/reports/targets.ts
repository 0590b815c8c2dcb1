/**
 * What a report is about: the account, or one agent, inbox, label or team of it (`type` and `id`). The
 * id is checked against the account in the report's own read batch: another account's id is a 404.
 */
import { and, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { notFound } from "../kernel/errors";
import { type AccountScope } from "../kernel/scope";
import { type Dimension } from "./facts";

const { accountUsers, inboxes, labels, teams } = schema;

export type ReportTarget = { type: Dimension; id: number };

const RESOURCE: Record<Dimension, string> = { account: "Account", agent: "Agent", inbox: "Inbox", label: "Label", team: "Team" };

/** One row when the target exists in the account (the account itself always does). */
export function targetQuery(scope: AccountScope, target: ReportTarget) {
  const { db, accountId } = scope;
  switch (target.type) {
    case "agent":
      return db.select({ id: accountUsers.userId }).from(accountUsers).where(and(eq(accountUsers.accountId, accountId), eq(accountUsers.userId, target.id)));
    case "inbox":
      return db.select({ id: inboxes.id }).from(inboxes).where(and(eq(inboxes.accountId, accountId), eq(inboxes.id, target.id)));
    case "label":
      return db.select({ id: labels.id }).from(labels).where(and(eq(labels.accountId, accountId), eq(labels.id, target.id)));
    case "team":
      return db.select({ id: teams.id }).from(teams).where(and(eq(teams.accountId, accountId), eq(teams.id, target.id)));
    case "account":
      return db.select({ id: schema.accounts.id }).from(schema.accounts).where(eq(schema.accounts.id, accountId));
  }
}

/** Throws the 404 of a target that `targetQuery` did not find. */
export function ensureTarget(target: ReportTarget, rows: unknown[]) {
  if (rows.length === 0) throw notFound(RESOURCE[target.type], target.id);
}

/** The rollups' dimension id of a target (0 for the account). */
export const dimensionIdOf = (target: ReportTarget) => (target.type === "account" ? 0 : target.id);
