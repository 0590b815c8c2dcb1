/**
 * Assignment policies (Chatwoot's "assignment V2"): how auto-assignment hands out an inbox's
 * conversations. Administrators manage them; an inbox follows at most one (linking another replaces
 * it, as Chatwoot's `create_inbox_assignment_policy!` after destroying the old link does). Names are
 * unique in the account. An inbox without a policy is auto-assigned round robin with no cap when its
 * `enable_auto_assignment` is on (src/domain/assignment/auto-assignment.ts).
 */
import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import { now, schema } from "../../db/client";
import { batchNamed } from "../kernel/batch";
import { invalidField, notFound } from "../kernel/errors";
import type { AccountScope } from "../kernel/scope";
import { type InboxRecord, loadInboxRecords } from "../inboxes/inboxes";
import type { AssignmentPolicyRecord, AssignmentPolicyRow, InboxAssignmentPolicyRow } from "./rows";

const { assignmentPolicies, inboxAssignmentPolicies, inboxes } = schema;

export type AssignmentPolicyInput = {
  name?: string;
  description?: string | null;
  assignmentOrder?: number;
  conversationPriority?: number;
  fairDistributionLimit?: number;
  fairDistributionWindow?: number;
  enabled?: boolean;
};

const policyQuery = (scope: AccountScope, id: number) =>
  scope.db.select().from(assignmentPolicies).where(and(eq(assignmentPolicies.accountId, scope.accountId), eq(assignmentPolicies.id, id)));

const sameNameQuery = (scope: AccountScope, name: string, exceptId = 0) =>
  scope.db
    .select({ id: assignmentPolicies.id })
    .from(assignmentPolicies)
    .where(and(eq(assignmentPolicies.accountId, scope.accountId), eq(assignmentPolicies.name, name), ne(assignmentPolicies.id, exceptId)));

/** The inboxes (id, name) that follow each of `policyIds`. */
const linkedInboxesQuery = (scope: AccountScope, policyIds: number[]) =>
  scope.db
    .select({ policyId: inboxAssignmentPolicies.assignmentPolicyId, id: inboxes.id, name: inboxes.name })
    .from(inboxAssignmentPolicies)
    .innerJoin(inboxes, and(eq(inboxes.id, inboxAssignmentPolicies.inboxId), eq(inboxes.accountId, inboxAssignmentPolicies.accountId)))
    .where(and(eq(inboxAssignmentPolicies.accountId, scope.accountId), inArray(inboxAssignmentPolicies.assignmentPolicyId, policyIds.length ? policyIds : [0])))
    .orderBy(asc(inboxes.id));

async function withInboxes(scope: AccountScope, policies: AssignmentPolicyRow[]): Promise<AssignmentPolicyRecord[]> {
  if (policies.length === 0) return [];
  const { linked } = await batchNamed(scope.db, { linked: linkedInboxesQuery(scope, policies.map((p) => p.id)) });
  return policies.map((policy) => ({ policy, inboxes: linked.filter((l) => l.policyId === policy.id).map(({ id, name }) => ({ id, name })) }));
}

export async function listAssignmentPolicies(scope: AccountScope): Promise<AssignmentPolicyRecord[]> {
  const { rows } = await batchNamed(scope.db, {
    rows: scope.db.select().from(assignmentPolicies).where(eq(assignmentPolicies.accountId, scope.accountId)).orderBy(asc(assignmentPolicies.id)),
  });
  return withInboxes(scope, rows);
}

async function getPolicy(scope: AccountScope, id: number): Promise<AssignmentPolicyRow> {
  const { rows } = await batchNamed(scope.db, { rows: policyQuery(scope, id) });
  if (!rows[0]) throw notFound("AssignmentPolicy", id);
  return rows[0];
}

export async function showAssignmentPolicy(scope: AccountScope, id: number): Promise<AssignmentPolicyRecord> {
  return (await withInboxes(scope, [await getPolicy(scope, id)]))[0];
}

export async function createAssignmentPolicy(scope: AccountScope, input: AssignmentPolicyInput & { name: string }): Promise<AssignmentPolicyRecord> {
  const { same } = await batchNamed(scope.db, { same: sameNameQuery(scope, input.name) });
  if (same.length > 0) throw invalidField("name", "has already been taken", "taken");
  const at = now();
  const { rows } = await batchNamed(scope.db, {
    rows: scope.db
      .insert(assignmentPolicies)
      .values({ accountId: scope.accountId, ...input, description: input.description ?? null, createdAt: at, updatedAt: at })
      .returning(),
  });
  return { policy: rows[0], inboxes: [] };
}

export async function updateAssignmentPolicy(scope: AccountScope, id: number, input: AssignmentPolicyInput): Promise<AssignmentPolicyRecord> {
  const { rows: found, same } = await batchNamed(scope.db, { rows: policyQuery(scope, id), same: sameNameQuery(scope, input.name ?? "", id) });
  if (!found[0]) throw notFound("AssignmentPolicy", id);
  if (input.name !== undefined && same.length > 0) throw invalidField("name", "has already been taken", "taken");
  const { rows } = await batchNamed(scope.db, {
    rows: scope.db
      .update(assignmentPolicies)
      .set({ ...input, updatedAt: now() })
      .where(and(eq(assignmentPolicies.accountId, scope.accountId), eq(assignmentPolicies.id, id)))
      .returning(),
  });
  return (await withInboxes(scope, rows))[0];
}

/** Deletes the policy and its links; its inboxes go back to round robin with no cap. */
export async function deleteAssignmentPolicy(scope: AccountScope, id: number): Promise<void> {
  await getPolicy(scope, id);
  const { db, accountId } = scope;
  await batchNamed(db, {
    links: db.delete(inboxAssignmentPolicies).where(and(eq(inboxAssignmentPolicies.accountId, accountId), eq(inboxAssignmentPolicies.assignmentPolicyId, id))),
    policy: db.delete(assignmentPolicies).where(and(eq(assignmentPolicies.accountId, accountId), eq(assignmentPolicies.id, id))),
  });
}

// ---------------------------------------------------------------- inboxes and their policy

const inboxQuery = (scope: AccountScope, inboxId: number) =>
  scope.db.select().from(inboxes).where(and(eq(inboxes.accountId, scope.accountId), eq(inboxes.id, inboxId)));

/** The inboxes that follow the policy, whole (Chatwoot answers the inbox objects). */
export async function listPolicyInboxes(scope: AccountScope, policyId: number): Promise<InboxRecord[]> {
  await getPolicy(scope, policyId);
  const followers = sql`${inboxes.id} IN (SELECT ${inboxAssignmentPolicies.inboxId} FROM ${inboxAssignmentPolicies} WHERE ${inboxAssignmentPolicies.accountId} = ${scope.accountId} AND ${inboxAssignmentPolicies.assignmentPolicyId} = ${policyId})`;
  return loadInboxRecords(scope.db, scope.accountId, followers);
}

/** The inbox follows the policy from now on, instead of any it followed. */
export async function linkInboxToPolicy(scope: AccountScope, policyId: number, inboxId: number): Promise<{ link: InboxAssignmentPolicyRow; policy: AssignmentPolicyRow }> {
  const { policies, inboxRows } = await batchNamed(scope.db, { policies: policyQuery(scope, policyId), inboxRows: inboxQuery(scope, inboxId) });
  if (!policies[0]) throw notFound("AssignmentPolicy", policyId);
  if (!inboxRows[0]) throw notFound("Inbox", inboxId, "inbox_id");
  const at = now();
  const { rows } = await batchNamed(scope.db, {
    rows: scope.db
      .insert(inboxAssignmentPolicies)
      .values({ accountId: scope.accountId, inboxId, assignmentPolicyId: policyId, createdAt: at, updatedAt: at })
      .onConflictDoUpdate({ target: inboxAssignmentPolicies.inboxId, set: { assignmentPolicyId: policyId, createdAt: at, updatedAt: at } })
      .returning(),
  });
  return { link: rows[0], policy: policies[0] };
}

/** The inbox follows no policy any more; answers 404 when the inbox (or, given, the policy) is not the account's. */
export async function unlinkInbox(scope: AccountScope, inboxId: number, policyId?: number): Promise<void> {
  const { policies, inboxRows } = await batchNamed(scope.db, { policies: policyQuery(scope, policyId ?? 0), inboxRows: inboxQuery(scope, inboxId) });
  if (policyId !== undefined && !policies[0]) throw notFound("AssignmentPolicy", policyId);
  if (!inboxRows[0]) throw notFound("Inbox", inboxId, policyId === undefined ? "inbox_id" : "id");
  await batchNamed(scope.db, {
    deleted: scope.db
      .delete(inboxAssignmentPolicies)
      .where(
        and(
          eq(inboxAssignmentPolicies.accountId, scope.accountId),
          eq(inboxAssignmentPolicies.inboxId, inboxId),
          policyId === undefined ? undefined : eq(inboxAssignmentPolicies.assignmentPolicyId, policyId),
        ),
      ),
  });
}

/** The policy the inbox follows (404 when it follows none, as Chatwoot answers). */
export async function inboxPolicy(scope: AccountScope, inboxId: number): Promise<AssignmentPolicyRecord> {
  const { inboxRows, policies } = await batchNamed(scope.db, {
    inboxRows: inboxQuery(scope, inboxId),
    policies: scope.db
      .select()
      .from(assignmentPolicies)
      .where(
        and(
          eq(assignmentPolicies.accountId, scope.accountId),
          sql`${assignmentPolicies.id} = (SELECT ${inboxAssignmentPolicies.assignmentPolicyId} FROM ${inboxAssignmentPolicies} WHERE ${inboxAssignmentPolicies.inboxId} = ${inboxId} AND ${inboxAssignmentPolicies.accountId} = ${scope.accountId})`,
        ),
      ),
  });
  if (!inboxRows[0]) throw notFound("Inbox", inboxId, "inbox_id");
  if (!policies[0]) throw notFound("AssignmentPolicy", `of inbox ${inboxId}`, "assignment_policy");
  return (await withInboxes(scope, policies))[0];
}
